//! The organization's Settings tab (issue 11: organization settings, agent instructions, invite links).

use super::pane::NotYet;
use crate::api::models::Organization;

pub type SettingsTab = NotYet;

pub fn new(_organization: &Organization) -> SettingsTab {
    NotYet {
        what: "Organization settings",
    }
}

//! The organization's Integrations tab (issue 12: the integrations catalogue).

use super::pane::NotYet;
use crate::api::models::Organization;

pub type IntegrationsTab = NotYet;

pub fn new(_organization: &Organization) -> IntegrationsTab {
    NotYet {
        what: "Integrations",
    }
}

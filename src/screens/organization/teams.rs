//! The organization's Teams tab (issue 11: teams and their members).

use super::pane::NotYet;
use crate::api::models::Organization;

pub type TeamsTab = NotYet;

pub fn new(_organization: &Organization) -> TeamsTab {
    NotYet { what: "Teams" }
}

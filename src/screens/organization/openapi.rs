//! The organization's OpenAPI tab (issue 12: specs and their versions).

use super::pane::NotYet;
use crate::api::models::Organization;

pub type OpenApiTab = NotYet;

pub fn new(_organization: &Organization) -> OpenApiTab {
    NotYet {
        what: "OpenAPI specs",
    }
}

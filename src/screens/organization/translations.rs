//! The organization's Translations tab (issue 12).

use super::pane::NotYet;
use crate::api::models::Organization;

pub type TranslationsTab = NotYet;

pub fn new(_organization: &Organization) -> TranslationsTab {
    NotYet {
        what: "Translations",
    }
}

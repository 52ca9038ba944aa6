//! Drawing of the organization's Translations tab (the tab's state and keys are in
//! `screens/organization/translations.rs`), and the list-and-details layout it shares with the
//! OpenAPI tab.

pub mod view;

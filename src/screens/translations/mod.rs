//! The organization's Translations tab: its state and keys in [`tab`], its drawing (and the
//! list-and-details layout it shares with the OpenAPI tab) in [`view`].

pub mod tab;
pub mod view;

pub use tab::TranslationsTab;

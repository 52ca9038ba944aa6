//! The organization's Translations tab: its state and keys in [`tab`], its popups (creating a
//! translation, the instructions composer) in [`modal`], its drawing (and the list-and-details
//! layout it shares with the OpenAPI tab) in [`view`].

pub mod modal;
pub mod tab;
pub mod view;

pub use modal::{Instructions, Modal, NewDraft};
pub use tab::TranslationsTab;

//! Translations' API calls and results, joined to the core through `ApiCall::Translations` and
//! `ApiResponse::Translations`.

use std::collections::HashMap;

use serde_json::Value;

use crate::api::models::{Space, Translation};
use crate::api::{ApiError, NewTranslation};

#[derive(Debug, Clone, PartialEq)]
pub enum TranslationsCall {
    /// Every translation of the organization and the titles of its spaces.
    List {
        organization: String,
    },
    Create {
        organization: String,
        translation: NewTranslation,
    },
    SetInstructions {
        organization: String,
        id: String,
        instructions: Value,
    },
    Run {
        organization: String,
        id: String,
    },
    Delete {
        organization: String,
        id: String,
    },
    /// A space to open (the source or the result of a translation).
    Space {
        space: String,
    },
    /// The translations being run, each read alone, while their run goes on.
    Running {
        organization: String,
        ids: Vec<String>,
    },
}

impl TranslationsCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            TranslationsCall::List { .. }
            | TranslationsCall::Space { .. }
            | TranslationsCall::Running { .. } => false,
            TranslationsCall::Create { .. }
            | TranslationsCall::SetInstructions { .. }
            | TranslationsCall::Run { .. }
            | TranslationsCall::Delete { .. } => true,
        }
    }
}

/// The list as the tab shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TranslationList {
    pub translations: Vec<Translation>,
    /// Space id → title, for the organization's spaces (empty when they could not be read:
    /// the tab then shows ids).
    pub space_titles: HashMap<String, String>,
    /// The organization's spaces as listed, to pick a source from.
    pub spaces: Vec<Space>,
    /// Translations the client could not read.
    pub unreadable: usize,
    /// Set when the translations did not end within their cap: the pages read.
    pub stopped_after_pages: Option<usize>,
}

// Moved once from a task to `update`, like `Msg`: boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum TranslationsResponse {
    List(Result<TranslationList, ApiError>),
    /// A translation created or its instructions saved.
    Saved(Result<Translation, ApiError>),
    /// A run started or a translation deleted.
    Done(Result<(), ApiError>),
    Space(Result<Space, ApiError>),
    /// The running translations as read alone; one that could not be read is left out.
    Running(Vec<Translation>),
}

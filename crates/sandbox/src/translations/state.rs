//! The translations the sandbox keeps.

use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Translation {
    pub id: String,
    pub organization: String,
    pub source_space: String,
    pub source_language: String,
    pub language: String,
    pub instructions: Value,
    pub result_space: Option<String>,
    pub result_revision: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Set while a run is under way: when it started.
    pub running_since: Option<String>,
    pub stats: Stats,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub runs: u64,
    pub total_words: u64,
    pub total_pages: u64,
    /// Milliseconds.
    pub total_duration: u64,
    pub latest_run_duration: u64,
    pub latest_pages: u64,
    pub latest_words: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Translations {
    pub items: Vec<Translation>,
    /// For new ids.
    pub created: u64,
}

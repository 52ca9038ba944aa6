//! Translations of a space: a source space and language, a target language, the
//! space the result lands in, and statistics of the runs.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{Urls, lenient_count, null_as_default, string_enum};

string_enum! {
    /// `TranslationStatus`.
    pub enum TranslationStatus {
        Pending => "pending",
        Running => "running",
        Completed => "completed",
    }
}

impl Default for TranslationStatus {
    fn default() -> Self {
        TranslationStatus::Other(String::new())
    }
}

/// A translation (`object`='translation').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Translation {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub status: TranslationStatus,
    #[serde(default, deserialize_with = "null_as_default")]
    pub source: TranslationSource,
    /// The target language (`TranslationLanguage`), kept as its wire code.
    #[serde(default, deserialize_with = "null_as_default")]
    pub language: String,
    /// A Document; `None` when the server sent none.
    #[serde(default)]
    pub instructions: Option<Value>,
    #[serde(default)]
    pub result: Option<TranslationResult>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub stats: TranslationStats,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: TranslationPermissions,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TranslationSource {
    pub space: Option<String>,
    pub language: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TranslationResult {
    pub space: Option<String>,
    pub revision: Option<String>,
    pub language: Option<String>,
}

/// Run statistics. Durations are integers whose unit the service does not name; quire reads
/// them as milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranslationStats {
    #[serde(default, deserialize_with = "lenient_count")]
    pub runs: u64,
    #[serde(default, deserialize_with = "lenient_count")]
    pub total_words: u64,
    #[serde(default, deserialize_with = "lenient_count")]
    pub total_pages: u64,
    #[serde(default, deserialize_with = "lenient_count")]
    pub total_duration: u64,
    #[serde(default, deserialize_with = "lenient_count")]
    pub latest_run_duration: u64,
    #[serde(default, deserialize_with = "lenient_count")]
    pub latest_pages: u64,
    #[serde(default, deserialize_with = "lenient_count")]
    pub latest_words: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TranslationPermissions {
    pub view: bool,
    pub edit: bool,
}

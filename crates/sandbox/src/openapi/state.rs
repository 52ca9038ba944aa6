//! The OpenAPI specs the sandbox keeps, with their processed versions.

use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub id: String,
    pub organization: String,
    pub slug: String,
    pub source_url: String,
    pub public: bool,
    pub created_at: String,
    pub updated_at: String,
    /// When the source last changed: processing runs from there.
    pub submitted_at: Option<String>,
    pub last_processed_at: Option<String>,
    pub error_code: Option<&'static str>,
    /// `(message, code)`.
    pub errors: Vec<(String, String)>,
    /// Oldest first; the last is the latest.
    pub versions: Vec<Version>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Version {
    pub id: String,
    pub created_at: String,
    pub filesystem: Value,
}

#[derive(Clone, Debug, Default)]
pub struct Specs {
    pub items: Vec<Spec>,
    /// For new ids.
    pub created: u64,
}

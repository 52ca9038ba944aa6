//! The organization's agent instructions (contract `OrganizationAgentInstructions`).

use serde::{Deserialize, Serialize};

/// The instructions documentation agents follow in this organization, a rich-text Document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentInstructions {
    /// A Document, kept as JSON for `ui::document` to turn into text.
    #[serde(default)]
    pub instructions: serde_json::Value,
    #[serde(default)]
    pub updated_at: Option<String>,
    /// Who changed them last (a user id).
    #[serde(default)]
    pub updated_by: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_instructions_with_or_without_their_metadata() {
        let json = r#"{"object":"agent-instructions","instructions":{"object":"document",
            "data":{},"nodes":[]},"updatedAt":"2024-01-01T00:00:00Z","updatedBy":"u1",
            "urls":{"location":"x"}}"#;
        let full: AgentInstructions = serde_json::from_str(json).unwrap();
        assert_eq!(full.updated_by.as_deref(), Some("u1"));
        assert_eq!(full.instructions["object"], "document");
        let bare: AgentInstructions = serde_json::from_str("{}").unwrap();
        assert!(bare.instructions.is_null());
    }
}

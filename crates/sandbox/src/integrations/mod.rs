//! Integrations in the sandbox: the catalogue with its filters, one
//! integration by name, and publishing. A published integration keeps the manifest's public
//! fields; its script and secrets are stored apart and never rendered.

mod demo;
pub mod routes;

pub use demo::populate;

use serde_json::{Map, Value};

/// One integration. `fields` holds the published, public fields as sent (title, description,
/// summary, target, visibility, scopes, categories, blocks, contentSources, configurations,
/// externalLinks, previewImages, contentSecurityPolicy).
#[derive(Clone, Debug, Default)]
pub struct StoredIntegration {
    pub name: String,
    /// The owning organization's id.
    pub owner: String,
    pub version: u32,
    pub verified: bool,
    pub fields: Map<String, Value>,
    /// Names of the secrets it was published with; the values are not kept.
    pub secret_names: Vec<String>,
}

impl StoredIntegration {
    pub fn text(&self, field: &str) -> &str {
        self.fields.get(field).and_then(Value::as_str).unwrap_or("")
    }

    pub fn strings(&self, field: &str) -> Vec<&str> {
        self.fields
            .get(field)
            .and_then(Value::as_array)
            .map(|items| items.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    pub fn has_items(&self, field: &str) -> bool {
        self.fields
            .get(field)
            .and_then(Value::as_array)
            .is_some_and(|items| !items.is_empty())
    }

    /// `all` when unset: installable everywhere.
    pub fn target(&self) -> &str {
        match self.text("target") {
            "" => "all",
            target => target,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Integrations {
    pub items: Vec<StoredIntegration>,
}

impl Integrations {
    pub fn get(&self, name: &str) -> Option<&StoredIntegration> {
        self.items
            .iter()
            .find(|integration| integration.name == name)
    }
}

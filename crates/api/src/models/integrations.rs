//! Integrations: third-party extensions in the catalogue.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::common::{null_as_default, string_enum};

string_enum! {
    /// Where an integration may be installed (`IntegrationTarget`).
    pub enum IntegrationTarget {
        All => "all",
        Site => "site",
        Space => "space",
        Organization => "organization",
    }
}

/// An integration (`object`='integration').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Integration {
    pub name: String,
    #[serde(default)]
    pub version: Option<f64>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    /// Long markdown.
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub target: Option<IntegrationTarget>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub verified: bool,
    #[serde(default)]
    pub visibility: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub scopes: Vec<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub categories: Vec<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub blocks: Vec<IntegrationBlock>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub content_sources: Vec<IntegrationContentSource>,
    /// Configuration schemas by level: `account`, `space`, `site`.
    #[serde(default, deserialize_with = "null_as_default")]
    pub configurations: BTreeMap<String, ConfigurationSchema>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub external_links: Vec<ExternalLink>,
    #[serde(default)]
    pub owner: Option<IntegrationOwner>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: IntegrationUrls,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: IntegrationPermissions,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationBlock {
    #[serde(default, deserialize_with = "null_as_default")]
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub icon: Option<String>,
    /// Address patterns whose links the block unfurls.
    #[serde(default, deserialize_with = "null_as_default")]
    pub url_unfurl: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntegrationContentSource {
    #[serde(default, deserialize_with = "null_as_default")]
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub icon: Option<String>,
}

/// One level's configuration: its properties by name and which are required.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfigurationSchema {
    #[serde(default, deserialize_with = "null_as_default")]
    pub properties: BTreeMap<String, ConfigurationProperty>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub required: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfigurationProperty {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub default: Option<serde_json::Value>,
    #[serde(rename = "enum", default, deserialize_with = "null_as_default")]
    pub choices: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalLink {
    #[serde(default, deserialize_with = "null_as_default")]
    pub url: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub label: String,
}

/// The owning organization; only what the screens show is kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntegrationOwner {
    #[serde(default, deserialize_with = "null_as_default")]
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationUrls {
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub icon: Option<String>,
    #[serde(default)]
    pub app: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntegrationPermissions {
    #[serde(default, deserialize_with = "null_as_default")]
    pub admin: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_full_integration_and_a_sparse_one() {
        let json = r#"{"object":"integration","name":"slack","version":3,"title":"Slack",
            "target":"space","verified":true,"scopes":["space:content:read"],
            "categories":["collaboration"],"blocks":[{"id":"b","title":"B","urlUnfurl":["x"]}],
            "configurations":{"space":{"properties":{"channel":{"type":"string",
            "enum":["a","b"]}},"required":["channel"]}},
            "externalLinks":[{"url":"https://slack.com","label":"Site"}],
            "owner":{"id":"org","title":"Org","createdAt":"x"},"permissions":{"admin":false}}"#;
        let integration: Integration = serde_json::from_str(json).unwrap();
        assert_eq!(integration.target, Some(IntegrationTarget::Space));
        assert_eq!(integration.blocks[0].url_unfurl, vec!["x".to_string()]);
        assert_eq!(
            integration.configurations["space"].properties["channel"].choices,
            vec!["a".to_string(), "b".to_string()]
        );
        let sparse: Integration =
            serde_json::from_str(r#"{"name":"n","title":null,"target":"moon","blocks":null}"#)
                .unwrap();
        assert_eq!(sparse.target, Some(IntegrationTarget::Other("moon".into())));
        assert!(sparse.blocks.is_empty());
    }
}

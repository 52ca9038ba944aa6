//! Collections: nestable groups of spaces (`GET /orgs/{id}/collections`, `GET /collections/{id}`).

use serde::{Deserialize, Serialize};

use super::common::{DefaultLevel, Urls, null_as_default};

/// A collection (`object`='collection').
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Collection {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    /// Owning organization id.
    #[serde(default)]
    pub organization: Option<String>,
    /// Parent collection id; `None` at the top of the tree.
    #[serde(default)]
    pub parent: Option<String>,
    /// `None` both when absent and when `null` (guests).
    #[serde(default)]
    pub default_level: Option<DefaultLevel>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: CollectionPermissions,
}

/// What the caller may do on a collection; absent keys mean "no".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CollectionPermissions {
    pub view: bool,
    pub admin: bool,
    pub view_invite_links: bool,
    pub create: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_nested_collection() {
        let json = r#"{"object":"collection","id":"c2","title":"Guides","description":"How-tos",
            "organization":"org_1","parent":"c1","defaultLevel":"inherit",
            "urls":{"location":"https://api.test/v1/collections/c2","app":"https://app.test/c2"},
            "permissions":{"view":true,"admin":true,"viewInviteLinks":false,"create":true}}"#;
        let collection: Collection = serde_json::from_str(json).unwrap();
        assert_eq!(collection.parent.as_deref(), Some("c1"));
        assert_eq!(collection.default_level, Some(DefaultLevel::Inherit));
        assert!(collection.permissions.create);
    }

    #[test]
    fn decodes_a_top_level_collection_with_null_level() {
        let json = r#"{"id":"c1","title":"Top","organization":"org_1","defaultLevel":null}"#;
        let collection: Collection = serde_json::from_str(json).unwrap();
        assert_eq!(collection.parent, None);
        assert_eq!(collection.default_level, None);
        assert_eq!(collection.permissions, CollectionPermissions::default());
    }
}

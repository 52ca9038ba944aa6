//! Spaces: containers of content (`GET /spaces/{id}`, space lists).

use serde::{Deserialize, Serialize};

use super::common::{DefaultLevel, Urls, lenient_count, null_as_default, string_enum};

string_enum! {
    /// `ContentVisibility`: who can read a space.
    pub enum ContentVisibility {
        Public => "public",
        Unlisted => "unlisted",
        ShareLink => "share-link",
        VisitorAuth => "visitor-auth",
        InCollection => "in-collection",
        Private => "private",
    }
}

string_enum! {
    /// `SpaceEditMode`.
    pub enum SpaceEditMode {
        Live => "live",
        Locked => "locked",
    }
}

/// A space (`object`='space').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Space {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub emoji: Option<String>,
    #[serde(default)]
    pub visibility: Option<ContentVisibility>,
    #[serde(default)]
    pub edit_mode: Option<SpaceEditMode>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    /// Set when the space is deleted (restorable for 7 days).
    #[serde(default)]
    pub deleted_at: Option<String>,
    /// Owning organization id.
    #[serde(default)]
    pub organization: Option<String>,
    /// Parent collection id; `None` at the organization's top level.
    #[serde(default)]
    pub parent: Option<String>,
    #[serde(default)]
    pub language: Option<String>,
    /// Id of the active revision.
    #[serde(default)]
    pub revision: Option<String>,
    #[serde(default)]
    pub default_level: Option<DefaultLevel>,
    /// Count of open comments.
    #[serde(default, deserialize_with = "lenient_count")]
    pub comments: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub change_requests: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub change_requests_open: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub change_requests_draft: Option<u64>,
    #[serde(default)]
    pub git_sync: Option<GitSync>,
    /// Kept as raw JSON: its variants differ between the seed and the service, and no screen
    /// edits it yet.
    #[serde(default)]
    pub merge_rules: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: SpacePermissions,
}

/// Git synchronization of a space.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GitSync {
    pub repo_name: Option<String>,
    pub installation_provider: Option<String>,
    pub installation_status: Option<String>,
    pub url: Option<String>,
    pub updated_at: Option<String>,
}

/// What the caller may do on a space; absent keys mean "no".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SpacePermissions {
    pub view: bool,
    pub access: bool,
    pub admin: bool,
    pub view_invite_links: bool,
    pub edit: bool,
    pub trigger_git_sync: bool,
    pub comment: bool,
    pub merge: bool,
    pub review: bool,
    pub install_integration: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_full_space() {
        let json = r#"{"object":"space","id":"s1","title":"Handbook","emoji":"1f4d8",
            "visibility":"in-collection","createdAt":"2024-01-01T00:00:00Z",
            "updatedAt":"2024-02-01T00:00:00Z","editMode":"locked",
            "mergeRules":{"type":"inherit"},"organization":"org_1","parent":"c1",
            "language":"en","revision":"r9","defaultLevel":"read","comments":2,
            "changeRequests":5,"changeRequestsOpen":1,"changeRequestsDraft":0,
            "gitSync":{"repoName":"acme/docs","installationProvider":"github","installationId":"i"},
            "urls":{"location":"l","app":"a","published":"p","public":"u","icon":"i"},
            "permissions":{"view":true,"edit":true,"comment":true,"merge":false},
            "internal_poweredByV2":true}"#;
        let space: Space = serde_json::from_str(json).unwrap();
        assert_eq!(space.visibility, Some(ContentVisibility::InCollection));
        assert_eq!(space.edit_mode, Some(SpaceEditMode::Locked));
        assert_eq!(space.change_requests_open, Some(1));
        assert_eq!(space.comments, Some(2));
        assert_eq!(
            space.git_sync.and_then(|git| git.repo_name).as_deref(),
            Some("acme/docs")
        );
        assert!(space.permissions.edit && !space.permissions.merge);
        assert_eq!(space.urls.published.as_deref(), Some("p"));
    }

    #[test]
    fn keeps_unknown_visibility_and_tolerates_missing_fields() {
        let json = r#"{"id":"s2","visibility":"members-only","emoji":null}"#;
        let space: Space = serde_json::from_str(json).unwrap();
        assert_eq!(
            space.visibility,
            Some(ContentVisibility::Other("members-only".into()))
        );
        assert_eq!(
            space.visibility.map(|v| v.to_string()).as_deref(),
            Some("members-only")
        );
        assert_eq!(space.emoji, None);
        assert_eq!(space.edit_mode, None);
        assert_eq!(space.permissions, SpacePermissions::default());
    }
}

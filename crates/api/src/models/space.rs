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
    /// Kept as raw JSON (its variants differ between the seed and the service); read it with
    /// [`Space::merge_rules`].
    #[serde(default)]
    pub merge_rules: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: SpacePermissions,
}

impl Space {
    /// Who must approve its change requests.
    pub fn merge_rules(&self) -> MergeRules {
        self.merge_rules
            .as_ref()
            .map_or(MergeRules::Inherit, MergeRules::from_value)
    }

    pub fn is_locked(&self) -> bool {
        self.edit_mode == Some(SpaceEditMode::Locked)
    }
}

/// `mergeRules` of a space: the organization's rules, or reviewers who must approve.
#[derive(Debug, Clone, PartialEq)]
pub enum MergeRules {
    /// `{type:'inherit'}`.
    Inherit,
    /// `{type:'rules', rules:[{rule:'require_specific_reviewers', users:[…]}]}`, the users of
    /// every such rule together.
    SpecificReviewers(Vec<String>),
    /// Anything else (the service's `{type:'none'}`, rules quire does not know), kept verbatim.
    Other(serde_json::Value),
}

impl MergeRules {
    pub fn from_value(value: &serde_json::Value) -> MergeRules {
        let rules = value.get("rules").and_then(serde_json::Value::as_array);
        match (value.get("type").and_then(serde_json::Value::as_str), rules) {
            (Some("inherit"), _) => MergeRules::Inherit,
            (Some("rules"), Some(rules))
                if rules.iter().all(|rule| {
                    rule.get("rule").and_then(serde_json::Value::as_str)
                        == Some("require_specific_reviewers")
                }) =>
            {
                let users = rules
                    .iter()
                    .filter_map(|rule| rule.get("users")?.as_array())
                    .flatten()
                    .filter_map(|user| user.as_str().map(str::to_string))
                    .collect();
                MergeRules::SpecificReviewers(users)
            }
            _ => MergeRules::Other(value.clone()),
        }
    }

    /// The JSON the API takes.
    pub fn to_value(&self) -> serde_json::Value {
        match self {
            MergeRules::Inherit => serde_json::json!({ "type": "inherit" }),
            MergeRules::SpecificReviewers(users) => serde_json::json!({
                "type": "rules",
                "rules": [{ "rule": "require_specific_reviewers", "users": users }],
            }),
            MergeRules::Other(value) => value.clone(),
        }
    }
}

impl Serialize for MergeRules {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

/// `TranslationLanguage`: the language codes a space may have, in the service's order.
pub const LANGUAGES: [&str; 39] = [
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar",
    "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms",
    "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
];

/// Git synchronization of a space (`GitSyncState`; also the answer of `GET …/git/info`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GitSync {
    pub repo_name: Option<String>,
    pub installation_provider: Option<String>,
    pub installation_status: Option<String>,
    pub url: Option<String>,
    pub updated_at: Option<String>,
    /// The last import or export (the service's field; the seed has none).
    pub operation: Option<super::git::GitOperation>,
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

//! Change requests (proposed edits to a space), merge/update results and the semantic list of
//! what a change request changed.

use serde::{Deserialize, Serialize};

use super::common::{Urls, User, lenient_count, null_as_default, string_enum};
use super::revision::PageType;

string_enum! {
    /// `ChangeRequestStatus`. Only `draft`, `open` and `archived` can be set by a PATCH;
    /// `merged` is reached by merging.
    pub enum ChangeRequestStatus {
        Draft => "draft",
        Open => "open",
        Archived => "archived",
        Merged => "merged",
    }
}

string_enum! {
    /// `ChangeRequestOrderBy`: how change-request lists are sorted (service default
    /// `updatedAt`).
    pub enum ChangeRequestOrderBy {
        UpdatedAt => "updatedAt",
        CreatedAt => "createdAt",
    }
}

string_enum! {
    /// Outcome of `POST …/merge`.
    pub enum MergeOutcome {
        Merge => "merge",
        Conflicts => "conflicts",
    }
}

string_enum! {
    /// Outcome of `POST …/update` (bringing main content into the change request).
    pub enum UpdateOutcome {
        Update => "update",
        Conflicts => "conflicts",
    }
}

string_enum! {
    /// The kind of one semantic change. The service's named enum and its `oneOf` disagree, so
    /// this lists the union and keeps anything else as `Other`.
    pub enum SemanticChangeType {
        PageCreated => "page_created",
        PageEdited => "page_edited",
        PageDeleted => "page_deleted",
        PageMoved => "page_moved",
        FileCreated => "file_created",
        FileEdited => "file_edited",
        FileDeleted => "file_deleted",
        VariablesEdited => "variables_edited",
        CustomFieldsEdited => "custom_fields_edited",
        ReusableContentCreated => "reusable_content_created",
        ReusableContentDeleted => "reusable_content_deleted",
        ReusableContentEdited => "reusable_content_edited",
        TagCreated => "tag_created",
        TagDeleted => "tag_deleted",
        TagEdited => "tag_edited",
    }
}

/// A change request (`object`='change-request').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeRequest {
    pub id: String,
    /// Incremental number within the space; also accepted in paths instead of the id.
    #[serde(default, deserialize_with = "lenient_count")]
    pub number: Option<u64>,
    #[serde(default)]
    pub status: Option<ChangeRequestStatus>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub subject: String,
    /// Rich-text description (a JSON `Document`), kept raw: the UI only summarises it.
    #[serde(default)]
    pub description: Option<serde_json::Value>,
    #[serde(default)]
    pub created_by: Option<User>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    /// The space id.
    #[serde(default)]
    pub space: Option<String>,
    /// The change request's active revision.
    #[serde(default)]
    pub revision: Option<String>,
    /// The main revision it branched from: the "before" side of its diff.
    #[serde(default)]
    pub revision_initial: Option<String>,
    /// The last main revision merged into it by an update.
    #[serde(default)]
    pub revision_merged_ancestor: Option<String>,
    /// The main revision produced by merging it.
    #[serde(default)]
    pub revision_merged: Option<String>,
    /// Count of open comments.
    #[serde(default, deserialize_with = "lenient_count")]
    pub comments: Option<u64>,
    /// True when main moved on since it was last updated.
    #[serde(default, deserialize_with = "null_as_default")]
    pub outdated: bool,
    #[serde(default)]
    pub merged_by: Option<User>,
    #[serde(default)]
    pub merged_at: Option<String>,
    /// The conversations issues cluster it answers (seed only; the public service has none).
    #[serde(default)]
    pub conversations_issues_cluster: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
    /// Neither the seed nor the service promise this; `None` when absent.
    #[serde(default)]
    pub permissions: Option<ChangeRequestPermissions>,
}

/// What the caller may do on a change request; absent keys mean "no".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChangeRequestPermissions {
    pub view: bool,
    pub edit: bool,
    pub comment: bool,
    pub review: bool,
    pub merge: bool,
}

/// Answer of `POST …/merge`: the resulting revision, or `Conflicts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergeResult {
    #[serde(default)]
    pub revision: Option<String>,
    pub result: MergeOutcome,
}

/// Answer of `POST …/update`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpdateResult {
    #[serde(default)]
    pub revision: Option<String>,
    pub result: UpdateOutcome,
}

/// `RevisionSemanticChanges`: what a change request changed, limited to `limit` entries;
/// `more` counts the ones left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevisionSemanticChanges {
    #[serde(default, deserialize_with = "null_as_default")]
    pub changes: Vec<SemanticChange>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub more: Option<u64>,
}

/// One semantic change. Page changes carry `page`; edits carry `attributes` (before/after
/// pairs, kept raw because their shape differs per page type); moves carry `parent`; file
/// changes carry `file`. Tag, variable and reusable-content details are not kept: the review
/// screen lists pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SemanticChange {
    #[serde(rename = "type")]
    pub change_type: SemanticChangeType,
    #[serde(default)]
    pub page: Option<ChangedPage>,
    #[serde(default)]
    pub attributes: Option<serde_json::Value>,
    #[serde(default)]
    pub parent: Option<ChangedParent>,
    /// File changes: `{id, name, …}` kept raw.
    #[serde(default)]
    pub file: Option<serde_json::Value>,
}

/// `ChangedRevisionPage`: the page a change is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedPage {
    pub id: String,
    #[serde(default, rename = "type")]
    pub page_type: Option<PageType>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub path: Option<String>,
}

/// Where a moved page was and now is (either side absent at the top level).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChangedParent {
    pub before: Option<ChangedPage>,
    pub after: Option<ChangedPage>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_real_service_change_request() {
        let json = r#"{"object":"change-request","id":"cr1","number":7,"status":"open",
            "subject":"Fix typos","description":{"object":"document","data":{},"nodes":[]},
            "createdBy":{"object":"user","id":"u1","displayName":"Ada","urls":{"location":"l"}},
            "createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-02T00:00:00Z",
            "space":"s1","revision":"r2","revisionInitial":"r1","comments":3,"outdated":true,
            "mergedBy":{"id":"u2"},"mergedAt":"2024-01-03T00:00:00Z",
            "siteTopic":{"site":"x","topic":"y"},"links":[],
            "urls":{"app":"https://app/cr1","location":"https://api/cr1"}}"#;
        let change_request: ChangeRequest = serde_json::from_str(json).unwrap();
        assert_eq!(change_request.number, Some(7));
        assert_eq!(change_request.status, Some(ChangeRequestStatus::Open));
        assert_eq!(change_request.revision_initial.as_deref(), Some("r1"));
        assert!(change_request.outdated);
        assert_eq!(
            change_request.created_by.map(|user| user.display_name),
            Some("Ada".to_owned())
        );
        assert_eq!(
            change_request.merged_by.map(|user| user.id),
            Some("u2".into())
        );
        assert!(change_request.description.is_some());
        assert_eq!(change_request.permissions, None);
    }

    #[test]
    fn decodes_a_seed_change_request_with_permissions_and_unknown_status() {
        let json = r#"{"id":"cr2","status":"superseded","subject":null,
            "conversationsIssuesCluster":"c1","permissions":{"view":true,"merge":true}}"#;
        let change_request: ChangeRequest = serde_json::from_str(json).unwrap();
        assert_eq!(
            change_request.status,
            Some(ChangeRequestStatus::Other("superseded".into()))
        );
        assert_eq!(change_request.subject, "");
        assert!(!change_request.outdated);
        assert_eq!(
            change_request.conversations_issues_cluster.as_deref(),
            Some("c1")
        );
        let permissions = change_request.permissions.unwrap();
        assert!(permissions.view && permissions.merge && !permissions.edit);
    }

    #[test]
    fn decodes_merge_and_update_results() {
        let merge: MergeResult =
            serde_json::from_str(r#"{"revision":"r9","result":"merge"}"#).unwrap();
        assert_eq!(merge.result, MergeOutcome::Merge);
        let conflicts: UpdateResult =
            serde_json::from_str(r#"{"revision":"r9","result":"conflicts"}"#).unwrap();
        assert_eq!(conflicts.result, UpdateOutcome::Conflicts);
        let odd: UpdateResult = serde_json::from_str(r#"{"result":"queued"}"#).unwrap();
        assert_eq!(odd.result, UpdateOutcome::Other("queued".into()));
    }

    #[test]
    fn decodes_semantic_changes_of_every_shape() {
        let json = r#"{"changes":[
            {"type":"page_created","page":{"id":"p1","type":"document","title":"New","path":"new"}},
            {"type":"page_edited","page":{"id":"p2","type":"document","title":"Old"},
             "attributes":{"title":{"before":"Old","after":"Older"},"document":{"before":"a","after":"b"}}},
            {"type":"page_moved","page":{"id":"p3","type":"group","title":"G"},
             "parent":{"before":{"id":"p0","type":"document","title":"Root"}}},
            {"type":"file_created","file":{"id":"f1","name":"a.png"}},
            {"type":"variables_edited","variables":{"v":{"before":"1"}}},
            {"type":"hologram_rotated"}
        ],"more":4,"mergedFrom":{"id":"cr0"}}"#;
        let changes: RevisionSemanticChanges = serde_json::from_str(json).unwrap();
        assert_eq!(changes.more, Some(4));
        assert_eq!(changes.changes.len(), 6);
        assert_eq!(
            changes.changes[0].change_type,
            SemanticChangeType::PageCreated
        );
        assert_eq!(
            changes.changes[0]
                .page
                .as_ref()
                .and_then(|p| p.path.as_deref()),
            Some("new")
        );
        assert!(changes.changes[1].attributes.is_some());
        let moved = changes.changes[2].parent.as_ref().unwrap();
        assert_eq!(moved.before.as_ref().map(|p| p.id.as_str()), Some("p0"));
        assert_eq!(moved.after, None);
        assert_eq!(
            changes.changes[4].change_type,
            SemanticChangeType::VariablesEdited
        );
        assert_eq!(
            changes.changes[5].change_type,
            SemanticChangeType::Other("hologram_rotated".into())
        );
        let empty: RevisionSemanticChanges = serde_json::from_str(r#"{"changes":[]}"#).unwrap();
        assert_eq!(empty.more, None);
    }
}

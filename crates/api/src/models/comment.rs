//! Comments on a change request, their replies and emoji reactions.

use serde::{Deserialize, Deserializer, Serialize};

use super::common::{Urls, User, lenient_count, null_as_default, string_enum};

string_enum! {
    /// A comment thread's state; `resolved` comes with `resolvedAt` and `resolvedBy`.
    pub enum CommentStatus {
        Open => "open",
        Resolved => "resolved",
    }
}

/// A `Document` body: `{markdown}` when read with `format=markdown` (and always when written by
/// quire), `{document}` (a JSON rich-text tree) otherwise, or `{}`. One struct with two optional
/// fields decodes all three.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CommentBody {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<serde_json::Value>,
}

impl CommentBody {
    /// A body holding markdown text, as sent in every write.
    pub fn from_markdown(text: impl Into<String>) -> CommentBody {
        CommentBody {
            markdown: Some(text.into()),
            document: None,
        }
    }

    /// The markdown text, when the server sent the body as markdown.
    pub fn markdown(&self) -> Option<&str> {
        self.markdown.as_deref()
    }
}

/// A reference to something by id. The service sends `{id}`; a bare id string is accepted too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IdRef {
    pub id: String,
}

impl<'de> Deserialize<'de> for IdRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Shape {
            Bare(String),
            Object { id: String },
        }
        Ok(match Shape::deserialize(deserializer)? {
            Shape::Bare(id) | Shape::Object { id } => IdRef { id },
        })
    }
}

/// A cell of a table block: its row (`record`) and its column (`definition`), by the ids the
/// page's document gives them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableCell {
    pub record: String,
    pub definition: String,
}

/// What a comment is attached to: a page (and a block in it, or a cell of a table block),
/// inside a change request or a review.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CommentTarget {
    pub page: Option<IdRef>,
    pub node: Option<IdRef>,
    pub table_cell: Option<TableCell>,
    pub change_request: Option<String>,
    pub review: Option<String>,
    pub space: Option<String>,
    pub revision: Option<String>,
}

/// One emoji with who reacted with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reaction {
    pub emoji: String,
    #[serde(default, deserialize_with = "lenient_count")]
    pub count: u64,
    #[serde(default, deserialize_with = "null_as_default")]
    pub users: Vec<ReactionUser>,
}

/// A user's reaction and when it was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReactionUser {
    pub user: User,
    #[serde(default)]
    pub reacted_at: Option<String>,
}

/// A person who replied to a thread, with how often (`UserContributor`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Replier {
    pub user: User,
    #[serde(default, deserialize_with = "lenient_count")]
    pub count: Option<u64>,
    #[serde(default)]
    pub updated_at: Option<String>,
}

/// What the caller may do on a comment or reply; absent keys mean "no". `reply` also gates
/// reacting.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CommentPermissions {
    pub view: bool,
    pub edit: bool,
    pub reply: bool,
    pub delete: bool,
}

/// A comment thread's first message (`object`='comment').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comment {
    pub id: String,
    #[serde(default)]
    pub posted_by: Option<User>,
    #[serde(default)]
    pub posted_at: Option<String>,
    #[serde(default)]
    pub edited_at: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub reactions: Vec<Reaction>,
    /// Number of replies.
    #[serde(default, deserialize_with = "lenient_count")]
    pub replies: Option<u64>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub repliers: Vec<Replier>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub body: CommentBody,
    #[serde(default, deserialize_with = "null_as_default")]
    pub target: CommentTarget,
    #[serde(default)]
    pub status: Option<CommentStatus>,
    #[serde(default)]
    pub resolved_at: Option<String>,
    #[serde(default)]
    pub resolved_by: Option<User>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: CommentPermissions,
}

impl Comment {
    /// True when the thread is resolved.
    pub fn is_resolved(&self) -> bool {
        self.status == Some(CommentStatus::Resolved)
    }
}

/// A reply in a comment thread (`object`='comment-reply').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommentReply {
    pub id: String,
    #[serde(default)]
    pub posted_by: Option<User>,
    #[serde(default)]
    pub posted_at: Option<String>,
    #[serde(default)]
    pub edited_at: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub reactions: Vec<Reaction>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub body: CommentBody,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: CommentPermissions,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_resolved_real_service_comment() {
        let json = r#"{"object":"comment","id":"c1",
            "postedBy":{"object":"user","id":"u1","displayName":"Ada","urls":{"location":"l"}},
            "postedAt":"2024-01-01T00:00:00Z","editedAt":"2024-01-01T01:00:00Z",
            "reactions":[{"emoji":"🎉","count":2,"users":[
                {"user":{"id":"u1","displayName":"Ada"},"reactedAt":"2024-01-01T02:00:00Z"},
                {"user":{"id":"u2"},"reactedAt":"2024-01-01T03:00:00Z"}]}],
            "replies":1,"repliers":[{"updatedAt":"2024-01-02T00:00:00Z","count":1,"user":{"id":"u2"}}],
            "body":{"markdown":"Looks **good**"},
            "target":{"node":{"id":"n1"},"changeRequest":"cr1","page":{"id":"p1"},"space":"s1","revision":"r1"},
            "urls":{"location":"https://api/c1"},
            "permissions":{"view":true,"edit":true,"delete":false},
            "status":"resolved","resolvedAt":"2024-01-03T00:00:00Z","resolvedBy":{"id":"u1"}}"#;
        let comment: Comment = serde_json::from_str(json).unwrap();
        assert_eq!(comment.body.markdown(), Some("Looks **good**"));
        assert!(comment.is_resolved());
        assert_eq!(comment.reactions[0].count, 2);
        assert_eq!(comment.reactions[0].users[1].user.id, "u2");
        assert_eq!(comment.replies, Some(1));
        assert_eq!(comment.repliers[0].count, Some(1));
        assert_eq!(
            comment.target.page.map(|page| page.id).as_deref(),
            Some("p1")
        );
        assert_eq!(
            comment.target.node.map(|node| node.id).as_deref(),
            Some("n1")
        );
        assert!(comment.permissions.edit && !comment.permissions.reply);
        assert_eq!(
            comment.resolved_by.map(|user| user.id).as_deref(),
            Some("u1")
        );
    }

    #[test]
    fn decodes_document_and_empty_bodies() {
        let document: Comment = serde_json::from_str(
            r#"{"id":"c2","body":{"document":{"object":"document","nodes":[]}},"status":"open"}"#,
        )
        .unwrap();
        assert_eq!(document.body.markdown(), None);
        assert!(document.body.document.is_some());
        assert!(!document.is_resolved());
        let empty: Comment = serde_json::from_str(r#"{"id":"c3","body":{}}"#).unwrap();
        assert_eq!(empty.body, CommentBody::default());
        let missing: Comment =
            serde_json::from_str(r#"{"id":"c4","body":null,"status":"hidden"}"#).unwrap();
        assert_eq!(missing.body.markdown(), None);
        assert_eq!(missing.status, Some(CommentStatus::Other("hidden".into())));
        assert_eq!(missing.permissions, CommentPermissions::default());
    }

    #[test]
    fn target_ids_may_be_bare_strings() {
        let comment: Comment =
            serde_json::from_str(r#"{"id":"c5","target":{"page":"p9"}}"#).unwrap();
        assert_eq!(comment.target.page, Some(IdRef { id: "p9".into() }));
    }

    #[test]
    fn decodes_a_reply() {
        let json = r#"{"object":"comment-reply","id":"r1","postedBy":{"id":"u1"},
            "reactions":[],"body":{"markdown":"Agreed"},
            "permissions":{"view":true,"edit":false,"reply":true,"delete":false}}"#;
        let reply: CommentReply = serde_json::from_str(json).unwrap();
        assert_eq!(reply.body.markdown(), Some("Agreed"));
        assert!(reply.permissions.reply);
    }

    #[test]
    fn body_serializes_only_what_is_set() {
        let body = CommentBody::from_markdown("hi");
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            serde_json::json!({"markdown":"hi"})
        );
    }
}

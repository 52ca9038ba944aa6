//! Change-request reviews and requested reviewers.

use serde::{Deserialize, Deserializer, Serialize};

use super::comment::CommentBody;
use super::common::{Urls, User, null_as_default, string_enum};

string_enum! {
    /// `ChangeRequestReviewStatus`: a reviewer's verdict.
    pub enum ReviewStatus {
        Approved => "approved",
        ChangesRequested => "changes-requested",
    }
}

string_enum! {
    /// Whether a requested reviewer is a person or a team.
    pub enum ReviewerKind {
        User => "user",
        Team => "team",
    }
}

/// The comment attached to a review. The service sends a whole `Comment`; a bare `Document`
/// (`{markdown}` / `{document}`) is accepted too, so both decode to this one shape.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewComment {
    /// The comment's id; `None` when the server sent only a document.
    pub id: Option<String>,
    pub body: CommentBody,
    pub posted_by: Option<User>,
    pub posted_at: Option<String>,
}

impl ReviewComment {
    /// The markdown text, when the server sent the body as markdown.
    pub fn markdown(&self) -> Option<&str> {
        self.body.markdown()
    }
}

impl<'de> Deserialize<'de> for ReviewComment {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct CommentShape {
            #[serde(default)]
            id: Option<String>,
            #[serde(default, deserialize_with = "null_as_default")]
            body: CommentBody,
            #[serde(default)]
            posted_by: Option<User>,
            #[serde(default)]
            posted_at: Option<String>,
        }
        let value = serde_json::Value::deserialize(deserializer)?;
        let is_comment = value.get("body").is_some() || value.get("id").is_some();
        if is_comment {
            let shape = CommentShape::deserialize(value).map_err(serde::de::Error::custom)?;
            return Ok(ReviewComment {
                id: shape.id,
                body: shape.body,
                posted_by: shape.posted_by,
                posted_at: shape.posted_at,
            });
        }
        let body = match value {
            serde_json::Value::String(markdown) => CommentBody::from_markdown(markdown),
            other => CommentBody::deserialize(other).map_err(serde::de::Error::custom)?,
        };
        Ok(ReviewComment {
            body,
            ..ReviewComment::default()
        })
    }
}

/// A review of a change request (`object`='change-request-review').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeRequestReview {
    pub id: String,
    /// The change-request revision that was reviewed.
    #[serde(default)]
    pub revision: Option<String>,
    #[serde(default)]
    pub reviewer: Option<User>,
    #[serde(default)]
    pub requested_by: Option<User>,
    #[serde(default)]
    pub status: Option<ReviewStatus>,
    /// True once the change request changed after this review.
    #[serde(default, deserialize_with = "null_as_default")]
    pub outdated: bool,
    #[serde(default)]
    pub comment: Option<ReviewComment>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// A team as referenced by a requested reviewer (the service's `Team` is `{object, id}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRef {
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
}

/// Someone asked to review a change request (`object`='change-request-requested-reviewer').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestedReviewer {
    /// `user` or `team`; guessed from which field is present when absent.
    #[serde(default)]
    pub kind: Option<ReviewerKind>,
    #[serde(default)]
    pub user: Option<User>,
    #[serde(default)]
    pub team: Option<TeamRef>,
    #[serde(default)]
    pub revision: Option<String>,
    #[serde(default)]
    pub requested_by: Option<User>,
    #[serde(default)]
    pub created_at: Option<String>,
}

impl RequestedReviewer {
    /// The requested user's id, for a user reviewer.
    pub fn user_id(&self) -> Option<&str> {
        self.user.as_ref().map(|user| user.id.as_str())
    }
}

/// Answer of `POST …/requested-reviewers` (`{users}`; an envelope's `items` is accepted too).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct RequestedReviewersAnswer {
    #[serde(default, alias = "items", deserialize_with = "null_as_default")]
    pub users: Vec<RequestedReviewer>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_review_with_a_comment_object() {
        let json = r#"{"object":"change-request-review","id":"rv1","revision":"r2",
            "reviewer":{"id":"u3","displayName":"Priya"},"requestedBy":{"id":"u1"},
            "status":"changes-requested","outdated":false,
            "comment":{"object":"comment","id":"c9","body":{"markdown":"Please fix"},
                       "postedBy":{"id":"u3"},"reactions":[]},
            "createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z",
            "urls":{"location":"https://api/rv1"}}"#;
        let review: ChangeRequestReview = serde_json::from_str(json).unwrap();
        assert_eq!(review.status, Some(ReviewStatus::ChangesRequested));
        let comment = review.comment.unwrap();
        assert_eq!(comment.id.as_deref(), Some("c9"));
        assert_eq!(comment.markdown(), Some("Please fix"));
        assert_eq!(comment.posted_by.map(|user| user.id).as_deref(), Some("u3"));
    }

    #[test]
    fn decodes_a_review_comment_given_as_a_document() {
        let review: ChangeRequestReview = serde_json::from_str(
            r#"{"id":"rv2","status":"approved","comment":{"markdown":"LGTM"}}"#,
        )
        .unwrap();
        assert_eq!(review.status, Some(ReviewStatus::Approved));
        let comment = review.comment.unwrap();
        assert_eq!(comment.id, None);
        assert_eq!(comment.markdown(), Some("LGTM"));
        let bare: ChangeRequestReview =
            serde_json::from_str(r#"{"id":"rv3","status":"dismissed","comment":null}"#).unwrap();
        assert_eq!(bare.comment, None);
        assert_eq!(bare.status, Some(ReviewStatus::Other("dismissed".into())));
        let document: ChangeRequestReview = serde_json::from_str(
            r#"{"id":"rv4","comment":{"document":{"object":"document","nodes":[]}}}"#,
        )
        .unwrap();
        assert!(document.comment.unwrap().body.document.is_some());
    }

    #[test]
    fn decodes_user_and_team_reviewers() {
        let json = r#"{"users":[
            {"object":"change-request-requested-reviewer","kind":"user","user":{"id":"u3"},
             "revision":"r2","requestedBy":{"id":"u1"},"createdAt":"2024-01-01T00:00:00Z"},
            {"kind":"team","team":{"object":"team","id":"t1"},"requestedBy":{"id":"u1"}}]}"#;
        let answer: RequestedReviewersAnswer = serde_json::from_str(json).unwrap();
        assert_eq!(answer.users[0].kind, Some(ReviewerKind::User));
        assert_eq!(answer.users[0].user_id(), Some("u3"));
        assert_eq!(answer.users[1].kind, Some(ReviewerKind::Team));
        assert_eq!(
            answer.users[1].team.as_ref().map(|t| t.id.as_str()),
            Some("t1")
        );
        let empty: RequestedReviewersAnswer = serde_json::from_str("{}").unwrap();
        assert!(empty.users.is_empty());
        let envelope: RequestedReviewersAnswer =
            serde_json::from_str(r#"{"items":[{"kind":"user","user":{"id":"u4"}}]}"#).unwrap();
        assert_eq!(envelope.users[0].user_id(), Some("u4"));
    }
}

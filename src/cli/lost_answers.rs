//! `quire api -X POST|PUT` whose answer is lost after the server may have stored the write. A
//! comment, a reply or a review is read back as the app reads it back (only one that was not
//! there before the send counts): found, the command succeeds with a note; surely missing, it
//! fails as not saved. Any other create cannot be read back, and its outcome is unknown: a
//! status of its own (3), never "run it again", so a retrying script cannot post twice.

use reqwest::Method;
use serde_json::Value;

use crate::api::read_back::{self, Before};
use crate::api::{ApiError, Client};

/// A write `quire api` knows how to read back, from its path and body.
#[derive(Debug, Clone, PartialEq)]
enum Readable {
    Comment {
        space: String,
        change_request: String,
        markdown: String,
    },
    Reply {
        space: String,
        change_request: String,
        comment: String,
        markdown: String,
    },
    Review {
        space: String,
        change_request: String,
        approve: bool,
    },
}

/// True for the methods that create something each time they are sent.
pub fn creates(method: &Method) -> bool {
    *method == Method::POST || *method == Method::PUT
}

/// Sends a create, reading it back when its answer is lost; the answer's bytes (the stored
/// write's JSON when reading back found it) and whether reading back found it.
pub async fn send_once(
    client: &Client,
    method: Method,
    (path, query): (&str, &[(String, String)]),
    body: Option<Vec<u8>>,
) -> Result<(Vec<u8>, bool), ApiError> {
    let readable = readable(&method, path, body.as_deref());
    let before = match &readable {
        Some(write) => Some(write.before(client).await),
        None => None,
    };
    let (before, sent) = match before {
        Some(before) => {
            let (before, sent) =
                read_back::after_a_look(before, || client.raw(method, path, query, body)).await;
            (before, sent)
        }
        None => (None, client.raw(method, path, query, body).await),
    };
    let error = match sent {
        Err(error) if error.outcome_unknown() => error,
        other => return other.map(|bytes| (bytes, false)),
    };
    let Some(write) = readable else {
        return Err(error);
    };
    let found = write.read_back(client, before.as_ref(), error).await?;
    Ok((serde_json::to_vec(&found).unwrap_or_default(), true))
}

fn readable(method: &Method, path: &str, body: Option<&[u8]>) -> Option<Readable> {
    if *method != Method::POST {
        return None;
    }
    let body: Value = serde_json::from_slice(body?).ok()?;
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let markdown = || {
        body.pointer("/body/markdown")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    match segments.as_slice() {
        [
            "spaces",
            space,
            "change-requests",
            change_request,
            "comments",
        ] => Some(Readable::Comment {
            space: space.to_string(),
            change_request: change_request.to_string(),
            markdown: markdown()?,
        }),
        [
            "spaces",
            space,
            "change-requests",
            change_request,
            "comments",
            comment,
            "replies",
        ] => Some(Readable::Reply {
            space: space.to_string(),
            change_request: change_request.to_string(),
            comment: comment.to_string(),
            markdown: markdown()?,
        }),
        [
            "spaces",
            space,
            "change-requests",
            change_request,
            "reviews",
        ] => {
            let approve = match body.get("status").and_then(Value::as_str)? {
                "approved" => true,
                "changes-requested" => false,
                _ => return None,
            };
            Some(Readable::Review {
                space: space.to_string(),
                change_request: change_request.to_string(),
                approve,
            })
        }
        _ => None,
    }
}

impl Readable {
    async fn before(&self, client: &Client) -> Result<Before, ApiError> {
        match self {
            Readable::Comment {
                space,
                change_request,
                ..
            } => read_back::comments_before(client, (space, change_request)).await,
            Readable::Reply {
                space,
                change_request,
                comment,
                ..
            } => read_back::replies_before(client, (space, change_request, comment)).await,
            Readable::Review {
                space,
                change_request,
                ..
            } => read_back::reviews_before(client, (space, change_request)).await,
        }
    }

    /// The stored write as JSON, or why it cannot be said to be there.
    async fn read_back(
        &self,
        client: &Client,
        before: Option<&Before>,
        error: ApiError,
    ) -> Result<Value, ApiError> {
        let json = |value: Result<Value, serde_json::Error>| value.unwrap_or(Value::Null);
        match self {
            Readable::Comment {
                space,
                change_request,
                markdown,
            } => read_back::posted_comment(
                client,
                (space, change_request),
                markdown,
                before,
                Err(error),
            )
            .await
            .map(|found| json(serde_json::to_value(found))),
            Readable::Reply {
                space,
                change_request,
                comment,
                markdown,
            } => read_back::posted_reply(
                client,
                (space, change_request, comment),
                markdown,
                before,
                Err(error),
            )
            .await
            .map(|found| json(serde_json::to_value(found))),
            Readable::Review {
                space,
                change_request,
                approve,
            } => read_back::submitted_review(
                client,
                (space, change_request),
                *approve,
                before,
                Err(error),
            )
            .await
            .map(|found| json(serde_json::to_value(found))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_replies_and_reviews_are_known_by_path_and_body() {
        let comment = br#"{"body":{"markdown":"LGTM"}}"#;
        assert_eq!(
            readable(
                &Method::POST,
                "/spaces/s/change-requests/c/comments",
                Some(comment)
            ),
            Some(Readable::Comment {
                space: "s".into(),
                change_request: "c".into(),
                markdown: "LGTM".into()
            })
        );
        assert!(matches!(
            readable(
                &Method::POST,
                "/spaces/s/change-requests/c/comments/t/replies",
                Some(comment)
            ),
            Some(Readable::Reply { .. })
        ));
        assert!(matches!(
            readable(
                &Method::POST,
                "/spaces/s/change-requests/c/reviews",
                Some(br#"{"status":"approved"}"#)
            ),
            Some(Readable::Review { approve: true, .. })
        ));
        assert_eq!(
            readable(&Method::POST, "/orgs/o/teams", Some(comment)),
            None
        );
        assert_eq!(
            readable(
                &Method::PATCH,
                "/spaces/s/change-requests/c/comments",
                Some(comment)
            ),
            None
        );
    }
}

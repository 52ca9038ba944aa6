//! Change-request comment threads: list, post, edit, resolve, react, delete, replies, and the
//! people who commented. Reads ask for `format=markdown` so bodies arrive as text.

use serde::Serialize;

use super::{borrow_query, change_request_path, written_or_reread};
use crate::client::Client;
use crate::error::ApiError;
use crate::models::common::string_enum;
use crate::models::{Comment, CommentBody, CommentReply, Member, TableCell};
use crate::paging::{ListPage, WholeList};

string_enum! {
    /// Which threads the comment list returns (service default `all`).
    pub enum CommentStatusFilter {
        All => "all",
        Open => "open",
        Resolved => "resolved",
    }
}

string_enum! {
    /// List order (service default `desc`, newest first).
    pub enum SortOrder {
        Ascending => "asc",
        Descending => "desc",
    }
}

/// Filters of the comment list; unset fields are not sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommentFilter {
    pub status: Option<CommentStatusFilter>,
    /// Only comments on this page id.
    pub target_page: Option<String>,
    /// Only comments by these user ids (the `authors` key repeated).
    pub authors: Vec<String>,
    pub order: Option<SortOrder>,
}

impl CommentFilter {
    /// Query pairs, `format=markdown` first.
    pub fn query(&self) -> Vec<(&'static str, String)> {
        let mut query = vec![("format", "markdown".to_owned())];
        if let Some(status) = &self.status {
            query.push(("status", status.as_str().to_owned()));
        }
        if let Some(page) = &self.target_page {
            query.push(("targetPage", page.clone()));
        }
        for author in &self.authors {
            query.push(("authors", author.clone()));
        }
        if let Some(order) = &self.order {
            query.push(("order", order.as_str().to_owned()));
        }
        query
    }
}

/// An edit of a comment or reply. Only what is set goes on the wire: `resolved`, a new body
/// (sent as `{"body": {"markdown": …}}`), reactions to add and to remove.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommentUpdate {
    pub resolved: Option<bool>,
    pub markdown: Option<String>,
    pub added_reactions: Vec<String>,
    pub removed_reactions: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CommentUpdateWire<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    resolved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<CommentBody>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    added_reactions: &'a [String],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    removed_reactions: &'a [String],
}

impl Serialize for CommentUpdate {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CommentUpdateWire {
            resolved: self.resolved,
            body: self.markdown.clone().map(CommentBody::from_markdown),
            added_reactions: &self.added_reactions,
            removed_reactions: &self.removed_reactions,
        }
        .serialize(serializer)
    }
}

impl CommentUpdate {
    /// Resolve (`true`) or reopen (`false`) a thread.
    pub fn resolve(resolved: bool) -> CommentUpdate {
        CommentUpdate {
            resolved: Some(resolved),
            ..CommentUpdate::default()
        }
    }

    /// Replace the body with markdown text.
    pub fn edit(markdown: impl Into<String>) -> CommentUpdate {
        CommentUpdate {
            markdown: Some(markdown.into()),
            ..CommentUpdate::default()
        }
    }

    /// Add (`true`) or remove (`false`) the caller's reaction with one emoji.
    pub fn react(emoji: impl Into<String>, add: bool) -> CommentUpdate {
        let emoji = vec![emoji.into()];
        let (added_reactions, removed_reactions) = if add {
            (emoji, Vec::new())
        } else {
            (Vec::new(), emoji)
        };
        CommentUpdate {
            added_reactions,
            removed_reactions,
            ..CommentUpdate::default()
        }
    }
}

#[derive(Serialize)]
struct NewComment<'a> {
    body: CommentBody,
    #[serde(skip_serializing_if = "Option::is_none")]
    page: Option<&'a str>,
    /// The block of the page the comment is about (its document `key`).
    #[serde(skip_serializing_if = "Option::is_none")]
    node: Option<&'a str>,
    /// The cell of the table block `node` the comment is on.
    #[serde(rename = "tableCell", skip_serializing_if = "Option::is_none")]
    table_cell: Option<&'a TableCell>,
}

#[derive(Serialize)]
struct NewReply {
    body: CommentBody,
}

fn comments_path(space: &str, change_request: &str) -> String {
    format!("{}/comments", change_request_path(space, change_request))
}

fn comment_path(space: &str, change_request: &str, comment: &str) -> String {
    format!(
        "{}/{}",
        comments_path(space, change_request),
        crate::address::encode_segment(comment)
    )
}

fn reply_path(space: &str, change_request: &str, comment: &str, reply: &str) -> String {
    format!(
        "{}/replies/{}",
        comment_path(space, change_request, comment),
        crate::address::encode_segment(reply)
    )
}

const MARKDOWN: [(&str, &str); 1] = [("format", "markdown")];

/// Threads in the first page of a review's list: more than a tall terminal shows, so the first
/// screen and its replies are not held up by a thousand threads rendered, sent and decoded
/// (a tenth of the work); the pages after it are as large as the server gives.
pub const FIRST_THREADS_LIMIT: u32 = 100;

impl Client {
    /// `GET …/change-requests/{cr}/comments`: one page of threads, filtered.
    pub async fn list_comments(
        &self,
        space: &str,
        change_request: &str,
        filter: &CommentFilter,
        page: Option<&str>,
    ) -> Result<ListPage<Comment>, ApiError> {
        let query = filter.query();
        self.get_list_page(
            &comments_path(space, change_request),
            &borrow_query(&query),
            page,
        )
        .await
    }

    /// Every thread matching `filter`, following pages up to `max_pages`: what was read is kept
    /// when the list does not end.
    pub async fn list_all_comments(
        &self,
        space: &str,
        change_request: &str,
        filter: &CommentFilter,
        max_pages: usize,
    ) -> Result<WholeList<Comment>, ApiError> {
        let query = filter.query();
        self.list_up_to(
            &comments_path(space, change_request),
            &borrow_query(&query),
            max_pages,
        )
        .await
    }

    /// The first page of threads matching `filter`, [`FIRST_THREADS_LIMIT`] of them: a review
    /// starts on these while [`Client::rest_of_comments`] reads the others in pages as large
    /// as the server gives.
    pub async fn first_comments_page(
        &self,
        space: &str,
        change_request: &str,
        filter: &CommentFilter,
    ) -> Result<ListPage<Comment>, ApiError> {
        let mut query = filter.query();
        query.push(("limit", FIRST_THREADS_LIMIT.to_string()));
        self.get_list_page(
            &comments_path(space, change_request),
            &borrow_query(&query),
            None,
        )
        .await
    }

    /// The threads after the first page (what [`Client::first_comments_page`] read, whose
    /// threads' ids are `already_read`), for at most `max_pages` pages: what was read is kept,
    /// and `stopped` says why, when the list does not end. The service wants a cursor followed
    /// with the limit it was made with, and a cursor of a hundred would take a request per
    /// hundred threads: the rest is read as a list of its own from the start, in pages as
    /// large as the server gives, leaving out the threads already read (a hundred read twice).
    pub async fn rest_of_comments(
        &self,
        space: &str,
        change_request: &str,
        filter: &CommentFilter,
        already_read: &[String],
        max_pages: usize,
    ) -> Result<WholeList<Comment>, ApiError> {
        let mut rest = self
            .list_all_comments(space, change_request, filter, max_pages)
            .await?;
        let known: std::collections::HashSet<&str> =
            already_read.iter().map(String::as_str).collect();
        rest.items
            .retain(|thread| !known.contains(thread.id.as_str()));
        Ok(rest)
    }

    /// `GET …/comments/{comment}?format=markdown`.
    pub async fn get_comment(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
    ) -> Result<Comment, ApiError> {
        self.get(&comment_path(space, change_request, comment), &MARKDOWN)
            .await
    }

    /// `POST …/comments` with a markdown body, on a page when `page` is given (200 on the
    /// service, 201 on the seed). The answer's body may be a document rather than markdown.
    pub async fn post_comment(
        &self,
        space: &str,
        change_request: &str,
        markdown: &str,
        page: Option<&str>,
    ) -> Result<Comment, ApiError> {
        self.post_comment_on_block(space, change_request, markdown, page, None)
            .await
    }

    /// `POST …/comments` on a page and, when known, one block of it (`node`, the block's
    /// document `key`).
    pub async fn post_comment_on_block(
        &self,
        space: &str,
        change_request: &str,
        markdown: &str,
        page: Option<&str>,
        node: Option<&str>,
    ) -> Result<Comment, ApiError> {
        self.post_comment_on_cell(space, change_request, markdown, page, node, None)
            .await
    }

    /// `POST …/comments` on a page, one block of it and, for a table block, one of its cells
    /// (`tableCell`: the row and column ids of the page's document).
    pub async fn post_comment_on_cell(
        &self,
        space: &str,
        change_request: &str,
        markdown: &str,
        page: Option<&str>,
        node: Option<&str>,
        table_cell: Option<&TableCell>,
    ) -> Result<Comment, ApiError> {
        let body = NewComment {
            body: CommentBody::from_markdown(markdown),
            page,
            node,
            table_cell,
        };
        self.post(&comments_path(space, change_request), &body)
            .await
    }

    /// `PUT …/comments/{comment}`: resolve, edit or react; the thread is read again when the
    /// answer has no usable body.
    pub async fn update_comment(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
        update: &CommentUpdate,
    ) -> Result<Comment, ApiError> {
        let path = comment_path(space, change_request, comment);
        let written = self.put(&path, update).await;
        written_or_reread(written, self.get_comment(space, change_request, comment)).await
    }

    /// `DELETE …/comments/{comment}` (205 deleted, 204 was not there).
    pub async fn delete_comment(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
    ) -> Result<(), ApiError> {
        self.delete(&comment_path(space, change_request, comment))
            .await
    }

    /// `GET …/comments/{comment}/replies?format=markdown`: one page of replies.
    pub async fn list_replies(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
        page: Option<&str>,
    ) -> Result<ListPage<CommentReply>, ApiError> {
        let path = format!("{}/replies", comment_path(space, change_request, comment));
        self.get_list_page(&path, &MARKDOWN, page).await
    }

    /// Every reply of a thread, up to `max_pages` pages of the largest size; what was read is
    /// kept when the list does not end.
    pub async fn all_replies(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
        max_pages: usize,
    ) -> Result<WholeList<CommentReply>, ApiError> {
        let path = format!("{}/replies", comment_path(space, change_request, comment));
        self.list_up_to(&path, &MARKDOWN, max_pages).await
    }

    /// `GET …/comments/{comment}/replies/{reply}?format=markdown`.
    pub async fn get_reply(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
        reply: &str,
    ) -> Result<CommentReply, ApiError> {
        self.get(
            &reply_path(space, change_request, comment, reply),
            &MARKDOWN,
        )
        .await
    }

    /// `POST …/comments/{comment}/replies` with a markdown body.
    pub async fn post_reply(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
        markdown: &str,
    ) -> Result<CommentReply, ApiError> {
        let path = format!("{}/replies", comment_path(space, change_request, comment));
        let body = NewReply {
            body: CommentBody::from_markdown(markdown),
        };
        self.post(&path, &body).await
    }

    /// `PUT …/comments/{comment}/replies/{reply}`: edit or react (same body as a comment).
    pub async fn update_reply(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
        reply: &str,
        update: &CommentUpdate,
    ) -> Result<CommentReply, ApiError> {
        let path = reply_path(space, change_request, comment, reply);
        let written = self.put(&path, update).await;
        let reread = self.get_reply(space, change_request, comment, reply);
        written_or_reread(written, reread).await
    }

    /// `DELETE …/comments/{comment}/replies/{reply}` (205 or 204).
    pub async fn delete_reply(
        &self,
        space: &str,
        change_request: &str,
        comment: &str,
        reply: &str,
    ) -> Result<(), ApiError> {
        self.delete(&reply_path(space, change_request, comment, reply))
            .await
    }

    /// `GET …/change-requests/{cr}/commenters`: one page of members who commented.
    pub async fn list_commenters(
        &self,
        space: &str,
        change_request: &str,
        page: Option<&str>,
    ) -> Result<ListPage<Member>, ApiError> {
        let path = format!("{}/commenters", change_request_path(space, change_request));
        self.get_list_page(&path, &[], page).await
    }

    /// Everyone who commented, up to `max_pages` pages; what was read is kept when the list
    /// does not end.
    pub async fn all_commenters(
        &self,
        space: &str,
        change_request: &str,
        max_pages: usize,
    ) -> Result<WholeList<Member>, ApiError> {
        let path = format!("{}/commenters", change_request_path(space, change_request));
        self.list_up_to(&path, &[], max_pages).await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn update_serializes_only_what_is_set() {
        assert_eq!(
            serde_json::to_value(CommentUpdate::resolve(true)).unwrap(),
            json!({"resolved": true})
        );
        assert_eq!(
            serde_json::to_value(CommentUpdate::edit("new *text*")).unwrap(),
            json!({"body": {"markdown": "new *text*"}})
        );
        assert_eq!(
            serde_json::to_value(CommentUpdate::react("🎉", true)).unwrap(),
            json!({"addedReactions": ["🎉"]})
        );
        assert_eq!(
            serde_json::to_value(CommentUpdate::react("👍", false)).unwrap(),
            json!({"removedReactions": ["👍"]})
        );
        assert_eq!(
            serde_json::to_value(CommentUpdate::default()).unwrap(),
            json!({})
        );
    }

    #[test]
    fn new_comment_body_has_markdown_and_optional_page() {
        let body = NewComment {
            body: CommentBody::from_markdown("hi"),
            page: None,
            node: None,
            table_cell: None,
        };
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            json!({"body": {"markdown": "hi"}})
        );
        let body = NewComment {
            body: CommentBody::from_markdown("hi"),
            page: Some("p1"),
            node: Some("block-3"),
            table_cell: None,
        };
        assert_eq!(serde_json::to_value(&body).unwrap()["page"], "p1");
        assert_eq!(serde_json::to_value(&body).unwrap()["node"], "block-3");
    }

    #[test]
    fn filter_query_repeats_authors_and_asks_for_markdown() {
        let filter = CommentFilter {
            status: Some(CommentStatusFilter::Open),
            target_page: Some("p1".into()),
            authors: vec!["u1".into(), "u2".into()],
            order: Some(SortOrder::Ascending),
        };
        assert_eq!(
            filter.query(),
            vec![
                ("format", "markdown".to_owned()),
                ("status", "open".to_owned()),
                ("targetPage", "p1".to_owned()),
                ("authors", "u1".to_owned()),
                ("authors", "u2".to_owned()),
                ("order", "asc".to_owned()),
            ]
        );
        assert_eq!(
            CommentFilter::default().query(),
            vec![("format", "markdown".to_owned())]
        );
    }
}

//! JSON for change requests, their semantic changes, comments, replies, reviews and requested
//! reviewers (shapes checked against the service contract).

use serde_json::{Value, json};

use crate::model::{Page, PageKind, Role, Space};
use crate::render::{APP_URL, View, markdown_to_document};

use super::content::{Change, markdown_of};
use super::model::{ChangeRequest, Comment, Reaction, Reply, RequestedReviewer, Review, Status};

/// What the caller may do, derived from their role in the space's organization.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Abilities {
    pub role: Role,
}

impl Abilities {
    pub(crate) fn comment(self) -> bool {
        self.role >= Role::Comment
    }
    pub(crate) fn review(self) -> bool {
        self.role >= Role::Review
    }
    pub(crate) fn edit(self) -> bool {
        self.role >= Role::Edit
    }
    /// The same rule as the space's `permissions.merge`.
    pub(crate) fn merge(self) -> bool {
        self.role.may_merge()
    }
    pub(crate) fn admin(self) -> bool {
        self.role == Role::Admin
    }
}

/// How comment bodies are rendered: `markdown` is always present (the client asks with
/// `format=markdown`); `format=document` adds the rich-text form too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyFormat {
    Markdown,
    Document,
}

pub(crate) struct Renderer<'a> {
    pub view: View<'a>,
    pub space: &'a Space,
    pub abilities: Abilities,
}

impl Renderer<'_> {
    fn caller(&self) -> &str {
        self.view.caller
    }

    fn user(&self, id: &str) -> Value {
        match self.view.world.user(id) {
            Some(user) => self.view.user(user),
            None => json!({ "object": "user", "id": id, "displayName": "" }),
        }
    }

    pub(crate) fn change_request_location(&self, change_request: &ChangeRequest) -> String {
        format!(
            "{}/spaces/{}/change-requests/{}",
            self.view.api_url, self.space.id, change_request.id
        )
    }

    pub(crate) fn change_request(&self, change_request: &ChangeRequest) -> Value {
        let open_comments = change_request
            .comments
            .iter()
            .filter(|comment| comment.resolved.is_none())
            .count();
        let mut object = json!({
            "object": "change-request",
            "id": change_request.id,
            "number": change_request.number,
            "status": change_request.status.as_str(),
            "subject": change_request.subject,
            "createdBy": self.user(&change_request.created_by),
            "createdAt": change_request.created_at,
            "updatedAt": change_request.updated_at,
            "space": change_request.space,
            "revision": change_request.revision,
            "revisionInitial": change_request.revision_initial,
            "comments": open_comments,
            "outdated": outdated(change_request, self.space),
            "urls": {
                "app": format!(
                    "{APP_URL}/o/{}/s/{}/~/changes/{}/",
                    self.space.organization, self.space.id, change_request.number
                ),
                "location": self.change_request_location(change_request),
            },
            "permissions": {
                "view": true,
                "edit": self.abilities.edit(),
                "comment": self.abilities.comment(),
                "review": self.abilities.review(),
                "merge": self.abilities.merge(),
            },
        });
        if let Some(description) = &change_request.description {
            object["description"] = description.clone();
        }
        if let Some(cluster) = &change_request.cluster {
            object["conversationsIssuesCluster"] = json!(cluster);
        }
        if let Some(ancestor) = &change_request.revision_merged_ancestor {
            object["revisionMergedAncestor"] = json!(ancestor);
        }
        if let Some(merged) = &change_request.revision_merged {
            object["revisionMerged"] = json!(merged);
        }
        if let Some(merged_by) = &change_request.merged_by {
            object["mergedBy"] = self.user(merged_by);
        }
        if let Some(merged_at) = &change_request.merged_at {
            object["mergedAt"] = json!(merged_at);
        }
        object
    }

    pub(crate) fn change(&self, change: &Change) -> Value {
        match change {
            Change::Created(page) => json!({ "type": "page_created", "page": changed_page(page) }),
            Change::Deleted(page) => json!({ "type": "page_deleted", "page": changed_page(page) }),
            Change::Edited { before, after } => {
                let mut attributes = json!({});
                if before.title != after.title {
                    attributes["title"] = json!({ "before": before.title, "after": after.title });
                }
                if before.slug != after.slug {
                    attributes["slug"] = json!({ "before": before.slug, "after": after.slug });
                }
                if markdown_of(before) != markdown_of(after) {
                    attributes["document"] = json!({
                        "before": document_id(before),
                        "after": document_id(after),
                    });
                }
                json!({ "type": "page_edited", "page": changed_page(after), "attributes": attributes })
            }
            Change::Moved {
                page,
                parent_before,
                parent_after,
            } => {
                let mut parent = json!({});
                if let Some(before) = parent_before {
                    parent["before"] = changed_page(before);
                }
                if let Some(after) = parent_after {
                    parent["after"] = changed_page(after);
                }
                json!({ "type": "page_moved", "page": changed_page(page), "parent": parent })
            }
        }
    }

    fn comment_location(&self, change_request: &ChangeRequest, comment: &Comment) -> String {
        format!(
            "{}/comments/{}",
            self.change_request_location(change_request),
            comment.id
        )
    }

    pub(crate) fn comment(
        &self,
        change_request: &ChangeRequest,
        comment: &Comment,
        format: BodyFormat,
    ) -> Value {
        let own = comment.author == self.caller();
        let mut target = json!({
            "changeRequest": change_request.id,
            "space": change_request.space,
            "revision": comment.revision,
        });
        if let Some(page) = &comment.page {
            target["page"] = json!({ "id": page });
        }
        if let Some(node) = &comment.node {
            target["node"] = json!({ "id": node });
        }
        if let Some((record, definition)) = &comment.table_cell {
            target["tableCell"] = json!({ "record": record, "definition": definition });
        }
        if let Some(review) = &comment.review {
            target["review"] = json!(review);
        }
        let mut object = json!({
            "object": "comment",
            "id": comment.id,
            "postedBy": self.user(&comment.author),
            "postedAt": comment.posted_at,
            "reactions": self.reactions(&comment.reactions),
            "replies": comment.replies.len(),
            "repliers": self.repliers(&comment.replies),
            "body": body(&comment.markdown, format),
            "target": target,
            "urls": { "location": self.comment_location(change_request, comment) },
            "permissions": self.thread_permissions(own),
            "status": if comment.resolved.is_some() { "resolved" } else { "open" },
        });
        if let Some(edited_at) = &comment.edited_at {
            object["editedAt"] = json!(edited_at);
        }
        if let Some(resolution) = &comment.resolved {
            object["resolvedAt"] = json!(resolution.at);
            object["resolvedBy"] = self.user(&resolution.by);
        }
        object
    }

    pub(crate) fn reply(
        &self,
        change_request: &ChangeRequest,
        comment: &Comment,
        reply: &Reply,
        format: BodyFormat,
    ) -> Value {
        let own = reply.author == self.caller();
        let mut object = json!({
            "object": "comment-reply",
            "id": reply.id,
            "postedBy": self.user(&reply.author),
            "postedAt": reply.posted_at,
            "reactions": self.reactions(&reply.reactions),
            "body": body(&reply.markdown, format),
            "urls": {
                "location": format!(
                    "{}/replies/{}",
                    self.comment_location(change_request, comment),
                    reply.id
                ),
            },
            "permissions": self.thread_permissions(own),
        });
        if let Some(edited_at) = &reply.edited_at {
            object["editedAt"] = json!(edited_at);
        }
        object
    }

    /// Edit: the author. Delete: the author or an admin. Reply (and react): comment role and up.
    fn thread_permissions(&self, own: bool) -> Value {
        json!({
            "view": true,
            "edit": own && self.abilities.comment(),
            "reply": self.abilities.comment(),
            "delete": (own && self.abilities.comment()) || self.abilities.admin(),
        })
    }

    fn reactions(&self, reactions: &[Reaction]) -> Vec<Value> {
        reactions
            .iter()
            .map(|reaction| {
                let users: Vec<Value> = reaction
                    .users
                    .iter()
                    .map(|(user, at)| json!({ "user": self.user(user), "reactedAt": at }))
                    .collect();
                json!({ "emoji": reaction.emoji, "count": users.len(), "users": users })
            })
            .collect()
    }

    /// One entry per replier, in the order they first replied, with their latest reply time.
    fn repliers(&self, replies: &[Reply]) -> Vec<Value> {
        let mut repliers: Vec<(&str, usize, &str)> = Vec::new();
        for reply in replies {
            match repliers
                .iter_mut()
                .find(|(user, _, _)| *user == reply.author)
            {
                Some((_, count, updated_at)) => {
                    *count += 1;
                    if reply.posted_at.as_str() > *updated_at {
                        *updated_at = &reply.posted_at;
                    }
                }
                None => repliers.push((&reply.author, 1, &reply.posted_at)),
            }
        }
        repliers
            .into_iter()
            .map(|(user, count, updated_at)| {
                json!({ "updatedAt": updated_at, "count": count, "user": self.user(user) })
            })
            .collect()
    }

    pub(crate) fn review_location(
        &self,
        change_request: &ChangeRequest,
        review: &Review,
    ) -> String {
        format!(
            "{}/reviews/{}",
            self.change_request_location(change_request),
            review.id
        )
    }

    pub(crate) fn review(
        &self,
        change_request: &ChangeRequest,
        review: &Review,
        format: BodyFormat,
    ) -> Value {
        let mut object = json!({
            "object": "change-request-review",
            "id": review.id,
            "revision": review.revision,
            "reviewer": self.user(&review.reviewer),
            "status": review.status.as_str(),
            "outdated": review.outdated,
            "createdAt": review.created_at,
            "updatedAt": review.updated_at,
            "urls": { "location": self.review_location(change_request, review) },
        });
        if let Some(requested_by) = &review.requested_by {
            object["requestedBy"] = self.user(requested_by);
        }
        let comment = review.comment.as_ref().and_then(|id| {
            change_request
                .comments
                .iter()
                .find(|comment| &comment.id == id)
        });
        if let Some(comment) = comment {
            object["comment"] = self.comment(change_request, comment, format);
        }
        object
    }

    pub(crate) fn requested_reviewer(&self, requested: &RequestedReviewer) -> Value {
        json!({
            "object": "change-request-requested-reviewer",
            "kind": "user",
            "user": self.user(&requested.user),
            "requestedBy": self.user(&requested.requested_by),
            "createdAt": requested.created_at,
            "revision": requested.revision,
        })
    }
}

/// A change request is outdated when main moved on since its base; a merged one never is.
pub(crate) fn outdated(change_request: &ChangeRequest, space: &Space) -> bool {
    change_request.status != Status::Merged && change_request.base_revision != space.revision.id
}

fn body(markdown: &str, format: BodyFormat) -> Value {
    match format {
        BodyFormat::Markdown => json!({ "markdown": markdown }),
        BodyFormat::Document => json!({
            "markdown": markdown,
            "document": markdown_to_document(markdown),
        }),
    }
}

fn changed_page(page: &Page) -> Value {
    let kind = match page.kind {
        PageKind::Document { .. } => "document",
        PageKind::Group => "group",
        PageKind::Link { .. } => "link",
    };
    let mut object = json!({ "id": page.id, "type": kind, "title": page.title });
    if !matches!(page.kind, PageKind::Link { .. }) {
        object["path"] = json!(page.path);
    }
    object
}

/// The `document` attribute of an edit is an opaque document id; derive a stable one from the
/// content so that equal content has equal ids.
fn document_id(page: &Page) -> String {
    let mut state: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in markdown_of(page).unwrap_or_default().bytes() {
        state ^= u64::from(byte);
        state = state.wrapping_mul(0x0100_0000_01b3);
    }
    format!("doc-{state:016x}")
}

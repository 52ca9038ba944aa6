//! The sandbox's records for change requests and everything hanging off them: the page edits a
//! change request proposes, review comments with replies and reactions, reviews and requested
//! reviewers. Like the rest of the sandbox these are its own types, not the client's.

use crate::model::Page;

/// `ChangeRequestStatus`: the four states a change request can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Draft,
    Open,
    Archived,
    Merged,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::Open => "open",
            Status::Archived => "archived",
            Status::Merged => "merged",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        match text {
            "draft" => Some(Status::Draft),
            "open" => Some(Status::Open),
            "archived" => Some(Status::Archived),
            "merged" => Some(Status::Merged),
            _ => None,
        }
    }
}

/// `ChangeRequestReviewStatus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewStatus {
    Approved,
    ChangesRequested,
}

impl ReviewStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewStatus::Approved => "approved",
            ReviewStatus::ChangesRequested => "changes-requested",
        }
    }

    pub fn parse(text: &str) -> Option<ReviewStatus> {
        match text {
            "approved" => Some(ReviewStatus::Approved),
            "changes-requested" => Some(ReviewStatus::ChangesRequested),
            _ => None,
        }
    }
}

/// Every change request of the world plus a counter for the ids of things created at run time.
#[derive(Clone, Debug, Default)]
pub struct ChangeRequests {
    pub items: Vec<ChangeRequest>,
    pub next_serial: u64,
}

impl ChangeRequests {
    /// A fresh id such as `cmt-rt-7`; the `rt` marks it as created at run time, so it can never
    /// collide with a demo id.
    pub fn new_id(&mut self, prefix: &str) -> String {
        self.next_serial += 1;
        format!("{prefix}-rt-{}", self.next_serial)
    }

    /// Finds a change request of a space by id or by its number in the space.
    pub fn find(&self, space: &str, id_or_number: &str) -> Option<usize> {
        let number: Option<u32> = id_or_number.trim().parse().ok();
        self.items.iter().position(|change_request| {
            change_request.space == space
                && (change_request.id == id_or_number || Some(change_request.number) == number)
        })
    }
}

/// One change request. Its content is never stored whole: it is `base_pages` (main as it was
/// when the change request branched, or was last updated from main) with `edits` applied, so
/// the diff against the base, the merge into a newer main and conflict detection all follow
/// from the same few records.
#[derive(Clone, Debug)]
pub struct ChangeRequest {
    pub id: String,
    pub number: u32,
    pub space: String,
    pub status: Status,
    pub subject: String,
    /// A JSON `document`, kept as sent.
    pub description: Option<serde_json::Value>,
    /// The conversations issues cluster it answers (`conversationsIssuesCluster`).
    pub cluster: Option<String>,
    pub created_by: String,
    pub created_at: String,
    pub updated_at: String,
    /// The change request's own current revision.
    pub revision: String,
    pub revision_initial: String,
    pub revision_merged_ancestor: Option<String>,
    pub revision_merged: Option<String>,
    pub merged_by: Option<String>,
    pub merged_at: Option<String>,
    /// The main revision the content is based on; differing from the space's current revision
    /// is what `outdated` means.
    pub base_revision: String,
    pub base_pages: Vec<Page>,
    pub edits: Vec<PageEdit>,
    /// Users besides the creator who edited the content (the `contributor` filter).
    pub editors: Vec<String>,
    pub comments: Vec<Comment>,
    pub reviews: Vec<Review>,
    pub requested_reviewers: Vec<RequestedReviewer>,
}

/// One proposed change to the page tree.
#[derive(Clone, Debug)]
pub enum PageEdit {
    /// New markdown and/or a new title for an existing page.
    Edit {
        page: String,
        title: Option<String>,
        markdown: Option<String>,
    },
    /// A new page under `parent` (a page id; `None` = top level) at `index`.
    Create {
        /// Boxed: a page is much larger than the other variants.
        page: Box<Page>,
        parent: Option<String>,
        index: usize,
    },
    Delete {
        page: String,
    },
    Move {
        page: String,
        parent: Option<String>,
        index: usize,
    },
}

#[derive(Clone, Debug)]
pub struct Comment {
    pub id: String,
    pub author: String,
    pub posted_at: String,
    pub edited_at: Option<String>,
    pub markdown: String,
    pub page: Option<String>,
    pub node: Option<String>,
    /// The cell of the table block `node` the comment is on: (record, definition).
    pub table_cell: Option<(String, String)>,
    /// Set on the comment a review was submitted with.
    pub review: Option<String>,
    /// The change request's revision when the comment was posted.
    pub revision: String,
    pub resolved: Option<Resolution>,
    pub reactions: Vec<Reaction>,
    pub replies: Vec<Reply>,
}

#[derive(Clone, Debug)]
pub struct Resolution {
    pub at: String,
    pub by: String,
}

#[derive(Clone, Debug)]
pub struct Reply {
    pub id: String,
    pub author: String,
    pub posted_at: String,
    pub edited_at: Option<String>,
    pub markdown: String,
    pub reactions: Vec<Reaction>,
}

/// One emoji and who gave it, in the order they reacted. The count is always `users.len()`.
#[derive(Clone, Debug)]
pub struct Reaction {
    pub emoji: String,
    /// (user id, reacted at)
    pub users: Vec<(String, String)>,
}

/// Adds and removes the caller's reactions. Adding an emoji the user already gave and removing
/// one they did not give change nothing; an emoji nobody gives any more disappears.
pub(crate) fn apply_reactions(
    reactions: &mut Vec<Reaction>,
    user: &str,
    now: &str,
    added: &[String],
    removed: &[String],
) {
    for emoji in added {
        match reactions
            .iter_mut()
            .find(|reaction| &reaction.emoji == emoji)
        {
            Some(reaction) => {
                if !reaction.users.iter().any(|(giver, _)| giver == user) {
                    reaction.users.push((user.to_string(), now.to_string()));
                }
            }
            None => reactions.push(Reaction {
                emoji: emoji.clone(),
                users: vec![(user.to_string(), now.to_string())],
            }),
        }
    }
    for emoji in removed {
        if let Some(reaction) = reactions
            .iter_mut()
            .find(|reaction| &reaction.emoji == emoji)
        {
            reaction.users.retain(|(giver, _)| giver != user);
        }
    }
    reactions.retain(|reaction| !reaction.users.is_empty());
}

#[derive(Clone, Debug)]
pub struct Review {
    pub id: String,
    pub reviewer: String,
    pub requested_by: Option<String>,
    pub status: ReviewStatus,
    pub revision: String,
    pub outdated: bool,
    /// The id of the comment submitted with the review, kept in the change request's comments.
    pub comment: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug)]
pub struct RequestedReviewer {
    pub user: String,
    pub requested_by: String,
    pub created_at: String,
    pub revision: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emojis(reactions: &[Reaction]) -> Vec<(String, usize)> {
        reactions
            .iter()
            .map(|reaction| (reaction.emoji.clone(), reaction.users.len()))
            .collect()
    }

    #[test]
    fn reactions_are_idempotent_and_vanish_when_empty() {
        let mut reactions = Vec::new();
        let thumbs = vec!["👍".to_string()];
        apply_reactions(&mut reactions, "a", "t1", &thumbs, &[]);
        apply_reactions(&mut reactions, "a", "t2", &thumbs, &[]);
        apply_reactions(&mut reactions, "b", "t3", &thumbs, &[]);
        assert_eq!(emojis(&reactions), [("👍".to_string(), 2)]);
        apply_reactions(&mut reactions, "c", "t4", &[], &thumbs);
        assert_eq!(emojis(&reactions), [("👍".to_string(), 2)]);
        apply_reactions(&mut reactions, "a", "t5", &[], &thumbs);
        apply_reactions(&mut reactions, "b", "t6", &[], &thumbs);
        assert!(reactions.is_empty());
    }

    #[test]
    fn status_round_trip() {
        for status in [
            Status::Draft,
            Status::Open,
            Status::Archived,
            Status::Merged,
        ] {
            assert_eq!(Status::parse(status.as_str()), Some(status));
        }
        assert_eq!(Status::parse("closed"), None);
    }
}

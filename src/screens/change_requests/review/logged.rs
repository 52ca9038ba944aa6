//! What each review write looks like in the action log, derived from the call itself and the
//! screen's state just before it is sent (what the write replaces is still there), and logged
//! once the server accepts it.

use super::ReviewScreen;
use crate::api::CommentUpdate;
use crate::api::models::{ChangeRequestStatus, MergeOutcome, UpdateOutcome};
use crate::screens::step::Ctx;
use crate::vocabulary::action_log::{PendingEntry, Undo};
use crate::vocabulary::change_requests::{ChangeRequestsCall, ChangeRequestsResponse};
use crate::vocabulary::{ApiCall, RequestId};

impl ReviewScreen {
    /// Where a write happened, as the log shows it: "change request #3 · Fix the quickstart".
    pub(super) fn log_place(&self) -> String {
        match self.change_request() {
            Some(cr) => match cr.number {
                Some(number) => format!("change request #{number} · {}", cr.subject),
                None => format!("change request · {}", cr.subject),
            },
            None => format!("change request {}", self.target.change_request),
        }
    }

    /// Keeps the log entry of a write about to be sent, to log it once it is accepted.
    pub(super) fn remember_for_log(&mut self, request: RequestId, call: &ChangeRequestsCall) {
        if let Some(entry) = self.log_entry(call) {
            self.log_pending.insert(request, entry);
        }
    }

    /// The answer to a write came: log it when the server accepted it.
    pub(super) fn log_if_accepted(
        &mut self,
        request: RequestId,
        response: &ChangeRequestsResponse,
        ctx: &mut Ctx,
    ) {
        let Some(entry) = self.log_pending.remove(&request) else {
            return;
        };
        if accepted(response) {
            ctx.action_log.record(entry);
        }
    }

    fn log_entry(&self, call: &ChangeRequestsCall) -> Option<PendingEntry> {
        let place = self.log_place();
        let entry = |what: String, undo: Undo| Some(PendingEntry::new(what, place.clone(), undo));
        match call {
            ChangeRequestsCall::UpdateComment {
                target,
                comment,
                reply,
                update,
            } => {
                let (what, inverse, describe) = self.comment_change(comment, reply, update)?;
                let call = ApiCall::ChangeRequests(ChangeRequestsCall::UpdateComment {
                    target: target.clone(),
                    comment: comment.clone(),
                    reply: reply.clone(),
                    update: inverse,
                });
                entry(what, Undo::inverse(call, describe))
            }
            ChangeRequestsCall::SetStatus { target, status } => {
                let previous = self.change_request().and_then(|cr| cr.status.clone());
                let what = format!("Set the status to {}", status.as_str());
                let undo = match previous {
                    Some(previous) if previous != ChangeRequestStatus::Merged => Undo::inverse(
                        ApiCall::ChangeRequests(ChangeRequestsCall::SetStatus {
                            target: target.clone(),
                            status: previous.clone(),
                        }),
                        format!("Sets the status back to {}", previous.as_str()),
                    ),
                    _ => Undo::impossible("the earlier status is not known"),
                };
                entry(what, undo)
            }
            ChangeRequestsCall::SetSubject { target, subject } => {
                let previous = self.change_request()?.subject.clone();
                entry(
                    format!("Renamed it to “{subject}”"),
                    Undo::inverse(
                        ApiCall::ChangeRequests(ChangeRequestsCall::SetSubject {
                            target: target.clone(),
                            subject: previous.clone(),
                        }),
                        format!("Renames it back to “{previous}”"),
                    ),
                )
            }
            ChangeRequestsCall::RequestReviewers { target, users } => {
                let [user] = users.as_slice() else {
                    return entry(
                        "Requested reviewers".to_string(),
                        Undo::impossible("several reviewers were asked at once"),
                    );
                };
                entry(
                    "Requested a reviewer".to_string(),
                    Undo::inverse(
                        ApiCall::ChangeRequests(ChangeRequestsCall::RemoveReviewer {
                            target: target.clone(),
                            user: user.clone(),
                        }),
                        "Withdraws the review request",
                    ),
                )
            }
            ChangeRequestsCall::RemoveReviewer { target, user } => entry(
                "Removed a requested reviewer".to_string(),
                Undo::inverse(
                    ApiCall::ChangeRequests(ChangeRequestsCall::RequestReviewers {
                        target: target.clone(),
                        users: vec![user.clone()],
                    }),
                    "Asks them to review again",
                ),
            ),
            ChangeRequestsCall::Merge(_) => entry(
                "Merged into main".to_string(),
                Undo::impossible("a merge cannot be undone"),
            ),
            ChangeRequestsCall::UpdateFromMain(_) => entry(
                "Brought main's changes in".to_string(),
                Undo::impossible("an update from main cannot be taken back"),
            ),
            ChangeRequestsCall::PostComment { markdown, .. }
            | ChangeRequestsCall::PostBlockComment { markdown, .. } => entry(
                format!("Commented: {}", excerpt(markdown)),
                Undo::impossible("a posted comment stays; delete it on the comments tab (d)"),
            ),
            ChangeRequestsCall::PostReply {
                comment, markdown, ..
            } => entry(
                format!(
                    "Replied to {}: {}",
                    self.comment_author(comment),
                    excerpt(markdown)
                ),
                Undo::impossible("a posted reply stays; delete it on the comments tab (d)"),
            ),
            ChangeRequestsCall::DeleteComment { .. } => entry(
                "Deleted a comment".to_string(),
                Undo::impossible("a deleted comment cannot be brought back"),
            ),
            ChangeRequestsCall::SubmitReview { verdict, .. } => entry(
                format!("Posted a review: {}", verdict.as_str()),
                Undo::impossible("a posted review stays; post another to change your verdict"),
            ),
            ChangeRequestsCall::SetDescription { .. } => entry(
                "Changed the description".to_string(),
                Undo::impossible("the earlier description is in the change request's history"),
            ),
            _ => None,
        }
    }

    /// "Ada's comment", or "a comment" when its author is not known.
    fn comment_author(&self, comment: &str) -> String {
        self.threads()
            .iter()
            .find(|thread| thread.comment.id == comment)
            .and_then(|thread| thread.comment.posted_by.as_ref())
            .map_or("a comment".to_string(), |user| {
                format!("{}'s comment", user.display_name)
            })
    }

    /// (what, the inverse update, how undoing reads) of a change to a comment.
    fn comment_change(
        &self,
        comment: &str,
        reply: &Option<String>,
        update: &CommentUpdate,
    ) -> Option<(String, CommentUpdate, String)> {
        let thread = self.threads().iter().find(|t| t.comment.id == comment);
        let author = thread
            .and_then(|t| t.comment.posted_by.as_ref())
            .map_or("a".to_string(), |u| format!("{}'s", u.display_name));
        let whose = if reply.is_some() {
            "a reply".to_string()
        } else {
            format!("{author} comment")
        };
        if let Some(resolved) = update.resolved {
            let what = if resolved { "Resolved" } else { "Reopened" };
            let undo = if resolved { "Reopens" } else { "Resolves" };
            return Some((
                format!("{what} {author} thread"),
                CommentUpdate::resolve(!resolved),
                format!("{undo} the thread"),
            ));
        }
        if let Some(emoji) = update.added_reactions.first() {
            return Some((
                format!("Reacted {emoji} to {whose}"),
                CommentUpdate::react(emoji.clone(), false),
                format!("Removes your {emoji} reaction"),
            ));
        }
        if let Some(emoji) = update.removed_reactions.first() {
            return Some((
                format!("Took back your {emoji} on {whose}"),
                CommentUpdate::react(emoji.clone(), true),
                format!("Adds your {emoji} reaction again"),
            ));
        }
        if update.markdown.is_some() {
            let before = match reply {
                Some(id) => thread
                    .and_then(|t| t.replies.iter().find(|r| r.id == *id))
                    .and_then(|r| r.body.markdown().map(str::to_string)),
                None => thread.and_then(|t| t.comment.body.markdown().map(str::to_string)),
            }?;
            return Some((
                format!("Edited {whose}"),
                CommentUpdate::edit(before),
                "Puts the earlier text back".to_string(),
            ));
        }
        None
    }
}

/// The start of a posted text, on one line, so the log tells one post from another.
fn excerpt(markdown: &str) -> String {
    let line = markdown.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::ui::text::truncate(&line, 60)
}

/// True when the answer says the write went through.
fn accepted(response: &ChangeRequestsResponse) -> bool {
    match response {
        ChangeRequestsResponse::CommentUpdated(result)
        | ChangeRequestsResponse::Deleted(result) => result.is_ok(),
        ChangeRequestsResponse::StatusSet(result)
        | ChangeRequestsResponse::SubjectSet(result)
        | ChangeRequestsResponse::DescriptionSet(result) => result.is_ok(),
        ChangeRequestsResponse::ReviewersChanged(result) => result.is_ok(),
        ChangeRequestsResponse::CommentPosted(result) => result.is_ok(),
        ChangeRequestsResponse::ReplyPosted(result) => result.is_ok(),
        ChangeRequestsResponse::ReviewSubmitted(result) => result.is_ok(),
        ChangeRequestsResponse::Merged(result) => result
            .as_ref()
            .is_ok_and(|merge| merge.result == MergeOutcome::Merge),
        ChangeRequestsResponse::UpdatedFromMain(result) => result
            .as_ref()
            .is_ok_and(|update| update.result == UpdateOutcome::Update),
        _ => false,
    }
}

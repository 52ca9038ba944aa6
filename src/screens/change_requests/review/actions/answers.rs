//! What each write's answer does to the screen: keep the optimistic change, or put things
//! back and say why.

use crate::api::models::{MergeOutcome, ReviewStatus, UpdateOutcome};
use crate::screens::change_requests::review::{ComposeTarget, Overlay, PendingWrite, ReviewScreen};
use crate::screens::step::Ctx;
use crate::vocabulary::Cmd;
use crate::vocabulary::change_requests::ChangeRequestsResponse;

impl ReviewScreen {
    /// " (https://…)": where the change request is in the web app, when the server said.
    fn web_app_place(&self) -> String {
        self.change_request()
            .and_then(|cr| cr.urls.app.as_deref())
            .map(|url| format!(" ({})", crate::ui::sanitize::sanitize(url)))
            .unwrap_or_default()
    }

    /// Applies the answer to a write: keep the optimistic change, or put things back and say why.
    pub(crate) fn on_write_answer(
        &mut self,
        pending: PendingWrite,
        response: &ChangeRequestsResponse,
        ctx: &mut Ctx,
    ) -> Cmd {
        match (pending, response) {
            (
                PendingWrite::Resolve { comment, previous },
                ChangeRequestsResponse::CommentUpdated(Err(error)),
            ) => {
                self.replace_comment(&comment, previous);
                self.notice(self.refused("Resolving the thread", error), true);
                Cmd::None
            }
            (
                PendingWrite::React {
                    comment,
                    reply,
                    previous,
                },
                ChangeRequestsResponse::CommentUpdated(Err(error)),
            ) => {
                self.restore_reactions(&comment, reply.as_deref(), previous);
                self.notice(self.refused("Reacting", error), true);
                Cmd::None
            }
            // Queued: the thread goes back to what the server has, and the write shows on it
            // marked pending (◷) until the outbox sends it, as it does after a reload.
            (
                PendingWrite::Resolve { comment, previous },
                ChangeRequestsResponse::Queued(queued),
            ) => {
                self.replace_comment(&comment, previous);
                self.notice(queued_message(queued, ctx), false);
                self.queued.push(queued.clone());
                Cmd::None
            }
            (
                PendingWrite::React {
                    comment,
                    reply,
                    previous,
                },
                ChangeRequestsResponse::Queued(queued),
            ) => {
                self.restore_reactions(&comment, reply.as_deref(), previous);
                self.notice(queued_message(queued, ctx), false);
                self.queued.push(queued.clone());
                Cmd::None
            }
            (PendingWrite::Resolve { .. } | PendingWrite::React { .. }, _) => Cmd::None,
            (PendingWrite::Edit { draft_key, .. }, ChangeRequestsResponse::Queued(queued)) => {
                self.queued.push(queued.clone());
                self.sent(&draft_key, &queued_message(queued, ctx))
            }
            (PendingWrite::Post { draft_key }, ChangeRequestsResponse::Queued(queued)) => {
                self.queued.push(queued.clone());
                // A comment on a line of the diff is marked `◷` there at once.
                self.relayout(ctx);
                self.sent(&draft_key, &queued_message(queued, ctx))
            }
            (PendingWrite::Post { draft_key }, ChangeRequestsResponse::CommentPosted(result)) => {
                match result {
                    Ok(comment) => {
                        if let Some(bundle) = self.bundle.value_mut() {
                            bundle.threads.insert(
                                0,
                                crate::vocabulary::change_requests::Thread {
                                    comment: comment.clone(),
                                    replies: Vec::new(),
                                    replies_loaded: true,
                                },
                            );
                        }
                        self.sent(&draft_key, "Comment posted.")
                    }
                    Err(error) => self.failed_post_or_unknown(&draft_key, "Posting", error, ctx),
                }
            }
            (PendingWrite::Post { draft_key }, ChangeRequestsResponse::ReplyPosted(result)) => {
                match result {
                    Ok(reply) => {
                        let comment = self.composer_comment(&draft_key);
                        if let Some(bundle) = self.bundle.value_mut()
                            && let Some(thread) = bundle
                                .threads
                                .iter_mut()
                                .find(|t| Some(&t.comment.id) == comment.as_ref())
                        {
                            thread.replies.push(reply.clone());
                            // Until its replies are here, the thread knows only their count.
                            let count = if thread.replies_loaded {
                                thread.replies.len() as u64
                            } else {
                                thread.comment.replies.unwrap_or(0) + 1
                            };
                            thread.comment.replies = Some(count);
                        }
                        self.sent(&draft_key, "Reply posted.")
                    }
                    Err(error) => {
                        self.failed_post_or_unknown(&draft_key, "Posting the reply", error, ctx)
                    }
                }
            }
            (
                PendingWrite::Edit {
                    draft_key,
                    comment,
                    reply,
                    text,
                },
                ChangeRequestsResponse::CommentUpdated(result),
            ) => match result {
                Ok(()) => {
                    self.set_body(&comment, reply.as_deref(), text);
                    self.sent(&draft_key, "Comment edited.")
                }
                Err(error) => self.failed_post_or_unknown(&draft_key, "Editing", error, ctx),
            },
            (PendingWrite::Delete { comment, reply }, ChangeRequestsResponse::Deleted(result)) => {
                match result {
                    Ok(()) => {
                        self.remove_comment(&comment, reply.as_deref());
                        self.notice("Deleted.", false);
                    }
                    Err(error) => self.notice(self.refused("Deleting", error), true),
                }
                Cmd::None
            }
            (PendingWrite::Review { draft_key }, ChangeRequestsResponse::Queued(queued)) => {
                self.queued.push(queued.clone());
                self.sent(&draft_key, &queued_message(queued, ctx))
            }
            (
                PendingWrite::Review { draft_key },
                ChangeRequestsResponse::ReviewSubmitted(result),
            ) => {
                match result {
                    Ok(submitted) => {
                        let review = &submitted.review;
                        let verdict = match &review.status {
                            Some(ReviewStatus::Approved) => "approved".to_string(),
                            Some(ReviewStatus::ChangesRequested) => "changes requested".to_string(),
                            Some(other) => other.as_str().replace('-', " "),
                            None => "review".to_string(),
                        };
                        let me = self.me.value().map(|u| u.id.clone());
                        if let Some(bundle) = self.bundle.value_mut() {
                            for earlier in bundle.reviews.iter_mut() {
                                if earlier.reviewer.as_ref().map(|u| &u.id) == me.as_ref() {
                                    earlier.outdated = true;
                                }
                            }
                            bundle.reviews.insert(0, review.clone());
                            bundle
                                .requested
                                .retain(|r| r.user.as_ref().map(|u| &u.id) != me.as_ref());
                            // Its comment is a thread of the change request, newest first.
                            if let Some(comment) = &submitted.comment
                                && !bundle.threads.iter().any(|t| t.comment.id == comment.id)
                            {
                                bundle.threads.insert(
                                    0,
                                    crate::vocabulary::change_requests::Thread::without_replies(
                                        comment.clone(),
                                    ),
                                );
                            }
                        }
                        self.sent(&draft_key, &format!("Review submitted: {verdict}."))
                    }
                    Err(error) => {
                        self.failed_post_or_unknown(&draft_key, "Submitting the review", error, ctx)
                    }
                }
            }
            (PendingWrite::Reviewers, ChangeRequestsResponse::ReviewersChanged(result)) => {
                match result {
                    Ok(requested) => {
                        if let Some(bundle) = self.bundle.value_mut() {
                            bundle.requested = requested.clone();
                        }
                        self.reviewer_selection.clamp(self.requested().len());
                        self.notice("Requested reviewers updated.", false);
                    }
                    Err(error) => self.notice(self.refused("Changing reviewers", error), true),
                }
                Cmd::None
            }
            (PendingWrite::Status, ChangeRequestsResponse::StatusSet(result)) => {
                match result {
                    Ok(change_request) => {
                        let status = change_request
                            .status
                            .as_ref()
                            .map_or("changed", |s| s.as_str())
                            .to_string();
                        if let Some(bundle) = self.bundle.value_mut() {
                            bundle.change_request = change_request.clone();
                        }
                        self.notice(format!("Status is now {status}."), false);
                    }
                    Err(error) => self.notice(self.refused("Changing the status", error), true),
                }
                Cmd::None
            }
            (PendingWrite::Subject, ChangeRequestsResponse::SubjectSet(result)) => {
                match result {
                    Ok(change_request) => {
                        if let Some(bundle) = self.bundle.value_mut() {
                            bundle.change_request = change_request.clone();
                        }
                        self.notice("Subject changed.", false);
                        return super::subject::discard_subject_draft(self);
                    }
                    Err(error) => self.notice(self.refused("Changing the subject", error), true),
                }
                Cmd::None
            }
            (
                PendingWrite::Description { draft_key },
                ChangeRequestsResponse::DescriptionSet(result),
            ) => match result {
                Ok(change_request) => {
                    if let Some(bundle) = self.bundle.value_mut() {
                        bundle.change_request = change_request.clone();
                    }
                    if let Some(cached) = ctx.reviews.get_mut(&self.target) {
                        cached.change_request = change_request.clone();
                    }
                    self.sent(&draft_key, "Description saved.")
                }
                Err(error) => {
                    self.failed_post_or_unknown(&draft_key, "Saving the description", error, ctx)
                }
            },
            (PendingWrite::Pdf { page }, ChangeRequestsResponse::Pdf(result)) => {
                match result {
                    Ok(address) => crate::screens::change_requests::review::description::show_pdf(
                        self, page, address,
                    ),
                    Err(error) => self.notice(self.refused("Asking for the PDF", error), true),
                }
                Cmd::None
            }
            (PendingWrite::Merge, ChangeRequestsResponse::Merged(result)) => match result {
                Ok(merge) => match &merge.result {
                    MergeOutcome::Merge => {
                        self.notice("Merged into main. ✓", false);
                        self.load(ctx)
                    }
                    MergeOutcome::Conflicts => {
                        let where_ = self.web_app_place();
                        self.notice(
                            format!("Not merged: it conflicts with main. Update from main (U) and resolve the conflicts in the web app{where_} first."),
                            true,
                        );
                        Cmd::None
                    }
                    MergeOutcome::Other(other) => {
                        self.notice(format!("The server answered `{other}`."), true);
                        self.load(ctx)
                    }
                },
                Err(error) => self.merge_refused(error, ctx),
            },
            (PendingWrite::Update, ChangeRequestsResponse::UpdatedFromMain(result)) => match result
            {
                Ok(update) => match &update.result {
                    UpdateOutcome::Update => {
                        self.notice("Up to date with main.", false);
                        self.load(ctx)
                    }
                    UpdateOutcome::Conflicts => {
                        let where_ = self.web_app_place();
                        self.notice(
                            format!("Main's changes conflict with this change request; resolve them in the web app{where_}."),
                            true,
                        );
                        Cmd::None
                    }
                    UpdateOutcome::Other(other) => {
                        self.notice(format!("The server answered `{other}`."), true);
                        self.load(ctx)
                    }
                },
                Err(error) => {
                    self.notice(self.refused("Updating from main", error), true);
                    Cmd::None
                }
            },
            _ => Cmd::None,
        }
    }

    /// The server accepted the text: close the composer and forget the draft.
    fn sent(&mut self, draft_key: &str, message: &str) -> Cmd {
        if matches!(&self.overlay, Some(Overlay::Composer { draft_key: key, .. }) if key == draft_key)
        {
            self.overlay = None;
        }
        self.drafts.remove(draft_key);
        self.notice(message, false);
        self.comment_selection.clamp(self.rows().len());
        Cmd::DiscardDraft {
            key: draft_key.to_string(),
        }
    }

    /// The server refused the text: it stays in the composer (and on disk) with the reason.
    /// When no answer came back the change request is reloaded, so a post that did land shows
    /// up before the user sends it again.
    fn failed_post_or_unknown(
        &mut self,
        draft_key: &str,
        what: &str,
        error: &crate::api::ApiError,
        ctx: &mut Ctx,
    ) -> Cmd {
        let unsaved = ctx.unsaved_drafts.get(draft_key).map(String::as_str);
        let message = crate::screens::change_requests::review::permissions::refused_draft(
            what,
            error,
            self.role().as_deref(),
            unsaved,
        );
        let cmd = self.failed_post(draft_key, message);
        if crate::screens::roles::outcome_unknown(error) {
            return Cmd::batch([cmd, self.load(ctx)]);
        }
        cmd
    }

    fn failed_post(&mut self, draft_key: &str, message: String) -> Cmd {
        if let Some(Overlay::Composer {
            draft_key: key,
            composer,
            ..
        }) = self.overlay.as_mut()
            && key == draft_key
        {
            composer.submitting = false;
            composer.error = Some(message.clone());
        }
        self.notice(message, true);
        Cmd::None
    }

    fn composer_comment(&self, draft_key: &str) -> Option<String> {
        match &self.overlay {
            Some(Overlay::Composer {
                target: ComposeTarget::Reply { comment },
                draft_key: key,
                ..
            }) if key == draft_key => Some(comment.clone()),
            _ => draft_key
                .rsplit_once(".reply-")
                .map(|(_, comment)| comment.to_string()),
        }
    }

    fn replace_comment(&mut self, id: &str, comment: crate::api::models::Comment) {
        if let Some(bundle) = self.bundle.value_mut()
            && let Some(thread) = bundle.threads.iter_mut().find(|t| t.comment.id == id)
        {
            thread.comment = comment;
        }
    }

    fn restore_reactions(
        &mut self,
        comment: &str,
        reply: Option<&str>,
        previous: Vec<crate::api::models::Reaction>,
    ) {
        let Some(bundle) = self.bundle.value_mut() else {
            return;
        };
        let Some(thread) = bundle.threads.iter_mut().find(|t| t.comment.id == comment) else {
            return;
        };
        match reply {
            None => thread.comment.reactions = previous,
            Some(reply) => {
                if let Some(r) = thread.replies.iter_mut().find(|r| r.id == reply) {
                    r.reactions = previous;
                }
            }
        }
    }

    fn set_body(&mut self, comment: &str, reply: Option<&str>, text: String) {
        let Some(bundle) = self.bundle.value_mut() else {
            return;
        };
        let Some(thread) = bundle.threads.iter_mut().find(|t| t.comment.id == comment) else {
            return;
        };
        let body = crate::api::models::CommentBody::from_markdown(text);
        let edited = Some(chrono::Utc::now().to_rfc3339());
        match reply {
            None => {
                thread.comment.body = body;
                thread.comment.edited_at = edited;
            }
            Some(reply) => {
                if let Some(r) = thread.replies.iter_mut().find(|r| r.id == reply) {
                    r.body = body;
                    r.edited_at = edited;
                }
            }
        }
    }

    fn remove_comment(&mut self, comment: &str, reply: Option<&str>) {
        let Some(bundle) = self.bundle.value_mut() else {
            return;
        };
        match reply {
            None => bundle.threads.retain(|t| t.comment.id != comment),
            Some(reply) => {
                if let Some(thread) = bundle.threads.iter_mut().find(|t| t.comment.id == comment) {
                    thread.replies.retain(|r| r.id != reply);
                    thread.comment.replies = Some(thread.replies.len() as u64);
                }
            }
        }
        self.comment_selection.clamp(self.rows().len());
    }
}

/// What the screen says when a write went to the outbox instead of the server, and the key
/// that shows the outbox (to send, edit or drop it).
fn queued_message(queued: &crate::api::outbox::Queued, ctx: &Ctx) -> String {
    let key = ctx.keymap.label(
        &[crate::ui::keymap::KeyContext::Global],
        crate::ui::keymap::Action::OutboxView,
    );
    let look = match key {
        Some(key) => format!("; {key} to send, edit or drop it"),
        None => String::new(),
    };
    format!(
        "◷ {} queued: the server cannot be reached{look}.",
        queued.write.describe()
    )
}

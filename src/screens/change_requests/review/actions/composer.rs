//! The composer: opening it on a target with its draft, its keys, and what its text is sent as.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::api::{CommentUpdate, ReviewVerdict};
use crate::screens::change_requests::review::{ComposeTarget, Overlay, PendingWrite, ReviewScreen};
use crate::screens::step::Ctx;
use crate::ui::composer::{Composer, ComposerOutcome};
use crate::vocabulary::Cmd;
use crate::vocabulary::change_requests::ChangeRequestsCall;

pub(super) fn open_composer(screen: &mut ReviewScreen, target: ComposeTarget) {
    let key = screen.draft_key(&target);
    let draft = screen.drafts.get(&key).cloned().unwrap_or_default();
    let mut titles = match &target {
        ComposeTarget::BlockComment {
            line,
            node,
            about,
            cell,
            ..
        } => {
            let about = match cell {
                Some(pick) => format!("{about}, {}", pick.words),
                None => about.clone(),
            };
            screen.line_comment_titles(*line, node.as_deref(), &about)
        }
        _ => vec![plain_title(screen, &target)],
    };
    let mut composer = Composer::new(titles.remove(0), &draft);
    composer.short_titles = titles;
    composer.allow_blank = matches!(target, ComposeTarget::Review { .. });
    if let Some((long, short)) = composer_note(&target) {
        composer.note = Some(long);
        composer.short_note = Some(short);
    }
    screen.overlay = Some(Overlay::Composer {
        target,
        draft_key: key,
        composer,
    });
}

/// The title of a composer that has one form.
fn plain_title(screen: &ReviewScreen, target: &ComposeTarget) -> String {
    match target {
        ComposeTarget::NewComment { page: Some(_) } => {
            let page = screen
                .selected_page()
                .map(|p| p.title.clone())
                .unwrap_or_default();
            format!("New comment on {page}")
        }
        ComposeTarget::NewComment { page: None } => "New comment".to_string(),
        ComposeTarget::Reply { comment } => {
            let author = screen
                .threads()
                .iter()
                .find(|t| t.comment.id == *comment)
                .and_then(|t| t.comment.posted_by.as_ref())
                .map(|u| u.display_name.clone())
                .unwrap_or_else(|| "the thread".into());
            format!("Reply to {author}")
        }
        ComposeTarget::Edit { .. } => "Edit your comment".to_string(),
        ComposeTarget::Review { approve: true } => "Approve — an optional comment".to_string(),
        ComposeTarget::Review { approve: false } => "Request changes — say what".to_string(),
        ComposeTarget::Description => "Description".to_string(),
        ComposeTarget::BlockComment { about, .. } => format!("Comment on {about}"),
    }
}

/// Why a comment on the diff goes where it goes, when that is not simply the line under `›`.
fn composer_note(target: &ComposeTarget) -> Option<(String, String)> {
    let ComposeTarget::BlockComment { node, note, .. } = target else {
        return None;
    };
    match (node, note) {
        (None, _) => Some((
            "The change request's blocks are not known for this page, so the comment is on the page as a whole."
                .to_string(),
            "Blocks unknown: on the page.".to_string(),
        )),
        (Some(_), note) => note.clone().map(|note| (note.long, note.short)),
    }
}

pub(super) fn on_composer_key(
    screen: &mut ReviewScreen,
    target: ComposeTarget,
    draft_key: String,
    composer: &mut Composer,
    key: &KeyEvent,
    ctx: &mut Ctx,
) -> Cmd {
    let outcome = if is_unchanged_edit_closing(screen, &target, composer, key) {
        // Nothing was written: there is nothing to ask about or keep.
        ComposerOutcome::Discarded
    } else {
        composer.handle_key(key)
    };
    let mut keep_open = true;
    let cmd = match outcome {
        ComposerOutcome::Edited => {
            let text = composer.text();
            screen.drafts.insert(draft_key.clone(), text.clone());
            Cmd::SaveDraft {
                key: draft_key.clone(),
                text,
            }
        }
        ComposerOutcome::Submit if target == ComposeTarget::Description => {
            let (cmd, stays_open) = crate::screens::change_requests::review::description::submit(
                screen, &draft_key, composer, ctx,
            );
            keep_open = stays_open;
            cmd
        }
        ComposerOutcome::Submit => {
            composer.submitting = true;
            composer.error = None;
            submit(screen, &target, &draft_key, composer.text(), ctx)
        }
        ComposerOutcome::OpenEditor => Cmd::EditExternally {
            key: draft_key.clone(),
            text: composer.text(),
        },
        ComposerOutcome::Closed => {
            keep_open = false;
            screen.notice("Draft kept: it will be there when you come back.", false);
            Cmd::None
        }
        ComposerOutcome::Discarded => {
            keep_open = false;
            screen.drafts.remove(&draft_key);
            Cmd::DiscardDraft {
                key: draft_key.clone(),
            }
        }
        ComposerOutcome::Ignored => Cmd::None,
    };
    if keep_open {
        screen.overlay = Some(Overlay::Composer {
            target,
            draft_key,
            composer: composer.clone(),
        });
    }
    cmd
}

/// `esc` on an edit whose text is still the comment's own.
fn is_unchanged_edit_closing(
    screen: &ReviewScreen,
    target: &ComposeTarget,
    composer: &Composer,
    key: &KeyEvent,
) -> bool {
    if key.code != KeyCode::Esc || composer.asking_to_discard || composer.submitting {
        return false;
    }
    if *target == ComposeTarget::Description {
        return crate::screens::change_requests::review::description::is_unchanged(
            screen,
            &composer.text(),
        );
    }
    let ComposeTarget::Edit { comment, reply } = target else {
        return false;
    };
    let Some(thread) = screen.threads().iter().find(|t| t.comment.id == *comment) else {
        return false;
    };
    let body = match reply {
        Some(reply) => thread
            .replies
            .iter()
            .find(|r| r.id == *reply)
            .and_then(|r| r.body.markdown()),
        None => thread.comment.body.markdown(),
    };
    // The composer holds the body as it showed it: sanitized, lines joined with `\n`.
    let original = crate::ui::sanitize::sanitize_multiline(body.unwrap_or_default());
    composer.text().trim_end() == original.trim_end()
}

fn submit(
    screen: &mut ReviewScreen,
    target: &ComposeTarget,
    draft_key: &str,
    text: String,
    ctx: &mut Ctx,
) -> Cmd {
    let change_request = screen.target.clone();
    let draft_key = draft_key.to_string();
    let (call, pending) = match target {
        ComposeTarget::NewComment { page } => (
            ChangeRequestsCall::PostComment {
                target: change_request,
                page: page.clone(),
                markdown: text,
            },
            PendingWrite::Post { draft_key },
        ),
        ComposeTarget::Reply { comment } => (
            ChangeRequestsCall::PostReply {
                target: change_request,
                comment: comment.clone(),
                markdown: text,
            },
            PendingWrite::Post { draft_key },
        ),
        ComposeTarget::Edit { comment, reply } => (
            ChangeRequestsCall::UpdateComment {
                target: change_request,
                comment: comment.clone(),
                reply: reply.clone(),
                update: CommentUpdate::edit(text.clone()),
            },
            PendingWrite::Edit {
                draft_key,
                comment: comment.clone(),
                reply: reply.clone(),
                text,
            },
        ),
        // Sent by `description::submit`, never from here.
        ComposeTarget::Description => return Cmd::None,
        ComposeTarget::BlockComment {
            page, node, cell, ..
        } => (
            ChangeRequestsCall::PostBlockComment {
                target: change_request,
                page: page.clone(),
                node: node.clone(),
                table_cell: cell.as_ref().map(|pick| pick.cell.clone()),
                markdown: text,
            },
            PendingWrite::Post { draft_key },
        ),
        ComposeTarget::Review { approve } => (
            ChangeRequestsCall::SubmitReview {
                target: change_request,
                verdict: if *approve {
                    ReviewVerdict::Approved
                } else {
                    ReviewVerdict::ChangesRequested
                },
                comment: (!text.trim().is_empty()).then_some(text),
            },
            PendingWrite::Review { draft_key },
        ),
    };
    screen.send(ctx, call, pending)
}

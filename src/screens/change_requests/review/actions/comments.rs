//! The comments tab's keys: replies, reactions, resolving, editing and deleting one's own.

use super::composer::open_composer;
use super::navigation::{jump_to_unresolved, keep_selected_row, step};
use crate::api::CommentUpdate;
use crate::screens::change_requests::review::layout::body_height;
use crate::screens::change_requests::review::threads::{self, Row};
use crate::screens::change_requests::review::{
    ComposeTarget, Confirmation, Overlay, PendingWrite, ReviewScreen,
};
use crate::screens::step::{Ctx, Step};
use crate::ui::composer::Composer;
use crate::ui::emoji_picker::EmojiPicker;
use crate::ui::keymap::Action;
use crate::vocabulary::Cmd;
use crate::vocabulary::change_requests::ChangeRequestsCall;

/// How many recently used reactions the picker offers first.
const RECENT_REACTIONS: usize = 8;

pub(super) fn on_comments_action(
    screen: &mut ReviewScreen,
    action: Action,
    ctx: &mut Ctx,
) -> Option<Step> {
    let rows = screen.rows();
    let len = rows.len();
    let page = body_height(ctx).max(1) as isize;
    let row = rows.get(screen.comment_selection.selected).copied();
    let cmd = match action {
        Action::Down => step(&mut screen.comment_selection, 1, len),
        Action::Up => step(&mut screen.comment_selection, -1, len),
        Action::HalfPageDown => step(&mut screen.comment_selection, page / 2, len),
        Action::HalfPageUp => step(&mut screen.comment_selection, -page / 2, len),
        Action::PageDown => step(&mut screen.comment_selection, page, len),
        Action::PageUp => step(&mut screen.comment_selection, -page, len),
        Action::Top => {
            screen.comment_selection.top();
            Cmd::None
        }
        Action::Bottom => {
            screen.comment_selection.bottom(len);
            Cmd::None
        }
        Action::NextThread => {
            jump_to_unresolved(screen, true);
            Cmd::None
        }
        Action::PreviousThread => {
            jump_to_unresolved(screen, false);
            Cmd::None
        }
        Action::CycleCommentFilter => {
            screen.thread_filter = screen.thread_filter.next();
            keep_selected_row(screen, row);
            Cmd::None
        }
        Action::AuthorFilter => screen.ask_for_commenters(ctx),
        Action::ShowThreadHere => screen.show_thread_in_diff(ctx),
        Action::NextNew => {
            screen.next_new_thread();
            Cmd::None
        }
        Action::NewComment => {
            open_composer(screen, ComposeTarget::NewComment { page: None });
            Cmd::None
        }
        Action::Reply => {
            let comment = thread_id(screen, row?)?;
            open_composer(screen, ComposeTarget::Reply { comment });
            Cmd::None
        }
        Action::React => {
            let row = row?;
            let me = screen.me.value().map(|u| u.id.clone()).unwrap_or_default();
            let mine = screen
                .threads()
                .get(row.thread)
                .and_then(|t| threads::reactions_of(t, row.reply))
                .map(|reactions| {
                    reactions
                        .iter()
                        .filter(|r| r.users.iter().any(|u| u.user.id == me))
                        .map(|r| r.emoji.clone())
                        .collect()
                })
                .unwrap_or_default();
            let thread = screen.threads().get(row.thread)?;
            let comment = thread.comment.id.clone();
            let reply = threads::reply_of(thread, row.reply).map(|r| r.id.clone());
            screen.overlay = Some(Overlay::Reactions {
                comment,
                reply,
                picker: EmojiPicker::new(&screen.recent_reactions, mine),
            });
            Cmd::None
        }
        Action::ToggleResolved => toggle_resolved(screen, row?, ctx),
        Action::EditOwn => {
            let row = row?;
            let (comment, reply, text, allowed) = row_details(screen, row)?;
            if !allowed.0 {
                screen.notice("Only the author can edit this comment.", true);
            } else {
                let target = ComposeTarget::Edit { comment, reply };
                let key = screen.draft_key(&target);
                let draft = screen.drafts.get(&key).cloned().unwrap_or(text);
                screen.overlay = Some(Overlay::Composer {
                    target,
                    draft_key: key,
                    composer: Composer::new("Edit your comment", &draft),
                });
            }
            Cmd::None
        }
        Action::DeleteOwn => {
            let row = row?;
            let (comment, reply, _, allowed) = row_details(screen, row)?;
            if allowed.1 {
                screen.overlay = Some(Overlay::Confirm(Confirmation::Delete { comment, reply }));
            } else {
                screen.notice(
                    "Only the author (or an admin) can delete this comment.",
                    true,
                );
            }
            Cmd::None
        }
        Action::WhoReacted => {
            let row = row?;
            let thread = screen.threads().get(row.thread)?;
            let lines: Vec<String> = threads::reactions_of(thread, row.reply)?
                .iter()
                .map(|reaction| {
                    let names: Vec<String> = reaction
                        .users
                        .iter()
                        .map(|u| u.user.display_name.clone())
                        .collect();
                    format!("{} {}", reaction.emoji, names.join(", "))
                })
                .collect();
            screen.overlay = Some(Overlay::WhoReacted { lines });
            Cmd::None
        }
        _ => return None,
    };
    Some(Step::cmd(cmd))
}

/// The id of the thread a row belongs to.
fn thread_id(screen: &ReviewScreen, row: Row) -> Option<String> {
    screen
        .threads()
        .get(row.thread)
        .map(|t| t.comment.id.clone())
}

/// (comment id, reply id, text, (may edit, may delete)) of a row.
type RowDetails = (String, Option<String>, String, (bool, bool));

fn row_details(screen: &ReviewScreen, row: Row) -> Option<RowDetails> {
    let thread = screen.threads().get(row.thread)?;
    match threads::reply_of(thread, row.reply) {
        Some(reply) => Some((
            thread.comment.id.clone(),
            Some(reply.id.clone()),
            reply.body.markdown().unwrap_or_default().to_string(),
            (reply.permissions.edit, reply.permissions.delete),
        )),
        None => Some((
            thread.comment.id.clone(),
            None,
            thread
                .comment
                .body
                .markdown()
                .unwrap_or_default()
                .to_string(),
            (
                thread.comment.permissions.edit,
                thread.comment.permissions.delete,
            ),
        )),
    }
}

fn toggle_resolved(screen: &mut ReviewScreen, row: Row, ctx: &mut Ctx) -> Cmd {
    let me = screen.me.value().cloned();
    let target = screen.target.clone();
    let Some(bundle) = screen.bundle.value_mut() else {
        return Cmd::None;
    };
    let Some(thread) = bundle.threads.get_mut(row.thread) else {
        return Cmd::None;
    };
    let previous = thread.comment.clone();
    let resolve = !previous.is_resolved();
    // Shown at once; put back if the server refuses.
    threads::set_resolved(&mut thread.comment, resolve, me.as_ref());
    let comment = previous.id.clone();
    let call = ChangeRequestsCall::UpdateComment {
        target,
        comment: comment.clone(),
        reply: None,
        update: CommentUpdate::resolve(resolve),
    };
    screen.notice(if resolve { "Resolved." } else { "Reopened." }, false);
    screen.send(ctx, call, PendingWrite::Resolve { comment, previous })
}

pub(super) fn react(
    screen: &mut ReviewScreen,
    comment: String,
    reply: Option<String>,
    emoji: String,
    ctx: &mut Ctx,
) -> Cmd {
    let Some(me) = screen.me.value().cloned() else {
        screen.notice(
            "Still finding out who you are; try again in a moment.",
            true,
        );
        return Cmd::None;
    };
    screen.recent_reactions.retain(|e| *e != emoji);
    screen.recent_reactions.insert(0, emoji.clone());
    screen.recent_reactions.truncate(RECENT_REACTIONS);
    let target = screen.target.clone();
    let Some(bundle) = screen.bundle.value_mut() else {
        return Cmd::None;
    };
    let Some(thread_data) = bundle.threads.iter_mut().find(|t| t.comment.id == comment) else {
        screen.notice("That comment is gone: it was deleted meanwhile.", true);
        return Cmd::None;
    };
    let reply_index = match &reply {
        Some(id) => match thread_data.replies.iter().position(|r| r.id == *id) {
            Some(index) => Some(index),
            None => {
                screen.notice("That reply is gone: it was deleted meanwhile.", true);
                return Cmd::None;
            }
        },
        None => None,
    };
    let reply_id = reply;
    let Some(reactions) = threads::reactions_of_mut(thread_data, reply_index) else {
        return Cmd::None;
    };
    let previous = reactions.clone();
    let added = threads::toggle_reaction(reactions, &emoji, &me);
    let call = ChangeRequestsCall::UpdateComment {
        target,
        comment: comment.clone(),
        reply: reply_id.clone(),
        update: CommentUpdate::react(emoji, added),
    };
    screen.send(
        ctx,
        call,
        PendingWrite::React {
            comment,
            reply: reply_id,
            previous,
        },
    )
}

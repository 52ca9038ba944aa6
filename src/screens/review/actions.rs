//! What keys do on the review screen, and what each write's answer does to it.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::threads::{self, Row};
use super::{ComposeTarget, Confirmation, Overlay, PendingWrite, ReviewScreen, ReviewTab};
use crate::api::models::{ChangeRequestStatus, MergeOutcome, UpdateOutcome};
use crate::api::{ChangeRequestUpdate, CommentUpdate, ReviewVerdict};
use crate::app::keymap::Action;
use crate::app::review_calls::{ReviewCall, ReviewResponse};
use crate::app::{ApiCall, Cmd, Ctx, Loadable, Step};
use crate::ui::address_popup::AddressOutcome;
use crate::ui::composer::{Composer, ComposerOutcome};
use crate::ui::emoji_picker::{EmojiPicker, PickerOutcome};
use crate::ui::input::{Filter, InputOutcome, LineInput};
use crate::ui::list::Selection;
use crate::ui::notice;

/// How many recently used reactions the picker offers first.
const RECENT_REACTIONS: usize = 8;

pub fn hints(screen: &ReviewScreen) -> Vec<(Action, &'static str)> {
    let mut hints = match screen.tab {
        ReviewTab::Overview => vec![
            (Action::EditDescription, "description"),
            (Action::NextChangeRequest, "next CR"),
        ],
        ReviewTab::Changes => vec![
            (Action::NextHunk, "next change"),
            (Action::ToggleRendered, "rendered"),
            (Action::ToggleSideBySide, "split"),
            (Action::NewComment, "comment"),
        ],
        ReviewTab::Comments => vec![
            (Action::NextThread, "next open"),
            (Action::Reply, "reply"),
            (Action::React, "react"),
            (Action::ToggleResolved, "resolve"),
            (Action::NewComment, "comment"),
            (Action::CycleCommentFilter, "filter"),
        ],
        ReviewTab::Reviews => vec![
            (Action::EditDescription, "description"),
            (Action::Approve, "approve"),
            (Action::RequestChanges, "request changes"),
            (Action::AddReviewer, "add reviewer"),
        ],
    };
    hints.push((Action::Merge, "merge"));
    if screen.tab == ReviewTab::Changes {
        hints.push((Action::Backlinks, "backlinks"));
    }
    hints.extend([
        (Action::Files, "files"),
        (Action::Pdf, "PDF"),
        (Action::NextTab, "tab"),
        (Action::Help, "keys"),
    ]);
    hints
}

/// Actions the server says this user may not take, shown struck through in the footer.
pub fn disabled(screen: &ReviewScreen) -> Vec<Action> {
    let mut disabled = Vec::new();
    if screen.bundle.value().is_none() {
        return disabled;
    }
    if !screen.can_comment() {
        disabled.extend([
            Action::NewComment,
            Action::Reply,
            Action::React,
            Action::ToggleResolved,
        ]);
    }
    if !screen.can_review() {
        disabled.extend([Action::Approve, Action::RequestChanges]);
    }
    if !screen.can_merge() {
        disabled.push(Action::Merge);
    }
    if !screen.can_edit() {
        disabled.extend([
            Action::UpdateFromMain,
            Action::ToggleDraft,
            Action::Archive,
            Action::AddReviewer,
            Action::RemoveReviewer,
            Action::EditSubject,
            Action::EditDescription,
        ]);
    }
    disabled
}

/// Why an action is refused before anything is sent, or None when it may go ahead: what
/// the action needs and what the server says you are.
fn refusal(screen: &ReviewScreen, action: Action) -> Option<String> {
    if !disabled(screen).contains(&action) {
        return None;
    }
    let (what, needed) = match action {
        Action::Approve | Action::RequestChanges => {
            ("review this change request", "review or above")
        }
        Action::Merge => ("merge in this space", "create or above"),
        Action::UpdateFromMain
        | Action::ToggleDraft
        | Action::Archive
        | Action::AddReviewer
        | Action::RemoveReviewer
        | Action::EditSubject
        | Action::EditDescription => ("edit this change request", "edit or above"),
        _ => ("comment here", "comment or above"),
    };
    let you_are = screen
        .role()
        .map(|role| format!("you are {role}; "))
        .unwrap_or_default();
    Some(format!(
        "Your role cannot {what}: {you_are}{needed} is needed."
    ))
}

pub(super) fn body_height(ctx: &Ctx) -> usize {
    let (_, height) = crate::ui::chrome::body_size(ctx.size.width, ctx.size.height);
    height.saturating_sub(super::view::HEADER_ROWS) as usize
}

pub fn on_action(screen: &mut ReviewScreen, action: Action, ctx: &mut Ctx) -> Option<Step> {
    if let Some(reason) = refusal(screen, action) {
        screen.notice(reason, true);
        return Some(Step::default());
    }
    let tab_index = ReviewTab::ALL
        .iter()
        .position(|t| *t == screen.tab)
        .unwrap_or(0);
    if matches!(action, Action::Files | Action::Backlinks) {
        return Some(super::content::open(screen, action));
    }
    let cmd = match action {
        Action::NextTab => {
            let next = (tab_index + 1) % ReviewTab::ALL.len();
            switch_tab(screen, ReviewTab::ALL[next], ctx)
        }
        Action::PreviousTab => {
            let tabs = ReviewTab::ALL.len();
            switch_tab(screen, ReviewTab::ALL[(tab_index + tabs - 1) % tabs], ctx)
        }
        // ── review flow ──
        Action::OverviewTab => switch_tab(screen, ReviewTab::Overview, ctx),
        Action::NextChangeRequest | Action::PreviousChangeRequest => {
            let forward = action == Action::NextChangeRequest;
            return Some(super::overview::step_change_request(screen, forward));
        }
        Action::ChangesTab => switch_tab(screen, ReviewTab::Changes, ctx),
        Action::CommentsTab => switch_tab(screen, ReviewTab::Comments, ctx),
        Action::ReviewsTab => switch_tab(screen, ReviewTab::Reviews, ctx),
        Action::Merge => {
            screen.overlay = Some(Overlay::Preflight);
            Cmd::None
        }
        Action::UpdateFromMain => {
            let call = ReviewCall::UpdateFromMain(screen.target.clone());
            screen.notice("Bringing main's changes in…", false);
            screen.send(ctx, call, PendingWrite::Update)
        }
        Action::ToggleDraft => {
            let status = match screen.change_request().and_then(|cr| cr.status.clone()) {
                Some(ChangeRequestStatus::Draft) => ChangeRequestStatus::Open,
                _ => ChangeRequestStatus::Draft,
            };
            screen.overlay = Some(Overlay::Confirm(Confirmation::SetStatus { status }));
            Cmd::None
        }
        Action::Archive => {
            screen.overlay = Some(Overlay::Confirm(Confirmation::SetStatus {
                status: ChangeRequestStatus::Archived,
            }));
            Cmd::None
        }
        Action::EditSubject => {
            let subject = screen
                .change_request()
                .map(|cr| cr.subject.clone())
                .unwrap_or_default();
            screen.overlay = Some(Overlay::Subject {
                input: LineInput::with_text(&crate::ui::sanitize::sanitize(&subject)),
                error: None,
            });
            Cmd::None
        }
        Action::EditDescription => {
            super::description::open_editor(screen);
            Cmd::None
        }
        Action::Pdf => super::description::ask_for_pdf(screen, ctx),
        Action::Filter => {
            if matches!(screen.tab, ReviewTab::Reviews | ReviewTab::Overview) {
                screen.notice(
                    "/ filters threads on the comments tab and searches the diff on the changes tab.",
                    false,
                );
            } else if screen.tab == ReviewTab::Changes && screen.rendered {
                // The search walks the diff's lines; the rendered version has other lines.
                screen.notice("/ searches the diff: v shows the diff again.", false);
            } else {
                screen.query_mut().open();
            }
            Cmd::None
        }
        // The overview has no query of its own: esc there goes back, never clears the comments'.
        Action::Back
            if !matches!(screen.tab, ReviewTab::Reviews | ReviewTab::Overview)
                && screen.query().is_shown() =>
        {
            clear_query(screen);
            Cmd::None
        }
        Action::Approve | Action::RequestChanges => {
            open_composer(
                screen,
                ComposeTarget::Review {
                    approve: action == Action::Approve,
                },
            );
            Cmd::None
        }
        _ => match screen.tab {
            ReviewTab::Changes => return on_changes_action(screen, action, ctx),
            ReviewTab::Comments => return on_comments_action(screen, action, ctx),
            ReviewTab::Reviews => return on_overview_action(screen, action, ctx),
            ReviewTab::Overview => return super::overview::on_action(screen, action, ctx),
        },
    };
    Some(Step::cmd(cmd))
}

fn switch_tab(screen: &mut ReviewScreen, tab: ReviewTab, _ctx: &mut Ctx) -> Cmd {
    screen.tab = tab;
    Cmd::None
}

fn on_changes_action(screen: &mut ReviewScreen, action: Action, ctx: &mut Ctx) -> Option<Step> {
    let height = screen.diff_height(ctx);
    let len = screen.pages.len();
    match action {
        Action::Down => screen.page_selection.move_by(1, len),
        Action::Up => screen.page_selection.move_by(-1, len),
        Action::Top => screen.page_selection.top(),
        Action::Bottom => screen.page_selection.bottom(len),
        Action::HalfPageDown => screen.scroll_diff(height as isize / 2, height),
        Action::HalfPageUp => screen.scroll_diff(-(height as isize) / 2, height),
        Action::PageDown => screen.scroll_diff(height as isize - 1, height),
        Action::PageUp => screen.scroll_diff(-(height as isize - 1), height),
        Action::NextHunk | Action::PreviousHunk => {
            let forward = action == Action::NextHunk;
            if screen.diff_search.text.is_empty() {
                return Some(Step::cmd(screen.step_hunk(forward, ctx)));
            }
            screen.step_search(forward, ctx);
        }
        Action::ToggleRendered => screen.rendered = !screen.rendered,
        Action::ToggleSideBySide => {
            let width = super::changes::diff_area(ctx).width;
            if width < crate::ui::diff::SIDE_BY_SIDE_MIN_WIDTH {
                // The layout would not change, so say why instead of flipping a hidden flag.
                screen.notice(
                    format!(
                        "Side by side needs {} columns for the diff and it has {width}: widen the terminal.",
                        crate::ui::diff::SIDE_BY_SIDE_MIN_WIDTH
                    ),
                    false,
                );
            } else {
                screen.side_by_side = !screen.side_by_side;
                screen.relayout(ctx);
            }
        }
        Action::NewComment => {
            let target = screen.comment_target_here(ctx);
            open_composer(screen, target);
        }
        // ── threads on the diff ──
        Action::ShowThreadHere => screen.show_thread_of_diff(ctx),
        Action::SinceLastReview => return Some(Step::cmd(screen.toggle_since(ctx))),
        _ => return None,
    }
    Some(Step::cmd(screen.follow_page(ctx, false)))
}

fn on_comments_action(screen: &mut ReviewScreen, action: Action, ctx: &mut Ctx) -> Option<Step> {
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
        // ── threads on the diff ──
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

/// After the shown rows changed: the row that was selected, else the nearest thread.
fn keep_selected_row(screen: &mut ReviewScreen, previous: Option<Row>) {
    let rows = screen.rows();
    screen.comment_selection.selected = threads::position_after_change(&rows, previous);
    screen.comment_selection.clamp(rows.len());
}

fn clear_query(screen: &mut ReviewScreen) {
    let row = screen.selected_row();
    screen.query_mut().clear();
    keep_selected_row(screen, row);
}

/// Keys before the keymap: an open overlay takes them all, then a `/` query being typed;
/// `esc` dismisses an error before it does anything else.
pub fn on_raw_key(screen: &mut ReviewScreen, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
    if screen.overlay.is_some() {
        return on_overlay_key(screen, key, ctx);
    }
    if screen.query().is_typing() {
        on_query_key(screen, key, ctx);
        return Some(Step::default());
    }
    if key.code == KeyCode::Esc && notice::dismiss_error(&mut screen.notice) {
        return Some(Step::default());
    }
    None
}

/// A key typed into the `/` query: the threads filter or the diff follows at once.
fn on_query_key(screen: &mut ReviewScreen, key: &KeyEvent, ctx: &mut Ctx) {
    let row = screen.selected_row();
    screen.query_mut().handle_key(key);
    follow_query(screen, row, ctx);
}

/// A paste into the query changes it like typing does.
pub fn paste_into_query(screen: &mut ReviewScreen, text: &str, ctx: &mut Ctx) {
    let row = screen.selected_row();
    screen.query_mut().paste(text);
    follow_query(screen, row, ctx);
}

/// After the query changed: keep the thread in view, or jump to the first match in the diff.
fn follow_query(screen: &mut ReviewScreen, row: Option<Row>, ctx: &mut Ctx) {
    match screen.tab {
        ReviewTab::Comments => keep_selected_row(screen, row),
        ReviewTab::Changes => screen.search_from_view(ctx),
        ReviewTab::Reviews | ReviewTab::Overview => {}
    }
}

fn step(selection: &mut Selection, delta: isize, len: usize) -> Cmd {
    selection.move_by(delta, len);
    Cmd::None
}

fn on_overview_action(screen: &mut ReviewScreen, action: Action, ctx: &mut Ctx) -> Option<Step> {
    let len = screen.requested().len();
    let cmd = match action {
        Action::Down => step(&mut screen.reviewer_selection, 1, len),
        Action::Up => step(&mut screen.reviewer_selection, -1, len),
        Action::AddReviewer => {
            let organization = screen
                .bundle
                .value()
                .and_then(|b| b.space.as_ref())
                .and_then(|s| s.organization.clone())?;
            let request = ctx.requests.issue();
            let mut members = Loadable::NotAsked;
            members.start(request);
            screen.overlay = Some(Overlay::Reviewers {
                members,
                filter: Filter::default(),
                selection: Selection::default(),
            });
            Cmd::Api {
                request,
                call: ApiCall::Review(ReviewCall::ListMembers { organization }),
            }
        }
        Action::RemoveReviewer => {
            let reviewer = screen.requested().get(screen.reviewer_selection.selected)?;
            let user = reviewer.user.as_ref()?;
            screen.overlay = Some(Overlay::Confirm(Confirmation::RemoveReviewer {
                user: user.id.clone(),
                name: user.display_name.clone(),
            }));
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

/// The triage loop: the next (or previous) unresolved thread after the selection, wrapping.
fn jump_to_unresolved(screen: &mut ReviewScreen, forward: bool) {
    if screen.thread_filter == super::ThreadFilter::Resolved {
        screen.thread_filter = super::ThreadFilter::All;
    }
    let rows = screen.rows();
    let current = rows
        .get(screen.comment_selection.selected)
        .map_or(0, |r| r.thread);
    let open = threads::unresolved(screen.threads());
    if open.is_empty() {
        screen.notice("No unresolved threads left. 🎉", false);
        return;
    }
    let target = if forward {
        open.iter().find(|t| **t > current).or(open.first())
    } else {
        open.iter().rev().find(|t| **t < current).or(open.last())
    };
    if let Some(thread) = target
        && let Some(position) = rows
            .iter()
            .position(|r| r.thread == *thread && r.reply.is_none())
    {
        screen.comment_selection.selected = position;
    }
}

/// "3/11": where the selected thread stands among the unresolved ones.
pub fn triage_position(screen: &ReviewScreen) -> Option<String> {
    let open = threads::unresolved(screen.threads());
    let row = screen.selected_row()?;
    let position = open.iter().position(|t| *t == row.thread)?;
    Some(format!("{}/{}", position + 1, open.len()))
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
    let call = ReviewCall::UpdateComment {
        target,
        comment: comment.clone(),
        reply: None,
        update: CommentUpdate::resolve(resolve),
    };
    screen.notice(if resolve { "Resolved." } else { "Reopened." }, false);
    screen.send(ctx, call, PendingWrite::Resolve { comment, previous })
}

fn react(
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
    let call = ReviewCall::UpdateComment {
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

fn open_composer(screen: &mut ReviewScreen, target: ComposeTarget) {
    let key = screen.draft_key(&target);
    let draft = screen.drafts.get(&key).cloned().unwrap_or_default();
    let title = match &target {
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
        ComposeTarget::BlockComment { line, node, .. } => {
            screen.line_comment_title(*line, node.as_deref())
        }
    };
    let mut composer = Composer::new(title, &draft);
    composer.allow_blank = matches!(target, ComposeTarget::Review { .. });
    screen.overlay = Some(Overlay::Composer {
        target,
        draft_key: key,
        composer,
    });
}

/// Keys for an open overlay (they come before the keymap).
pub fn on_overlay_key(screen: &mut ReviewScreen, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
    let overlay = screen.overlay.take()?;
    let cmd = match overlay {
        Overlay::Composer {
            target,
            draft_key,
            mut composer,
        } => on_composer_key(screen, target, draft_key, &mut composer, key, ctx),
        Overlay::Reactions {
            comment,
            reply,
            mut picker,
        } => match picker.handle_key(key) {
            PickerOutcome::Chosen(emoji) => react(screen, comment, reply, emoji, ctx),
            PickerOutcome::Cancelled => Cmd::None,
            PickerOutcome::Pending => {
                screen.overlay = Some(Overlay::Reactions {
                    comment,
                    reply,
                    picker,
                });
                Cmd::None
            }
        },
        Overlay::WhoReacted { .. } => Cmd::None,
        Overlay::Confirm(confirmation) => match key.code {
            KeyCode::Char('y') | KeyCode::Enter => confirm(screen, confirmation, ctx),
            // Not now: back to the text, which is still there.
            KeyCode::Char('n') | KeyCode::Esc | KeyCode::Char('q')
                if matches!(confirmation, Confirmation::SetDescription { .. }) =>
            {
                super::description::open_editor(screen);
                Cmd::None
            }
            KeyCode::Char('n') | KeyCode::Esc | KeyCode::Char('q') => Cmd::None,
            _ => {
                screen.overlay = Some(Overlay::Confirm(confirmation));
                Cmd::None
            }
        },
        Overlay::Preflight => match key.code {
            KeyCode::Char('y') | KeyCode::Enter if screen.can_merge() => {
                screen.notice("Merging…", false);
                let call = ReviewCall::Merge(screen.target.clone());
                screen.send(ctx, call, PendingWrite::Merge)
            }
            KeyCode::Char('U') if screen.can_edit() => {
                let call = ReviewCall::UpdateFromMain(screen.target.clone());
                screen.notice("Bringing main's changes in…", false);
                screen.send(ctx, call, PendingWrite::Update)
            }
            KeyCode::Esc | KeyCode::Char('n') | KeyCode::Char('q') => Cmd::None,
            _ => {
                screen.overlay = Some(Overlay::Preflight);
                Cmd::None
            }
        },
        Overlay::Reviewers {
            members,
            mut filter,
            mut selection,
        } => on_reviewer_picker_key(screen, members, &mut filter, &mut selection, key, ctx),
        Overlay::Subject { input, .. } => {
            on_subject_key(screen, input, key);
            Cmd::None
        }
        Overlay::Pdf(popup) => match popup.handle_key(key) {
            AddressOutcome::Copy(address) => {
                screen.overlay = Some(Overlay::Pdf(popup));
                screen.notice("Address copied.", false);
                Cmd::CopyToClipboard(address)
            }
            AddressOutcome::Open(address) => {
                screen.overlay = Some(Overlay::Pdf(popup));
                Cmd::OpenInBrowser(address)
            }
            AddressOutcome::Close => Cmd::None,
            AddressOutcome::Pending => {
                screen.overlay = Some(Overlay::Pdf(popup));
                Cmd::None
            }
        },
    };
    Some(Step::cmd(cmd))
}

/// The subject editor: enter asks to confirm a valid, changed subject; esc closes.
fn on_subject_key(screen: &mut ReviewScreen, mut input: LineInput, key: &KeyEvent) {
    let error = match input.handle_key(key) {
        InputOutcome::Cancelled => return,
        InputOutcome::Submitted => {
            let subject = input.text.trim().to_string();
            // The input was filled with the sanitized subject: compare like with like, so an
            // untouched subject with a control character is not "changed" into stand-ins.
            let current = screen.change_request().map(|cr| {
                crate::ui::sanitize::sanitize(&cr.subject)
                    .trim()
                    .to_string()
            });
            if subject.is_empty() {
                Some("A subject cannot be empty.".to_string())
            } else if subject.chars().count() > ChangeRequestUpdate::MAX_SUBJECT {
                Some(format!(
                    "A subject has at most {} characters.",
                    ChangeRequestUpdate::MAX_SUBJECT
                ))
            } else if current.as_deref() == Some(subject.as_str()) {
                screen.notice("The subject is unchanged.", false);
                return;
            } else {
                screen.overlay = Some(Overlay::Confirm(Confirmation::SetSubject { subject }));
                return;
            }
        }
        _ => None,
    };
    screen.overlay = Some(Overlay::Subject { input, error });
}

fn on_composer_key(
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
            let (cmd, stays_open) = super::description::submit(screen, &draft_key, composer, ctx);
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
        return super::description::is_unchanged(screen, &composer.text());
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
            ReviewCall::PostComment {
                target: change_request,
                page: page.clone(),
                markdown: text,
            },
            PendingWrite::Post { draft_key },
        ),
        ComposeTarget::Reply { comment } => (
            ReviewCall::PostReply {
                target: change_request,
                comment: comment.clone(),
                markdown: text,
            },
            PendingWrite::Post { draft_key },
        ),
        ComposeTarget::Edit { comment, reply } => (
            ReviewCall::UpdateComment {
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
        ComposeTarget::BlockComment { page, node, .. } => (
            ReviewCall::PostBlockComment {
                target: change_request,
                page: page.clone(),
                node: node.clone(),
                markdown: text,
            },
            PendingWrite::Post { draft_key },
        ),
        ComposeTarget::Review { approve } => (
            ReviewCall::SubmitReview {
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

fn confirm(screen: &mut ReviewScreen, confirmation: Confirmation, ctx: &mut Ctx) -> Cmd {
    let target = screen.target.clone();
    match confirmation {
        Confirmation::Delete { comment, reply } => {
            let call = ReviewCall::DeleteComment {
                target,
                comment: comment.clone(),
                reply: reply.clone(),
            };
            screen.send(ctx, call, PendingWrite::Delete { comment, reply })
        }
        Confirmation::SetStatus { status } => {
            let call = ReviewCall::SetStatus { target, status };
            screen.send(ctx, call, PendingWrite::Status)
        }
        Confirmation::RemoveReviewer { user, .. } => {
            let call = ReviewCall::RemoveReviewer { target, user };
            screen.send(ctx, call, PendingWrite::Reviewers)
        }
        Confirmation::SetSubject { subject } => {
            screen.notice("Saving the subject…", false);
            let call = ReviewCall::SetSubject { target, subject };
            screen.send(ctx, call, PendingWrite::Subject)
        }
        Confirmation::SetDescription {
            document,
            draft_key,
            ..
        } => {
            screen.notice("Saving the description…", false);
            super::description::send(screen, document, &draft_key, ctx)
        }
    }
}

fn on_reviewer_picker_key(
    screen: &mut ReviewScreen,
    members: Loadable<Vec<crate::api::models::Member>>,
    filter: &mut Filter,
    selection: &mut Selection,
    key: &KeyEvent,
    ctx: &mut Ctx,
) -> Cmd {
    let candidates: Vec<(String, String)> = members
        .value()
        .map(|members| {
            members
                .iter()
                .filter(|m| {
                    filter.matches(&format!(
                        "{} {}",
                        m.user.display_name,
                        m.user.email.as_deref().unwrap_or("")
                    ))
                })
                .map(|m| (m.user.id.clone(), m.user.display_name.clone()))
                .collect()
        })
        .unwrap_or_default();
    let mut close = false;
    let cmd = match key.code {
        KeyCode::Down => {
            selection.move_by(1, candidates.len());
            Cmd::None
        }
        KeyCode::Up => {
            selection.move_by(-1, candidates.len());
            Cmd::None
        }
        KeyCode::Enter => {
            close = true;
            match candidates.get(selection.selected) {
                Some((user, name)) => {
                    screen.notice(format!("Asking {name} to review…"), false);
                    let call = ReviewCall::RequestReviewers {
                        target: screen.target.clone(),
                        users: vec![user.clone()],
                    };
                    screen.send(ctx, call, PendingWrite::Reviewers)
                }
                None => Cmd::None,
            }
        }
        KeyCode::Esc => {
            close = true;
            Cmd::None
        }
        _ => {
            if filter.input.is_none() {
                filter.open();
            }
            if filter.handle_key(key) == Some(InputOutcome::Cancelled) {
                close = true;
            }
            selection.top();
            Cmd::None
        }
    };
    if !close {
        screen.overlay = Some(Overlay::Reviewers {
            members,
            filter: filter.clone(),
            selection: selection.clone(),
        });
    }
    cmd
}

impl ReviewScreen {
    /// Applies the answer to a write: keep the optimistic change, or put things back and say why.
    pub(super) fn on_write_answer(
        &mut self,
        pending: PendingWrite,
        response: &ReviewResponse,
        ctx: &mut Ctx,
    ) -> Cmd {
        match (pending, response) {
            (
                PendingWrite::Resolve { comment, previous },
                ReviewResponse::CommentUpdated(Err(error)),
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
                ReviewResponse::CommentUpdated(Err(error)),
            ) => {
                self.restore_reactions(&comment, reply.as_deref(), previous);
                self.notice(self.refused("Reacting", error), true);
                Cmd::None
            }
            (PendingWrite::Resolve { .. } | PendingWrite::React { .. }, _) => Cmd::None,
            (PendingWrite::Post { draft_key }, ReviewResponse::CommentPosted(result)) => {
                match result {
                    Ok(comment) => {
                        if let Some(bundle) = self.bundle.value_mut() {
                            bundle.threads.insert(
                                0,
                                crate::app::review_calls::Thread {
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
            (PendingWrite::Post { draft_key }, ReviewResponse::ReplyPosted(result)) => match result
            {
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
            },
            (
                PendingWrite::Edit {
                    draft_key,
                    comment,
                    reply,
                    text,
                },
                ReviewResponse::CommentUpdated(result),
            ) => match result {
                Ok(()) => {
                    self.set_body(&comment, reply.as_deref(), text);
                    self.sent(&draft_key, "Comment edited.")
                }
                Err(error) => self.failed_post_or_unknown(&draft_key, "Editing", error, ctx),
            },
            (PendingWrite::Delete { comment, reply }, ReviewResponse::Deleted(result)) => {
                match result {
                    Ok(()) => {
                        self.remove_comment(&comment, reply.as_deref());
                        self.notice("Deleted.", false);
                    }
                    Err(error) => self.notice(self.refused("Deleting", error), true),
                }
                Cmd::None
            }
            (PendingWrite::Review { draft_key }, ReviewResponse::ReviewSubmitted(result)) => {
                match result {
                    Ok(review) => {
                        let verdict = review
                            .status
                            .as_ref()
                            .map_or("review", |s| s.as_str())
                            .to_string();
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
                        }
                        self.sent(&draft_key, &format!("Review submitted: {verdict}."))
                    }
                    Err(error) => {
                        self.failed_post_or_unknown(&draft_key, "Submitting the review", error, ctx)
                    }
                }
            }
            (PendingWrite::Reviewers, ReviewResponse::ReviewersChanged(result)) => {
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
            (PendingWrite::Status, ReviewResponse::StatusSet(result)) => {
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
            (PendingWrite::Subject, ReviewResponse::SubjectSet(result)) => {
                match result {
                    Ok(change_request) => {
                        if let Some(bundle) = self.bundle.value_mut() {
                            bundle.change_request = change_request.clone();
                        }
                        self.notice("Subject changed.", false);
                    }
                    Err(error) => self.notice(self.refused("Changing the subject", error), true),
                }
                Cmd::None
            }
            (PendingWrite::Description { draft_key }, ReviewResponse::DescriptionSet(result)) => {
                match result {
                    Ok(change_request) => {
                        if let Some(bundle) = self.bundle.value_mut() {
                            bundle.change_request = change_request.clone();
                        }
                        if let Some(cached) = ctx.reviews.get_mut(&self.target) {
                            cached.change_request = change_request.clone();
                        }
                        self.sent(&draft_key, "Description saved.")
                    }
                    Err(error) => self.failed_post_or_unknown(
                        &draft_key,
                        "Saving the description",
                        error,
                        ctx,
                    ),
                }
            }
            (PendingWrite::Pdf { page }, ReviewResponse::Pdf(result)) => {
                match result {
                    Ok(address) => super::description::show_pdf(self, page, address),
                    Err(error) => self.notice(self.refused("Asking for the PDF", error), true),
                }
                Cmd::None
            }
            (PendingWrite::Merge, ReviewResponse::Merged(result)) => match result {
                Ok(merge) => match &merge.result {
                    MergeOutcome::Merge => {
                        self.notice("Merged into main. ✓", false);
                        self.load(ctx)
                    }
                    MergeOutcome::Conflicts => {
                        self.notice(
                            "Not merged: it conflicts with main. Update from main (U) and resolve the conflicts in the editor first.",
                            true,
                        );
                        Cmd::None
                    }
                    MergeOutcome::Other(other) => {
                        self.notice(format!("The server answered `{other}`."), true);
                        self.load(ctx)
                    }
                },
                Err(error) => {
                    self.notice(self.refused("Merging", error), true);
                    Cmd::None
                }
            },
            (PendingWrite::Update, ReviewResponse::UpdatedFromMain(result)) => match result {
                Ok(update) => match &update.result {
                    UpdateOutcome::Update => {
                        self.notice("Up to date with main.", false);
                        self.load(ctx)
                    }
                    UpdateOutcome::Conflicts => {
                        self.notice(
                            "Main's changes conflict with this change request; resolve them in the editor.",
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
        let cmd = self.failed_post(draft_key, self.refused(what, error));
        if super::outcome_unknown(error) {
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

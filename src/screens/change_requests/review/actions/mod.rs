//! What keys do on the review screen, and what each write's answer does to it: the keymap's
//! actions are dispatched here to the file of their concern.

mod answers;
mod comments;
mod composer;
mod navigation;
mod overlay;
mod reviewers;
mod subject;

pub(crate) use navigation::{paste_into_query, triage_counter};
pub(crate) use overlay::on_overlay_key;
pub(crate) use subject::keep_subject_draft;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{
    ComposeTarget, Confirmation, Overlay, PendingWrite, Preflight, PreflightLayout, ReviewScreen,
    ReviewTab,
};
use crate::api::models::ChangeRequestStatus;
use crate::screens::step::{Ctx, Step};
use crate::ui::keymap::Action;
use crate::ui::notice;
use crate::vocabulary::Cmd;
use crate::vocabulary::change_requests::ChangeRequestsCall;
use comments::on_comments_action;
use composer::open_composer;
use navigation::{clear_query, on_changes_action, on_query_key, switch_tab};
use reviewers::on_overview_action;

pub(super) fn hints(screen: &ReviewScreen) -> Vec<(Action, &'static str)> {
    let mut hints = match screen.tab {
        ReviewTab::Overview => vec![
            (Action::EditDescription, "description"),
            (Action::NextChangeRequest, "next CR"),
        ],
        // The line cursor's keys first: what moves `›`, then what acts on its line.
        ReviewTab::Changes => vec![
            (Action::Down, "line"),
            (Action::NextHunk, "change"),
            (Action::NextPage, "page"),
            (Action::NewComment, "comment"),
            (Action::ToggleRendered, "rendered"),
            (Action::ToggleSideBySide, "split"),
        ],
        ReviewTab::Comments => vec![
            (Action::NextThread, "next open"),
            (Action::Reply, "reply"),
            (Action::React, "react"),
            (Action::ToggleResolved, "resolve"),
            (Action::NewComment, "comment"),
            (Action::CycleCommentFilter, "filter"),
            (Action::AuthorFilter, "author"),
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
        hints.push((Action::LinksReport, "links"));
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
pub(super) fn disabled(screen: &ReviewScreen) -> Vec<Action> {
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
    if screen.is_merge_refused() {
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
            Action::ApplyTemplate,
        ]);
    }
    disabled
}

/// Why an action is refused before anything is sent, or None when it may go ahead: what
/// the action needs and what the server says you are.
fn refusal(
    screen: &ReviewScreen,
    action: Action,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<String> {
    if !disabled(screen).contains(&action) {
        return None;
    }
    if action == Action::Merge {
        return screen.merge_refusal(now);
    }
    let (what, needed) = match action {
        Action::Approve | Action::RequestChanges => {
            ("review this change request", "review or above")
        }
        Action::UpdateFromMain
        | Action::ToggleDraft
        | Action::Archive
        | Action::AddReviewer
        | Action::RemoveReviewer
        | Action::EditSubject
        | Action::EditDescription
        | Action::ApplyTemplate => ("edit this change request", "edit or above"),
        Action::React => ("react to comments here", "comment or above"),
        Action::ToggleResolved => ("resolve or reopen threads here", "comment or above"),
        Action::Reply => ("reply here", "comment or above"),
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

pub(super) fn on_action(screen: &mut ReviewScreen, action: Action, ctx: &mut Ctx) -> Option<Step> {
    if let Some(reason) = refusal(screen, action, ctx.clock.now()) {
        // A merged or archived change request is news, not a mistake: it goes with a key.
        let closed = action == Action::Merge && screen.is_merge_closed();
        screen.notice(reason, !closed);
        return Some(Step::default());
    }
    let tab_index = ReviewTab::ALL
        .iter()
        .position(|t| *t == screen.tab)
        .unwrap_or(0);
    let links = action == Action::LinksReport && screen.tab == ReviewTab::Changes;
    if links || matches!(action, Action::Files | Action::Backlinks) {
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
        Action::OverviewTab => switch_tab(screen, ReviewTab::Overview, ctx),
        Action::NextChangeRequest | Action::PreviousChangeRequest => {
            let forward = action == Action::NextChangeRequest;
            return Some(super::overview::step_change_request(screen, forward));
        }
        Action::ChangesTab => switch_tab(screen, ReviewTab::Changes, ctx),
        Action::CommentsTab => switch_tab(screen, ReviewTab::Comments, ctx),
        Action::ReviewsTab => switch_tab(screen, ReviewTab::Reviews, ctx),
        Action::Merge => {
            let check = screen.check_links(ctx);
            let mut preflight = Preflight::default();
            preflight.look(&PreflightLayout::for_ctx(screen, &preflight, ctx));
            screen.overlay = Some(Overlay::Preflight(preflight));
            check
        }
        Action::UpdateFromMain => {
            let call = ChangeRequestsCall::UpdateFromMain(screen.target.clone());
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
            subject::open_subject_editor(screen);
            Cmd::None
        }
        Action::EditDescription => {
            super::description::open_editor(screen);
            Cmd::None
        }
        Action::ApplyTemplate => {
            screen.open_template();
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

/// Keys before the keymap: an open overlay takes them all, then a `/` query being typed;
/// `esc` dismisses an error before it does anything else.
pub(super) fn on_raw_key(screen: &mut ReviewScreen, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
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

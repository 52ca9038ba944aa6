//! Keys for an open overlay: the reactions picker, confirmations (status, subject, deletes),
//! the merge pre-flight, the subject editor and the PDF address.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::comments::react;
use super::composer::on_composer_key;
use super::reviewers::on_reviewer_picker_key;
use crate::api::ChangeRequestUpdate;
use crate::screens::change_requests::review::{
    Confirmation, Overlay, PendingWrite, Preflight, PreflightLayout, ReviewScreen,
};
use crate::screens::step::{Ctx, Step};
use crate::ui::address_popup::AddressOutcome;
use crate::ui::emoji_picker::PickerOutcome;
use crate::ui::input::{InputOutcome, LineInput};
use crate::vocabulary::Cmd;
use crate::vocabulary::change_requests::ChangeRequestsCall;

/// Keys for an open overlay (they come before the keymap).
pub(crate) fn on_overlay_key(
    screen: &mut ReviewScreen,
    key: &KeyEvent,
    ctx: &mut Ctx,
) -> Option<Step> {
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
                crate::screens::change_requests::review::description::open_editor(screen);
                Cmd::None
            }
            KeyCode::Char('n') | KeyCode::Esc | KeyCode::Char('q') => Cmd::None,
            _ => {
                screen.overlay = Some(Overlay::Confirm(confirmation));
                Cmd::None
            }
        },
        Overlay::Preflight(mut preflight) => on_preflight_key(screen, &mut preflight, key, ctx)
            .unwrap_or_else(|| {
                screen.overlay = Some(Overlay::Preflight(preflight));
                Cmd::None
            }),
        Overlay::Reviewers {
            members,
            mut filter,
            mut selection,
        } => on_reviewer_picker_key(screen, members, &mut filter, &mut selection, key, ctx),
        Overlay::Subject { input, .. } => on_subject_key(screen, input, key),
        Overlay::Authors(picker) => {
            screen.on_author_picker_key(picker, key);
            Cmd::None
        }
        Overlay::Template(flow) => screen.on_template_key(flow, key, ctx),
        Overlay::Cell(picker) => {
            if let Some(target) = screen.on_cell_picker_key(picker, key) {
                super::composer::open_composer(screen, target);
            }
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

/// The merge pre-flight: j/k and the arrows scroll its box; `y` merges only once every
/// warning has been in the box. Some(command) when the box closes.
fn on_preflight_key(
    screen: &mut ReviewScreen,
    preflight: &mut Preflight,
    key: &KeyEvent,
    ctx: &mut Ctx,
) -> Option<Cmd> {
    let layout = PreflightLayout::for_ctx(screen, preflight, ctx);
    let page = isize::try_from(layout.visible.max(1)).unwrap_or(1);
    match key.code {
        KeyCode::Char('y') | KeyCode::Enter if screen.may_merge_now() => {
            if !preflight.ready_to_merge(&layout) {
                return None;
            }
            screen.notice("Merging…", false);
            let call = ChangeRequestsCall::Merge(screen.target.clone());
            Some(screen.send(ctx, call, PendingWrite::Merge))
        }
        KeyCode::Char('U') if screen.can_edit() => {
            let call = ChangeRequestsCall::UpdateFromMain(screen.target.clone());
            screen.notice("Bringing main's changes in…", false);
            Some(screen.send(ctx, call, PendingWrite::Update))
        }
        KeyCode::Esc | KeyCode::Char('n') | KeyCode::Char('q') => Some(Cmd::None),
        KeyCode::Char('j') | KeyCode::Down => {
            preflight.scroll_by(1, &layout);
            None
        }
        KeyCode::Char('k') | KeyCode::Up => {
            preflight.scroll_by(-1, &layout);
            None
        }
        KeyCode::PageDown | KeyCode::Char(' ') => {
            preflight.scroll_by(page, &layout);
            None
        }
        KeyCode::PageUp => {
            preflight.scroll_by(-page, &layout);
            None
        }
        KeyCode::Char('G') | KeyCode::End => {
            preflight.scroll_by(isize::MAX, &layout);
            None
        }
        KeyCode::Char('g') | KeyCode::Home => {
            preflight.scroll = 0;
            preflight.look(&layout);
            None
        }
        _ => None,
    }
}

/// The subject editor: enter asks to confirm a valid, changed subject; esc closes (the
/// subject being typed stays a draft).
fn on_subject_key(screen: &mut ReviewScreen, mut input: LineInput, key: &KeyEvent) -> Cmd {
    let outcome = input.handle_key(key);
    if outcome == InputOutcome::Cancelled {
        return Cmd::None;
    }
    let keep = super::keep_subject_draft(screen, &input.text);
    let error = match outcome {
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
                return keep;
            } else {
                screen.overlay = Some(Overlay::Confirm(Confirmation::SetSubject { subject }));
                return keep;
            }
        }
        _ => None,
    };
    screen.overlay = Some(Overlay::Subject { input, error });
    keep
}

fn confirm(screen: &mut ReviewScreen, confirmation: Confirmation, ctx: &mut Ctx) -> Cmd {
    let target = screen.target.clone();
    match confirmation {
        Confirmation::Delete { comment, reply } => {
            let call = ChangeRequestsCall::DeleteComment {
                target,
                comment: comment.clone(),
                reply: reply.clone(),
            };
            screen.send(ctx, call, PendingWrite::Delete { comment, reply })
        }
        Confirmation::SetStatus { status } => {
            let call = ChangeRequestsCall::SetStatus { target, status };
            screen.send(ctx, call, PendingWrite::Status)
        }
        Confirmation::RemoveReviewer { user, .. } => {
            let call = ChangeRequestsCall::RemoveReviewer { target, user };
            screen.send(ctx, call, PendingWrite::Reviewers)
        }
        Confirmation::SetSubject { subject } => {
            screen.notice("Saving the subject…", false);
            let call = ChangeRequestsCall::SetSubject { target, subject };
            screen.send(ctx, call, PendingWrite::Subject)
        }
        Confirmation::SetDescription {
            document,
            draft_key,
            ..
        } => {
            screen.notice("Saving the description…", false);
            crate::screens::change_requests::review::description::send(
                screen, document, &draft_key, ctx,
            )
        }
    }
}

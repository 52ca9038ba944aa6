//! The subject being typed in the subject editor, kept as a draft beside the review's other
//! drafts: esc, a refused save or a lost quire leaves it for the next `S`.

use crate::screens::change_requests::review::{Overlay, ReviewScreen};
use crate::ui::input::LineInput;
use crate::ui::sanitize::sanitize;
use crate::vocabulary::Cmd;

/// Where the subject being typed is kept on disk.
pub(super) fn subject_draft_key(screen: &ReviewScreen) -> String {
    format!("{}subject", screen.draft_prefix())
}

/// The subject as the editor starts with it (sanitized, as typed over).
fn current_subject(screen: &ReviewScreen) -> String {
    screen
        .change_request()
        .map(|cr| sanitize(&cr.subject).into_owned())
        .unwrap_or_default()
}

/// `S`: the editor on the subject being typed before, else on the subject.
pub(super) fn open_subject_editor(screen: &mut ReviewScreen) {
    let kept = screen.drafts.get(&subject_draft_key(screen)).cloned();
    let text = kept.clone().unwrap_or_else(|| current_subject(screen));
    if kept.is_some() {
        screen.notice(
            "The subject you were typing is back: enter asks before saving it.",
            false,
        );
    }
    screen.overlay = Some(Overlay::Subject {
        input: LineInput::with_text(&text),
        error: None,
    });
}

/// Writes the subject being typed as a draft when it changed; removes the draft once the
/// text is blank or the subject again.
pub(crate) fn keep_subject_draft(screen: &mut ReviewScreen, text: &str) -> Cmd {
    let key = subject_draft_key(screen);
    if text.trim().is_empty() || text.trim() == current_subject(screen).trim() {
        return match screen.drafts.remove(&key) {
            Some(_) => Cmd::DiscardDraft { key },
            None => Cmd::None,
        };
    }
    if screen.drafts.get(&key).map(String::as_str) == Some(text) {
        return Cmd::None;
    }
    screen.drafts.insert(key.clone(), text.to_string());
    Cmd::SaveDraft {
        key,
        text: text.to_string(),
    }
}

/// The server took the subject: its draft goes.
pub(super) fn discard_subject_draft(screen: &mut ReviewScreen) -> Cmd {
    let key = subject_draft_key(screen);
    match screen.drafts.remove(&key) {
        Some(_) => Cmd::DiscardDraft { key },
        None => Cmd::None,
    }
}

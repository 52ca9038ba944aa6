//! The start of a raw key that every tab of the organization screen with a notice shares.
//! (Its tabs with their own state are `ScreenState`s, whose `enter` runs when they are shown.)

use std::ops::ControlFlow;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::screens::step::Step;
use crate::ui::notice::{self, Notice};

/// How a tab's raw key starts, the same on every tab so its notice behaves the same: the
/// notice rule first (information goes with a key once it has been read), then an open popup
/// takes the key (`modal` answers `None` when none is open), then `esc` dismisses an error
/// notice. `Break` holds what `on_raw_key` answers; `Continue` lets the tab go on with the key
/// (a filter being typed, or nothing: the keymap's turn).
pub fn notice_modal_esc<P: ?Sized>(
    pane: &mut P,
    key: &KeyEvent,
    notice: fn(&mut P) -> &mut Option<Notice>,
    modal: impl FnOnce(&mut P) -> Option<Option<Step>>,
) -> ControlFlow<Option<Step>> {
    notice::on_key(notice(pane));
    if let Some(answer) = modal(pane) {
        return ControlFlow::Break(answer);
    }
    if key.code == KeyCode::Esc && notice::dismiss_error(notice(pane)) {
        return ControlFlow::Break(Some(Step::default()));
    }
    ControlFlow::Continue(())
}

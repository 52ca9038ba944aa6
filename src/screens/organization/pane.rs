//! What a tab of the organization screen is, for tabs that keep their own state: each one
//! lives in its own file and the screen hands it keys, paste, responses and its area.
//!
//! The tabs that share the screen's tree (Spaces, Trash) are handled in `mod.rs`; the others
//! implement this trait so they never need to touch the screen's shared dispatch. Each lives
//! in its area's folder (`screens/teams/tab.rs` …).
//!
//! [`notice_modal_esc`] is the start of a raw key that every tab with a notice shares.

use std::ops::ControlFlow;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use crate::app::{ApiResponse, Cmd, Ctx, DocKey, RequestId, Step};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
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

pub trait OrgPane: std::fmt::Debug {
    /// The tab was switched to. Starts the first load; later calls return `Cmd::None` unless
    /// the pane wants fresh data each time it is shown.
    fn shown(&mut self, ctx: &mut Ctx) -> Cmd;

    /// `r`: load again.
    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd;

    /// Key contexts, most specific first (usually `[<own>, Tabs, List]`).
    fn key_contexts(&self) -> &'static [KeyContext];

    /// Footer hints, most useful first.
    fn hints(&self) -> Vec<(Action, &'static str)>;

    /// A key before it becomes an action: popups, forms and filters being typed take it here.
    fn on_raw_key(&mut self, _key: &KeyEvent, _ctx: &mut Ctx) -> Option<Step> {
        None
    }

    /// Bracketed paste into whatever the pane is typing.
    fn on_paste(&mut self, _text: &str, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step>;

    /// Every response reaches every pane; a pane answers only to the requests it issued.
    fn on_response(
        &mut self,
        request: RequestId,
        response: &ApiResponse,
        ctx: &mut Ctx,
    ) -> Option<Step>;

    /// These reach every pane, shown or not; each answers only to its own ids, keys or
    /// prefixes (a timer it set, a document it asked to render, its drafts, its `$EDITOR` text).
    fn on_timer(&mut self, _id: RequestId, _ctx: &mut Ctx) -> Option<Step> {
        None
    }

    fn on_document(&mut self, _key: &DocKey, _ctx: &mut Ctx) {}

    fn on_drafts(&mut self, _prefix: &str, _drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }

    fn on_external_edit(&mut self, _key: &str, _text: String, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }

    /// The address `y` copies and `o` opens.
    fn link(&self) -> Option<String> {
        None
    }

    /// Actions shown struck through, refused with a reason when pressed.
    fn disabled_actions(&self) -> Vec<Action> {
        Vec::new()
    }

    /// Work that quitting now would lose, in a few words ("unsaved organization settings").
    fn unsaved_work(&self) -> Option<String> {
        None
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look);

    /// The notices the tab shows now, so they can be read whole when cut.
    fn messages(&self) -> Vec<Notice> {
        Vec::new()
    }
}

/// A tab whose screen is not built yet: says so instead of showing nothing.
#[derive(Debug, Default)]
pub struct NotYet {
    pub what: &'static str,
}

impl OrgPane for NotYet {
    fn shown(&mut self, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }

    fn refresh(&mut self, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Tabs, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::NextTab, "tab"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_action(&mut self, _action: Action, _ctx: &mut Ctx) -> Option<Step> {
        None
    }

    fn on_response(
        &mut self,
        _request: RequestId,
        _response: &ApiResponse,
        _ctx: &mut Ctx,
    ) -> Option<Step> {
        None
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        crate::ui::status::empty(
            frame,
            area,
            look,
            &format!("{} are not here yet.", self.what),
        );
    }
}

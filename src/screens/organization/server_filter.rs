//! A `/` filter whose text goes to the server once typing rests (the Members tab's search, the
//! Teams tab's title): each change sets a timer, only the latest timer applies the text, and
//! enter or esc apply it at once.

use ratatui::crossterm::event::KeyEvent;

use crate::screens::step::Ctx;
use crate::ui::input::{Filter, InputOutcome};
use crate::vocabulary::{Cmd, RequestId};

/// How long typing must pause before the text goes to the server.
pub const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(250);

#[derive(Debug, Default)]
pub struct ServerFilter {
    pub input: Filter,
    /// The latest timer; older ones are stale.
    timer: Option<RequestId>,
}

/// What a key did to the filter (handed straight back to the caller, never stored).
#[allow(clippy::large_enum_variant)]
pub enum Typed {
    /// Enter or esc: send the text now.
    Apply,
    /// The text changed: this timer sends it once typing rests.
    Wait(Cmd),
    Other,
}

impl Typed {
    /// What the key asks for: the text sent now (`apply`), or the timer that sends it later.
    pub fn then(self, apply: impl FnOnce() -> Cmd) -> Cmd {
        match self {
            Typed::Apply => apply(),
            Typed::Wait(timer) => timer,
            Typed::Other => Cmd::None,
        }
    }
}

impl ServerFilter {
    /// A key while the filter is open; `None` when it is closed.
    pub fn on_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Typed> {
        Some(match self.input.handle_key(key)? {
            InputOutcome::Submitted | InputOutcome::Cancelled => Typed::Apply,
            InputOutcome::Changed => Typed::Wait(self.wait(ctx)),
            _ => Typed::Other,
        })
    }

    /// Pasted text while the filter is open waits like typed text.
    pub fn paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        if !self.input.is_typing() {
            return Cmd::None;
        }
        self.input.paste(text);
        self.wait(ctx)
    }

    fn wait(&mut self, ctx: &mut Ctx) -> Cmd {
        let id = ctx.requests.issue();
        Cmd::restart_timer(&mut self.timer, id, DEBOUNCE)
    }

    /// True when `id` is the latest timer: time to send the text.
    pub fn is_due(&self, id: RequestId) -> bool {
        self.timer == Some(id)
    }

    /// The text to send (trimmed, `None` when empty); timers set before now are stale.
    pub fn take_wanted(&mut self) -> Option<String> {
        self.timer = None;
        Some(self.input.text.trim().to_string()).filter(|text| !text.is_empty())
    }
}

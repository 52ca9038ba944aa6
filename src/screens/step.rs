//! What a screen's update may use besides its own state (`Ctx`) and what it hands back (`Step`,
//! `Nav`), with the list motion every list screen shares.

use crate::screens::Screen;
use crate::screens::route::Route;
use crate::ui::keymap::{Action, Keymap};
use crate::ui::markdown::docs::DocCache;
use crate::ui::theme::Theme;
use crate::vocabulary::{
    AnswerKind, ApiResponse, Cmd, RequestId, RequestIds, ReviewCache, Size, action_log, watch,
};

/// What a screen's update wants besides side effects: stay, open another screen, or go back.
#[derive(Debug, Default)]
pub enum Nav {
    #[default]
    Stay,
    Push(Box<Screen>),
    /// Open the screen a route names; the app builds it.
    Open(Box<Route>),
    Pop,
    /// Replace the top screen (`]c`: the next change request instead of this one); the screen
    /// below is told what is shown now, so `esc` lands on it.
    Replace(Box<Screen>),
}

/// The result of a screen handling something.
#[derive(Debug, Default)]
pub struct Step {
    pub cmd: Cmd,
    pub nav: Nav,
}

impl Step {
    pub fn cmd(cmd: Cmd) -> Step {
        Step {
            cmd,
            nav: Nav::Stay,
        }
    }

    pub fn push(screen: Screen) -> Step {
        Step {
            cmd: Cmd::None,
            nav: Nav::Push(Box::new(screen)),
        }
    }

    pub fn open(route: Route) -> Step {
        Step {
            cmd: Cmd::None,
            nav: Nav::Open(Box::new(route)),
        }
    }

    pub fn pop() -> Step {
        Step {
            cmd: Cmd::None,
            nav: Nav::Pop,
        }
    }
}

/// What every screen's update may read or use besides its own state.
pub struct Ctx<'a> {
    pub requests: &'a mut RequestIds,
    pub size: Size,
    pub docs: &'a mut DocCache,
    pub theme: &'a Theme,
    /// The user's key bindings, for screens that name a key in a sentence ("ctrl-s saves").
    pub keymap: &'a Keymap,
    /// Change requests seen before, so their review paints at once and refreshes behind.
    pub reviews: &'a mut ReviewCache,
    /// The session's accepted writes, for the action log and its undo.
    pub action_log: &'a mut action_log::ActionLog,
    /// The watch interval, and the header's count that screens keep up to date.
    pub watch: &'a mut watch::Watch,
    /// Drafts whose last save failed, with why (see `Model::unsaved_drafts`).
    pub unsaved_drafts: &'a std::collections::BTreeMap<String, String>,
    /// Whether the answer `on_response` is given settles its request or is the cache's while
    /// the server is still asked; final everywhere else.
    pub answer: AnswerKind,
    /// What dates in the screens' words are measured from ("merged 3 h ago").
    pub clock: crate::ui::time::Clock,
}

/// Applies a motion (up, down, half a page, a page, top, bottom) to a list's selection.
/// Returns false for any other action, so screens can use it as a match guard.
pub fn move_selection(
    selection: &mut crate::ui::list::Selection,
    action: Action,
    len: usize,
    page: isize,
) -> bool {
    match action {
        Action::Down => selection.move_by(1, len),
        Action::Up => selection.move_by(-1, len),
        Action::HalfPageDown => selection.move_by(page / 2, len),
        Action::HalfPageUp => selection.move_by(-page / 2, len),
        Action::PageDown => selection.move_by(page, len),
        Action::PageUp => selection.move_by(-page, len),
        Action::Top => selection.top(),
        Action::Bottom => selection.bottom(len),
        _ => return false,
    }
    true
}

/// An answer as a screen is handed it: the request it answers and what came back.
pub type Answered<'a> = (RequestId, &'a ApiResponse);

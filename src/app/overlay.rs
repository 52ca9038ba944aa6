//! Overlays above the top screen, which get keys first: the `?` help and the question before
//! quitting with unsaved work.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{Action, Cmd, KeyContext, Model};

/// Overlays sit above the top screen and get keys first.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    Help {
        scroll: u16,
        /// `/` narrows the help to rows whose key or text contains the query.
        filter: crate::ui::input::Filter,
    },
    /// Quitting would lose this work: ask first.
    ConfirmQuit { unsaved: Vec<String> },
    /// Going back from the screen on top would lose this work: ask first.
    ConfirmLeave { unsaved: Vec<String> },
    /// The messages shown lately, whole (`ctrl-g`).
    Messages { scroll: u16 },
}

pub(super) fn on_overlay_key(model: &mut Model, key: KeyEvent, overlay: Overlay) -> Cmd {
    let action = model
        .keymap
        .action_for(&[KeyContext::Reader, KeyContext::Global], &key);
    match overlay {
        Overlay::ConfirmQuit { .. } => {
            model.overlay = None;
            if matches!(key.code, KeyCode::Char('y')) {
                model.quit = true;
                return Cmd::Quit;
            }
            // Staying also stays in this profile.
            model.switch_profile = None;
            Cmd::None
        }
        Overlay::ConfirmLeave { .. } => {
            model.overlay = None;
            if matches!(key.code, KeyCode::Char('y')) {
                return model.pop();
            }
            Cmd::None
        }
        Overlay::Messages { scroll } => on_messages_key(model, key, action, scroll),
        Overlay::Help { scroll, mut filter } => {
            // Typing a query: every key goes to it; enter keeps it, esc clears it.
            if filter.is_typing() {
                filter.handle_key(&key);
                model.overlay = Some(Overlay::Help { scroll: 0, filter });
                return Cmd::None;
            }
            if key.code == KeyCode::Char('/') && key.modifiers.is_empty() {
                filter.open();
                model.overlay = Some(Overlay::Help { scroll: 0, filter });
                return Cmd::None;
            }
            // `esc` clears a query in force before it closes the help.
            if action == Some(Action::Back) && filter.is_shown() {
                filter.clear();
                model.overlay = Some(Overlay::Help { scroll: 0, filter });
                return Cmd::None;
            }
            let last = crate::app::view::chrome::help_max_scroll(model);
            let page = crate::app::view::chrome::help_visible_rows(model).max(1);
            let scroll = match action {
                Some(motion) if let Some(moved) = scrolled(motion, scroll, page, last) => moved,
                Some(Action::Quit) if key.code != KeyCode::Char('q') => {
                    model.quit = true;
                    return Cmd::Quit;
                }
                Some(Action::Help | Action::Back | Action::Quit) => {
                    model.overlay = None;
                    return Cmd::None;
                }
                _ => scroll,
            };
            model.overlay = Some(Overlay::Help {
                scroll: scroll.min(last),
                filter,
            });
            Cmd::None
        }
    }
}

/// Where a motion key takes a popup scrolled to `scroll` of `last`, `page` rows high; None
/// for any other action.
fn scrolled(action: Action, scroll: u16, page: u16, last: u16) -> Option<u16> {
    Some(match action {
        Action::Down => scroll.saturating_add(1),
        Action::Up => scroll.saturating_sub(1),
        Action::PageDown => scroll.saturating_add(page),
        Action::HalfPageDown => scroll.saturating_add(page / 2),
        Action::PageUp => scroll.saturating_sub(page),
        Action::HalfPageUp => scroll.saturating_sub(page / 2),
        Action::Top => 0,
        Action::Bottom => last,
        _ => return None,
    })
}

/// Keys over the messages popup: the reader's moves scroll it, `esc`, `q`, `enter` and its own
/// key close it; `ctrl-c` still quits.
fn on_messages_key(model: &mut Model, key: KeyEvent, action: Option<Action>, scroll: u16) -> Cmd {
    let last = crate::app::view::message_popup::max_scroll(model);
    let page = crate::app::view::message_popup::visible_rows(model).max(1);
    let scroll = match action {
        Some(motion) if let Some(moved) = scrolled(motion, scroll, page, last) => moved,
        Some(Action::Quit) if key.code != KeyCode::Char('q') => {
            model.quit = true;
            return Cmd::Quit;
        }
        Some(Action::ShowMessage | Action::Back | Action::Quit) => {
            model.overlay = None;
            return Cmd::None;
        }
        _ if key.code == KeyCode::Enter => {
            model.overlay = None;
            return Cmd::None;
        }
        _ => scroll,
    };
    model.overlay = Some(Overlay::Messages {
        scroll: scroll.min(last),
    });
    Cmd::None
}

//! The mouse, mapped onto the actions the keys send: the wheel scrolls (three lines per notch,
//! like three `j`), a click selects the row or tab under the pointer, a second click on the
//! same row soon after opens it (like `enter`).

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use crate::app::{Cmd, Model, Overlay, run_action};
use crate::ui::hit::{Hit, HitMap};
use crate::ui::keymap::Action;

/// Lines one notch of the wheel scrolls.
pub const WHEEL_LINES: usize = 3;

/// Two clicks on the same row within this time open it.
pub const DOUBLE_CLICK: Duration = Duration::from_millis(400);

#[derive(Debug, Clone, Default, PartialEq)]
pub struct MouseState {
    /// Where rows and tabs were in the last frame drawn.
    pub hits: HitMap,
    /// The row last clicked and when, for a double-click.
    pub last_click: Option<(usize, Instant)>,
}

pub fn on_mouse(model: &mut Model, event: MouseEvent, at: Instant) -> Cmd {
    match event.kind {
        MouseEventKind::ScrollDown => wheel(model, event, Action::Down),
        MouseEventKind::ScrollUp => wheel(model, event, Action::Up),
        MouseEventKind::Down(MouseButton::Left) => click(model, event, at),
        _ => Cmd::None,
    }
}

/// Header and footer rows take no mouse input.
fn in_body(model: &Model, row: u16) -> bool {
    row >= 1 && row + 1 < model.size.height
}

fn wheel(model: &mut Model, event: MouseEvent, action: Action) -> Cmd {
    if let Some(palette) = model.palette.as_mut() {
        let delta = if action == Action::Down { 1 } else { -1 };
        palette.selection.move_by(delta, palette.shown.len());
        return Cmd::None;
    }
    if let Some(Overlay::Help { scroll, filter }) = model.overlay.clone() {
        let last = crate::app::view::chrome::help_max_scroll(model);
        let lines = WHEEL_LINES as u16;
        let scroll = if action == Action::Down {
            scroll.saturating_add(lines).min(last)
        } else {
            scroll.saturating_sub(lines)
        };
        model.overlay = Some(Overlay::Help { scroll, filter });
        return Cmd::None;
    }
    if model.overlay.is_some() || model.mouse.hits.is_modal() || !in_body(model, event.row) {
        return Cmd::None;
    }
    match model.mouse.hits.at(event.column, event.row) {
        Some(Hit::Wheel { down, up }) => {
            let scroll = if action == Action::Down { down } else { up };
            run_action(model, scroll)
        }
        Some(Hit::Row { down, up, .. }) => {
            let step = if action == Action::Down { down } else { up };
            repeat(model, step, WHEEL_LINES)
        }
        _ => repeat(model, action, WHEEL_LINES),
    }
}

fn click(model: &mut Model, event: MouseEvent, at: Instant) -> Cmd {
    // Overlays take keys first; a click behind one must not act on the screen below.
    if model.palette.is_some() || model.overlay.is_some() || !in_body(model, event.row) {
        return Cmd::None;
    }
    match model.mouse.hits.at(event.column, event.row) {
        Some(Hit::Row {
            index,
            selected,
            down,
            up,
        }) => {
            let double = matches!(model.mouse.last_click,
                Some((last, when)) if last == index && at.saturating_duration_since(when) <= DOUBLE_CLICK);
            let (action, steps) = if index >= selected {
                (down, index - selected)
            } else {
                (up, selected - index)
            };
            let moved = repeat(model, action, steps);
            if double {
                model.mouse.last_click = None;
                Cmd::batch([moved, run_action(model, Action::Open)])
            } else {
                model.mouse.last_click = Some((index, at));
                moved
            }
        }
        Some(Hit::Tab {
            index,
            active,
            count,
        }) => {
            model.mouse.last_click = None;
            let forward = (index + count - active.min(count)) % count.max(1);
            let backward = count - forward;
            if forward <= backward {
                repeat(model, Action::NextTab, forward)
            } else {
                repeat(model, Action::PreviousTab, backward)
            }
        }
        Some(Hit::Wheel { .. }) | None => Cmd::None,
    }
}

fn repeat(model: &mut Model, action: Action, times: usize) -> Cmd {
    let mut cmd = Cmd::None;
    for _ in 0..times {
        let step = run_action(model, action);
        cmd = Cmd::batch([cmd, step]);
    }
    cmd
}

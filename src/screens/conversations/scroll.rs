//! Scrolling a screen of rows laid out at draw time (a transcript, an integration's details):
//! the first row shown, kept within what the last draw had below the screen.

use std::cell::Cell;

use crate::ui::keymap::Action;

#[derive(Debug, Default)]
pub struct Scroll {
    /// The first row shown.
    pub top: usize,
    /// The largest useful `top` at the last draw.
    max: Cell<usize>,
}

impl Scroll {
    /// Moves for a reader action; false when the action is not a scroll. `page` is the rows of
    /// a page.
    pub fn on_action(&mut self, action: Action, page: isize) -> bool {
        match action {
            Action::Down => self.by(1),
            Action::Up => self.by(-1),
            Action::PageDown => self.by(page),
            Action::PageUp => self.by(-page),
            Action::HalfPageDown => self.by(page / 2),
            Action::HalfPageUp => self.by(-page / 2),
            Action::Top => self.top = 0,
            Action::Bottom => self.top = self.max.get(),
            _ => return false,
        }
        true
    }

    fn by(&mut self, delta: isize) {
        self.top = self.top.saturating_add_signed(delta).min(self.max.get());
    }

    /// The rows of `rows` that fit in `height`, from the first one shown; remembers how far
    /// down scrolling may go.
    pub fn visible<T>(&self, rows: Vec<T>, height: u16) -> Vec<T> {
        let max = rows.len().saturating_sub(height as usize);
        self.max.set(max);
        rows.into_iter()
            .skip(self.top.min(max))
            .take(height as usize)
            .collect()
    }
}

//! Selection and scrolling for lists and trees. The scroll offset is remembered between frames
//! (in an atomic, so drawing stays `&self` and the model stays `Sync`) and moves only when the
//! selection would leave the viewport, as in every pager users know.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::sanitize::sanitize;
use crate::text::truncate;
use crate::theme::Theme;
use quire_api::UnreadableItem;

#[derive(Debug, Default)]
pub struct Selection {
    pub selected: usize,
    offset: AtomicUsize,
}

impl Clone for Selection {
    fn clone(&self) -> Self {
        Selection {
            selected: self.selected,
            offset: AtomicUsize::new(self.offset.load(Ordering::Relaxed)),
        }
    }
}

impl PartialEq for Selection {
    fn eq(&self, other: &Self) -> bool {
        self.selected == other.selected
    }
}

impl Selection {
    pub fn clamp(&mut self, len: usize) {
        self.selected = self.selected.min(len.saturating_sub(1));
    }

    pub fn move_by(&mut self, delta: isize, len: usize) {
        if len == 0 {
            self.selected = 0;
            return;
        }
        let target = self.selected as isize + delta;
        self.selected = target.clamp(0, len as isize - 1) as usize;
    }

    pub fn select(&mut self, index: usize, len: usize) {
        self.selected = index;
        self.clamp(len);
    }

    pub fn top(&mut self) {
        self.selected = 0;
    }

    pub fn bottom(&mut self, len: usize) {
        self.selected = len.saturating_sub(1);
    }

    /// The rows to draw in a viewport of `height`, keeping the selection inside it.
    pub fn visible_range(&self, len: usize, height: usize) -> Range<usize> {
        if height == 0 || len == 0 {
            return 0..0;
        }
        let mut offset = self
            .offset
            .load(Ordering::Relaxed)
            .min(len.saturating_sub(1));
        if self.selected < offset {
            offset = self.selected;
        } else if self.selected >= offset + height {
            offset = self.selected + 1 - height;
        }
        // Don't leave empty rows at the bottom when the list could fill them.
        offset = offset.min(len.saturating_sub(height));
        self.offset.store(offset, Ordering::Relaxed);
        offset..(offset + height).min(len)
    }
}

/// Rows for list items the server sent but quire could not read ("⚠ could not read
/// (items[3].id)"), drawn after the last item in what is left of `area` below `used` rows.
pub fn unreadable_rows(
    items: &[UnreadableItem],
    area: Rect,
    used: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let room = (area.height as usize).saturating_sub(used);
    items
        .iter()
        .take(room)
        .map(|item| {
            let text = format!("⚠ could not read ({})", sanitize(&item.path));
            Line::from(Span::styled(
                truncate(&text, area.width as usize),
                theme.style("warning"),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewport_follows_the_selection_lazily() {
        let mut selection = Selection::default();
        assert_eq!(selection.visible_range(100, 10), 0..10);
        selection.move_by(12, 100);
        assert_eq!(selection.visible_range(100, 10), 3..13);
        selection.move_by(-1, 100);
        assert_eq!(
            selection.visible_range(100, 10),
            3..13,
            "no scroll inside the viewport"
        );
        selection.bottom(100);
        assert_eq!(selection.visible_range(100, 10), 90..100);
        selection.move_by(-1000, 100);
        assert_eq!(selection.selected, 0);
        assert_eq!(selection.visible_range(100, 10), 0..10);
    }

    #[test]
    fn empty_and_zero_height_are_safe() {
        let mut selection = Selection::default();
        selection.move_by(5, 0);
        assert_eq!(selection.visible_range(0, 10), 0..0);
        assert_eq!(selection.visible_range(10, 0), 0..0);
    }
}

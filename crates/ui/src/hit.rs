//! Where things were drawn, for the mouse: views note the rectangles of list rows and tabs while
//! they draw, and `update` maps a click through the last frame's map into the actions the keys
//! already send.
//!
//! Views that place rows, tabs or popups draw on a [`Canvas`]: the frame with the map being
//! filled beside it, which the runtime hands to the model once the frame is done. Every other
//! helper sees the frame through it, as a plain `&mut Frame`.

use std::ops::{Deref, DerefMut};

use ratatui::Frame;
use ratatui::layout::{Position, Rect};

/// What sits under a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// Row `index` of the screen's list or tree; `selected` is the row selected when drawn.
    /// `down`/`up` move the selection by one (`j`/`k`, unless those move something else).
    Row {
        index: usize,
        selected: usize,
        down: crate::keymap::Action,
        up: crate::keymap::Action,
    },
    /// Tab `index` of a tab bar of `count` tabs, of which `active` was shown.
    Tab {
        index: usize,
        active: usize,
        count: usize,
    },
    /// A pane whose keys scroll it with other actions than `j`/`k` (which move something
    /// else on that screen): one notch of the wheel sends `down` or `up` once.
    Wheel {
        down: crate::keymap::Action,
        up: crate::keymap::Action,
    },
}

/// The hit areas of one frame, in drawing order (a later area lies above an earlier one).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HitMap {
    areas: Vec<(Rect, Hit)>,
    /// Overlays (help, palette) cover the screen: a click there must not reach rows below.
    covered: Vec<Rect>,
    /// A popup of the screen (a confirm, a picker, a prompt, a composer) was drawn: it takes
    /// the keys, so the mouse must not act on the list behind it.
    modal: bool,
}

impl HitMap {
    /// What is under the cell at `column`, `row`, if anything clickable.
    pub fn at(&self, column: u16, row: u16) -> Option<Hit> {
        let position = Position::new(column, row);
        if self.modal || self.covered.iter().any(|area| area.contains(position)) {
            return None;
        }
        self.areas
            .iter()
            .rev()
            .find(|(area, _)| area.contains(position))
            .map(|(_, hit)| *hit)
    }

    pub fn is_empty(&self) -> bool {
        self.areas.is_empty()
    }

    /// True when a popup of the screen was open in the frame.
    pub fn is_modal(&self) -> bool {
        self.modal
    }
}

/// A frame being drawn, and the hit areas noted while drawing it.
pub struct Canvas<'a, 'f> {
    frame: &'a mut Frame<'f>,
    pub hits: HitMap,
}

impl<'a, 'f> Canvas<'a, 'f> {
    /// Starts a frame with no areas noted.
    pub fn new(frame: &'a mut Frame<'f>) -> Self {
        Canvas {
            frame,
            hits: HitMap::default(),
        }
    }

    /// The areas noted while drawing.
    pub fn into_hits(self) -> HitMap {
        self.hits
    }
}

impl<'f> Deref for Canvas<'_, 'f> {
    type Target = Frame<'f>;

    fn deref(&self) -> &Frame<'f> {
        self.frame
    }
}

impl<'f> DerefMut for Canvas<'_, 'f> {
    fn deref_mut(&mut self) -> &mut Frame<'f> {
        self.frame
    }
}

impl HitMap {
    pub fn record(&mut self, area: Rect, hit: Hit) {
        if area.is_empty() {
            return;
        }
        self.areas.push((area, hit));
    }

    /// Notes an overlay that hides what lies under it.
    pub fn cover(&mut self, area: Rect) {
        self.covered.push(area);
    }

    /// Notes that a popup is open above the screen (called where popups are placed): it takes
    /// the keys, so the mouse leaves the screen behind it alone.
    pub fn modal(&mut self) {
        self.modal = true;
    }

    /// Notes one-line rows `range` of a list drawn from the top of `area`.
    pub fn record_rows(&mut self, area: Rect, range: std::ops::Range<usize>, selected: usize) {
        use crate::keymap::Action;
        self.record_rows_stepped(area, range, selected, (Action::Down, Action::Up));
    }

    /// [`HitMap::record_rows`] for a list whose selection moves with other keys than `j`/`k`.
    pub fn record_rows_stepped(
        &mut self,
        area: Rect,
        range: std::ops::Range<usize>,
        selected: usize,
        (down, up): (crate::keymap::Action, crate::keymap::Action),
    ) {
        for (line, index) in range.enumerate() {
            let Ok(line) = u16::try_from(line) else {
                break;
            };
            if line >= area.height {
                break;
            }
            self.record(
                Rect::new(area.x, area.y + line, area.width, 1),
                Hit::Row {
                    index,
                    selected,
                    down,
                    up,
                },
            );
        }
    }

    /// Notes the tabs of a bar drawn as consecutive labels starting at `area.x`: `widths` are
    /// the cells each shown tab takes (its label and the gap after it), `first` the index of
    /// the first.
    pub fn record_tabs(
        &mut self,
        area: Rect,
        first: usize,
        widths: &[usize],
        (active, count): (usize, usize),
    ) {
        let mut x = usize::from(area.x);
        let right = usize::from(area.right());
        for (offset, width) in widths.iter().enumerate() {
            if x >= right {
                break;
            }
            let shown = (*width).min(right - x);
            let (Ok(left), Ok(cells)) = (u16::try_from(x), u16::try_from(shown)) else {
                break;
            };
            self.record(
                Rect::new(left, area.y, cells, 1),
                Hit::Tab {
                    index: first + offset,
                    active,
                    count,
                },
            );
            x += width;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_tabs_are_found_and_overlays_hide_them() {
        let mut map = HitMap::default();
        map.record_rows(Rect::new(0, 2, 20, 3), 10..20, 11);
        map.record_tabs(Rect::new(0, 1, 20, 1), 0, &[5, 6, 30], (1, 3));
        assert_eq!(
            map.at(3, 3),
            Some(Hit::Row {
                index: 11,
                selected: 11,
                down: crate::keymap::Action::Down,
                up: crate::keymap::Action::Up,
            })
        );
        assert_eq!(map.at(3, 5), None);
        assert_eq!(
            map.at(6, 1),
            Some(Hit::Tab {
                index: 1,
                active: 1,
                count: 3
            })
        );
        assert_eq!(map.at(19, 1).map(|_| ()), Some(()));
        let mut map = HitMap::default();
        map.record_rows(Rect::new(0, 2, 20, 3), 0..3, 0);
        map.cover(Rect::new(0, 0, 10, 10));
        assert_eq!(map.at(3, 3), None);
        assert!(map.at(15, 3).is_some());
    }
}

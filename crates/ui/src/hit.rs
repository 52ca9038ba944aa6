//! Where things were drawn, for the mouse: views note the rectangles of list rows and tabs while
//! they draw, and `update` maps a click through the last frame's map into the actions the keys
//! already send.
//!
//! Views draw through `&self` and many helpers see only a frame and a rectangle, so the map is
//! collected in a thread-local beside the frame being drawn (drawing happens on one thread) and
//! handed to the model once the frame is done (`take_frame`).

use std::cell::RefCell;

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

thread_local! {
    static FRAME: RefCell<HitMap> = RefCell::new(HitMap::default());
}

/// Starts a frame: forgets the areas of the last one.
pub fn begin_frame() {
    FRAME.with(|frame| *frame.borrow_mut() = HitMap::default());
}

/// The areas noted since `begin_frame`.
pub fn take_frame() -> HitMap {
    FRAME.with(|frame| std::mem::take(&mut *frame.borrow_mut()))
}

pub fn record(area: Rect, hit: Hit) {
    if area.is_empty() {
        return;
    }
    FRAME.with(|frame| frame.borrow_mut().areas.push((area, hit)));
}

/// Notes an overlay that hides what lies under it.
pub fn cover(area: Rect) {
    FRAME.with(|frame| frame.borrow_mut().covered.push(area));
}

/// Notes that a popup is open above the screen (called where popups are placed).
pub fn modal() {
    FRAME.with(|frame| frame.borrow_mut().modal = true);
}

/// Notes one-line rows `range` of a list drawn from the top of `area`.
pub fn record_rows(area: Rect, range: std::ops::Range<usize>, selected: usize) {
    use crate::keymap::Action;
    record_rows_stepped(area, range, selected, (Action::Down, Action::Up));
}

/// [`record_rows`] for a list whose selection moves with other keys than `j`/`k`.
pub fn record_rows_stepped(
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
        record(
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

/// Notes the tabs of a bar drawn as consecutive labels starting at `area.x`: `widths` are the
/// cells each shown tab takes (its label and the gap after it), `first` the index of the first.
pub fn record_tabs(area: Rect, first: usize, widths: &[usize], active: usize, count: usize) {
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
        record(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_tabs_are_found_and_overlays_hide_them() {
        begin_frame();
        record_rows(Rect::new(0, 2, 20, 3), 10..20, 11);
        record_tabs(Rect::new(0, 1, 20, 1), 0, &[5, 6, 30], 1, 3);
        let map = take_frame();
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
        begin_frame();
        record_rows(Rect::new(0, 2, 20, 3), 0..3, 0);
        cover(Rect::new(0, 0, 10, 10));
        let map = take_frame();
        assert_eq!(map.at(3, 3), None);
        assert!(map.at(15, 3).is_some());
    }
}

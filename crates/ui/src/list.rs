//! Selection and scrolling for lists and trees. The scroll offset is remembered between frames
//! (in an atomic, so drawing stays `&self` and the model stays `Sync`) and moves only when the
//! selection would leave the viewport, as in every pager users know.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::input::Filter;
use crate::sanitize::sanitize;
use crate::table::{self, Column};
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

    /// How row `index` is drawn: lit when selected, plain text otherwise.
    pub fn style(&self, index: usize, theme: &Theme) -> Style {
        self.style_or(index, theme, theme.style("text"))
    }

    /// Row `index` lit when selected, else in `other` (a muted row stays muted).
    pub fn style_or(&self, index: usize, theme: &Theme, other: Style) -> Style {
        if index == self.selected {
            theme.style("selection")
        } else {
            other
        }
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

/// How a tree row starts: two cells a level of depth, then `▾ ` for an open node, `▸ ` for
/// a closed one, or two spaces for a leaf.
pub fn tree_prefix(row: &crate::tree::VisibleRow) -> String {
    let indent = "  ".repeat(row.depth.min(12));
    let marker = match (row.has_children, row.expanded) {
        (true, true) => "▾ ",
        (true, false) => "▸ ",
        (false, _) => "  ",
    };
    format!("{indent}{marker}")
}

/// The filter's row under a list while it is typed or applied: draws it and returns the
/// area left above it for the list.
pub fn filter_row(frame: &mut Frame, area: Rect, filter: &Filter, theme: &Theme) -> Rect {
    let (list_area, filter_area) = crate::input::with_filter_row(area, filter.is_shown());
    if let Some(filter_area) = filter_area {
        crate::input::draw_filter(frame, filter_area, filter, theme);
    }
    list_area
}

/// A list drawn as a table that follows its selection: the header, the rows in view (the
/// selected one lit), rows for the items that could not be read once the last row shows, and
/// a last line (what paging is doing) when there is one. Column widths fit the area's width.
pub struct Table<'a, R> {
    columns: &'a [Column],
    rows: &'a [R],
    selection: &'a Selection,
    header: bool,
    unreadable: &'a [UnreadableItem],
    footer: Option<Line<'static>>,
    muted: Option<&'a dyn Fn(usize) -> bool>,
}

impl<'a, R: AsRef<[String]>> Table<'a, R> {
    /// `rows` holds one cell per column, in the columns' order.
    pub fn new(columns: &'a [Column], rows: &'a [R], selection: &'a Selection) -> Self {
        Table {
            columns,
            rows,
            selection,
            header: true,
            unreadable: &[],
            footer: None,
            muted: None,
        }
    }

    /// No header row: the rows speak for themselves.
    pub fn without_header(mut self) -> Self {
        self.header = false;
        self
    }

    pub fn unreadable(mut self, items: &'a [UnreadableItem]) -> Self {
        self.unreadable = items;
        self
    }

    /// A last line under the rows, its row kept even when it is empty.
    pub fn footer(mut self, line: Line<'static>) -> Self {
        self.footer = Some(line);
        self
    }

    /// Rows drawn muted when not selected (a disabled member).
    pub fn muted(mut self, muted: &'a dyn Fn(usize) -> bool) -> Self {
        self.muted = Some(muted);
        self
    }

    /// Draws the table; returns where its rows went and which of them show, for the mouse.
    pub fn draw(self, frame: &mut Frame, area: Rect, theme: &Theme) -> (Rect, Range<usize>) {
        let [header_area, rows_area, footer_area] = Layout::vertical([
            Constraint::Length(u16::from(self.header)),
            Constraint::Min(0),
            Constraint::Length(u16::from(self.footer.is_some())),
        ])
        .areas(area);
        let sizing = table::size(self.columns, self.rows, area.width);
        if self.header {
            let header = sizing.header_line(self.columns, theme.style("table_header"));
            frame.render_widget(Paragraph::new(header), header_area);
        }
        let len = self.rows.len();
        let range = self
            .selection
            .visible_range(len, usize::from(rows_area.height));
        let mut lines: Vec<Line> = range
            .clone()
            .filter_map(|index| {
                let plain = match self.muted {
                    Some(muted) if muted(index) => theme.style("muted"),
                    _ => theme.style("text"),
                };
                let style = self.selection.style_or(index, theme, plain);
                Some(sizing.line(self.rows.get(index)?.as_ref(), style))
            })
            .collect();
        if range.end >= len {
            let used = lines.len();
            lines.extend(unreadable_rows(self.unreadable, rows_area, used, theme));
        }
        frame.render_widget(Paragraph::new(lines), rows_area);
        if let Some(footer) = self.footer {
            frame.render_widget(Paragraph::new(footer), footer_area);
        }
        (rows_area, range)
    }
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

//! The list pane every list tab draws with: what shows before the rows (loading or failed
//! before the first page, a sentence when nothing is listed), the table that follows the
//! selection (`ui::list::Table`, its rows noted for the mouse) and the paging line under it.
//! Asking for pages is `PagedList::load_first` / `next_page`; a list read whole is a
//! `Loadable`. A tab's notice (or "Sending…") takes the row under its pane; a tab that shows
//! the selected item's details has them beside the list (`draw_with_details`).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::api::ApiError;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::notice::Notice;
use crate::ui::sanitize::sanitize;
use crate::ui::status;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::vocabulary::Loadable;
use crate::vocabulary::paged::PagedList;

/// How far reading a list got, for what the pane shows before its rows.
pub trait Listing {
    /// Whether a first answer is in (an empty list is then really empty).
    fn loaded_once(&self) -> bool;
    /// What the last read failed with.
    fn error(&self) -> Option<&ApiError>;
}

impl<T> Listing for PagedList<T> {
    fn loaded_once(&self) -> bool {
        PagedList::loaded_once(self)
    }

    fn error(&self) -> Option<&ApiError> {
        self.error.as_ref()
    }
}

impl<T> Listing for Loadable<T> {
    fn loaded_once(&self) -> bool {
        self.value().is_some()
    }

    fn error(&self) -> Option<&ApiError> {
        Loadable::error(self)
    }
}

/// Draws what a list shows instead of its rows, and says whether it did: loading or failed
/// until its first answer is in (`noun` names what loads), then `empty` when it gives a
/// sentence (nothing listed, or nothing passes a filter).
pub fn draw_unlisted(
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
    (list, noun): (&impl Listing, &str),
    empty: impl FnOnce() -> Option<String>,
) -> bool {
    if !list.loaded_once() {
        match list.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, noun),
        }
        return true;
    }
    match empty() {
        Some(message) => {
            status::empty(frame, area, look, &message);
            true
        }
        None => false,
    }
}

/// Draws `table` and notes its rows, so a click selects one.
pub fn draw_table<R: AsRef<[String]>>(
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
    table: Table<'_, R>,
    selected: usize,
) {
    let (rows_area, range) = table.draw(frame, area, look.theme);
    frame.hits.record_rows(rows_area, range, selected);
}

/// The line under a list read a page at a time: a page loading, a page that failed, or more
/// to scroll to.
pub fn paging_line<T>(list: &PagedList<T>, look: &Look) -> Line<'static> {
    let theme = look.theme;
    let span = if list.is_loading() {
        Span::styled("loading more…", theme.style("muted"))
    } else if let Some(error) = &list.error {
        Span::styled(status::reload_failed_text(error), theme.style("error"))
    } else if list.has_more() {
        Span::styled("more below — scroll to load", theme.style("muted"))
    } else {
        Span::raw("")
    };
    Line::from(span)
}

/// Draws what a list with no items shows, and says whether it did: its error if the last
/// page failed, `empty` once a page came back empty, or that it is loading.
pub fn draw_if_empty<T>(
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
    (list, noun): (&PagedList<T>, &str),
    empty: &str,
) -> bool {
    if !list.items.is_empty() {
        return false;
    }
    match (&list.error, list.loaded_once()) {
        (Some(error), _) => status::error(frame, area, look, error),
        (None, true) => status::empty(frame, area, look, empty),
        (None, false) => status::loading(frame, area, look, noun),
    }
    true
}

/// Splits off the last row of `area` for a notice when one is `shown` and there is room.
pub fn notice_row(area: Rect, shown: bool) -> (Rect, Option<Rect>) {
    if !shown || area.height < 2 {
        return (area, None);
    }
    let [body, row] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    (body, Some(row))
}

/// A tab's notice on one row, or "Sending…" while it is `busy` with none to show.
pub fn draw_notice(
    notice: Option<&Notice>,
    busy: bool,
    frame: &mut Frame,
    area: Rect,
    look: &Look,
) {
    let theme = look.theme;
    let (text, style) = match notice {
        Some(notice) => (notice.text.clone(), notice.style(theme)),
        None if busy => ("Sending…".to_string(), theme.style("muted")),
        None => return,
    };
    let line = crate::ui::notice::span(&text, area.width, style, look);
    frame.render_widget(Paragraph::new(line), area);
}

/// A list with the selected item's details beside it (under it when narrow) and the tab's
/// notice below: what shows before the rows as [`draw_unlisted`] says (`empty` when nothing
/// is listed), else `draw` with the list's and the details' areas.
pub fn draw_with_details(
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
    (list, noun, empty): (&impl Listing, &str, Option<String>),
    (notice, busy): (Option<&Notice>, bool),
    draw: impl FnOnce(&mut Canvas, [Rect; 2]),
) {
    let (list_area, details_area, notice_area) = split(area, notice.is_some() || busy);
    if let Some(row) = notice_area {
        draw_notice(notice, busy, frame, row, look);
    }
    if !draw_unlisted(frame, list_area, look, (list, noun), || empty) {
        draw(frame, [list_area, details_area]);
    }
}

/// Below this width the details pane goes under the list instead of beside it.
const SIDE_BY_SIDE_MIN_WIDTH: u16 = 70;

/// The list on the left (or top), details on the right (or bottom), a notice row at the
/// bottom when there is one.
pub fn split(area: Rect, notice: bool) -> (Rect, Rect, Option<Rect>) {
    let (body, notice_area) = if notice && area.height >= 3 {
        let [body, row] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
        (body, Some(row))
    } else {
        (area, None)
    };
    let [list, details] = if body.width >= SIDE_BY_SIDE_MIN_WIDTH {
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(body)
    };
    (list, details, notice_area)
}

/// A details pane's box: a border on the side facing the list.
pub fn details_block<'a>(area: Rect, theme: &Theme) -> Block<'a> {
    let borders = if area.x > 0 {
        Borders::LEFT
    } else {
        Borders::TOP
    };
    Block::default()
        .borders(borders)
        .border_style(theme.style("border"))
}

/// A value too long for a "Label  value" line (an address, a message): its label on one
/// line, then the value wrapped to `width`, long words broken, sanitized.
pub fn long_field(label: &str, value: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(Span::styled(
        label.to_string(),
        theme.style("muted"),
    ))];
    lines.extend(
        text::wrap(value, width as usize)
            .into_iter()
            .map(|line| Line::from(Span::styled(line, theme.style("text")))),
    );
    lines
}

/// "Label        value" for a details pane; the value is sanitized.
pub fn field(label: &str, value: &str, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("{label:<13}"), theme.style("muted")),
        Span::styled(sanitize(value).into_owned(), theme.style("text")),
    ])
}

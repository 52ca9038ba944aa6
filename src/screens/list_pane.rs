//! The list pane every list tab draws with: what shows before the rows (loading or failed
//! before the first page, a sentence when nothing is listed), the table that follows the
//! selection (`ui::list::Table`, its rows noted for the mouse) and the paging line under it.
//! Asking for pages is `PagedList::load_first` / `next_page`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::status;
use crate::vocabulary::paged::PagedList;

/// Draws what a list shows instead of its rows, and says whether it did: loading or failed
/// until its first page is in (`noun` names what loads), then `empty` when it gives a sentence
/// (nothing listed, or nothing passes a filter).
pub fn draw_unlisted<T>(
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
    (list, noun): (&PagedList<T>, &str),
    empty: impl FnOnce() -> Option<String>,
) -> bool {
    if !list.loaded_once() {
        match &list.error {
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

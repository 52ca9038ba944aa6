//! The changes tab: the changed pages on the left, the selected page's diff (or its rendered
//! version) on the right.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::screens::change_requests::review::ReviewScreen;
use crate::screens::change_requests::review::changes::{list_folded, split};
use crate::screens::change_requests::review::{ChangeKind, ChangedPageRow};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::sanitize::sanitize;
use crate::ui::{status, text};

pub(super) fn draw_changes(screen: &ReviewScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (area, query_area) = crate::ui::input::with_filter_row(area, screen.diff_search.is_shown());
    if let Some(query_area) = query_area {
        crate::ui::input::draw_filter(frame, query_area, &screen.diff_search, theme);
    }
    let (list_area, diff_area) = split(area);
    // The wheel scrolls the diff as ctrl-d/ctrl-u do, carrying the cursor along.
    frame.hits.record(
        diff_area,
        crate::ui::hit::Hit::Wheel {
            down: crate::ui::keymap::Action::HalfPageDown,
            up: crate::ui::keymap::Action::HalfPageUp,
        },
    );
    if let Some(bundle) = screen.bundle.value()
        && let Err(error) = &bundle.changes
    {
        status::error(frame, list_area, look, error);
        return;
    }
    if screen.pages.is_empty() {
        status::empty(frame, list_area, look, "No page changed.");
        return;
    }
    if list_folded(area) {
        draw_folded_list(screen, frame, list_area, look);
    } else {
        draw_list(screen, frame, list_area, look);
        if diff_area.width == 0 {
            return;
        }
        let separator = Rect::new(diff_area.x - 1, area.y, 1, area.height);
        frame.render_widget(
            Block::default()
                .borders(Borders::LEFT)
                .border_style(theme.style("border")),
            separator,
        );
    }
    if screen.rendered {
        if screen.reader.is_ready() {
            screen.reader.draw(frame, diff_area, theme);
        } else {
            status::loading(frame, diff_area, look, "the rendered page");
        }
        return;
    }
    match (&screen.diff_view, screen.sides.error()) {
        (Some(view), _) => {
            let end = (screen.diff_scroll + diff_area.height as usize).min(view.lines.len());
            let start = screen.diff_scroll.min(end);
            let mut visible: Vec<Line> = view.lines[start..end].to_vec();
            let cursor = screen
                .cursor_row_in(diff_area.height as usize)
                .and_then(|row| row.checked_sub(start));
            crate::screens::change_requests::review::diff_threads::draw_cursor(
                &mut visible,
                cursor,
                theme,
            );
            if visible.is_empty() {
                status::empty(frame, diff_area, look, "No text changed on this page.");
            } else {
                frame.render_widget(Paragraph::new(visible), diff_area);
            }
        }
        (None, Some(error)) => status::error(frame, diff_area, look, error),
        (None, None) => status::loading(frame, diff_area, look, "both versions of the page"),
    }
}

/// The page list beside the diff: one row per changed page, the selected one highlighted.
fn draw_list(screen: &ReviewScreen, frame: &mut Canvas, list_area: Rect, look: &Look) {
    let range = screen
        .page_selection
        .visible_range(screen.pages.len(), list_area.height as usize);
    // `j`/`k` move the diff's cursor here; the pages move with `J`/`K`.
    frame.hits.record_rows_stepped(
        list_area,
        range.clone(),
        screen.page_selection.selected,
        (
            crate::ui::keymap::Action::NextPage,
            crate::ui::keymap::Action::PreviousPage,
        ),
    );
    let lines: Vec<Line> = screen.pages[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, page)| {
            let selected = range.start + offset == screen.page_selection.selected;
            let style = if selected {
                look.theme.style("selection")
            } else {
                page_style(page, look)
            };
            let label = text::fit(&page_label(page), list_area.width as usize);
            Line::from(Span::styled(label, style))
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list_area);
}

/// The page list folded on a narrow terminal: the selected page, its place among the changed
/// pages and the keys that step through them, in one row above the diff.
fn draw_folded_list(screen: &ReviewScreen, frame: &mut Canvas, row: Rect, look: &Look) {
    let Some(page) = screen.selected_page() else {
        return;
    };
    let place = format!(
        " {}/{} J/K",
        screen.page_selection.selected + 1,
        screen.pages.len()
    );
    let room = usize::from(row.width).saturating_sub(text::width(&place));
    let line = Line::from(vec![
        Span::styled(text::fit(&page_label(page), room), page_style(page, look)),
        Span::styled(place, look.theme.style("muted")),
    ]);
    frame.render_widget(Paragraph::new(line), row);
}

fn page_label(page: &ChangedPageRow) -> String {
    let marks: String = page.kinds.iter().map(|k| k.marker()).collect();
    format!("{marks:<2} {}", sanitize(&page.title))
}

/// Created pages in the added colour, deleted ones in the removed colour.
fn page_style(page: &ChangedPageRow, look: &Look) -> ratatui::style::Style {
    if page.kinds.contains(&ChangeKind::Created) {
        look.theme.style("diff_added")
    } else if page.kinds.contains(&ChangeKind::Deleted) {
        look.theme.style("diff_removed")
    } else {
        look.theme.style("text")
    }
}

/// Where the diff is drawn in the changes tab's `body`.
pub(super) fn diff_area_of(screen: &ReviewScreen, body: Rect) -> Rect {
    let (area, _) = crate::ui::input::with_filter_row(body, screen.diff_search.is_shown());
    split(area).1
}

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::Organizations;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::sanitize::sanitize;
use crate::ui::table::{self, Column};
use crate::ui::{list, status, text};

pub(super) fn draw(screen: &Organizations, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let area = match &screen.join.notice {
        Some(notice) => {
            // A refusal is a sentence: it wraps rather than being cut.
            let width = usize::from(area.width.max(1));
            let rows = (text::width(&notice.text) / width + 1).min(3) as u16;
            let [rest, notice_area] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(rows)]).areas(area);
            frame.render_widget(
                Paragraph::new(Span::styled(
                    sanitize(&notice.text).into_owned(),
                    notice.style(theme),
                ))
                .wrap(ratatui::widgets::Wrap { trim: false }),
                notice_area,
            );
            rest
        }
        None => area,
    };
    draw_list(screen, frame, area, look);
    screen.join.draw(frame, area, theme);
}

fn draw_list(screen: &Organizations, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (list_area, filter_area) = text::with_filter_row(area, screen.filter.is_shown());
    // No count until the first page is in: "(0)" while loading reads as "you have none".
    let count = match (screen.list.total, screen.list.items.len()) {
        _ if !screen.list.loaded_once() => " Organizations ".to_string(),
        (Some(total), _) => format!(" Organizations ({total}) "),
        (None, loaded) => format!(" Organizations ({loaded}) "),
    };
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(theme.style("border"))
        .title(count);
    let inner = block.inner(list_area);
    frame.render_widget(block, list_area);
    if let Some(filter_area) = filter_area {
        text::draw_filter(frame, filter_area, &screen.filter, theme);
    }

    if !screen.list.loaded_once() {
        match &screen.list.error {
            Some(error) => status::error(frame, inner, look, error),
            None => status::loading(frame, inner, look, "organizations"),
        }
        return;
    }
    let visible = screen.visible();
    if visible.is_empty() {
        let message = if screen.filter.text.is_empty() {
            "This token sees no organizations.".to_string()
        } else {
            status::no_matches(&screen.filter.text)
        };
        status::empty(frame, inner, look, &message);
        return;
    }

    let [header_area, rows_area, more_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(inner);
    let cells: Vec<[String; 5]> = visible
        .iter()
        .filter_map(|index| screen.list.items.get(*index))
        .map(|org| {
            [
                org.title.clone(),
                org.plan.as_ref().map(|p| p.to_string()).unwrap_or_default(),
                org.organization_type
                    .as_ref()
                    .map(|t| t.to_string())
                    .unwrap_or_default(),
                org.hostname.clone().unwrap_or_default(),
                org.created_at
                    .as_deref()
                    .map(|at| crate::ui::time::relative(at, look.now()))
                    .unwrap_or_default(),
            ]
        })
        .collect();
    let sizing = table::size(&COLUMNS, &cells, inner.width);
    frame.render_widget(
        Paragraph::new(sizing.header_line(&COLUMNS, theme.style("table_header"))),
        header_area,
    );
    let range = screen
        .selection
        .visible_range(visible.len(), rows_area.height as usize);
    frame
        .hits
        .record_rows(rows_area, range.clone(), screen.selection.selected);
    let lines: Vec<Line> = cells
        .get(range.clone())
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(offset, cells)| {
            let style = if range.start + offset == screen.selection.selected {
                theme.style("selection")
            } else {
                theme.style("text")
            };
            sizing.line(cells, style)
        })
        .collect();
    let mut lines = lines;
    if range.end >= visible.len() {
        lines.extend(list::unreadable_rows(
            &screen.list.unreadable,
            rows_area,
            lines.len(),
            theme,
        ));
    }
    frame.render_widget(Paragraph::new(lines), rows_area);
    let more = if screen.list.is_loading() {
        Span::styled("loading more…", theme.style("muted"))
    } else if let Some(error) = &screen.list.error {
        Span::styled(status::reload_failed_text(error), theme.style("error"))
    } else if screen.list.has_more() {
        Span::styled("more below — scroll to load", theme.style("muted"))
    } else {
        Span::raw("")
    };
    frame.render_widget(Paragraph::new(Line::from(more)), more_area);
}

/// The organization takes the room the others leave; its age and type stay whole.
const COLUMNS: [Column; 5] = [
    Column::cut("Organization", 12, 0).flex(),
    Column::cut("Plan", 8, 3),
    Column::whole("Type", 2),
    Column::cut("Hostname", 10, 4),
    Column::whole("Created", 1),
];

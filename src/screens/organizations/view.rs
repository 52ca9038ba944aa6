use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::Organizations;
use crate::api::models::Organization;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::{self, Table};
use crate::ui::sanitize::sanitize;
use crate::ui::table::Column;
use crate::ui::{status, text};

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
    let list_area = list::filter_row(frame, area, &screen.filter, theme);
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
    let visible = screen.visible();
    let empty = || {
        visible
            .is_empty()
            .then(|| match screen.filter.text.as_str() {
                "" => "This token sees no organizations.".to_string(),
                typed => status::no_matches(typed),
            })
    };
    if list_pane::draw_unlisted(frame, inner, look, (&screen.list, "organizations"), empty) {
        return;
    }
    let cells: Vec<[String; 5]> = visible
        .iter()
        .filter_map(|index| screen.list.items.get(*index))
        .map(|org| cells(org, look.now()))
        .collect();
    let table = Table::new(&COLUMNS, &cells, &screen.selection)
        .unreadable(&screen.list.unreadable)
        .footer(list_pane::paging_line(&screen.list, look));
    list_pane::draw_table(frame, inner, look, table, screen.selection.selected);
}

fn cells(org: &Organization, now: chrono::DateTime<chrono::Utc>) -> [String; 5] {
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
            .map(|at| crate::ui::time::relative(at, now))
            .unwrap_or_default(),
    ]
}

/// The organization takes the room the others leave; its age and type stay whole.
const COLUMNS: [Column; 5] = [
    Column::cut("Organization", 12, 0).flex(),
    Column::cut("Plan", 8, 3),
    Column::whole("Type", 2),
    Column::cut("Hostname", 10, 4),
    Column::whole("Created", 1),
];

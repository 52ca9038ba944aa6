//! Drawing the Integrations tab: the search row, a line naming the filters in force, the rows
//! (title, verified mark, categories) and the filter popup.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::Paragraph;

use super::tab::IntegrationsTab;
use crate::api::models::Integration;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::segments::{self, Segment};
use crate::ui::table::Column;
use crate::ui::text;

/// The integrations (no header row): the title takes the room, the categories are cut first.
const COLUMNS: [Column; 3] = [
    Column::cut("", 12, 0).flex(),
    Column::whole("", 1),
    Column::cut("", 12, 2),
];

/// The filters in force, each in words ("category content", "has blocks").
fn filters_in_words(tab: &IntegrationsTab) -> Vec<String> {
    let filter = &tab.filter;
    let mut parts = Vec::new();
    if let Some(search) = &filter.search {
        parts.push(format!("search “{search}”"));
    }
    if let Some(category) = &filter.category {
        parts.push(format!("category {category}"));
    }
    if let Some(scope) = &filter.scope {
        parts.push(format!("scope {scope}"));
    }
    if let Some(target) = &filter.target {
        parts.push(format!("target {target}"));
    }
    match filter.blocks {
        Some(true) => parts.push("has blocks".into()),
        Some(false) => parts.push("no blocks".into()),
        None => {}
    }
    match filter.content_sources {
        Some(true) => parts.push("has content sources".into()),
        Some(false) => parts.push("no content sources".into()),
        None => {}
    }
    if let Some(owner) = &filter.owner {
        let name = if *owner == tab.organization.0 {
            tab.organization.1.clone()
        } else {
            owner.clone()
        };
        parts.push(format!("owner {name}"));
    }
    if let Some(domain) = &filter.block_domain {
        parts.push(format!("blocks for {}", sanitize(domain)));
    }
    if parts.is_empty() {
        parts = vec!["all integrations".into(), "f filters".into()];
    }
    parts
}

/// The list, a notice row under it while there is one, and what is open above them.
pub fn draw(tab: &IntegrationsTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let whole = area;
    let area = match &tab.notice {
        Some(notice) if area.height > 1 => {
            let [list_area, notice_area] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
            let line = crate::ui::notice::row(notice, notice_area.width, look);
            frame.render_widget(Paragraph::new(line), notice_area);
            list_area
        }
        _ => area,
    };
    draw_list(tab, frame, area, look);
    super::publish::draw(tab, frame, whole, look.theme);
}

fn draw_list(tab: &IntegrationsTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (area, filter_row) = crate::ui::input::with_filter_row(area, tab.search.is_shown());
    if let Some(row) = filter_row {
        crate::ui::input::draw_filter(frame, row, &tab.search, theme);
    }
    let [header, rows_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let count = tab.list.total.unwrap_or(tab.list.items.len() as u64);
    // "12 · category content · has blocks": the count stays, the filters after it go from
    // the right, the search shortened first; nothing is cut.
    let mut line = vec![Segment::new(count.to_string(), 0)];
    for filter in filters_in_words(tab) {
        let filter = sanitize(&filter).into_owned();
        line.push(
            Segment::new(filter.clone(), 1)
                .or(text::truncate(&filter, 20))
                .after(" · "),
        );
    }
    let muted = theme.style("muted");
    let line: Vec<Segment> = line.into_iter().map(|s| s.styled(muted)).collect();
    frame.render_widget(
        Paragraph::new(segments::line(&line, usize::from(header.width))),
        header,
    );
    let empty = "No integration matches: change the search (/) or the filters (f).";
    if !list_pane::draw_if_empty(frame, rows_area, look, (&tab.list, "integrations"), empty) {
        let rows: Vec<[String; 3]> = tab.list.items.iter().map(cells).collect();
        Table::new(&COLUMNS, &rows, &tab.selection)
            .without_header()
            .draw(frame, rows_area, theme);
    }
    if let Some(popup) = &tab.popup {
        super::filters::draw(popup, frame, area, theme);
    }
}

fn cells(integration: &Integration) -> [String; 3] {
    let verified = if integration.verified { "✓" } else { "" };
    [
        integration.title.clone(),
        verified.to_string(),
        integration.categories.join(", "),
    ]
}

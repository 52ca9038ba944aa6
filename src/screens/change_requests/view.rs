use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{ChangeRequestList, STATUSES};
use crate::app::Model;
use crate::ui::sanitize::sanitize;
use crate::ui::{status, text};

pub fn draw(screen: &ChangeRequestList, frame: &mut Frame, area: Rect, model: &Model) {
    // The notice takes the last row: the list ends above it.
    let notice_rows = u16::from(screen.creation.notice.is_some());
    let [list_area, _] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(notice_rows)]).areas(area);
    draw_list(screen, frame, list_area, model);
    let theme = &model.theme;
    if let Some(picker) = &screen.picker {
        crate::ui::picker::draw(picker, frame, area, theme);
    }
    screen.creation.draw(frame, area, model);
}

fn draw_list(screen: &ChangeRequestList, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let [tabs_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let mut tabs = Vec::new();
    for status in STATUSES.iter() {
        let style = if screen.statuses.contains(status) {
            theme.style("tab_active")
        } else {
            theme.style("tab_inactive")
        };
        tabs.push(Span::styled(format!(" {} ", status.as_str()), style));
    }
    tabs.push(Span::styled(
        format!("  {}", screen.who.label()),
        theme.style("muted"),
    ));
    if let Some((_, label)) = &screen.cluster {
        tabs.push(Span::styled(
            format!(" · cluster: {}", sanitize(label)),
            theme.style("accent"),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(tabs)), tabs_area);

    let (body, filter_area) = text::with_filter_row(body, screen.filter.is_shown());
    if let Some(filter_area) = filter_area {
        text::draw_filter(frame, filter_area, &screen.filter, theme);
    }
    if let Some(error) = screen.me.error() {
        status::error(frame, body, model, error);
        return;
    }
    if !screen.list.loaded_once() {
        match &screen.list.error {
            Some(error) => status::error(frame, body, model, error),
            None => status::loading(frame, body, model, "change requests"),
        }
        return;
    }
    let rows = screen.visible();
    if rows.is_empty() {
        let message = if screen.filter.text.is_empty() {
            let statuses: Vec<&str> = screen.statuses.iter().map(|s| s.as_str()).collect();
            let cluster = screen
                .cluster
                .as_ref()
                .map(|(_, label)| format!(", cluster “{}”", sanitize(label)))
                .unwrap_or_default();
            format!(
                "No {} change requests ({}{cluster}).",
                statuses.join(" or "),
                screen.who.label()
            )
        } else {
            crate::ui::status::no_matches(&screen.filter.text)
        };
        status::empty(frame, body, model, &message);
        return;
    }
    let [header, list_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(body);
    let with_space = screen.is_organization_wide();
    let widths = column_widths(body.width, with_space);
    let mut headings = vec!["#", "Subject", "Author", "Updated", "💬", ""];
    if with_space {
        headings.insert(1, "Space");
    }
    frame.render_widget(
        Paragraph::new(text::columns(
            &headings,
            &widths,
            theme.style("table_header"),
        )),
        header,
    );
    let range = screen
        .selection
        .visible_range(rows.len(), list_area.height as usize);
    // ── command palette ──
    crate::ui::hit::record_rows(list_area, range.clone(), screen.selection.selected);
    let lines: Vec<Line> = rows[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, cr)| {
            let selected = range.start + offset == screen.selection.selected;
            let number = cr.number.map(|n| format!("#{n}")).unwrap_or_default();
            let author = cr
                .created_by
                .as_ref()
                .map(|u| sanitize(&u.display_name).into_owned())
                .unwrap_or_default();
            let updated = cr
                .updated_at
                .as_deref()
                .map(crate::ui::time::ago_now)
                .unwrap_or_default();
            let comments = cr.comments.map(|c| c.to_string()).unwrap_or_default();
            let marker = match (screen.is_fresh(&cr.id), cr.outdated) {
                (true, _) => "● new",
                (false, true) => "outdated",
                (false, false) => "",
            };
            let style = if selected {
                theme.style("selection")
            } else {
                theme.style("text")
            };
            let space = screen.space_label(cr);
            let mut cells = vec![
                number.as_str(),
                cr.subject.as_str(),
                author.as_str(),
                updated.as_str(),
                comments.as_str(),
                marker,
            ];
            if with_space {
                cells.insert(1, space.as_str());
            }
            text::columns(&cells, &widths, style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list_area);
}

/// Column widths; organization-wide lists get a space column after the number, since numbers
/// repeat across spaces (two rows can both read `#1`).
fn column_widths(width: u16, with_space: bool) -> Vec<u16> {
    if width < 60 {
        if with_space {
            let space = (width / 3).min(14);
            return vec![5, space, width.saturating_sub(6 + space + 1)];
        }
        return vec![5, width.saturating_sub(6)];
    }
    if !with_space {
        // "Updated" is relative: "11 months ago" is the longest it reads.
        let fixed = 5 + 16 + 13 + 4 + 8 + 6;
        return vec![5, width.saturating_sub(fixed).max(10), 16, 13, 4, 8];
    }
    // The space takes its room from the author, so the subject keeps a readable width.
    let fixed = 5 + 16 + 12 + 13 + 4 + 8 + 7;
    vec![5, 16, width.saturating_sub(fixed).max(10), 12, 13, 4, 8]
}

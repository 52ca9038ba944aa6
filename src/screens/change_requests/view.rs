use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::Paragraph;

use super::{ChangeRequestList, STATUSES};
use crate::api::models::ChangeRequest;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::segments::{self, Segment};
use crate::ui::table::Column;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

pub(super) fn draw(screen: &ChangeRequestList, frame: &mut Canvas, area: Rect, look: &Look) {
    // The notice takes the last row: the list ends above it.
    let notice_rows = u16::from(screen.creation.notice.is_some());
    let [list_area, _] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(notice_rows)]).areas(area);
    draw_list(screen, frame, list_area, look);
    let theme = look.theme;
    if let Some(picker) = &screen.picker {
        crate::ui::picker::draw(picker, frame, area, theme);
    }
    screen.creation.draw(frame, area, look);
}

fn draw_list(screen: &ChangeRequestList, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let [tabs_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(segments::line(
            &filter_segments(screen, theme),
            usize::from(tabs_area.width),
        )),
        tabs_area,
    );

    let body = crate::ui::list::filter_row(frame, body, &screen.filter, theme);
    if let Some(error) = screen.me.error() {
        status::error(frame, body, look, error);
        return;
    }
    let rows = screen.visible();
    let empty = || rows.is_empty().then(|| empty_message(screen));
    if list_pane::draw_unlisted(frame, body, look, (&screen.list, "change requests"), empty) {
        return;
    }
    let columns = columns(screen.is_organization_wide());
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|cr| row_cells(screen, cr, columns.len(), look.now()))
        .collect();
    let table = Table::new(&columns, &cells, &screen.selection);
    list_pane::draw_table(frame, body, look, table, screen.selection.selected);
}

/// Why no change request shows: the filter typed, or the statuses, whose and cluster asked.
fn empty_message(screen: &ChangeRequestList) -> String {
    if !screen.filter.text.is_empty() {
        return status::no_matches(&screen.filter.text);
    }
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
}

/// The statuses (the chosen ones lit), then whose change requests, then the cluster: each
/// shown whole or left out, the cluster's label shortened first.
fn filter_segments(screen: &ChangeRequestList, theme: &Theme) -> Vec<Segment> {
    let mut line: Vec<Segment> = STATUSES
        .iter()
        .map(|status| {
            let style = if screen.statuses.contains(status) {
                theme.style("tab_active")
            } else {
                theme.style("tab_inactive")
            };
            Segment::new(format!(" {} ", status.as_str()), 0)
                .styled(style)
                .after("")
        })
        .collect();
    let muted = theme.style("muted");
    line.push(
        Segment::new(screen.who.label(), 1)
            .styled(muted)
            .in_group(1),
    );
    if let Some((_, label)) = &screen.cluster {
        let label = sanitize(label);
        line.push(
            Segment::new(format!("cluster: {label}"), 2)
                .or(format!("cluster: {}", text::truncate(&label, 32)))
                .or(format!("cluster: {}", text::truncate(&label, 20)))
                .or(format!("cluster: {}", text::truncate(&label, 12)))
                .styled(theme.style("accent"))
                .after(" · ")
                .in_group(1),
        );
    }
    line
}

/// The number, the subject, the author, when it changed, its comments and a marker; the
/// organization-wide list adds the space after the number, since numbers repeat across
/// spaces (two rows can both read `#1`). The subject takes the room the others leave.
fn columns(with_space: bool) -> Vec<Column> {
    let mut columns = vec![
        Column::whole("#", 0),
        Column::cut("Subject", 20, 1).flex(),
        Column::cut("Author", 10, 4),
        Column::whole("Updated", 3),
        Column::whole("💬", 6),
        Column::whole("", 5),
    ];
    if with_space {
        columns.insert(1, Column::cut("Space", 10, 2));
    }
    columns
}

/// One row's cells in the order of [`columns`] (`count` of them: with the space or not).
fn row_cells(
    screen: &ChangeRequestList,
    cr: &ChangeRequest,
    count: usize,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<String> {
    let number = cr.number.map(|n| format!("#{n}")).unwrap_or_default();
    let author = cr
        .created_by
        .as_ref()
        .map(|u| sanitize(&u.display_name).into_owned())
        .unwrap_or_default();
    let updated = cr
        .updated_at
        .as_deref()
        .map(|at| crate::ui::time::relative(at, now))
        .unwrap_or_default();
    let comments = cr.comments.map(|c| c.to_string()).unwrap_or_default();
    let marker = match (screen.is_fresh(&cr.id), cr.outdated) {
        (true, _) => "● new",
        (false, true) => "outdated",
        (false, false) => "",
    };
    let mut cells = vec![
        number,
        cr.subject.clone(),
        author,
        updated,
        comments,
        marker.to_string(),
    ];
    if count > cells.len() {
        cells.insert(1, screen.space_label(cr));
    }
    cells
}

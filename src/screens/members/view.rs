//! Drawing the Members tab: the filters line, the table (columns dropped by priority to fit
//! the width; the details show them all), a member's details, the popups and the notice.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::tab::{role_name, summary};
use super::{Details, MembersTab, Modal};
use crate::api::models::Member;
use crate::app::Model;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::time;
use crate::ui::{list, status, text};

/// One column of the table: its header, its width (the least, for a `flex` column, which
/// shares what is left) and its rank (lower ranks stay longer when the width is short).
struct Column {
    header: &'static str,
    width: u16,
    flex: bool,
    rank: u8,
    cell: fn(&Member, DateTime<Utc>) -> String,
}

/// The columns in the order they are shown.
const COLUMNS: [Column; 9] = [
    Column {
        header: "Name",
        width: 16,
        flex: true,
        rank: 0,
        cell: |member, _| member.name().to_string(),
    },
    Column {
        header: "Email",
        width: 22,
        flex: true,
        rank: 4,
        cell: |member, _| member.user.email.clone().unwrap_or_default(),
    },
    Column {
        header: "Role",
        width: 7,
        flex: false,
        rank: 1,
        cell: |member, _| role_name(member.role.as_ref()),
    },
    Column {
        header: "SSO",
        width: 3,
        flex: false,
        rank: 5,
        cell: |member, _| yes(member.sso == Some(true)),
    },
    Column {
        header: "Status",
        width: 8,
        flex: false,
        rank: 3,
        cell: |member, _| if member.disabled { "disabled" } else { "" }.to_string(),
    },
    Column {
        header: "Joined",
        width: 11,
        flex: false,
        rank: 5,
        cell: |member, now| ago(member.joined_at.as_deref(), now),
    },
    Column {
        header: "Last seen",
        width: 11,
        flex: false,
        rank: 2,
        cell: |member, now| ago(member.last_seen_at.as_deref(), now),
    },
    Column {
        header: "Spaces",
        width: 6,
        flex: false,
        rank: 7,
        cell: |member, _| count(member.spaces),
    },
    Column {
        header: "Teams",
        width: 5,
        flex: false,
        rank: 7,
        cell: |member, _| count(member.teams),
    },
];

fn yes(value: bool) -> String {
    if value { "yes" } else { "" }.to_string()
}

fn count(value: Option<u64>) -> String {
    value.map(|value| value.to_string()).unwrap_or_default()
}

fn ago(at: Option<&str>, now: DateTime<Utc>) -> String {
    at.map(|at| time::ago_or_raw(at, now))
        .unwrap_or_else(|| "never".to_string())
}

/// Which columns fit in `width` and how wide each is: the columns by rank while they fit
/// (the first always), then what is left shared among the flexible ones.
fn fitted_columns(width: u16) -> Vec<(&'static Column, u16)> {
    let mut ranked: Vec<usize> = (0..COLUMNS.len()).collect();
    ranked.sort_by_key(|&index| COLUMNS[index].rank);
    let mut chosen: Vec<usize> = Vec::new();
    let mut used = 0u16;
    for index in ranked {
        let extra = COLUMNS[index].width + u16::from(!chosen.is_empty());
        if used + extra <= width || chosen.is_empty() {
            used += extra;
            chosen.push(index);
        }
    }
    chosen.sort_unstable();
    let flexible = chosen.iter().filter(|&&i| COLUMNS[i].flex).count() as u16;
    let share = width.saturating_sub(used) / flexible.max(1);
    chosen
        .into_iter()
        .map(|index| {
            let column = &COLUMNS[index];
            let extra = if column.flex { share } else { 0 };
            (column, column.width + extra)
        })
        .collect()
}

pub fn draw(tab: &MembersTab, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let (area, notice_area) = notice_row(tab, area);
    if let Some(details) = &tab.details {
        draw_details(details, frame, area, model);
    } else {
        draw_list(tab, frame, area, model);
    }
    if let (Some(notice_area), Some(text)) = (notice_area, notice_text(tab)) {
        let style = tab
            .notice
            .as_ref()
            .map_or(theme.style("muted"), |notice| notice.style(theme));
        let line = crate::ui::notice::span(&text, notice_area.width, style, model);
        frame.render_widget(Paragraph::new(line), notice_area);
    }
    match &tab.modal {
        Some(Modal::Role(picker)) => crate::ui::picker::draw(picker, frame, area, theme),
        Some(Modal::Confirm { confirm, .. }) => confirm.draw(frame, area, theme),
        None => {}
    }
}

fn notice_text(tab: &MembersTab) -> Option<String> {
    match &tab.notice {
        Some(notice) => Some(notice.text.clone()),
        None if tab.is_sending() => Some("Sending…".to_string()),
        None => None,
    }
}

fn notice_row(tab: &MembersTab, area: Rect) -> (Rect, Option<Rect>) {
    if notice_text(tab).is_none() || area.height < 2 {
        return (area, None);
    }
    let [body, notice] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    (body, Some(notice))
}

fn draw_list(tab: &MembersTab, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let (area, filter_area) = text::with_filter_row(area, tab.filter.input.is_shown());
    if let Some(filter_area) = filter_area {
        text::draw_filter(frame, filter_area, &tab.filter.input, theme);
    }
    let [filters_area, area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let mut filters = summary(&tab.query);
    if let Some(count) = tab.list.total {
        let plural = if count == 1 { "" } else { "s" };
        filters = format!("{count} member{plural} · {filters}");
    }
    frame.render_widget(
        Paragraph::new(Span::styled(
            text::truncate(&sanitize(&filters), filters_area.width as usize),
            theme.style("muted"),
        )),
        filters_area,
    );
    if !tab.list.loaded_once() {
        match &tab.list.error {
            Some(error) => status::error(frame, area, model, error),
            None => status::loading(frame, area, model, "members"),
        }
        return;
    }
    let members = tab.visible();
    if members.is_empty() && tab.list.unreadable.is_empty() {
        let message = if !tab.filter.input.text.is_empty() {
            status::no_matches(&tab.filter.input.text)
        } else if tab.query.role.is_some() {
            "No member has this role — f cycles the role filter.".to_string()
        } else {
            "No members to show.".to_string()
        };
        status::empty(frame, area, model, &message);
        return;
    }
    let [header, rows_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let columns = fitted_columns(area.width);
    let widths: Vec<u16> = columns.iter().map(|(_, width)| *width).collect();
    let headers: Vec<&str> = columns.iter().map(|(column, _)| column.header).collect();
    frame.render_widget(
        Paragraph::new(text::columns(
            &headers,
            &widths,
            theme.style("table_header"),
        )),
        header,
    );
    let now = Utc::now();
    let range = tab
        .selection
        .visible_range(members.len(), rows_area.height as usize);
    // ── command palette ──
    crate::ui::hit::record_rows(rows_area, range.clone(), tab.selection.selected);
    let mut lines: Vec<Line> = members[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, member)| {
            let cells: Vec<String> = columns
                .iter()
                .map(|(column, _)| (column.cell)(member, now))
                .collect();
            let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
            let style = if range.start + offset == tab.selection.selected {
                theme.style("selection")
            } else if member.disabled {
                theme.style("muted")
            } else {
                theme.style("text")
            };
            text::columns(&cells, &widths, style)
        })
        .collect();
    if range.end >= members.len() {
        lines.extend(list::unreadable_rows(
            &tab.list.unreadable,
            rows_area,
            lines.len(),
            theme,
        ));
    }
    frame.render_widget(Paragraph::new(lines), rows_area);
}

fn field(label: &str, value: String, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("{label:<11}"), theme.style("muted")),
        Span::styled(sanitize(&value).into_owned(), theme.style("text")),
    ])
}

fn when(at: Option<&str>, now: DateTime<Utc>) -> String {
    match at {
        Some(at) => match time::absolute(at) {
            Some(absolute) => format!("{absolute} ({})", time::ago_or_raw(at, now)),
            None => at.to_string(),
        },
        None => "never".to_string(),
    }
}

fn draw_details(details: &Details, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let member = &details.member;
    let now = Utc::now();
    let mut lines = vec![
        Line::from(Span::styled(
            sanitize(member.name()).into_owned(),
            theme.style("title"),
        )),
        field(
            "Email",
            member.user.email.clone().unwrap_or_default(),
            theme,
        ),
        field("Role", role_name(member.role.as_ref()), theme),
        field(
            "SSO",
            if member.sso == Some(true) {
                "yes"
            } else {
                "no"
            }
            .to_string(),
            theme,
        ),
        field(
            "Status",
            if member.disabled {
                "disabled"
            } else {
                "active"
            }
            .to_string(),
            theme,
        ),
        field("Joined", when(member.joined_at.as_deref(), now), theme),
        field(
            "Last seen",
            when(member.last_seen_at.as_deref(), now),
            theme,
        ),
        field("Spaces", count(member.spaces), theme),
        field("Teams", count(member.teams), theme),
        Line::default(),
    ];
    match (details.loaded.value(), details.loaded.error()) {
        (Some(loaded), _) => {
            lines.push(section(
                "Spaces (permission)",
                loaded.spaces.items.len(),
                theme,
            ));
            lines.extend(loaded.spaces.items.iter().map(|entry| {
                let permission = role_name(entry.permission.as_ref());
                field(&format!("  {permission}"), entry.space.title.clone(), theme)
            }));
            lines.extend(more_line(loaded.spaces.next_page.is_some(), theme));
            lines.push(Line::default());
            lines.push(section("Teams (role)", loaded.teams.items.len(), theme));
            lines.extend(loaded.teams.items.iter().map(|entry| {
                let role = entry
                    .member
                    .role
                    .as_ref()
                    .map_or_else(|| "member".to_string(), |role| role.to_string());
                field(&format!("  {role}"), entry.team.title.clone(), theme)
            }));
            lines.extend(more_line(loaded.teams.next_page.is_some(), theme));
        }
        (None, Some(error)) => lines.push(Line::from(Span::styled(
            format!(
                "Could not read their spaces and teams: {}",
                error.user_message()
            ),
            theme.style("error"),
        ))),
        (None, None) => lines.push(Line::from(Span::styled(
            "Loading their spaces and teams…",
            theme.style("muted"),
        ))),
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((details.scroll, 0)),
        area,
    );
}

fn section(title: &str, count: usize, theme: &Theme) -> Line<'static> {
    let text = if count == 0 {
        format!("{title}: none")
    } else {
        title.to_string()
    };
    Line::from(Span::styled(text, theme.style("table_header")))
}

fn more_line(more: bool, theme: &Theme) -> Option<Line<'static>> {
    more.then(|| Line::from(Span::styled("  … and more", theme.style("muted"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(width: u16) -> Vec<&'static str> {
        fitted_columns(width)
            .into_iter()
            .map(|(column, _)| column.header)
            .collect()
    }

    #[test]
    fn columns_drop_by_rank_to_fit_and_keep_their_order() {
        assert_eq!(COLUMNS.len(), 9);
        assert_eq!(shown(140).len(), 9);
        assert_eq!(
            shown(80),
            [
                "Name",
                "Email",
                "Role",
                "SSO",
                "Status",
                "Last seen",
                "Spaces"
            ]
        );
        assert_eq!(shown(40), ["Name", "Role", "SSO", "Last seen"]);
        assert_eq!(shown(5), ["Name"]);
        for width in [40u16, 80, 140] {
            let total: u16 = fitted_columns(width).iter().map(|(_, w)| *w + 1).sum();
            assert!(total <= width + 1, "{width}: {total}");
        }
    }
}

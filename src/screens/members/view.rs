//! Drawing the Members tab: the filters line, the table (columns dropped by priority to fit
//! the width; the details show them all), a member's details, the popups and the notice.

use chrono::{DateTime, Utc};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::tab::{role_name, summary_parts};
use super::{Details, MembersTab, Modal};
use crate::api::models::Member;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::segments::{self, Segment};
use crate::ui::table::Column;
use crate::ui::theme::Theme;
use crate::ui::time;
use crate::ui::{status, text};

/// The columns in the order they are shown: the name takes the room the others leave, and
/// the least important go first when the width is short (the details show them all).
const COLUMNS: [Column; 9] = [
    Column::cut("Name", 16, 0).flex(),
    Column::cut("Email", 20, 4),
    Column::whole("Role", 1),
    Column::whole("SSO", 5),
    Column::whole("Status", 3),
    Column::whole("Joined", 5),
    Column::whole("Last seen", 2),
    Column::whole("Spaces", 7),
    Column::whole("Teams", 7),
];

/// One member's cells, in the order of [`COLUMNS`].
fn cells(member: &Member, now: DateTime<Utc>) -> [String; 9] {
    [
        member.name().to_string(),
        member.user.email.clone().unwrap_or_default(),
        role_name(member.role.as_ref()),
        yes(member.sso == Some(true)),
        if member.disabled { "disabled" } else { "" }.to_string(),
        ago(member.joined_at.as_deref(), now),
        ago(member.last_seen_at.as_deref(), now),
        count(member.spaces),
        count(member.teams),
    ]
}

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

pub(super) fn draw(tab: &MembersTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (area, notice_area) = notice_row(tab, area);
    if let Some(details) = &tab.details {
        draw_details(details, frame, area, look);
    } else {
        draw_list(tab, frame, area, look);
    }
    if let (Some(notice_area), Some(text)) = (notice_area, notice_text(tab)) {
        let style = tab
            .notice
            .as_ref()
            .map_or(theme.style("muted"), |notice| notice.style(theme));
        let line = crate::ui::notice::span(&text, notice_area.width, style, look);
        frame.render_widget(Paragraph::new(line), notice_area);
    }
    match &tab.modal {
        Some(Modal::Role(picker)) => crate::ui::picker::draw(picker, frame, area, theme),
        Some(Modal::TeamsTitle(prompt)) => crate::ui::prompt::draw(prompt, frame, area, theme),
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

/// "42 members · sort: name · every role · search "ada"": the count stays longest, then the
/// sort (it may say "active members only"); none is cut.
fn filter_segments(tab: &MembersTab, theme: &Theme) -> Vec<Segment> {
    let muted = theme.style("muted");
    let mut line = Vec::new();
    if let Some(count) = tab.list.total {
        let plural = if count == 1 { "" } else { "s" };
        line.push(Segment::new(format!("{count} member{plural}"), 0).styled(muted));
    }
    let parts = summary_parts(&tab.query);
    let last = parts.len().saturating_sub(1);
    for (index, part) in parts.into_iter().enumerate() {
        let part = sanitize(&part).into_owned();
        let priority = if index == 0 { 1 } else { 2 };
        let mut segment = Segment::new(part.clone(), priority);
        if index == last && index >= 2 {
            // The search is typed text: it may be shortened, with an ellipsis.
            segment = segment.or(text::truncate(&part, 20));
        }
        line.push(segment.styled(muted).after(" · "));
    }
    line
}

fn draw_list(tab: &MembersTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let area = crate::ui::list::filter_row(frame, area, &tab.filter.input, theme);
    let [filters_area, area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(segments::line(
            &filter_segments(tab, theme),
            usize::from(filters_area.width),
        )),
        filters_area,
    );
    let members = tab.visible();
    let empty = || {
        (members.is_empty() && tab.list.unreadable.is_empty()).then(|| {
            if !tab.filter.input.text.is_empty() {
                status::no_matches(&tab.filter.input.text)
            } else if tab.query.role.is_some() {
                "No member has this role — f cycles the role filter.".to_string()
            } else {
                "No members to show.".to_string()
            }
        })
    };
    if list_pane::draw_unlisted(frame, area, look, (&tab.list, "members"), empty) {
        return;
    }
    let now = Utc::now();
    let rows: Vec<[String; 9]> = members.iter().map(|member| cells(member, now)).collect();
    let disabled = |index: usize| members.get(index).is_some_and(|member| member.disabled);
    let table = Table::new(&COLUMNS, &rows, &tab.selection)
        .unreadable(&tab.list.unreadable)
        .muted(&disabled);
    list_pane::draw_table(frame, area, look, table, tab.selection.selected);
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

fn draw_details(details: &Details, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
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
            let order = if details.oldest_first {
                "Spaces (permission), oldest first"
            } else {
                "Spaces (permission), newest first"
            };
            lines.push(section(order, loaded.spaces.items.len(), theme));
            lines.extend(loaded.spaces.items.iter().map(|entry| {
                let permission = role_name(entry.permission.as_ref());
                field(&format!("  {permission}"), entry.space.title.clone(), theme)
            }));
            lines.extend(more_line(loaded.spaces.next_page.is_some(), theme));
            lines.push(Line::default());
            let teams = match &details.teams_title {
                Some(title) => format!("Teams (role) titled “{}”", sanitize(title)),
                None => "Teams (role)".to_string(),
            };
            lines.push(section(&teams, loaded.teams.items.len(), theme));
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
        let naturals: Vec<u16> = [24, 30, 7, 3, 8, 11, 11, 6, 5].to_vec();
        crate::ui::table::size_by_naturals(&COLUMNS, &naturals, width).headers(&COLUMNS)
    }

    #[test]
    fn columns_drop_by_priority_to_fit_and_keep_their_order() {
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
    }
}

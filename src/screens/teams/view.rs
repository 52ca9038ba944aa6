//! Drawing the Teams tab and a team's members screen, with their popups and notices.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Span;
use ratatui::widgets::Paragraph;

use super::tab::{Modal as TabModal, TeamsTab};
use super::{Modal as ScreenModal, TeamScreen};
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::notice::Notice;
use crate::ui::sanitize::sanitize;
use crate::ui::segments::{self, Segment};
use crate::ui::table::Column;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

/// The teams: the title takes the room the counts and the age leave.
const TEAM_COLUMNS: [Column; 4] = [
    Column::cut("Team", 16, 0).flex(),
    Column::whole("Members", 1),
    Column::whole("Spaces", 2),
    Column::whole("Created", 3),
];

/// A team's members: the mark (✗ for removal), the name taking the room, the email cut
/// first, the role whole.
const MEMBER_COLUMNS: [Column; 4] = [
    Column::whole(" ", 0),
    Column::cut("Name", 12, 0).flex(),
    Column::cut("Email", 16, 2),
    Column::whole("Role", 1),
];

/// Splits off the last row for the notice (or "Sending…") when there is one.
fn notice_row(
    notice: Option<&Notice>,
    busy: bool,
    area: Rect,
) -> (Rect, Option<(Rect, String, bool)>) {
    let text = match (notice, busy) {
        (Some(notice), _) => (notice.text.clone(), notice.error),
        (None, true) => ("Sending…".to_string(), false),
        (None, false) => return (area, None),
    };
    if area.height < 2 {
        return (area, None);
    }
    let [body, row] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    (body, Some((row, text.0, text.1)))
}

fn draw_notice(frame: &mut Canvas, row: Option<(Rect, String, bool)>, look: &Look) {
    let Some((area, message, error)) = row else {
        return;
    };
    let style = look.theme.style(if error { "error" } else { "muted" });
    let line = crate::ui::notice::span(&message, area.width, style, look);
    frame.render_widget(Paragraph::new(line), area);
}

fn muted_line(message: &str, area: Rect, theme: &Theme) -> Paragraph<'static> {
    Paragraph::new(Span::styled(
        text::truncate(&sanitize(message), area.width as usize),
        theme.style("muted"),
    ))
}

fn waiting(frame: &mut Canvas, area: Rect, theme: &Theme) {
    frame.hits.modal();
    let popup = crate::ui::layout::centered(area, 44, 3);
    frame.render_widget(ratatui::widgets::Clear, popup);
    let block = crate::ui::picker::popup_block("Members", theme);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    frame.render_widget(
        muted_line("Reading the organization's members…", inner, theme),
        inner,
    );
}

pub fn draw_tab(tab: &TeamsTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (area, notice) = notice_row(tab.notice.as_ref(), tab.is_sending(), area);
    draw_notice(frame, notice, look);
    let area = crate::ui::list::filter_row(frame, area, &tab.filter.input, theme);
    let [summary_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(segments::line(
            &summary(tab, theme),
            usize::from(summary_area.width),
        )),
        summary_area,
    );
    draw_team_rows(tab, frame, body, look);
    match &tab.modal {
        Some(TabModal::Title(prompt)) => crate::ui::prompt::draw(prompt, frame, area, theme),
        Some(TabModal::Members(picker)) => crate::ui::picker::draw(picker, frame, area, theme),
        Some(TabModal::WaitingForMembers(_)) => waiting(frame, area, theme),
        Some(TabModal::ConfirmDelete(confirm, _)) => confirm.draw(frame, area, theme),
        None => {}
    }
}

/// "6 teams · all teams · title contains "ops"": each shown whole or left out, the typed
/// title shortened first.
fn summary(tab: &TeamsTab, theme: &Theme) -> Vec<Segment> {
    let muted = theme.style("muted");
    let mut line = Vec::new();
    if let Some(total) = tab.list.total {
        let plural = if total == 1 { "" } else { "s" };
        line.push(Segment::new(format!("{total} team{plural}"), 0));
    }
    let scope = if tab.mine {
        "teams I can manage"
    } else {
        "all teams"
    };
    line.push(Segment::new(scope, 1).after(" · "));
    if let Some(title) = &tab.title_query {
        let title = sanitize(title);
        line.push(
            Segment::new(format!("title contains \"{title}\""), 1)
                .or(format!("title contains \"{}\"", text::truncate(&title, 12)))
                .after(" · "),
        );
    }
    line.into_iter()
        .map(|segment| segment.styled(muted))
        .collect()
}

fn draw_team_rows(tab: &TeamsTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let empty = || {
        (tab.list.items.is_empty() && tab.list.unreadable.is_empty()).then(|| {
            match (&tab.title_query, tab.mine) {
                (Some(title), _) => status::no_matches(title),
                (None, true) => "You manage no team here — m shows them all.".to_string(),
                (None, false) => "No teams yet — n creates one.".to_string(),
            }
        })
    };
    if list_pane::draw_unlisted(frame, area, look, (&tab.list, "teams"), empty) {
        return;
    }
    let now = look.now();
    let count = |value: Option<u64>| value.map(|v| v.to_string()).unwrap_or_default();
    let rows: Vec<[String; 4]> = tab
        .list
        .items
        .iter()
        .map(|team| {
            let created = team
                .created_at
                .as_deref()
                .map(|at| crate::ui::time::ago_or_raw(at, now))
                .unwrap_or_default();
            [
                team.title.clone(),
                count(team.members),
                count(team.spaces),
                created,
            ]
        })
        .collect();
    let table = Table::new(&TEAM_COLUMNS, &rows, &tab.selection).unreadable(&tab.list.unreadable);
    list_pane::draw_table(frame, area, look, table, tab.selection.selected);
}

pub fn draw(screen: &TeamScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (area, notice) = notice_row(screen.notice.as_ref(), screen.is_sending(), area);
    draw_notice(frame, notice, look);
    let [summary_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let mut summary = format!("{} · {}", screen.organization_title, screen.team.title);
    if let Some(members) = screen.team.members {
        let plural = if members == 1 { "" } else { "s" };
        summary.push_str(&format!(" · {members} member{plural}"));
    }
    if !screen.marked.is_empty() {
        summary.push_str(&format!(
            " · {} marked for removal (B bulk edit)",
            screen.marked.len()
        ));
    }
    if !screen.can_manage() {
        summary.push_str(" · you cannot change this team");
    }
    frame.render_widget(muted_line(&summary, summary_area, theme), summary_area);
    draw_member_rows(screen, frame, body, look);
    match &screen.modal {
        Some(ScreenModal::Pick(picker)) => crate::ui::picker::draw(picker, frame, area, theme),
        Some(ScreenModal::WaitingForMembers(_)) => waiting(frame, area, theme),
        Some(ScreenModal::Confirm(confirm, _)) => confirm.draw(frame, area, theme),
        None => {}
    }
}

fn draw_member_rows(screen: &TeamScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let empty = || {
        (screen.list.items.is_empty() && screen.list.unreadable.is_empty())
            .then(|| "Nobody is in this team — a adds someone.".to_string())
    };
    if list_pane::draw_unlisted(frame, area, look, (&screen.list, "team members"), empty) {
        return;
    }
    let rows: Vec<[String; 4]> = screen
        .list
        .items
        .iter()
        .map(|entry| {
            let member = &entry.organization;
            let mark = if screen.marked.contains(&member.id) {
                "✗"
            } else {
                " "
            };
            let role = entry
                .team
                .role
                .as_ref()
                .map_or_else(|| "member".to_string(), |role| role.to_string());
            [
                mark.to_string(),
                member.name().to_string(),
                member.user.email.clone().unwrap_or_default(),
                role,
            ]
        })
        .collect();
    let table =
        Table::new(&MEMBER_COLUMNS, &rows, &screen.selection).unreadable(&screen.list.unreadable);
    list_pane::draw_table(frame, area, look, table, screen.selection.selected);
}

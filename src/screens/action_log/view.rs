use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::ActionLogScreen;
use crate::app::Model;
use crate::app::action_log::Undo;
use crate::ui::sanitize::sanitize;
use crate::ui::{status, text};

pub fn draw(screen: &ActionLogScreen, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    if area.height < 3 {
        return;
    }
    let [title_area, body, notice_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let count = model.action_log.len();
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("Action log", theme.style("title")),
            Span::styled(
                format!(
                    " — {}, newest first",
                    crate::screens::review::counted(count, "write", "writes")
                ),
                theme.style("muted"),
            ),
        ])),
        title_area,
    );
    if model.action_log.is_empty() {
        status::empty(
            frame,
            body,
            model,
            "No writes yet this session. Reactions, resolves, status changes, share links and \
             roles you change are listed here, and u undoes them.",
        );
    } else {
        draw_rows(screen, frame, body, model);
    }
    if let Some(notice) = &screen.notice {
        frame.render_widget(
            Paragraph::new(Line::from(Span::styled(
                sanitize(&notice.text).into_owned(),
                notice.style(theme),
            ))),
            notice_area,
        );
    }
    if let Some(asking) = &screen.asking {
        asking.confirm.draw(frame, area, theme);
    }
}

/// Two lines a write: when and what, then where and whether `u` can take it back.
fn draw_rows(screen: &ActionLogScreen, frame: &mut Frame, body: Rect, model: &Model) {
    let theme = &model.theme;
    let now = chrono::Utc::now();
    let entries: Vec<_> = model.action_log.newest_first().collect();
    let per_page = (body.height as usize / 2).max(1);
    let range = screen.selection.visible_range(entries.len(), per_page);
    let width = body.width as usize;
    let mut lines = Vec::new();
    for (index, entry) in entries
        .iter()
        .enumerate()
        .skip(range.start)
        .take(range.len())
    {
        let selected = index == screen.selection.selected;
        let marker = if selected { "▶ " } else { "  " };
        let when = crate::ui::time::ago_or_raw(&entry.at.to_rfc3339(), now);
        let what_style = match (selected, entry.undone) {
            (true, _) => theme.style("selection"),
            (false, true) => theme.style("muted"),
            (false, false) => theme.style("text"),
        };
        let when_text = format!("{when:>10}  ");
        let room = width.saturating_sub(marker.len() + when_text.chars().count());
        lines.push(Line::from(vec![
            Span::styled(marker, theme.style("accent")),
            Span::styled(when_text, theme.style("muted")),
            Span::styled(text::fit(&sanitize(&entry.what), room), what_style),
        ]));
        let undo = match (&entry.undo, entry.undone) {
            (_, true) => "undone".to_string(),
            (Undo::Inverse { .. }, false) => "u undoes".to_string(),
            (Undo::Impossible { why }, false) => format!("no undo: {why}"),
        };
        let detail = format!("{}  ·  {undo}", sanitize(&entry.place));
        lines.push(Line::from(vec![
            Span::raw("    "),
            Span::styled(
                text::fit(&detail, width.saturating_sub(4)),
                theme.style("muted"),
            ),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), body);
}

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::ActionLogScreen;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::{status, text, titled};
use crate::vocabulary::action_log::{LoggedAction, UndoState};

pub(super) fn draw(screen: &ActionLogScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let count = look.action_log.len();
    let more = vec![Span::styled(
        format!(
            " — {}, newest first",
            crate::ui::time::plural(count, "write", "writes")
        ),
        theme.style("muted"),
    )];
    let Some(areas) = titled::split(frame, area, look, "Action log", more) else {
        return;
    };
    let body = areas.body;
    if look.action_log.is_empty() {
        status::empty(
            frame,
            body,
            look,
            "No writes yet this session. Reactions, resolves, status changes, share links and \
             roles you change are listed here, and u undoes them.",
        );
    } else {
        draw_rows(screen, frame, body, look);
    }
    titled::draw_notice(frame, areas.notice, screen.notice.as_ref(), look);
    if let Some(asking) = &screen.asking {
        asking.confirm.draw(frame, area, theme);
    }
}

/// A write: when and what, then where and whether `u` can take it back, each wrapped whole
/// (a reason is never cut). The list scrolls so the selected write is shown in full.
fn draw_rows(screen: &ActionLogScreen, frame: &mut Frame, body: Rect, look: &Look) {
    let now = chrono::Utc::now();
    let entries: Vec<_> = look.action_log.newest_first().collect();
    let blocks: Vec<Vec<Line>> = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let selected = index == screen.selection.selected;
            entry_lines(entry, selected, body.width as usize, now, look)
        })
        .collect();
    let selected = screen
        .selection
        .selected
        .min(blocks.len().saturating_sub(1));
    let first = first_shown(&blocks, selected, body.height as usize);
    let lines: Vec<Line> = blocks.into_iter().skip(first).flatten().collect();
    frame.render_widget(Paragraph::new(lines), body);
}

/// The first block to draw so that `selected` fits whole below it: from the top while it
/// does, else as few blocks above it as leave it room.
fn first_shown(blocks: &[Vec<Line>], selected: usize, height: usize) -> usize {
    let mut used = 0;
    let mut first = selected;
    for index in (0..=selected).rev() {
        used += blocks[index].len();
        if used > height && index < selected {
            break;
        }
        first = index;
    }
    first
}

fn entry_lines(
    entry: &LoggedAction,
    selected: bool,
    width: usize,
    now: chrono::DateTime<chrono::Utc>,
    look: &Look,
) -> Vec<Line<'static>> {
    let theme = look.theme;
    let marker = if selected { "▶ " } else { "  " };
    let when = crate::ui::time::ago_or_raw(&entry.at.to_rfc3339(), now);
    let when_text = format!("{when:>10}  ");
    let what_style = match (selected, entry.undo_state()) {
        (true, _) => theme.style("selection"),
        (false, UndoState::Possible(_) | UndoState::Impossible(_)) => theme.style("text"),
        (false, _) => theme.style("muted"),
    };
    let indent = text::width(marker) + text::width(&when_text);
    let mut lines = Vec::new();
    for (row, part) in text::wrap(&entry.what, width.saturating_sub(indent))
        .into_iter()
        .enumerate()
    {
        let lead = if row == 0 {
            vec![
                Span::styled(marker, theme.style("accent")),
                Span::styled(when_text.clone(), theme.style("muted")),
            ]
        } else {
            vec![Span::raw(" ".repeat(indent))]
        };
        lines.push(Line::from(
            [lead, vec![Span::styled(part, what_style)]].concat(),
        ));
    }
    let detail = format!("{}  ·  {}", entry.place, undo_text(entry));
    for part in text::wrap(&detail, width.saturating_sub(4)) {
        lines.push(Line::from(vec![
            Span::raw("    "),
            Span::styled(part, theme.style("muted")),
        ]));
    }
    lines
}

/// Whether `u` takes the write back, in words.
fn undo_text(entry: &LoggedAction) -> String {
    match entry.undo_state() {
        UndoState::Possible(_) => "u undoes".to_string(),
        UndoState::Undone => "undone".to_string(),
        UndoState::Overtaken(why) => format!("no undo any more: {why}"),
        UndoState::Impossible(why) => format!("no undo: {why}"),
    }
}

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::OutboxScreen;
use crate::api::outbox::Queued;
use crate::app::Model;
use crate::ui::{sanitize::sanitize, status, text};

pub fn draw(screen: &OutboxScreen, frame: &mut Frame, area: Rect, model: &Model) {
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
    let count = crate::screens::review::counted(screen.writes.len(), "write", "writes");
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("Outbox", theme.style("title")),
            Span::styled(format!(" — {count} waiting"), theme.style("muted")),
        ])),
        title_area,
    );
    if !screen.loaded {
        status::empty(frame, body, model, "Reading the outbox…");
    } else if screen.writes.is_empty() {
        status::empty(
            frame,
            body,
            model,
            "Nothing waits: writes made while the server is out of reach are queued here.",
        );
    } else {
        frame.render_widget(Paragraph::new(rows(screen, body, model)), body);
    }
    if let Some(notice) = &screen.notice {
        frame.render_widget(
            Paragraph::new(crate::ui::notice::row(notice, notice_area.width, model)),
            notice_area,
        );
    }
}

/// A heading per change request, then its writes, one line each, scrolled to the selection.
fn rows(screen: &OutboxScreen, body: Rect, model: &Model) -> Vec<Line<'static>> {
    let theme = &model.theme;
    let width = body.width as usize;
    let mut lines = Vec::new();
    let mut selected_line = 0;
    for (index, queued) in screen.writes.iter().enumerate() {
        let new_target = index == 0 || screen.writes[index - 1].target != queued.target;
        if new_target {
            let heading = format!(
                "{} · {}",
                sanitize(&queued.target.space),
                sanitize(&queued.target.change_request)
            );
            lines.push(Line::from(Span::styled(
                text::truncate(&heading, width),
                theme.style("accent"),
            )));
        }
        let selected = index == screen.selection.selected;
        if selected {
            selected_line = lines.len();
        }
        let style = if selected { "selection" } else { "text" };
        let marker = if selected { "▶ " } else { "  " };
        let line = format!("{marker}◷ {}", summary(queued));
        lines.push(Line::from(Span::styled(
            text::truncate(&line, width),
            theme.style(style),
        )));
    }
    let height = body.height as usize;
    let skip = (selected_line + 1).saturating_sub(height);
    lines.into_iter().skip(skip).collect()
}

fn summary(queued: &Queued) -> String {
    let kind = queued.write.describe();
    let unsure = if queued.attempted {
        " (read back first)"
    } else {
        ""
    };
    match queued.write.markdown() {
        Some(markdown) => format!("{kind}{unsure}: {}", sanitize(markdown)),
        None => format!("{kind}{unsure}"),
    }
}

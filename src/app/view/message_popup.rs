//! The popup of `ctrl-g`: the messages shown lately, newest first, each wrapped whole, so one
//! the screen had to cut (a long error, a refusal's reason, a list of wrong fields, an address
//! that could not be opened) can be read. It scrolls when they do not fit; `esc` closes it.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::Model;
use crate::ui::hit::Canvas;
use crate::ui::layout::{body_size, centered};
use crate::ui::text;

/// The popup's widest, so a long line stays easy to read on a wide terminal.
const WIDTH: u16 = 76;

struct Layout {
    popup: Rect,
    lines: Vec<Line<'static>>,
    visible_rows: u16,
    max_scroll: u16,
}

/// Every message wrapped to `width` cells: the newest first in its colour, then the earlier
/// ones under a heading, a blank row between two.
fn lines(model: &Model, width: usize) -> Vec<Line<'static>> {
    let theme = &model.theme;
    if model.messages.is_empty() {
        return vec![Line::from(Span::styled(
            "No messages yet this session.",
            theme.style("muted"),
        ))];
    }
    let mut lines = Vec::new();
    for (index, notice) in model.messages.newest_first().enumerate() {
        if index == 1 {
            lines.push(Line::from(""));
            lines.push(Line::from(Span::styled("Earlier", theme.style("title"))));
        } else if index > 1 {
            lines.push(Line::from(""));
        }
        let style = if index == 0 {
            notice.style(theme)
        } else {
            theme.style("text")
        };
        for part in text::wrap(&notice.text, width) {
            lines.push(Line::from(Span::styled(part, style)));
        }
    }
    lines
}

fn layout(model: &Model) -> Layout {
    let (width, height) = body_size(model.size.width, model.size.height);
    let inner = WIDTH.min(width).saturating_sub(2).max(1);
    let lines = lines(model, usize::from(inner));
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let popup = centered(
        Rect::new(0, 0, width, height),
        WIDTH,
        rows.saturating_add(2),
    );
    let visible_rows = popup.height.saturating_sub(2);
    Layout {
        popup,
        lines,
        visible_rows,
        max_scroll: rows.saturating_sub(visible_rows),
    }
}

/// Rows of messages visible at once.
pub fn visible_rows(model: &Model) -> u16 {
    layout(model).visible_rows
}

/// The furthest the popup scrolls: its last row at the bottom, never past it.
pub fn max_scroll(model: &Model) -> u16 {
    layout(model).max_scroll
}

pub fn draw(frame: &mut Canvas, area: Rect, scroll: u16, model: &Model) {
    let theme = &model.theme;
    let layout = layout(model);
    let popup = Rect::new(
        area.x + layout.popup.x,
        area.y + layout.popup.y,
        layout.popup.width.min(area.width),
        layout.popup.height.min(area.height),
    );
    let title = if layout.max_scroll > 0 {
        " Messages — j/k scroll · esc closes "
    } else {
        " Messages — esc closes "
    };
    frame.hits.cover(popup);
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(text::truncate(
            title,
            usize::from(popup.width.saturating_sub(2)),
        ));
    frame.render_widget(
        Paragraph::new(layout.lines)
            .block(block)
            .scroll((scroll.min(layout.max_scroll), 0)),
        popup,
    );
}

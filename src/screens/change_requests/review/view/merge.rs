//! Drawing the merge pre-flight: its lines styled (✓ success, ⚠ warning), and its box, which
//! scrolls and says so when its text does not fit.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::screens::change_requests::review::ReviewScreen;
use crate::screens::change_requests::review::preflight::{
    Preflight, PreflightLayout, preflight_content,
};
use crate::screens::change_requests::review::preflight_line::PreflightLine;
use crate::ui::hit::Canvas;
use crate::ui::layout::centered;
use crate::ui::theme::Theme;

/// The pre-flight's lines, unwrapped, for the overview's "Checks before a merge".
pub(crate) fn preflight_lines(
    screen: &ReviewScreen,
    theme: &Theme,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<Line<'static>> {
    preflight_content(screen, now)
        .iter()
        .map(|line| Line::from(Span::styled(line.text(), line_style(line, theme))))
        .collect()
}

fn line_style(line: &PreflightLine, theme: &Theme) -> Style {
    match line {
        PreflightLine::Title(_) => theme.style("title"),
        PreflightLine::Warning(_) => theme.style("warning"),
        PreflightLine::Passed(_) => theme.style("success"),
        PreflightLine::Note(_) => theme.style("muted"),
        PreflightLine::Blank => theme.style("text"),
    }
}

/// The box in the middle of `area`: the rows that fit from its scroll, the keys pinned to its
/// last rows, and on its bottom border which way there is more.
pub(super) fn draw_preflight(
    screen: &ReviewScreen,
    preflight: &Preflight,
    frame: &mut Canvas,
    area: Rect,
    theme: &Theme,
    now: chrono::DateTime<chrono::Utc>,
) {
    let layout = PreflightLayout::new(screen, preflight, (area.width, area.height), now);
    let scroll = preflight.scroll.min(layout.max_scroll());
    frame.hits.modal();
    let rect = centered(area, layout.width, layout.height);
    frame.render_widget(Clear, rect);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(" Merge — pre-flight check ");
    if let Some(hint) = more_hint(scroll, &layout) {
        block = block
            .title_bottom(Line::from(Span::styled(hint, theme.style("accent"))).right_aligned());
    }
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let keys_rows = u16::try_from(layout.keys.len()).unwrap_or(u16::MAX);
    let [body, keys_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(keys_rows)]).areas(inner);
    let rows: Vec<Line> = layout
        .rows
        .iter()
        .skip(scroll)
        .take(layout.visible)
        .map(|(index, text)| {
            let style = line_style(&layout.lines[*index], theme);
            Line::from(Span::styled(text.clone(), style))
        })
        .collect();
    frame.render_widget(Paragraph::new(rows), body);
    let keys_style = if preflight.nudged {
        theme.style("warning")
    } else {
        theme.style("accent")
    };
    let keys: Vec<Line> = layout
        .keys
        .iter()
        .map(|row| Line::from(Span::styled(row.clone(), keys_style)))
        .collect();
    frame.render_widget(Paragraph::new(keys), keys_area);
}

/// " ↓ j: more " while rows are hidden below, " ↑ k: back " when only above.
fn more_hint(scroll: usize, layout: &PreflightLayout) -> Option<&'static str> {
    if scroll < layout.max_scroll() {
        Some(" ↓ j: more ")
    } else if scroll > 0 {
        Some(" ↑ k: back ")
    } else {
        None
    }
}

//! Draws the command palette: the query on top, then the entries that match it, the matched
//! characters highlighted and each entry's key (or kind) on the right.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::palette::Palette;
use crate::ui::hit::Canvas;
use crate::ui::layout::centered;
use crate::ui::sanitize::sanitize;
use crate::ui::text;
use crate::ui::theme::Theme;

const WIDTH: u16 = 72;

pub fn draw(frame: &mut Canvas, area: Rect, palette: &Palette, theme: &Theme) {
    if area.width < 4 || area.height < 3 {
        return;
    }
    let rows = u16::try_from(palette.shown.len()).unwrap_or(u16::MAX);
    // Room for a dozen rows at most: beyond that the query narrows faster than scrolling.
    let height = rows.clamp(1, 12).saturating_add(3);
    let popup = centered(area, WIDTH, height);
    frame.hits.cover(popup);
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(" Go to, run · ↑↓ enter esc ");
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let [input_area, list_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    draw_input(frame, input_area, palette, theme);
    draw_entries(frame, list_area, palette, theme);
}

fn draw_input(frame: &mut Frame, area: Rect, palette: &Palette, theme: &Theme) {
    let query = sanitize(&palette.input.text).into_owned();
    let room = (area.width as usize).saturating_sub(3);
    // The end of a long query stays in view, where the cursor is.
    let shown = if text::width(&query) > room {
        let skip = query.chars().count().saturating_sub(room);
        query.chars().skip(skip).collect()
    } else {
        query
    };
    let line = Line::from(vec![
        Span::styled(": ", theme.style("accent")),
        Span::styled(shown.clone(), theme.style("text")),
    ]);
    frame.render_widget(Paragraph::new(line), area);
    let cursor = 2 + text::width(&shown).min(room);
    if let Ok(cursor) = u16::try_from(cursor)
        && cursor < area.width
    {
        frame.set_cursor_position((area.x + cursor, area.y));
    }
}

fn draw_entries(frame: &mut Frame, area: Rect, palette: &Palette, theme: &Theme) {
    if palette.shown.is_empty() {
        frame.render_widget(
            Paragraph::new(Span::styled(
                "Nothing matches — backspace or esc",
                theme.style("muted"),
            )),
            area,
        );
        return;
    }
    let range = palette
        .selection
        .visible_range(palette.shown.len(), area.height as usize);
    let width = area.width as usize;
    let lines: Vec<Line> = range
        .clone()
        .filter_map(|row| {
            let shown = palette.shown.get(row)?;
            let entry = palette.entries.get(shown.entry)?;
            let selected = row == palette.selection.selected;
            Some(entry_line(
                &entry.label,
                &entry.detail,
                &shown.matched,
                selected,
                width,
                theme,
            ))
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// One row: ` label` with matched characters marked, the detail right-aligned when it fits.
fn entry_line(
    label: &str,
    detail: &str,
    matched: &[usize],
    selected: bool,
    width: usize,
    theme: &Theme,
) -> Line<'static> {
    let base = if selected {
        theme.style("selection")
    } else {
        theme.style("text")
    };
    let hit = base
        .patch(theme.style("match"))
        .add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
    let detail_width = text::width(detail);
    // A key is short and always shown; a longer detail (a kind, a scope) only when the
    // label still fits beside it, since the label is what the user reads.
    let fits = text::width(label) + detail_width + 3 <= width;
    let show_detail = (detail_width <= 8 && detail_width + 8 < width) || fits;
    let label_room =
        width
            .saturating_sub(1)
            .saturating_sub(if show_detail { detail_width + 2 } else { 0 });
    let label = text::truncate(label, label_room);
    let mut spans = vec![Span::styled(" ", base)];
    for (index, character) in label.chars().enumerate() {
        let style = if matched.contains(&index) { hit } else { base };
        spans.push(Span::styled(character.to_string(), style));
    }
    let used = 1 + text::width(&label);
    if show_detail {
        let gap = width.saturating_sub(used + detail_width + 1);
        spans.push(Span::styled(" ".repeat(gap), base));
        let detail_style = if selected { base } else { theme.style("muted") };
        spans.push(Span::styled(format!("{detail} "), detail_style));
    } else {
        spans.push(Span::styled(" ".repeat(width.saturating_sub(used)), base));
    }
    Line::from(spans)
}

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::{PageScreen, text_area};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::layout::centered;
use crate::ui::sanitize::sanitize;
use crate::ui::{notice, status, text};

pub(super) fn draw(screen: &PageScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let text_rect = text_area(area);
    let title_row = Rect::new(text_rect.x, area.y, text_rect.width, 1.min(area.height));
    let status_row = Rect::new(
        text_rect.x,
        area.bottom().saturating_sub(1),
        text_rect.width,
        1.min(area.height),
    );
    let mut title = vec![Span::styled(
        sanitize(&screen.page.title).into_owned(),
        theme.style("title"),
    )];
    if let Some(path) = &screen.page.path {
        title.push(Span::styled(
            format!("  /{}", sanitize(path)),
            theme.style("muted"),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(title)), title_row);

    if screen.reader.is_ready() {
        let mut text_rect = text_rect;
        if let Some(error) = screen.document.error() {
            // A failed reload keeps the page shown; its last row says so.
            let taken = status::reload_failed(frame, text_rect, look, error);
            text_rect.height = text_rect.height.saturating_sub(taken);
        }
        screen.reader.draw(frame, text_rect, theme);
    } else {
        match screen.document.error() {
            Some(error) => status::error(frame, text_rect, look, error),
            None => status::loading(frame, text_rect, look, "page"),
        }
    }
    if area.height >= 3 {
        draw_status(screen, frame, status_row, text_rect.height as usize, look);
    }
    if screen.contents.is_some() {
        draw_contents(screen, frame, area, look);
    }
    screen.change_requests.draw(frame, area, look);
}

/// The search input, or the match count and how far down the page the view is.
fn draw_status(
    screen: &PageScreen,
    frame: &mut Frame,
    area: Rect,
    text_height: usize,
    look: &Look,
) {
    let theme = look.theme;
    if let Some(input) = &screen.search_input {
        let line = Line::from(vec![
            Span::styled("/", theme.style("accent")),
            Span::raw(sanitize(&input.text).into_owned()),
        ]);
        frame.render_widget(Paragraph::new(line), area);
        let x = area.x + 1 + input.cursor_column() as u16;
        if x < area.right() {
            frame.set_cursor_position(Position::new(x, area.y));
        }
        return;
    }
    let position = screen
        .reader
        .position(text_height)
        .map(|position| {
            let total = screen.reader.line_count();
            format!("{position}  line {}/{total}", screen.reader.scroll + 1)
        })
        .unwrap_or_default();
    let mut spans = Vec::new();
    if let Some(status) = screen.reader.match_status() {
        spans.push(Span::styled(status, theme.style("accent")));
        spans.push(Span::raw("   "));
    }
    // what following a link said, else where the focused link goes, in the room the line's
    // position leaves.
    let used: usize = spans.iter().map(Span::width).sum();
    let room = usize::from(area.width).saturating_sub(used + text::width(&position) + 3);
    let room = u16::try_from(room).unwrap_or(u16::MAX);
    let link = match &screen.link_status {
        Some(said) => Some(notice::span(said, room, theme.style("accent"), look)),
        None => screen.reader.focused_link().map(|link| {
            let to = format!("→ {}", sanitize(&link.destination));
            Span::styled(
                text::truncate(&to, usize::from(room)),
                theme.style("accent"),
            )
        }),
    };
    if let Some(link) = link {
        spans.push(link);
        spans.push(Span::raw("   "));
    }
    spans.push(Span::styled(position, theme.style("muted")));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_contents(screen: &PageScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let Some(selection) = &screen.contents else {
        return;
    };
    let headings = screen
        .reader
        .key
        .as_ref()
        .and_then(|key| look.docs.get(key))
        .map(|cached| cached.doc.headings().to_vec())
        .unwrap_or_default();
    let rows = u16::try_from(headings.len()).unwrap_or(u16::MAX);
    frame.hits.modal();
    let popup = centered(area, 60, rows.saturating_add(2).max(3));
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(" Contents — enter jumps, esc closes ");
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    if headings.is_empty() {
        status::empty(frame, inner, look, "This page has no headings.");
        return;
    }
    let range = selection.visible_range(headings.len(), inner.height as usize);
    let lines: Vec<Line> = headings[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, heading)| {
            let indent = "  ".repeat(heading.level.saturating_sub(1).min(5) as usize);
            let label = text::truncate(
                &format!("{indent}{}", sanitize(&heading.text)),
                inner.width as usize,
            );
            let style =
                selection.style_or(range.start + offset, theme, theme.heading(heading.level));
            Line::from(Span::styled(label, style))
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

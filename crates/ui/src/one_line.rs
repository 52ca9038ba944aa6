//! Drawing one line of text into a row, exactly as `Paragraph::new(line)` draws it (left
//! aligned, cut at the row's end), without what a paragraph needs for many lines: it gathers
//! every grapheme of a line into a list and measures each with Unicode tables before placing
//! it. A list of thousands of pages redraws its rows on every key, and on a wide terminal that
//! was the largest part of drawing them. Plain ASCII, the usual case, is placed byte by byte.

use ratatui::buffer::{Buffer, Cell, CellWidth};
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};
use unicode_segmentation::UnicodeSegmentation;

/// Draws `line` on the first row of `area` (clipped to the buffer), as `Paragraph::new(line)`
/// would: each span in the line's style patched with its own, cells past the text untouched.
pub fn draw_line(buffer: &mut Buffer, area: Rect, line: &Line) {
    let area = area.intersection(buffer.area);
    if area.is_empty() {
        return;
    }
    if !matches!(line.alignment, None | Some(Alignment::Left)) {
        Paragraph::new(line.clone()).render(Rect { height: 1, ..area }, buffer);
        return;
    }
    let start = buffer.index_of(area.x, area.y);
    let Some(row) = buffer
        .content
        .get_mut(start..start + usize::from(area.width))
    else {
        return;
    };
    let mut placer = Placer { row, x: 0 };
    let line_style = Style::default().patch(line.style);
    for span in &line.spans {
        let style = line_style.patch(span.style);
        let text: &str = span.content.as_ref();
        let placed = if text
            .bytes()
            .all(|byte| byte.is_ascii_graphic() || byte == b' ')
        {
            placer.ascii(text, style)
        } else {
            placer.graphemes(text, style)
        };
        if !placed {
            return;
        }
    }
}

/// Where the next grapheme of a row goes.
struct Placer<'a> {
    row: &'a mut [Cell],
    x: usize,
}

impl Placer<'_> {
    /// Places printable ASCII, one column a byte; false when the row is full.
    fn ascii(&mut self, text: &str, style: Style) -> bool {
        let room = self.row.len() - self.x;
        let fits = text.len().min(room);
        for (cell, character) in self.row[self.x..self.x + fits]
            .iter_mut()
            .zip(text[..fits].chars())
        {
            cell.set_char(character).set_style(style);
        }
        self.x += fits;
        fits == text.len()
    }

    /// Places any text as a paragraph does: control characters left out, a grapheme wider
    /// than the whole row skipped, zero-width ones not drawn; false when the row is full.
    fn graphemes(&mut self, text: &str, style: Style) -> bool {
        let row_width = self.row.len();
        for grapheme in text
            .graphemes(true)
            .filter(|grapheme| !grapheme.contains(char::is_control))
        {
            let width = usize::from(grapheme.cell_width());
            if width > row_width {
                continue;
            }
            if self.x + width > row_width {
                return false;
            }
            if width == 0 {
                continue;
            }
            self.row[self.x].set_symbol(grapheme).set_style(style);
            self.x += width;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Modifier, Stylize};
    use ratatui::text::Span;

    /// `line` drawn both ways into a row `width` wide of a buffer that has something in it.
    fn both_ways(line: &Line<'static>, width: u16) -> (Buffer, Buffer) {
        let mut filled = Buffer::empty(Rect::new(0, 0, width + 4, 3));
        filled.set_string(0, 1, "x".repeat(usize::from(width) + 4), Style::new().red());
        let area = Rect::new(2, 1, width, 1);
        let mut paragraph = filled.clone();
        Paragraph::new(line.clone()).render(area, &mut paragraph);
        let mut fast = filled;
        draw_line(&mut fast, area, line);
        (paragraph, fast)
    }

    #[test]
    fn draws_what_a_paragraph_draws() {
        let selected = Style::new().fg(Color::Black).bg(Color::Cyan);
        let lines = [
            Line::from("plain ascii"),
            Line::from(vec![
                Span::styled("  │ ", Style::new().dim()),
                Span::styled("📄 ", Style::new().bold()),
                Span::styled("Getting started", Style::new().fg(Color::Yellow)),
            ]),
            Line::from(vec![Span::raw("ＷＩＤＥ"), Span::raw("x")]).style(selected),
            Line::from("e\u{301}t\u{e9} a\u{200b}b tab\there").add_modifier(Modifier::ITALIC),
            Line::from("a line far longer than the row it is drawn in"),
            Line::from(vec![Span::raw("12345678"), Span::raw("9")]),
            Line::from("1234567ＷＩ"),
            Line::from("right").alignment(Alignment::Right),
            Line::from(""),
        ];
        for line in &lines {
            for width in [1, 2, 8, 9, 30] {
                let (paragraph, fast) = both_ways(line, width);
                assert_eq!(fast, paragraph, "{line:?} in {width} columns");
            }
        }
    }

    #[test]
    fn a_row_outside_the_buffer_draws_nothing() {
        let mut buffer = Buffer::empty(Rect::new(0, 0, 5, 2));
        draw_line(&mut buffer, Rect::new(0, 4, 5, 1), &Line::from("hidden"));
        draw_line(&mut buffer, Rect::new(3, 1, 9, 1), &Line::from("cut"));
        assert_eq!(buffer, Buffer::with_lines(["     ", "   cu"]));
    }
}

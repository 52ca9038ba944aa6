//! OSC 8 hyperlinks: link targets shown in the text (`⟨https://…⟩`) are made clickable in
//! terminals that support it; the others ignore the sequence and show the same text.
//!
//! The sequence rides in the first and last cell of each shown piece of the address, with the
//! cell's width forced to what is really drawn, so ratatui's diffing stays right.

use std::num::NonZeroU16;

use ratatui::buffer::{Buffer, CellDiffOption};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

use crate::text;

use crate::sanitize::STAND_INS;

/// Whether this terminal should get hyperlinks: not the Linux console or a dumb terminal, and
/// not when the user said `QUIRE_NO_HYPERLINKS`.
pub fn supported() -> bool {
    let term = std::env::var("TERM").unwrap_or_default();
    std::env::var_os("QUIRE_NO_HYPERLINKS").is_none() && term != "linux" && term != "dumb"
}

/// A piece of a shown address on one row, in columns of the drawn lines.
#[derive(Debug, Clone, PartialEq)]
struct Piece {
    row: u16,
    start: u16,
    end: u16,
}

/// Makes every complete web address in `lines` (drawn at `area`) a hyperlink. Addresses are the
/// spans styled `target_style`; one may wrap over several rows.
pub fn apply(buffer: &mut Buffer, area: Rect, lines: &[Line], target_style: Style) {
    let mut current: Option<(String, Vec<Piece>)> = None;
    for (row, line) in lines.iter().enumerate().take(area.height as usize) {
        let mut column = 0u16;
        for span in &line.spans {
            let width = u16::try_from(text::width(&span.content)).unwrap_or(u16::MAX);
            if span.style == target_style && width > 0 {
                let (address, pieces) = current.get_or_insert_with(Default::default);
                address.push_str(&span.content);
                pieces.push(Piece {
                    row: row as u16,
                    start: column,
                    end: column.saturating_add(width),
                });
                if span.content.contains('⟩')
                    && let Some((address, pieces)) = current.take()
                {
                    link(buffer, area, &address, &pieces);
                }
            }
            column = column.saturating_add(width);
        }
    }
}

fn link(buffer: &mut Buffer, area: Rect, shown: &str, pieces: &[Piece]) {
    let address: String = shown
        .trim()
        .trim_start_matches('⟨')
        .trim_end_matches('⟩')
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    // Only absolute web addresses can be opened; relative page links stay plain text. The
    // address was sanitized with the rest of the page; one that held escape sequences or other
    // controls (now shown as stand-ins) stays plain text too, so a planted sequence never
    // rides inside our own OSC 8, even defused.
    if !(address.starts_with("https://") || address.starts_with("http://"))
        || address
            .chars()
            .any(|c| c.is_control() || STAND_INS.contains(&c))
    {
        return;
    }
    let open = format!("\u{1b}]8;;{address}\u{1b}\\");
    let close = "\u{1b}]8;;\u{1b}\\";
    for piece in pieces {
        let y = area.y.saturating_add(piece.row);
        let first = area.x.saturating_add(piece.start);
        let last = area.x.saturating_add(piece.end.saturating_sub(1));
        if y >= area.bottom() || last >= area.right() || first > last {
            continue;
        }
        wrap_cell(buffer, first, y, &open, "");
        wrap_cell(buffer, last, y, "", close);
    }
}

/// Puts `before` and `after` around a cell's symbol, keeping its drawn width.
fn wrap_cell(buffer: &mut Buffer, x: u16, y: u16, before: &str, after: &str) {
    let Some(cell) = buffer.cell_mut((x, y)) else {
        return;
    };
    let symbol = cell.symbol().to_string();
    let width = NonZeroU16::new(u16::try_from(text::width(&symbol)).unwrap_or(1).max(1))
        .unwrap_or(NonZeroU16::MIN);
    cell.set_symbol(&format!("{before}{symbol}{after}"));
    cell.set_diff_option(CellDiffOption::ForcedWidth(width));
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;
    use ratatui::text::Span;
    use ratatui::widgets::{Paragraph, Widget};

    fn target() -> Style {
        Style::default().fg(Color::DarkGray)
    }

    fn draw(lines: Vec<Line<'static>>, width: u16) -> Buffer {
        let area = Rect::new(0, 0, width, 3);
        let mut buffer = Buffer::empty(area);
        Paragraph::new(lines.clone()).render(area, &mut buffer);
        apply(&mut buffer, area, &lines, target());
        buffer
    }

    #[test]
    fn a_shown_address_becomes_a_hyperlink() {
        let lines = vec![Line::from(vec![
            Span::raw("see "),
            Span::styled("⟨https://a.example/x⟩", target()),
        ])];
        let buffer = draw(lines, 40);
        let first = buffer.cell((4, 0)).unwrap();
        assert_eq!(first.symbol(), "\u{1b}]8;;https://a.example/x\u{1b}\\⟨");
        let last = buffer.cell((24, 0)).unwrap();
        assert_eq!(last.symbol(), "⟩\u{1b}]8;;\u{1b}\\");
        assert_eq!(
            first.diff_option,
            CellDiffOption::ForcedWidth(NonZeroU16::MIN)
        );
    }

    #[test]
    fn a_wrapped_address_links_every_piece_to_the_whole_address() {
        let lines = vec![
            Line::from(Span::styled("⟨https://a.example/", target())),
            Line::from(vec![Span::raw("  "), Span::styled("long⟩", target())]),
        ];
        let buffer = draw(lines, 40);
        assert!(
            buffer
                .cell((0, 0))
                .unwrap()
                .symbol()
                .contains("https://a.example/long")
        );
        assert!(
            buffer
                .cell((2, 1))
                .unwrap()
                .symbol()
                .contains("https://a.example/long")
        );
    }

    #[test]
    fn relative_links_stay_plain() {
        let lines = vec![Line::from(Span::styled("⟨quickstart.md⟩", target()))];
        let buffer = draw(lines, 40);
        assert_eq!(buffer.cell((0, 0)).unwrap().symbol(), "⟨");
    }
}

#[cfg(test)]
mod with_markdown {
    use super::*;
    use crate::markdown::MarkdownDoc;
    use crate::theme::Theme;
    use ratatui::widgets::{Paragraph, Widget};

    #[test]
    fn link_targets_of_a_rendered_page_become_hyperlinks() {
        let theme = Theme::default();
        let doc = MarkdownDoc::parse("Read [the docs](https://docs.example/start) now.", &theme);
        let layout = doc.layout(60);
        let area = Rect::new(0, 0, 60, 4);
        let mut buffer = Buffer::empty(area);
        Paragraph::new(layout.lines.clone()).render(area, &mut buffer);
        apply(&mut buffer, area, &layout.lines, theme.style("link_target"));
        let linked = buffer
            .content()
            .iter()
            .filter(|cell| {
                cell.symbol()
                    .contains("\u{1b}]8;;https://docs.example/start")
            })
            .count();
        assert_eq!(linked, 1, "the target's first cell opens the link");
    }

    #[test]
    fn a_target_that_held_control_characters_stays_plain_text() {
        let theme = Theme::default();
        let markdown = "[x](<https://a.example/\u{1b}]52;c;SGFjaw==\u{7}>) and \
                        [y](https://b.example/&#27;]0;title&#7;&#155;2J)";
        let doc = MarkdownDoc::parse(markdown, &theme);
        let layout = doc.layout(80);
        let area = Rect::new(0, 0, 80, 4);
        let mut buffer = Buffer::empty(area);
        Paragraph::new(layout.lines.clone()).render(area, &mut buffer);
        apply(&mut buffer, area, &layout.lines, theme.style("link_target"));
        let linked: Vec<&str> = buffer
            .content()
            .iter()
            .map(|cell| cell.symbol())
            .filter(|symbol| symbol.contains("\u{1b}]8;"))
            .collect();
        assert!(linked.is_empty(), "{linked:?}");
    }
}

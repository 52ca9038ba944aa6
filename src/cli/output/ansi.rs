//! Styled lines (as the screens draw them) written to a terminal as text with SGR colour
//! codes, or as plain text when colour is off: `quire page view` shows a page rendered the
//! way the reader does, scrolling in the shell instead of on a screen.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

/// `line` as text, coloured when `colour`. The text was sanitized when the line was built.
pub fn line_text(line: &Line<'_>, colour: bool) -> String {
    let mut text = String::new();
    for span in &line.spans {
        let style = line.style.patch(span.style);
        let codes = if colour { sgr(style) } else { String::new() };
        if codes.is_empty() {
            text.push_str(&span.content);
        } else {
            text.push_str(&format!("\x1b[{codes}m{}\x1b[0m", span.content));
        }
    }
    text.trim_end().to_string()
}

/// The SGR parameters of `style`, `;`-separated (empty for the terminal's default look): what
/// a terminal program writes between `ESC [` and `m`. The SSH bench measures `less -R` with it.
pub fn sgr(style: Style) -> String {
    let mut codes: Vec<String> = Vec::new();
    let modifiers = [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::REVERSED, "7"),
        (Modifier::CROSSED_OUT, "9"),
    ];
    for (modifier, code) in modifiers {
        if style.add_modifier.contains(modifier) {
            codes.push(code.to_string());
        }
    }
    if let Some(code) = style.fg.and_then(|colour| colour_code(colour, false)) {
        codes.push(code);
    }
    if let Some(code) = style.bg.and_then(|colour| colour_code(colour, true)) {
        codes.push(code);
    }
    codes.join(";")
}

fn colour_code(colour: Color, background: bool) -> Option<String> {
    let base = if background { 40 } else { 30 };
    let named = |index: u8| Some((base + u16::from(index)).to_string());
    let bright = |index: u8| Some((base + 60 + u16::from(index)).to_string());
    let layer = if background { 48 } else { 38 };
    match colour {
        Color::Reset => None,
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => bright(0),
        Color::LightRed => bright(1),
        Color::LightGreen => bright(2),
        Color::LightYellow => bright(3),
        Color::LightBlue => bright(4),
        Color::LightMagenta => bright(5),
        Color::LightCyan => bright(6),
        Color::White => bright(7),
        Color::Indexed(index) => Some(format!("{layer};5;{index}")),
        Color::Rgb(red, green, blue) => Some(format!("{layer};2;{red};{green};{blue}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::text::Span;

    #[test]
    fn colour_is_written_only_when_asked() {
        let line = Line::from(vec![
            Span::styled(
                "Title",
                Style::default()
                    .fg(Color::Cyan)
                    .add_modifier(Modifier::BOLD),
            ),
            Span::raw(" text  "),
        ]);
        assert_eq!(line_text(&line, false), "Title text");
        assert_eq!(line_text(&line, true), "\x1b[1;36mTitle\x1b[0m text");
    }
}

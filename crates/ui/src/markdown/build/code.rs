//! Fenced and indented code: a framed block of plain lines, one block per line, recorded so
//! highlighting can restyle them.

use ratatui::style::{Modifier, Style};

use super::{Builder, concat};
use crate::markdown::{Block, Body, CodeBlock, Piece, Wrap};
use crate::sanitize::sanitize;

impl Builder<'_> {
    pub(super) fn emit_code(&mut self, info: &str, code: &str) {
        let (language, info_title) = parse_info(info);
        let overrides = self.code_override.take().unwrap_or_default();
        let title = overrides.title.or(info_title);
        let border = self.theme.style("code_border");
        let muted = self.theme.style("muted");
        let mut header = vec![Piece::new("╭─", border)];
        if !language.is_empty() {
            header.push(Piece::new(" ", border));
            header.push(Piece::new(sanitize(&language).into_owned(), muted));
        }
        if let Some(title) = title {
            header.push(Piece::new(" · ", border));
            header.push(Piece::new(
                sanitize(&title).into_owned(),
                self.theme.style("text").add_modifier(Modifier::BOLD),
            ));
        }
        self.emit_text(header, Wrap::Anywhere);
        let lines: Vec<&str> = code.lines().collect();
        let number_width = if overrides.line_numbers {
            lines.len().to_string().len()
        } else {
            0
        };
        let code_style = self.theme.style("code_block");
        let first_block = self.blocks.len();
        let mut line_count = 0;
        for (index, line) in lines.iter().enumerate() {
            let mut gutter = vec![Piece::new("│ ", border)];
            let mut gutter_rest = gutter.clone();
            if number_width > 0 {
                gutter.push(Piece::new(format!("{:>number_width$} ", index + 1), muted));
                gutter_rest.push(Piece::new(" ".repeat(number_width + 1), Style::default()));
            }
            let (first, rest) = self.prefixes();
            let block = Block {
                first_prefix: concat(first, gutter),
                rest_prefix: concat(rest, gutter_rest),
                body: Body::Text {
                    pieces: vec![Piece::new(sanitize(line).into_owned(), code_style)],
                    wrap: Wrap::Anywhere,
                },
            };
            if !self.push_block(block) {
                break;
            }
            line_count += 1;
        }
        self.code_blocks.push(CodeBlock {
            language,
            first_block,
            line_count,
        });
        self.emit_text(vec![Piece::new("╰─", border)], Wrap::Anywhere);
    }
}

/// The language token and an optional `title="…"` from a fence's info string, e.g.
/// `rust title="main.rs"`, `{.python}` or `js,ignore`.
fn parse_info(info: &str) -> (String, Option<String>) {
    let token = info.split_whitespace().next().unwrap_or("");
    let language = token
        .trim_start_matches('{')
        .trim_end_matches('}')
        .trim_start_matches('.')
        .split(',')
        .next()
        .unwrap_or("");
    let language = if language.contains('=') { "" } else { language };
    let title = info.find("title=").map(|start| {
        let value = &info[start + "title=".len()..];
        match value.chars().next() {
            Some(quote @ ('"' | '\'')) => value[1..].split(quote).next().unwrap_or("").to_string(),
            _ => value.split_whitespace().next().unwrap_or("").to_string(),
        }
    });
    (language.to_string(), title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_strings_give_language_and_title() {
        assert_eq!(parse_info("rust"), ("rust".into(), None));
        assert_eq!(
            parse_info("ts title=\"app.ts\" {1,3}"),
            ("ts".into(), Some("app.ts".into()))
        );
        assert_eq!(parse_info("{.python}"), ("python".into(), None));
        assert_eq!(parse_info("rust,ignore"), ("rust".into(), None));
        assert_eq!(parse_info(""), (String::new(), None));
    }
}

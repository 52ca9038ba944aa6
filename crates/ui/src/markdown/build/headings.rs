//! Headings: the block that holds each heading's text, and the rule under levels 1 and 2.

use pulldown_cmark::HeadingLevel;

use super::Builder;
use crate::markdown::{Body, Heading, Wrap};
use crate::text::width as text_width;

impl Builder<'_> {
    pub(super) fn end_heading(&mut self) {
        let level = self.heading.take().unwrap_or(1);
        self.base_styles.pop();
        let pieces = self.take_inline();
        let text: String = pieces.iter().map(|piece| piece.text.as_str()).collect();
        // Levels 1 and 2 are underlined by a rule; the others are told apart by the theme's
        // heading styles alone, never by `###` markers a reader would have to decode.
        let style = self.theme.heading(level);
        let text_width = pieces
            .iter()
            .map(|piece| text_width(&piece.text))
            .sum::<usize>();
        let index = self.blocks.len();
        if self.emit_text(pieces, Wrap::Words) {
            self.heading_blocks.push(index);
            self.headings.push(Heading { level, text });
        }
        if level <= 2 {
            self.emit(Body::Rule {
                symbol: if level == 1 { "═" } else { "─" },
                style,
                max_width: Some(text_width.max(1)),
            });
        }
        self.pending_blank = true;
    }
}

pub(super) fn heading_level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

//! Styled text into rows of a width: greedy word wrapping for prose, breaking anywhere for code,
//! and cutting prefixes to fit.

use ratatui::style::Style;
use unicode_segmentation::UnicodeSegmentation;

use crate::markdown::store::Seg;
use crate::markdown::{Piece, Wrap};
use crate::text::{grapheme_width, width as text_width};

pub(super) fn pieces_width(pieces: &[Piece]) -> usize {
    pieces.iter().map(|piece| text_width(&piece.text)).sum()
}

pub(super) fn segs_width(pieces: &[Seg<'_>]) -> usize {
    pieces.iter().map(|piece| text_width(piece.text)).sum()
}

/// Cuts pieces to at most `limit` cells.
pub(super) fn fit(pieces: &[Seg<'_>], limit: usize) -> Vec<Piece> {
    if segs_width(pieces) <= limit {
        return pieces
            .iter()
            .map(|piece| Piece::new(piece.text, piece.style))
            .collect();
    }
    let mut line = LineBuilder::default();
    'pieces: for piece in pieces {
        for grapheme in piece.text.graphemes(true) {
            let width = grapheme_width(grapheme);
            if line.width + width > limit {
                break 'pieces;
            }
            line.push(grapheme, piece.style, width);
        }
    }
    line.pieces
}

/// One row being filled; adjacent text of the same style shares a piece.
#[derive(Default)]
struct LineBuilder {
    pieces: Vec<Piece>,
    width: usize,
}

impl LineBuilder {
    fn push(&mut self, text: &str, style: Style, width: usize) {
        if text.is_empty() {
            return;
        }
        self.width += width;
        match self.pieces.last_mut() {
            Some(last) if last.style == style => last.text.push_str(text),
            _ => self.pieces.push(Piece::new(text, style)),
        }
    }
}

/// Greedy wrapping of styled text into rows of `first_available` then `rest_available`
/// cells. Stops as soon as `emit` returns false. Always emits at least one row.
pub(super) fn wrap_pieces(
    pieces: &[Seg<'_>],
    first_available: usize,
    rest_available: usize,
    mode: Wrap,
    emit: &mut dyn FnMut(Vec<Piece>) -> bool,
) {
    let mut wrapper = Wrapper {
        line: LineBuilder::default(),
        available: first_available.max(1),
        rest_available: rest_available.max(1),
        emit,
        stopped: false,
        emitted: false,
    };
    match mode {
        Wrap::Anywhere => {
            for piece in pieces {
                wrapper.push_breaking(piece.text, piece.style);
                if wrapper.stopped {
                    return;
                }
            }
        }
        Wrap::Words => wrap_words(pieces, &mut wrapper),
    }
    if !wrapper.stopped && (wrapper.line.width > 0 || !wrapper.emitted) {
        wrapper.finish_line();
    }
}

/// A word may span pieces (`**bold**text`), so it is a list of (piece, byte range).
fn wrap_words(pieces: &[Seg<'_>], wrapper: &mut Wrapper<'_>) {
    let mut word: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut word_width = 0;
    let mut space: Option<Style> = None;
    for (piece_index, piece) in pieces.iter().enumerate() {
        let text = piece.text;
        let mut start = 0;
        while start < text.len() {
            let is_space = text[start..].starts_with(' ');
            let end = text[start..]
                .find(|c: char| (c == ' ') != is_space)
                .map_or(text.len(), |offset| start + offset);
            if is_space {
                if !word.is_empty() {
                    wrapper.place_word(pieces, &word, word_width, space.take());
                    word.clear();
                    word_width = 0;
                }
                if space.is_none() {
                    space = Some(piece.style);
                }
            } else {
                word_width += text_width(&text[start..end]);
                word.push((piece_index, start..end));
            }
            if wrapper.stopped {
                return;
            }
            start = end;
        }
    }
    if !word.is_empty() {
        wrapper.place_word(pieces, &word, word_width, space);
    }
}

struct Wrapper<'e> {
    line: LineBuilder,
    available: usize,
    rest_available: usize,
    emit: &'e mut dyn FnMut(Vec<Piece>) -> bool,
    stopped: bool,
    emitted: bool,
}

impl Wrapper<'_> {
    fn finish_line(&mut self) {
        let line = std::mem::take(&mut self.line);
        self.emitted = true;
        if !(self.emit)(line.pieces) {
            self.stopped = true;
        }
        self.available = self.rest_available;
    }

    /// Places one word, preceded by one space (in `space`'s style) unless it starts a row.
    fn place_word(
        &mut self,
        pieces: &[Seg<'_>],
        word: &[(usize, std::ops::Range<usize>)],
        width: usize,
        space: Option<Style>,
    ) {
        let space_width = usize::from(space.is_some() && self.line.width > 0);
        if self.line.width + space_width + width > self.available && self.line.width > 0 {
            self.finish_line();
            if self.stopped {
                return;
            }
        }
        if self.line.width > 0
            && let Some(style) = space
        {
            self.line.push(" ", style, 1);
        }
        if self.line.width + width <= self.available {
            for (piece_index, range) in word {
                let piece = &pieces[*piece_index];
                let text = &piece.text[range.clone()];
                self.line.push(text, piece.style, text_width(text));
            }
        } else {
            for (piece_index, range) in word {
                let piece = &pieces[*piece_index];
                self.push_breaking(&piece.text[range.clone()], piece.style);
                if self.stopped {
                    return;
                }
            }
        }
    }

    /// Adds text, starting a new row whenever the current one is full.
    fn push_breaking(&mut self, text: &str, style: Style) {
        if text.is_ascii() {
            self.push_ascii(text, style);
            return;
        }
        for grapheme in text.graphemes(true) {
            let mut width = grapheme_width(grapheme);
            let mut grapheme = grapheme;
            if width > self.rest_available.max(self.available) {
                grapheme = "…";
                width = 1;
            }
            if self.line.width + width > self.available && self.line.width > 0 {
                self.finish_line();
                if self.stopped {
                    return;
                }
            }
            if width > self.available {
                grapheme = "…";
                width = 1;
            }
            self.line.push(grapheme, style, width);
        }
    }

    /// Sanitized ASCII has one cell per byte, so rows can be cut by byte count.
    fn push_ascii(&mut self, mut text: &str, style: Style) {
        while !text.is_empty() {
            let room = self.available.saturating_sub(self.line.width);
            if room == 0 {
                self.finish_line();
                if self.stopped {
                    return;
                }
                continue;
            }
            let take = room.min(text.len());
            self.line.push(&text[..take], style, take);
            text = &text[take..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(rows: &[Vec<Piece>]) -> Vec<String> {
        rows.iter()
            .map(|row| row.iter().map(|piece| piece.text.as_str()).collect())
            .collect()
    }

    fn wrap(text: &str, width: usize, mode: Wrap) -> Vec<String> {
        let mut rows = Vec::new();
        wrap_pieces(
            &[Seg {
                text,
                style: Style::default(),
            }],
            width,
            width,
            mode,
            &mut |row| {
                rows.push(row);
                true
            },
        );
        plain(&rows)
    }

    #[test]
    fn words_wrap_at_spaces_and_long_words_split() {
        assert_eq!(wrap("aaa bb cccc", 6, Wrap::Words), ["aaa bb", "cccc"]);
        assert_eq!(
            wrap("abcdefgh ij", 3, Wrap::Words),
            ["abc", "def", "gh", "ij"]
        );
    }

    #[test]
    fn code_keeps_its_spaces() {
        assert_eq!(wrap("  a  b", 4, Wrap::Anywhere), ["  a ", " b"]);
    }

    #[test]
    fn wide_characters_take_two_cells() {
        assert_eq!(
            wrap("日本語 テキスト", 6, Wrap::Words),
            ["日本語", "テキス", "ト"]
        );
        assert_eq!(wrap("日本", 1, Wrap::Words), ["…", "…"]);
    }

    #[test]
    fn empty_text_still_makes_one_row() {
        assert_eq!(wrap("", 5, Wrap::Anywhere), [""]);
    }
}

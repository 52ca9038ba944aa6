//! Case-insensitive search of laid-out rows, in terminal cells.

use ratatui::text::Line;
use unicode_segmentation::UnicodeSegmentation;

use crate::markdown::TextMatch;
use crate::text::grapheme_width;

pub(in crate::markdown) fn find(lines: &[Line<'static>], query: &str) -> Vec<TextMatch> {
    find_in_rows(
        lines
            .iter()
            .map(|line| line.spans.iter().map(|span| span.content.as_ref())),
        query,
    )
}

/// Matches of `query` in rows given as their pieces of text.
fn find_in_rows<'a, Row>(rows: impl Iterator<Item = Row>, query: &str) -> Vec<TextMatch>
where
    Row: Iterator<Item = &'a str>,
{
    let mut finder = RowFinder::new(query);
    let mut matches = Vec::new();
    for (row, pieces) in rows.enumerate() {
        finder.find(row, pieces, &mut matches);
    }
    matches
}

/// Searches rows one at a time for a query, case-insensitively, reusing its buffers.
pub(super) struct RowFinder {
    needle: String,
    folded: String,
    /// For each byte of `folded`: the cell column where its original character starts and ends.
    columns: Vec<(u16, u16)>,
}

impl RowFinder {
    pub(super) fn new(query: &str) -> RowFinder {
        RowFinder {
            needle: query.chars().flat_map(char::to_lowercase).collect(),
            folded: String::new(),
            columns: Vec::new(),
        }
    }

    /// Adds the matches in `row` (given as its pieces of text) to `matches`.
    pub(super) fn find<'a>(
        &mut self,
        row: usize,
        pieces: impl Iterator<Item = &'a str>,
        matches: &mut Vec<TextMatch>,
    ) {
        if self.needle.is_empty() {
            return;
        }
        self.folded.clear();
        self.columns.clear();
        let mut column: u16 = 0;
        for piece in pieces {
            for grapheme in piece.graphemes(true) {
                let width = u16::try_from(grapheme_width(grapheme)).unwrap_or(0);
                let end = column.saturating_add(width);
                for lower in grapheme.chars().flat_map(char::to_lowercase) {
                    self.folded.push(lower);
                    self.columns
                        .extend(std::iter::repeat_n((column, end), lower.len_utf8()));
                }
                column = end;
            }
        }
        for (start, found) in self.folded.match_indices(&self.needle) {
            let first = self.columns[start];
            let last = self.columns[start + found.len() - 1];
            matches.push(TextMatch {
                row,
                start: first.0,
                end: last.1,
            });
        }
    }
}

//! Compact storage for parsed pages and laid-out rows: all text in one buffer, pieces as
//! ranges of it, styles interned in a small table. A 1 MB page then costs a few bytes per
//! piece instead of a `String` (and its allocation) per piece.

use std::collections::HashMap;
use std::sync::Arc;

use ratatui::style::Style;

use super::{Piece, Wrap};

/// Styles named by index, each stored once.
#[derive(Clone, Debug, Default)]
pub(super) struct StyleTable {
    styles: Vec<Style>,
    index: HashMap<Style, u32>,
}

impl StyleTable {
    pub(super) fn intern(&mut self, style: Style) -> u32 {
        if let Some(id) = self.index.get(&style) {
            return *id;
        }
        let id = u32::try_from(self.styles.len()).unwrap_or(u32::MAX);
        self.styles.push(style);
        self.index.insert(style, id);
        id
    }

    pub(super) fn get(&self, id: u32) -> Style {
        usize::try_from(id)
            .ok()
            .and_then(|index| self.styles.get(index))
            .copied()
            .unwrap_or_default()
    }

    fn heap_bytes(&self) -> usize {
        // A hash map entry costs about its key, its value and a control byte.
        self.styles.capacity() * size_of::<Style>()
            + self.index.capacity() * (size_of::<Style>() + size_of::<u32>() + 1)
    }
}

/// Text (owned by a [`TextBuffer`]) and its style, borrowed for laying out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Seg<'a> {
    pub text: &'a str,
    pub style: Style,
}

/// A run of text in a [`TextBuffer`]: `len` bytes from `start` in one style. Eight bytes: a
/// 1 MB page has hundreds of thousands of runs (its parse and its layout), so a run longer
/// than 64 KB is stored as several, and a page of more than 65,535 styles draws the rest plain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    start: u32,
    len: u16,
    style: u16,
}

impl Run {
    fn end(self) -> u32 {
        self.start.saturating_add(u32::from(self.len))
    }
}

/// A slice of a buffer's runs: `start..end` indices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Runs {
    start: u32,
    end: u32,
}

impl Runs {
    pub(super) fn new(start: u32, end: u32) -> Runs {
        Runs { start, end }
    }
}

/// One text buffer with its runs and styles.
#[derive(Clone, Debug, Default)]
pub(super) struct TextBuffer {
    /// Shared by a clone: a page's highlighted copy only adds runs over the same text, so
    /// colouring a 1 MB page does not copy its text (written to only while the buffer is
    /// built, when nothing shares it).
    text: Arc<String>,
    /// Shared by a clone like the text.
    runs: Arc<Vec<Run>>,
    /// Runs pushed while `runs` is shared (a highlighted copy's code tokens), numbered on from
    /// the shared ones.
    added: Vec<Run>,
    styles: StyleTable,
}

/// Offsets are kept in `u32`: past 4 GB of text a buffer takes no more (a page that big is
/// cut long before, by `MAX_ROWS`).
fn offset(value: usize) -> Option<u32> {
    u32::try_from(value).ok()
}

impl TextBuffer {
    /// Appends pieces as runs and returns where they are.
    pub(super) fn push_pieces<'p>(&mut self, pieces: impl IntoIterator<Item = Seg<'p>>) -> Runs {
        let start = self.run_count();
        for piece in pieces {
            self.push_run(piece.text, piece.style);
        }
        Runs {
            start,
            end: self.run_count(),
        }
    }

    /// Appends one run (several for a text over 64 KB); empty text adds nothing.
    pub(super) fn push_run(&mut self, text: &str, style: Style) {
        if text.is_empty() || offset(self.text.len() + text.len()).is_none() {
            return;
        }
        let style = self.style_id(style);
        let mut rest = text;
        while !rest.is_empty() {
            let mut cut = rest.len().min(usize::from(u16::MAX));
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let (piece, tail) = rest.split_at(cut);
            let Some(start) = offset(self.text.len()) else {
                return;
            };
            Arc::make_mut(&mut self.text).push_str(piece);
            self.push(Run {
                start,
                len: cut as u16,
                style,
            });
            rest = tail;
        }
    }

    /// A style's id in a run: past 65,535 distinct styles, the plain style.
    fn style_id(&mut self, style: Style) -> u16 {
        u16::try_from(self.styles.intern(style))
            .unwrap_or_else(|_| u16::try_from(self.styles.intern(Style::default())).unwrap_or(0))
    }

    /// Runs over text already in the buffer (`start..end`, relative to run `of`), restyled.
    /// Used to colour code: highlighted tokens are consecutive pieces of the plain line.
    pub(super) fn push_subrun(&mut self, of: Run, start: usize, end: usize, style: Style) {
        let (Some(start), Some(end)) = (offset(start), offset(end)) else {
            return;
        };
        let start = of.start.saturating_add(start).min(of.end());
        let end = of.start.saturating_add(end).min(of.end());
        if start < end {
            let style = self.style_id(style);
            // Within `of`, so no longer than it: the length fits.
            let len = u16::try_from(end - start).unwrap_or(of.len);
            self.push(Run { start, len, style });
        }
    }

    /// Adds a run after the others, beside the shared ones if they are shared.
    fn push(&mut self, run: Run) {
        match Arc::get_mut(&mut self.runs) {
            Some(runs) if self.added.is_empty() => runs.push(run),
            _ => self.added.push(run),
        }
    }

    /// Drops runs `count..` and their text (the last runs pushed).
    pub(super) fn truncate_runs(&mut self, count: u32) {
        let count = count as usize;
        let shared = self.runs.len();
        let first_dropped = match count.checked_sub(shared) {
            Some(added) => self.added.get(added),
            None => self.runs.get(count),
        };
        if let Some(first_dropped) = first_dropped {
            Arc::make_mut(&mut self.text).truncate(first_dropped.start as usize);
        }
        match count.checked_sub(shared) {
            Some(added) => self.added.truncate(added),
            None => {
                self.added.clear();
                Arc::make_mut(&mut self.runs).truncate(count);
            }
        }
    }

    pub(super) fn run_count(&self) -> u32 {
        offset(self.runs.len() + self.added.len()).unwrap_or(u32::MAX)
    }

    /// The runs of a slice (the runs of one piece of a page are all shared or all added).
    pub(super) fn runs(&self, runs: Runs) -> &[Run] {
        let (start, end) = (runs.start as usize, runs.end as usize);
        let shared = self.runs.len();
        match start.checked_sub(shared) {
            Some(added) => self.added.get(added..end - shared).unwrap_or(&[]),
            None => self.runs.get(start..end.min(shared)).unwrap_or(&[]),
        }
    }

    pub(super) fn run_text(&self, run: Run) -> &str {
        self.text
            .get(run.start as usize..run.end() as usize)
            .unwrap_or("")
    }

    pub(super) fn seg(&self, run: Run) -> Seg<'_> {
        Seg {
            text: self.run_text(run),
            style: self.styles.get(u32::from(run.style)),
        }
    }

    pub(super) fn segs(&self, runs: Runs) -> Vec<Seg<'_>> {
        self.runs(runs).iter().map(|run| self.seg(*run)).collect()
    }

    /// The concatenated text of some runs.
    pub(super) fn plain(&self, runs: Runs) -> String {
        self.runs(runs)
            .iter()
            .map(|run| self.run_text(*run))
            .collect()
    }

    pub(super) fn style(&self, id: u32) -> Style {
        self.styles.get(id)
    }

    pub(super) fn intern(&mut self, style: Style) -> u32 {
        self.styles.intern(style)
    }

    /// Gives back the room left by growing: a page is kept long after it is built.
    pub(super) fn shrink_to_fit(&mut self) {
        // Shared text was shrunk when its first owner was finished.
        if let Some(text) = Arc::get_mut(&mut self.text) {
            text.shrink_to_fit();
        }
        if let Some(runs) = Arc::get_mut(&mut self.runs) {
            runs.shrink_to_fit();
        }
        self.added.shrink_to_fit();
    }

    /// True when both buffers hold the one copy of their text and of their first runs.
    #[cfg(test)]
    pub(super) fn shares_text_with(&self, other: &TextBuffer) -> bool {
        Arc::ptr_eq(&self.text, &other.text) && Arc::ptr_eq(&self.runs, &other.runs)
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.text.capacity()
            + (self.runs.capacity() + self.added.capacity()) * size_of::<Run>()
            + self.styles.heap_bytes()
    }
}

/// A parsed block in compact form (see `Block` for the meaning of the fields).
#[derive(Clone, Debug)]
pub(super) struct StoredBlock {
    pub first_prefix: Runs,
    pub rest_prefix: Runs,
    pub body: StoredBody,
}

#[derive(Clone, Debug)]
pub(super) enum StoredBody {
    Text {
        runs: Runs,
        wrap: Wrap,
    },
    /// Boxed: rules are few, and the other bodies are small (a block is 32 bytes, not 56).
    Rule(Box<StoredRule>),
    Table(Box<StoredTable>),
    Blank,
}

#[derive(Clone, Debug)]
pub(super) struct StoredRule {
    pub symbol: &'static str,
    pub style: u32,
    pub max_width: Option<usize>,
}

#[derive(Clone, Debug)]
pub(super) struct StoredTable {
    pub alignments: Vec<super::Align>,
    pub header: Vec<Runs>,
    pub rows: Vec<Vec<Runs>>,
    pub border: u32,
}

impl StoredTable {
    fn heap_bytes(&self) -> usize {
        size_of::<StoredTable>()
            + self.alignments.capacity() * size_of::<super::Align>()
            + self.header.capacity() * size_of::<Runs>()
            + self.rows.capacity() * size_of::<Vec<Runs>>()
            + self
                .rows
                .iter()
                .map(|row| row.capacity() * size_of::<Runs>())
                .sum::<usize>()
    }
}

/// The blocks of a page and the text they share. Prefixes (quote bars, list indentation) are
/// the same for many blocks and stored once.
#[derive(Clone, Debug, Default)]
pub(super) struct BlockStore {
    pub buffer: TextBuffer,
    /// Shared by a page's highlighted copy, which gives code lines new runs in `restyled`
    /// instead of changing their blocks: colouring a 1 MB page copies none of it.
    pub blocks: Arc<Vec<StoredBlock>>,
    /// Text blocks given runs of their own since they were built (coloured code lines): block
    /// index and runs, by block index.
    restyled: Vec<(u32, Runs)>,
    prefixes: HashMap<Vec<Piece>, Runs>,
}

impl BlockStore {
    pub(super) fn len(&self) -> usize {
        self.blocks.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    pub(super) fn push(&mut self, block: super::Block) {
        let first_prefix = self.prefix(block.first_prefix);
        let rest_prefix = self.prefix(block.rest_prefix);
        let body = match block.body {
            super::Body::Text { pieces, wrap } => StoredBody::Text {
                runs: self.buffer.push_pieces(pieces.iter().map(Piece::seg)),
                wrap,
            },
            super::Body::Rule {
                symbol,
                style,
                max_width,
            } => StoredBody::Rule(Box::new(StoredRule {
                symbol,
                style: self.buffer.intern(style),
                max_width,
            })),
            super::Body::Table(table) => {
                let mut cell =
                    |pieces: &Vec<Piece>| self.buffer.push_pieces(pieces.iter().map(Piece::seg));
                let header = table.header.iter().map(&mut cell).collect();
                let rows = table
                    .rows
                    .iter()
                    .map(|row| row.iter().map(&mut cell).collect())
                    .collect();
                StoredBody::Table(Box::new(StoredTable {
                    alignments: table.alignments,
                    header,
                    rows,
                    border: self.buffer.intern(table.border),
                }))
            }
            super::Body::Blank => StoredBody::Blank,
        };
        Arc::make_mut(&mut self.blocks).push(StoredBlock {
            first_prefix,
            rest_prefix,
            body,
        });
    }

    /// The runs of text block `index` whose body holds `runs`: its own if it was restyled.
    pub(super) fn text_runs(&self, index: usize, runs: Runs) -> Runs {
        if self.restyled.is_empty() {
            return runs;
        }
        let index = offset(index).unwrap_or(u32::MAX);
        match self
            .restyled
            .binary_search_by_key(&index, |(block, _)| *block)
        {
            Ok(found) => self.restyled[found].1,
            Err(_) => runs,
        }
    }

    /// Gives text block `index` the runs `runs` (already in the buffer).
    pub(super) fn restyle(&mut self, index: usize, runs: Runs) {
        let Some(index) = offset(index) else { return };
        match self
            .restyled
            .binary_search_by_key(&index, |(block, _)| *block)
        {
            Ok(found) => self.restyled[found].1 = runs,
            Err(at) => self.restyled.insert(at, (index, runs)),
        }
    }

    fn prefix(&mut self, pieces: Vec<Piece>) -> Runs {
        if let Some(runs) = self.prefixes.get(&pieces) {
            return *runs;
        }
        let runs = self.buffer.push_pieces(pieces.iter().map(Piece::seg));
        self.prefixes.insert(pieces, runs);
        runs
    }

    /// Gives back the room left by growing (after restyling).
    pub(super) fn shrink_to_fit(&mut self) {
        self.buffer.shrink_to_fit();
        self.restyled.shrink_to_fit();
    }

    /// Forgets the prefix index, which only building needs, and the room left by growing.
    pub(super) fn finish(mut self) -> BlockStore {
        self.prefixes = HashMap::new();
        self.buffer.shrink_to_fit();
        if let Some(blocks) = Arc::get_mut(&mut self.blocks) {
            blocks.shrink_to_fit();
        }
        self
    }

    pub(super) fn heap_bytes(&self) -> usize {
        let tables: usize = self
            .blocks
            .iter()
            .map(|block| match &block.body {
                StoredBody::Table(table) => table.heap_bytes(),
                _ => 0,
            })
            .sum();
        self.buffer.heap_bytes()
            + self.blocks.capacity() * size_of::<StoredBlock>()
            + self.restyled.capacity() * size_of::<(u32, Runs)>()
            + tables
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_longer_than_a_run_is_kept_whole_in_several_runs() {
        // 70,000 two-byte characters: no cut may fall inside one.
        let long = "é".repeat(70_000);
        let mut buffer = TextBuffer::default();
        let runs = buffer.push_pieces([Seg {
            text: &long,
            style: Style::default(),
        }]);
        assert_eq!(runs.end - runs.start, 3);
        assert_eq!(buffer.plain(runs), long);
        assert!(buffer.runs(runs).iter().all(|run| run.len > 0));
    }

    #[test]
    fn a_run_is_eight_bytes_and_a_block_thirty_two() {
        assert_eq!(size_of::<Run>(), 8);
        assert_eq!(size_of::<StoredBlock>(), 32);
    }
}

//! Blocks to rows of one width. Nothing here can make a row wider than the width: prefixes are
//! cut to half the width, words longer than a row are split, and a character wider than the
//! whole row is replaced by `…`.
//!
//! A page's layout keeps only where each block's rows start: the rows themselves are made from
//! the parse when they are needed (the ones on screen, kept until the view moves away, or every
//! row in turn for a search), so a 1 MB page costs a few hundred KB laid out instead of
//! megabytes, and a new parse (its colours) replaces the old one without two layouts at once.

mod on_demand;
mod search;
mod table;
mod wrap;

use std::ops::Range;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::store::{BlockStore, Seg, StoredBody, TextBuffer};
use super::{DocLayout, MarkdownDoc, Piece, TextMatch};
use on_demand::OnDemand;
use search::RowFinder;
use table::{Table, layout_table};
use wrap::{fit, pieces_width, wrap_pieces};

pub(super) use on_demand::layout_on_demand;
pub(super) use search::find;

/// A page wrapped to one width. Lines for drawing are made only for the rows on screen
/// ([`PageLayout::lines`]).
#[derive(Clone, Debug, Default)]
pub struct PageLayout {
    rows: LaidOut,
    /// The row of each heading, in [`MarkdownDoc::headings`] order.
    pub heading_rows: Vec<usize>,
    pub width: u16,
}

#[derive(Clone, Debug)]
enum LaidOut {
    /// Every row kept: short texts, a preview's first screenful, tests.
    Kept(RowStore),
    /// Rows made from the page's blocks when asked for.
    OnDemand(OnDemand),
}

impl Default for LaidOut {
    fn default() -> Self {
        LaidOut::Kept(RowStore::default())
    }
}

/// Rows in compact form: their text in one buffer, each row a slice of its runs.
#[derive(Clone, Debug, Default)]
struct RowStore {
    buffer: TextBuffer,
    /// Where each row's runs start in `buffer`; a row ends where the next one starts.
    row_starts: Vec<u32>,
}

impl RowStore {
    fn len(&self) -> usize {
        self.row_starts.len()
    }

    fn push_row<'a>(&mut self, pieces: impl IntoIterator<Item = Seg<'a>>) {
        let start = self.buffer.run_count();
        self.row_starts.push(start);
        self.buffer.push_pieces(pieces);
    }

    fn pop_row(&mut self) {
        if let Some(start) = self.row_starts.pop() {
            self.buffer.truncate_runs(start);
        }
    }

    fn clear(&mut self) {
        self.row_starts.clear();
        self.buffer.truncate_runs(0);
    }

    /// The pieces of one row (empty past the end).
    fn row(&self, row: usize) -> Vec<Seg<'_>> {
        let Some(start) = self.row_starts.get(row).copied() else {
            return Vec::new();
        };
        let end = self
            .row_starts
            .get(row + 1)
            .copied()
            .unwrap_or_else(|| self.buffer.run_count());
        self.buffer.segs(super::store::Runs::new(start, end))
    }

    fn heap_bytes(&self) -> usize {
        self.buffer.heap_bytes() + self.row_starts.capacity() * size_of::<u32>()
    }
}

impl PageLayout {
    /// A layout of ready-made lines (for tests of what shows them).
    pub fn from_lines(lines: &[Line<'_>], width: u16) -> PageLayout {
        let mut rows = RowStore::default();
        for line in lines {
            rows.push_row(line.spans.iter().map(|span| Seg {
                text: &span.content,
                style: span.style,
            }));
        }
        PageLayout {
            rows: LaidOut::Kept(rows),
            heading_rows: Vec::new(),
            width,
        }
    }

    pub fn len(&self) -> usize {
        match &self.rows {
            LaidOut::Kept(rows) => rows.len(),
            LaidOut::OnDemand(page) => page.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `visit` with each row of `range` (its index and pieces) in order, until it
    /// returns false.
    pub(super) fn visit_rows(
        &self,
        range: Range<usize>,
        visit: &mut dyn FnMut(usize, &[Seg<'_>]) -> bool,
    ) {
        match &self.rows {
            LaidOut::Kept(rows) => {
                for row in range.start..range.end.min(rows.len()) {
                    if !visit(row, &rows.row(row)) {
                        return;
                    }
                }
            }
            LaidOut::OnDemand(page) => page.visit_rows(range, usize::from(self.width), visit),
        }
    }

    /// The rows `range` as lines to draw.
    pub fn lines(&self, range: Range<usize>) -> Vec<Line<'static>> {
        let mut lines = Vec::with_capacity(range.len().min(self.len()));
        self.visit_rows(range, &mut |_, pieces| {
            lines.push(Line::from(
                pieces
                    .iter()
                    .map(|piece| Span::styled(piece.text.to_string(), piece.style))
                    .collect::<Vec<_>>(),
            ));
            true
        });
        lines
    }

    /// Every row as owned lines.
    pub fn to_lines(&self) -> DocLayout {
        DocLayout {
            lines: self.lines(0..self.len()),
            heading_rows: self.heading_rows.clone(),
            width: self.width,
        }
    }

    /// Case-insensitive matches of `query`, as [`DocLayout::find`] finds them.
    pub fn find(&self, query: &str) -> Vec<TextMatch> {
        let mut finder = RowFinder::new(query);
        let mut matches = Vec::new();
        // Rows are handed over one at a time and may not outlive the call: search each.
        self.visit_rows(0..self.len(), &mut |row, pieces| {
            finder.find(row, pieces.iter().map(|piece| piece.text), &mut matches);
            true
        });
        matches
    }

    /// Bytes this layout holds on the heap (not counting the parse an on-demand layout reads
    /// its rows from): a deterministic measure of its size.
    pub fn heap_bytes(&self) -> usize {
        let rows = match &self.rows {
            LaidOut::Kept(rows) => rows.heap_bytes(),
            LaidOut::OnDemand(page) => page.heap_bytes(),
        };
        rows + self.heading_rows.capacity() * size_of::<usize>()
    }
}

/// Lays out every row of `doc` (up to `max_rows`) and keeps them.
pub(super) fn layout(
    doc: &MarkdownDoc,
    width: u16,
    max_rows: usize,
    mark_truncation: bool,
) -> PageLayout {
    let mut rows = Rows {
        store: RowStore::default(),
        max_rows,
        full: false,
    };
    let heading_rows = lay_out_blocks(doc, width, &mut rows, |_, _| {});
    let mut store = rows.store;
    if rows.full && mark_truncation {
        store.pop_row();
        push_truncation_notice(&mut store, usize::from(width));
    }
    store.buffer.shrink_to_fit();
    store.row_starts.shrink_to_fit();
    PageLayout {
        heading_rows: finish_heading_rows(doc, heading_rows, store.len(), rows.full),
        rows: LaidOut::Kept(store),
        width,
    }
}

/// Lays out `doc`'s blocks into `rows` until they are full, calling `after_block` after each
/// block with its index; returns the row each heading reached starts on.
fn lay_out_blocks(
    doc: &MarkdownDoc,
    width: u16,
    rows: &mut Rows,
    mut after_block: impl FnMut(usize, &mut Rows),
) -> Vec<usize> {
    let cells = usize::from(width);
    if cells == 0 {
        return vec![0; doc.heading_blocks.len()];
    }
    let mut heading_rows = Vec::new();
    let mut next_heading = 0;
    // Rows already counted and let go by `after_block`.
    let mut counted = 0;
    let store: &BlockStore = &doc.store;
    for index in 0..store.len() {
        if rows.full {
            break;
        }
        let before = rows.store.len();
        while doc.heading_blocks.get(next_heading) == Some(&index) {
            heading_rows.push(counted + before);
            next_heading += 1;
        }
        layout_block(store, index, cells, rows);
        let after = rows.store.len();
        after_block(index, rows);
        // A block's rows that `after_block` let go still count toward the page's limit.
        let let_go = after - rows.store.len();
        counted += let_go;
        rows.max_rows = rows.max_rows.saturating_sub(let_go);
    }
    heading_rows
}

/// Headings past a truncation point at the last row; none for a page laid out to no width.
fn finish_heading_rows(
    doc: &MarkdownDoc,
    mut heading_rows: Vec<usize>,
    row_count: usize,
    truncated: bool,
) -> Vec<usize> {
    if truncated {
        let last = row_count.saturating_sub(1);
        while heading_rows.len() < doc.heading_blocks.len() {
            heading_rows.push(last);
        }
    }
    heading_rows
}

fn push_truncation_notice(store: &mut RowStore, width: usize) {
    let notice = Piece::new("… page truncated", Style::default());
    let line = fit(&[notice.seg()], width);
    store.push_row(line.iter().map(Piece::seg));
}

/// The rows laid out so far; refuses more after `max_rows`.
struct Rows {
    store: RowStore,
    max_rows: usize,
    full: bool,
}

impl Rows {
    /// Adds a row; false once the page is full.
    fn push(&mut self, prefix: &[Piece], content: Vec<Piece>) -> bool {
        if self.store.len() >= self.max_rows {
            self.full = true;
            return false;
        }
        self.store
            .push_row(prefix.iter().chain(content.iter()).map(Piece::seg));
        true
    }
}

fn layout_block(page: &BlockStore, index: usize, width: usize, rows: &mut Rows) {
    let Some(block) = page.blocks.get(index) else {
        return;
    };
    let buffer = &page.buffer;
    let prefix_limit = if width >= 2 { width / 2 } else { 0 };
    let first_prefix = fit(&buffer.segs(block.first_prefix), prefix_limit);
    let rest_prefix = fit(&buffer.segs(block.rest_prefix), prefix_limit);
    let first_available = width - pieces_width(&first_prefix);
    let rest_available = width - pieces_width(&rest_prefix);
    let mut row_index = 0;
    let mut emit = |content: Vec<Piece>| {
        let prefix = if row_index == 0 {
            &first_prefix
        } else {
            &rest_prefix
        };
        row_index += 1;
        rows.push(prefix, content)
    };
    match &block.body {
        StoredBody::Text { runs, wrap } => {
            let pieces = buffer.segs(page.text_runs(index, *runs));
            wrap_pieces(&pieces, first_available, rest_available, *wrap, &mut emit);
        }
        StoredBody::Rule(rule) => {
            let length = rule
                .max_width
                .map_or(first_available, |max| max.min(first_available));
            emit(vec![Piece::new(
                rule.symbol.repeat(length),
                buffer.style(rule.style),
            )]);
        }
        StoredBody::Blank => {
            emit(Vec::new());
        }
        StoredBody::Table(table) => layout_table(
            &Table::load(table, buffer),
            rest_available.min(first_available),
            &mut emit,
        ),
    }
}

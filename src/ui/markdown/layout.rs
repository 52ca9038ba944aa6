//! Blocks to rows of one width. Nothing here can make a row wider than the width: prefixes are
//! cut to half the width, words longer than a row are split, and a character wider than the
//! whole row is replaced by `…`.
//!
//! A page's layout keeps only where each block's rows start: the rows themselves are made from
//! the parse when they are needed (the ones on screen, kept until the view moves away, or every
//! row in turn for a search), so a 1 MB page costs a few hundred KB laid out instead of
//! megabytes, and a new parse (its colours) replaces the old one without two layouts at once.

use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

use crate::ui::text::{grapheme_width, width as text_width};

use super::store::{BlockStore, Seg, StoredBody, StoredTable, TextBuffer};
use super::{Align, DocLayout, MarkdownDoc, Piece, TextMatch, Wrap};

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

/// A page laid out by blocks: how many rows each block takes, and the parse to make them from.
struct OnDemand {
    doc: Arc<MarkdownDoc>,
    /// The first row of each block laid out, then the row after the last one.
    block_rows: Vec<u32>,
    /// The last row is the "page truncated" notice.
    truncated: bool,
    /// The rows of the blocks around the last ones drawn: the next frame mostly needs the same.
    window: Mutex<Window>,
}

/// Rows of consecutive blocks, from `first_row` on.
#[derive(Default)]
struct Window {
    blocks: Range<usize>,
    first_row: usize,
    rows: RowStore,
}

impl Clone for OnDemand {
    fn clone(&self) -> Self {
        OnDemand {
            doc: Arc::clone(&self.doc),
            block_rows: self.block_rows.clone(),
            truncated: self.truncated,
            window: Mutex::new(Window::default()),
        }
    }
}

impl std::fmt::Debug for OnDemand {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("OnDemand")
            .field("blocks", &self.block_rows.len().saturating_sub(1))
            .field("rows", &self.len())
            .field("truncated", &self.truncated)
            .finish_non_exhaustive()
    }
}

/// Rows drawn beyond those asked for, each way, so that scrolling a little lays out nothing.
const WINDOW_MARGIN: usize = 64;

impl OnDemand {
    fn len(&self) -> usize {
        self.block_rows.last().map_or(0, |rows| *rows as usize)
    }

    /// The blocks whose rows overlap `rows`.
    fn blocks_of(&self, rows: Range<usize>) -> Range<usize> {
        let block_count = self.block_rows.len().saturating_sub(1);
        // The last block starting at or before the first row (empty blocks start where the
        // next one does).
        let first = self
            .block_rows
            .partition_point(|start| (*start as usize) <= rows.start)
            .saturating_sub(1);
        let end = self
            .block_rows
            .partition_point(|start| (*start as usize) < rows.end)
            .clamp(first, block_count);
        first..end
    }

    /// Lays out `blocks` into `store` (cleared first), cut at the page's last row.
    fn lay_out(&self, blocks: Range<usize>, width: usize, store: &mut RowStore) {
        store.clear();
        let first_row = self
            .block_rows
            .get(blocks.start)
            .map_or(0, |row| *row as usize);
        let mut rows = Rows {
            store: std::mem::take(store),
            max_rows: self.len().saturating_sub(first_row),
            full: false,
        };
        let page = &self.doc.store;
        for index in blocks.start..blocks.end.min(page.len()) {
            layout_block(page, index, width, &mut rows);
            if rows.full {
                break;
            }
        }
        *store = rows.store;
        if self.truncated && first_row + store.len() == self.len() {
            store.pop_row();
            push_truncation_notice(store, width);
        }
    }

    /// Calls `visit` with each row of `range` in order until it returns false. A few rows (a
    /// screenful) come from the window, laid out again only when the view moved away from it;
    /// many rows (a search) are made block by block and let go.
    fn visit_rows(
        &self,
        range: Range<usize>,
        width: usize,
        visit: &mut dyn FnMut(usize, &[Seg<'_>]) -> bool,
    ) {
        let range = range.start.min(self.len())..range.end.min(self.len());
        if range.is_empty() {
            return;
        }
        if range.len() <= 4 * WINDOW_MARGIN {
            let mut window = self.window.lock().unwrap_or_else(PoisonError::into_inner);
            let covered = window.first_row..window.first_row + window.rows.len();
            if window.blocks.is_empty() || range.start < covered.start || range.end > covered.end {
                let wanted = range.start.saturating_sub(WINDOW_MARGIN)..range.end + WINDOW_MARGIN;
                let blocks = self.blocks_of(wanted);
                let mut rows = std::mem::take(&mut window.rows);
                self.lay_out(blocks.clone(), width, &mut rows);
                window.first_row = self
                    .block_rows
                    .get(blocks.start)
                    .map_or(0, |row| *row as usize);
                window.blocks = blocks;
                window.rows = rows;
            }
            for row in range {
                if !visit(row, &window.rows.row(row - window.first_row)) {
                    return;
                }
            }
            return;
        }
        let mut scratch = RowStore::default();
        for block in self.blocks_of(range.clone()) {
            self.lay_out(block..block + 1, width, &mut scratch);
            let first_row = self.block_rows[block] as usize;
            for offset in 0..scratch.len() {
                let row = first_row + offset;
                if range.contains(&row) && !visit(row, &scratch.row(offset)) {
                    return;
                }
            }
        }
    }

    fn heap_bytes(&self) -> usize {
        let window = self.window.lock().unwrap_or_else(PoisonError::into_inner);
        self.block_rows.capacity() * size_of::<u32>() + window.rows.heap_bytes()
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

/// Counts the rows of each block of `doc` at `width` and keeps only the counts: the rows are
/// made again when drawn.
pub(super) fn layout_on_demand(doc: &Arc<MarkdownDoc>, width: u16) -> PageLayout {
    let mut rows = Rows {
        store: RowStore::default(),
        max_rows: super::MAX_ROWS,
        full: false,
    };
    let mut block_rows: Vec<u32> = Vec::with_capacity(doc.store.blocks.len() + 1);
    let mut laid_out = 0usize;
    let heading_rows = lay_out_blocks(doc, width, &mut rows, |_, rows: &mut Rows| {
        // Only the count is kept: the block's rows are dropped as soon as they are counted.
        block_rows.push(u32::try_from(laid_out).unwrap_or(u32::MAX));
        laid_out += rows.store.len();
        rows.store.clear();
    });
    block_rows.push(u32::try_from(laid_out).unwrap_or(u32::MAX));
    block_rows.shrink_to_fit();
    PageLayout {
        heading_rows: finish_heading_rows(doc, heading_rows, laid_out, rows.full),
        rows: LaidOut::OnDemand(OnDemand {
            doc: Arc::clone(doc),
            block_rows,
            truncated: rows.full,
            window: Mutex::new(Window::default()),
        }),
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

/// A table's cells borrowed from the page's buffer, for laying out.
struct Table<'a> {
    alignments: &'a [Align],
    header: Vec<Vec<Seg<'a>>>,
    rows: Vec<Vec<Vec<Seg<'a>>>>,
    border: Style,
}

impl<'a> Table<'a> {
    fn load(table: &'a StoredTable, buffer: &'a TextBuffer) -> Table<'a> {
        Table {
            alignments: &table.alignments,
            header: table.header.iter().map(|cell| buffer.segs(*cell)).collect(),
            rows: table
                .rows
                .iter()
                .map(|row| row.iter().map(|cell| buffer.segs(*cell)).collect())
                .collect(),
            border: buffer.style(table.border),
        }
    }
}

fn pieces_width(pieces: &[Piece]) -> usize {
    pieces.iter().map(|piece| text_width(&piece.text)).sum()
}

fn segs_width(pieces: &[Seg<'_>]) -> usize {
    pieces.iter().map(|piece| text_width(piece.text)).sum()
}

/// Cuts pieces to at most `limit` cells.
fn fit(pieces: &[Seg<'_>], limit: usize) -> Vec<Piece> {
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
fn wrap_pieces(
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

// ----- tables -----

/// Columns narrower than this are unreadable; such tables are shown as records instead.
const MIN_COLUMN_WIDTH: usize = 3;

fn layout_table(table: &Table, width: usize, emit: &mut dyn FnMut(Vec<Piece>) -> bool) {
    let columns = table
        .rows
        .iter()
        .map(Vec::len)
        .chain([table.header.len()])
        .max()
        .unwrap_or(0);
    if columns == 0 {
        return;
    }
    let frame = 3 * columns + 1;
    if frame + MIN_COLUMN_WIDTH * columns > width {
        layout_records(table, columns, width, emit);
        return;
    }
    let widths = column_widths(table, columns, width - frame);
    let border = table.border;
    let rule = |left: &str, middle: &str, right: &str| {
        let mut text = left.to_string();
        for (index, column_width) in widths.iter().enumerate() {
            if index > 0 {
                text.push_str(middle);
            }
            text.push_str(&"─".repeat(column_width + 2));
        }
        text.push_str(right);
        vec![Piece::new(text, border)]
    };
    if !emit(rule("┌", "┬", "┐")) {
        return;
    }
    if !table.header.is_empty() {
        if !emit_table_row(table, &table.header, &widths, emit) {
            return;
        }
        if !emit(rule("├", "┼", "┤")) {
            return;
        }
    }
    for row in &table.rows {
        if !emit_table_row(table, row, &widths, emit) {
            return;
        }
    }
    emit(rule("└", "┴", "┘"));
}

/// Natural widths when they fit; otherwise narrow columns keep their width and wide ones
/// share what is left.
fn column_widths(table: &Table, columns: usize, available: usize) -> Vec<usize> {
    let mut natural = vec![1; columns];
    for row in table.rows.iter().chain([&table.header]) {
        for (column, cell) in row.iter().enumerate() {
            natural[column] = natural[column].max(segs_width(cell).min(available));
        }
    }
    if natural.iter().sum::<usize>() <= available {
        return natural;
    }
    let mut order: Vec<usize> = (0..columns).collect();
    order.sort_by_key(|column| natural[*column]);
    let mut widths = vec![0; columns];
    let mut remaining = available;
    for (position, column) in order.iter().enumerate() {
        let share = remaining / (columns - position);
        let width = natural[*column].min(share).max(1);
        widths[*column] = width;
        remaining = remaining.saturating_sub(width);
    }
    widths
}

fn emit_table_row(
    table: &Table,
    row: &[Vec<Seg<'_>>],
    widths: &[usize],
    emit: &mut dyn FnMut(Vec<Piece>) -> bool,
) -> bool {
    let empty = Vec::new();
    let cells: Vec<Vec<Vec<Piece>>> = widths
        .iter()
        .enumerate()
        .map(|(column, width)| {
            let mut lines = Vec::new();
            let cell = row.get(column).unwrap_or(&empty);
            wrap_pieces(cell, *width, *width, Wrap::Words, &mut |line| {
                lines.push(line);
                true
            });
            lines
        })
        .collect();
    let height = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
    for line_index in 0..height {
        let mut pieces = vec![Piece::new("│", table.border)];
        for (column, width) in widths.iter().enumerate() {
            let content = cells[column].get(line_index).cloned().unwrap_or_default();
            let padding = width.saturating_sub(pieces_width(&content));
            let alignment = table.alignments.get(column).copied().unwrap_or(Align::Left);
            let (left, right) = match alignment {
                Align::Left => (0, padding),
                Align::Right => (padding, 0),
                Align::Center => (padding / 2, padding - padding / 2),
            };
            pieces.push(Piece::new(" ".repeat(left + 1), Style::default()));
            pieces.extend(content);
            pieces.push(Piece::new(" ".repeat(right + 1), Style::default()));
            pieces.push(Piece::new("│", table.border));
        }
        if !emit(pieces) {
            return false;
        }
    }
    true
}

/// Too many columns for the width: each row as `header: value` lines.
fn layout_records(
    table: &Table,
    columns: usize,
    width: usize,
    emit: &mut dyn FnMut(Vec<Piece>) -> bool,
) {
    let header_style = table
        .header
        .iter()
        .flatten()
        .next()
        .map_or(Style::default(), |piece| piece.style);
    let separator = vec![Piece::new("─".repeat(width.min(20)), table.border)];
    let records: Vec<&Vec<Vec<Seg<'_>>>> = if table.rows.is_empty() {
        vec![&table.header]
    } else {
        table.rows.iter().collect()
    };
    for (index, row) in records.into_iter().enumerate() {
        if index > 0 && !emit(separator.clone()) {
            return;
        }
        for column in 0..columns {
            let mut pieces = Vec::new();
            if !table.rows.is_empty() {
                let name = table
                    .header
                    .get(column)
                    .map(|cell| cell.iter().map(|piece| piece.text).collect::<String>())
                    .filter(|name| !name.trim().is_empty())
                    .unwrap_or_else(|| format!("{}", column + 1));
                pieces.push(Piece::new(format!("{name}:"), header_style));
                pieces.push(Piece::new(" ", Style::default()));
            }
            let mut segs: Vec<Seg<'_>> = pieces.iter().map(Piece::seg).collect();
            segs.extend(row.get(column).into_iter().flatten().copied());
            let mut stopped = false;
            wrap_pieces(&segs, width, width, Wrap::Words, &mut |line| {
                stopped = !emit(line);
                !stopped
            });
            if stopped {
                return;
            }
        }
    }
}

// ----- search -----

pub(super) fn find(lines: &[Line<'static>], query: &str) -> Vec<TextMatch> {
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
struct RowFinder {
    needle: String,
    folded: String,
    /// For each byte of `folded`: the cell column where its original character starts and ends.
    columns: Vec<(u16, u16)>,
}

impl RowFinder {
    fn new(query: &str) -> RowFinder {
        RowFinder {
            needle: query.chars().flat_map(char::to_lowercase).collect(),
            folded: String::new(),
            columns: Vec::new(),
        }
    }

    /// Adds the matches in `row` (given as its pieces of text) to `matches`.
    fn find<'a>(
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

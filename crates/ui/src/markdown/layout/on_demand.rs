//! The layout a page is kept as: where each block's rows start, the rows themselves made from
//! the parse when drawn or searched, with a window of the last ones drawn.

use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use super::{
    LaidOut, PageLayout, RowStore, Rows, finish_heading_rows, lay_out_blocks, layout_block,
    push_truncation_notice,
};
use crate::markdown::MarkdownDoc;
use crate::markdown::store::Seg;

/// A page laid out by blocks: how many rows each block takes, and the parse to make them from.
pub(super) struct OnDemand {
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
    pub(super) fn len(&self) -> usize {
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
    pub(super) fn visit_rows(
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

    pub(super) fn heap_bytes(&self) -> usize {
        let window = self.window.lock().unwrap_or_else(PoisonError::into_inner);
        self.block_rows.capacity() * size_of::<u32>() + window.rows.heap_bytes()
    }
}

/// Counts the rows of each block of `doc` at `width` and keeps only the counts: the rows are
/// made again when drawn.
pub(in crate::markdown) fn layout_on_demand(doc: &Arc<MarkdownDoc>, width: u16) -> PageLayout {
    let mut rows = Rows {
        store: RowStore::default(),
        max_rows: crate::markdown::MAX_ROWS,
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

//! Tables: framed columns when they fit the width, one `header: value` record per row when
//! they do not.

use ratatui::style::Style;

use super::wrap::{pieces_width, segs_width, wrap_pieces};
use crate::markdown::store::{Seg, StoredTable, TextBuffer};
use crate::markdown::{Align, Piece, Wrap};

/// A table's cells borrowed from the page's buffer, for laying out.
pub(super) struct Table<'a> {
    alignments: &'a [Align],
    header: Vec<Vec<Seg<'a>>>,
    rows: Vec<Vec<Vec<Seg<'a>>>>,
    border: Style,
}

impl<'a> Table<'a> {
    pub(super) fn load(table: &'a StoredTable, buffer: &'a TextBuffer) -> Table<'a> {
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

/// Columns narrower than this are unreadable; such tables are shown as records instead.
const MIN_COLUMN_WIDTH: usize = 3;

pub(super) fn layout_table(table: &Table, width: usize, emit: &mut dyn FnMut(Vec<Piece>) -> bool) {
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

//! Finding a scroll between two frames, without help from the views: rows are compared whole
//! (by a hash of their cells), and a band of rows that reappears shifted up or down is scrolled
//! by the terminal itself (DECSTBM + SU/SD) instead of being sent again.
//!
//! Only whole rows can match, so a split pane that scrolls one side has no match and is drawn
//! the plain way by itself.

use ratatui::buffer::{Buffer, Cell, CellDiffOption};
use ratatui::style::Color;

/// A scroll of rows `top..bottom` by `shift` rows: positive moves content up (the view went
/// down the page), negative moves it down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scroll {
    pub top: u16,
    pub bottom: u16,
    pub shift: i32,
}

/// Cells a scroll must save before it is used: setting the region and scrolling cost about
/// 12 bytes, and a few rows must match so a coincidence (two blank rows) is not taken for a
/// scroll.
const MINIMUM_GAIN: usize = 32;

/// The same when the terminal's region is already that band: scrolling costs only `ESC[nS`,
/// and the rows it brings in are blank, so drawing them needs no erasing. A page-down that
/// keeps one short line is then still scrolled.
const MINIMUM_GAIN_IN_KEPT_REGION: usize = 12;

/// What drawing a row costs roughly, counted when the row would have to be sent again: its
/// visible characters plus a cursor move.
fn row_cost(row: &[Cell]) -> usize {
    8 + row.iter().filter(|cell| cell.symbol() != " ").count()
}

/// A hash of each row of `buffer`, top to bottom.
pub fn row_hashes(buffer: &Buffer) -> Vec<u64> {
    let width = usize::from(buffer.area.width).max(1);
    buffer.content.chunks(width).map(row_hash).collect()
}

/// A hash of one row's cells: the sum of each cell's [`cell_hash`] at its column. A sum, so
/// that a row changed only in part is hashed again from the screen's hash and that part
/// ([`rehash`]): when a tree beside a wide preview scrolls, its rows change only on the left.
pub fn row_hash(row: &[Cell]) -> u64 {
    cells_hash(row, 0)
}

/// The [`row_hash`] of a row that showed `shown` in columns `from..` (and had the hash
/// `shown_hash`) and shows `new` there now, the rest unchanged.
pub fn rehash(shown_hash: u64, shown: &[Cell], new: &[Cell], from: usize) -> u64 {
    shown_hash
        .wrapping_sub(cells_hash(shown, from))
        .wrapping_add(cells_hash(new, from))
}

/// The part of a [`row_hash`] that `cells`, starting at column `from`, make.
fn cells_hash(cells: &[Cell], from: usize) -> u64 {
    cells
        .iter()
        .zip(from..)
        .fold(0, |sum: u64, (cell, column)| {
            sum.wrapping_add(cell_hash(cell, column))
        })
}

/// A hash of what a cell shows (its symbol, colours, attributes and diff option) at a column,
/// three words a cell. Hashing every field through `Hash` took four times as many steps.
fn cell_hash(cell: &Cell, column: usize) -> u64 {
    let mut hasher = RowHasher(column as u64);
    let symbol = cell.symbol().as_bytes();
    for chunk in symbol.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        hasher.add(u64::from_le_bytes(word));
    }
    hasher.add(colour_code(cell.fg) | colour_code(cell.bg) << 32);
    hasher.add(
        colour_code(cell.underline_color)
            | u64::from(cell.modifier.bits()) << 32
            | diff_option_code(cell.diff_option) << 48
            | (symbol.len() as u64 & 0xff) << 56,
    );
    hasher.finish()
}

/// A colour as a number below 2^25, a different one for each colour.
fn colour_code(colour: Color) -> u64 {
    match colour {
        Color::Reset => 0,
        Color::Black => 1,
        Color::Red => 2,
        Color::Green => 3,
        Color::Yellow => 4,
        Color::Blue => 5,
        Color::Magenta => 6,
        Color::Cyan => 7,
        Color::Gray => 8,
        Color::DarkGray => 9,
        Color::LightRed => 10,
        Color::LightGreen => 11,
        Color::LightYellow => 12,
        Color::LightBlue => 13,
        Color::LightMagenta => 14,
        Color::LightCyan => 15,
        Color::White => 16,
        Color::Indexed(index) => 1 << 8 | u64::from(index),
        Color::Rgb(red, green, blue) => {
            1 << 24 | u64::from(red) << 16 | u64::from(green) << 8 | u64::from(blue)
        }
    }
}

/// A diff option as a number below 2^8 (a forced width above 252 columns shares one).
fn diff_option_code(option: CellDiffOption) -> u64 {
    match option {
        CellDiffOption::None => 0,
        CellDiffOption::Skip => 1,
        CellDiffOption::AlwaysUpdate => 2,
        CellDiffOption::ForcedWidth(width) => 3 + u64::from(width.get().min(252)),
    }
}

/// A fast, non-cryptographic hash (the multiply-rotate of rustc's FxHasher): rows are hashed on
/// every frame, and SipHash made that most of a frame's cost on a wide terminal. The hashes
/// only find candidate rows; nothing depends on them resisting collisions by design.
#[derive(Default)]
struct RowHasher(u64);

impl RowHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }

    /// The hash with its high bits, which the multiplications mixed best, folded into the low
    /// ones: cells' hashes are summed, and a sum carries only upwards.
    fn finish(&self) -> u64 {
        let folded = self.0 ^ self.0 >> 32;
        folded.wrapping_mul(Self::SEED) ^ folded >> 29
    }
}

/// The scroll that saves the most, if one saves enough. `shown` and `next` have the same area;
/// `kept` is the scroll region the terminal has now (rows `top..bottom`), if any.
pub fn find(shown: &Buffer, next: &Buffer, kept: Option<(u16, u16)>) -> Option<Scroll> {
    if shown.area != next.area {
        return None;
    }
    find_by_rows(next, &row_hashes(shown), &row_hashes(next), kept)
}

/// [`find`], given the [`row_hashes`] of the screen (`old`) and of `next` (`new`): the frame
/// sent last is what the screen shows, so its hashes serve again for the next frame.
pub fn find_by_rows(
    next: &Buffer,
    old: &[u64],
    new: &[u64],
    kept: Option<(u16, u16)>,
) -> Option<Scroll> {
    let width = usize::from(next.area.width);
    if width == 0 || old.len() != new.len() || new.len() != usize::from(next.area.height) {
        return None;
    }
    if old == new {
        return None;
    }
    let height = new.len();
    // What each new row costs if it has to be sent (0 when it is already on screen as it is),
    // worked out only for rows a scroll would bring: a split pane that scrolls one side
    // matches no row, and counting its cells would cost as much as the whole frame.
    let mut costs: Vec<Option<usize>> = vec![None; height];
    let mut cost = |row: usize| {
        *costs[row].get_or_insert_with(|| {
            if old[row] == new[row] {
                0
            } else {
                row_cost(&next.content[row * width..(row + 1) * width])
            }
        })
    };
    let mut best: Option<(usize, Scroll)> = None;
    for distance in 1..height {
        for direction in [1i64, -1] {
            // New row r shows old row r + shift.
            let shift = direction * distance as i64;
            let mut run_start = None;
            for row in 0..=height {
                let source = usize::try_from(row as i64 + shift).ok();
                let matches = match (new.get(row), source.and_then(|source| old.get(source))) {
                    (Some(new_row), Some(old_row)) => new_row == old_row,
                    _ => false,
                };
                match (matches, run_start) {
                    (true, None) => run_start = Some(row),
                    (false, Some(start)) => {
                        run_start = None;
                        let gain: usize = (start..row).map(&mut cost).sum();
                        let scroll = region(start, row, shift);
                        let minimum = if kept == Some((scroll.top, scroll.bottom)) {
                            MINIMUM_GAIN_IN_KEPT_REGION
                        } else {
                            MINIMUM_GAIN
                        };
                        if gain >= minimum && best.is_none_or(|(most, _)| gain > most) {
                            best = Some((gain, scroll));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    best.map(|(_, scroll)| scroll)
}

/// The region that brings old rows `start + shift .. end + shift` to `start..end`.
fn region(start: usize, end: usize, shift: i64) -> Scroll {
    let distance = shift.unsigned_abs() as usize;
    let (top, bottom) = if shift > 0 {
        (start, end + distance)
    } else {
        (start - distance, end)
    };
    Scroll {
        top: top as u16,
        bottom: bottom as u16,
        shift: shift as i32,
    }
}

/// Does to `buffer` what the scroll does to the screen: rows move, the rows that come in are
/// blank.
pub fn apply(buffer: &mut Buffer, scroll: Scroll) {
    let width = usize::from(buffer.area.width);
    let top = usize::from(scroll.top) * width;
    let bottom = usize::from(scroll.bottom) * width;
    let Some(band) = buffer.content.get_mut(top..bottom) else {
        return;
    };
    let moved = scroll.shift.unsigned_abs() as usize * width;
    if moved >= band.len() {
        band.fill(Cell::EMPTY);
        return;
    }
    if scroll.shift > 0 {
        band.rotate_left(moved);
        let length = band.len();
        band[length - moved..].fill(Cell::EMPTY);
    } else {
        band.rotate_right(moved);
        band[..moved].fill(Cell::EMPTY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    fn screen(rows: &[&str]) -> Buffer {
        Buffer::with_lines(rows.iter().copied())
    }

    fn lines(from: usize, count: usize) -> Vec<String> {
        (from..from + count)
            .map(|n| format!("line number {n:03} of the page"))
            .collect()
    }

    #[test]
    fn a_body_that_moved_up_one_row_is_a_scroll_of_the_body_only() {
        let mut old = vec!["title".to_string()];
        old.extend(lines(0, 8));
        old.push("status 1%".to_string());
        let mut new = vec!["title".to_string()];
        new.extend(lines(1, 8));
        new.push("status 2%".to_string());
        let old = screen(&old.iter().map(String::as_str).collect::<Vec<_>>());
        let new = screen(&new.iter().map(String::as_str).collect::<Vec<_>>());
        let scroll = find(&old, &new, None).expect("a scroll");
        assert_eq!(
            scroll,
            Scroll {
                top: 1,
                bottom: 9,
                shift: 1
            }
        );
        let mut shifted = old.clone();
        apply(&mut shifted, scroll);
        let width = usize::from(new.area.width);
        // Rows 0..8 match the new frame; row 8 came in blank; the status row is untouched.
        assert_eq!(shifted.content[..8 * width], new.content[..8 * width]);
        let incoming = &shifted.content[8 * width..9 * width];
        assert!(incoming.iter().all(|c| c == &Cell::EMPTY));
        assert_eq!(shifted.content[9 * width..], old.content[9 * width..]);
    }

    #[test]
    fn a_body_that_moved_down_is_found_too() {
        let old = lines(5, 10);
        let new = lines(2, 10);
        let old = screen(&old.iter().map(String::as_str).collect::<Vec<_>>());
        let new = screen(&new.iter().map(String::as_str).collect::<Vec<_>>());
        let scroll = find(&old, &new, None).expect("a scroll");
        assert_eq!(scroll.shift, -3);
        let mut shifted = old.clone();
        apply(&mut shifted, scroll);
        let width = usize::from(new.area.width);
        assert_eq!(shifted.content[3 * width..], new.content[3 * width..]);
    }

    /// A row hashed again from the screen's hash and its changed part has the hash it would
    /// have hashed whole; rows that differ (even by a cell's place) hash apart.
    #[test]
    fn a_row_rehashed_from_its_changed_part_hashes_as_the_whole_row() {
        let shown = screen(&["  ▸ Getting started 📄  │ preview text"]);
        let mut new = shown.clone();
        new.set_string(
            2,
            0,
            "▾ Limits of quotas",
            ratatui::style::Style::new().bold(),
        );
        let (shown, new) = (&shown.content, &new.content);
        let changed = 2..20;
        assert_eq!(
            rehash(
                row_hash(shown),
                &shown[changed.clone()],
                &new[changed.clone()],
                changed.start
            ),
            row_hash(new)
        );
        assert_ne!(row_hash(shown), row_hash(new));
        let swapped = screen(&["ba"]);
        assert_ne!(
            row_hash(&screen(&["ab"]).content),
            row_hash(&swapped.content)
        );
    }

    #[test]
    fn nothing_shifted_means_no_scroll() {
        let old = screen(&["a", "b", "c"]);
        assert_eq!(find(&old, &old, None), None);
        assert_eq!(
            find(&Buffer::empty(Rect::new(0, 0, 4, 4)), &old, None),
            None
        );
    }
}

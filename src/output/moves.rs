//! The cheapest way to move the cursor: an absolute move, or a relative one (carriage return,
//! line feeds, cursor up, down and across) where the scroll region lets it land.

use std::io::Write as _;

/// Whether relative vertical moves (line feed, cursor up and down) from row `from` reach row
/// `to` with the scroll region `band` set. A line feed at the region's bottom margin scrolls it,
/// and cursor up and down stop at a margin when they start inside the region (xterm stops
/// cursor up at the top margin even from below it): moving within one zone (above, inside,
/// below the region) or into the region is safe, moving out of it or across it is not.
pub(super) fn vertical_moves_safe(band: Option<(u16, u16)>, from: u16, to: u16) -> bool {
    let Some((top, bottom)) = band else {
        return true;
    };
    let zone = |row: u16| (row >= top) as u8 + (row >= bottom) as u8;
    zone(from) == zone(to) || (top..bottom).contains(&to)
}

/// Appends the shortest sequence that moves the cursor from `from` (unknown: `None`) to
/// (`x`, `y`). The candidates are measured before one is written: this runs for every cell
/// written after a gap, and spelling each out was a tenth of a wide frame's cost.
pub(super) fn move_sequence(out: &mut Vec<u8>, from: Option<(u16, u16)>, x: u16, y: u16) {
    let mut best = (absolute_move_length(x, y), Move::Absolute);
    if let Some((from_x, from_y)) = from {
        let mut consider = |length: usize, candidate: Move| {
            if length < best.0 {
                best = (length, candidate);
            }
        };
        match y.cmp(&from_y) {
            std::cmp::Ordering::Equal => {
                consider(horizontal_move_length(from_x, x), Move::Across);
            }
            std::cmp::Ordering::Greater => {
                let down = y - from_y;
                // Line feeds only move down (the terminal is in raw mode: no carriage return
                // is added), and never scroll here: the cursor is above the bottom row.
                if down <= 4 {
                    let feeds = usize::from(down);
                    consider(
                        1 + feeds + horizontal_move_length(0, x),
                        Move::ReturnAndFeeds(down),
                    );
                    consider(feeds + horizontal_move_length(from_x, x), Move::Feeds(down));
                }
                consider(
                    csi_count_length(down) + horizontal_move_length(from_x, x),
                    Move::Down(down),
                );
            }
            std::cmp::Ordering::Less => consider(
                csi_count_length(from_y - y) + horizontal_move_length(from_x, x),
                Move::Up(from_y - y),
            ),
        }
    }
    let from_x = from.map_or(0, |(from_x, _)| from_x);
    match best.1 {
        Move::Absolute => absolute_move(out, x, y),
        Move::Across => horizontal_move(out, from_x, x),
        Move::ReturnAndFeeds(down) => {
            out.push(b'\r');
            out.extend(std::iter::repeat_n(b'\n', usize::from(down)));
            horizontal_move(out, 0, x);
        }
        Move::Feeds(down) => {
            out.extend(std::iter::repeat_n(b'\n', usize::from(down)));
            horizontal_move(out, from_x, x);
        }
        Move::Down(down) => {
            csi_count(out, down, 'B');
            horizontal_move(out, from_x, x);
        }
        Move::Up(up) => {
            csi_count(out, up, 'A');
            horizontal_move(out, from_x, x);
        }
    }
}

/// The ways [`move_sequence`] can move the cursor: line feeds, cursor up and down are each
/// followed by the [`horizontal_move`] to the column.
#[derive(Clone, Copy)]
enum Move {
    Absolute,
    Across,
    ReturnAndFeeds(u16),
    Feeds(u16),
    Down(u16),
    Up(u16),
}

fn absolute_move(out: &mut Vec<u8>, x: u16, y: u16) {
    let _ = match (x, y) {
        (0, 0) => write!(out, "\x1b[H"),
        (0, y) => write!(out, "\x1b[{}H", y + 1),
        (x, y) => write!(out, "\x1b[{};{}H", y + 1, x + 1),
    };
}

fn absolute_move_length(x: u16, y: u16) -> usize {
    match (x, y) {
        (0, 0) => 3,
        (0, y) => 3 + digits(y + 1),
        (x, y) => 4 + digits(y + 1) + digits(x + 1),
    }
}

fn horizontal_move(out: &mut Vec<u8>, from: u16, to: u16) {
    match to.cmp(&from) {
        std::cmp::Ordering::Equal => {}
        std::cmp::Ordering::Greater => csi_count(out, to - from, 'C'),
        std::cmp::Ordering::Less => {
            if 1 + horizontal_move_length(0, to) < csi_count_length(from - to) {
                out.push(b'\r');
                horizontal_move(out, 0, to);
            } else {
                csi_count(out, from - to, 'D');
            }
        }
    }
}

fn horizontal_move_length(from: u16, to: u16) -> usize {
    match to.cmp(&from) {
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => csi_count_length(to - from),
        std::cmp::Ordering::Less => {
            csi_count_length(from - to).min(1 + horizontal_move_length(0, to))
        }
    }
}

/// `ESC[nX`, with the count left out when it is 1 (the default).
pub(super) fn csi_count(out: &mut Vec<u8>, count: u16, command: char) {
    let _ = if count == 1 {
        write!(out, "\x1b[{command}")
    } else {
        write!(out, "\x1b[{count}{command}")
    };
}

fn csi_count_length(count: u16) -> usize {
    if count == 1 { 3 } else { 3 + digits(count) }
}

/// How many decimal digits `number` has.
fn digits(number: u16) -> usize {
    number.checked_ilog10().map_or(1, |log| log as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pick_the_shortest_sequence() {
        let moved = |from, x, y| {
            let mut out = Vec::new();
            move_sequence(&mut out, from, x, y);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(moved(None, 0, 0), "\x1b[H");
        assert_eq!(moved(None, 4, 2), "\x1b[3;5H");
        assert_eq!(moved(Some((3, 2)), 4, 2), "\x1b[C");
        assert_eq!(moved(Some((3, 2)), 0, 2), "\r");
        assert_eq!(moved(Some((30, 2)), 0, 3), "\r\n");
        assert_eq!(moved(Some((30, 2)), 30, 3), "\n");
        assert_eq!(moved(Some((30, 2)), 28, 4), "\n\n\x1b[2D");
        assert_eq!(moved(Some((30, 2)), 30, 9), "\x1b[7B");
    }

    #[test]
    fn moves_are_measured_as_they_are_written() {
        for (x, y) in [(0, 0), (0, 8), (0, 9), (9, 0), (99, 99), (250, 1000)] {
            let mut out = Vec::new();
            absolute_move(&mut out, x, y);
            assert_eq!(out.len(), absolute_move_length(x, y), "{x},{y}");
            for from in [0, 1, 9, 10, 120] {
                let mut out = Vec::new();
                horizontal_move(&mut out, from, x);
                assert_eq!(out.len(), horizontal_move_length(from, x), "{from}→{x}");
            }
        }
    }

    /// With rows 2..20 as the region: line feeds and cursor up/down only within a zone or
    /// into the region, never out of it or across it (where a margin would stop them, or a
    /// line feed at the bottom margin would scroll).
    #[test]
    fn relative_vertical_moves_never_leave_a_kept_region() {
        let band = Some((2, 20));
        assert!(vertical_moves_safe(None, 19, 23));
        assert!(vertical_moves_safe(band, 5, 19), "inside");
        assert!(vertical_moves_safe(band, 21, 23), "below");
        assert!(vertical_moves_safe(band, 0, 1), "above");
        assert!(vertical_moves_safe(band, 23, 10), "up into the region");
        assert!(vertical_moves_safe(band, 0, 10), "down into the region");
        assert!(
            !vertical_moves_safe(band, 19, 20),
            "out at the bottom margin"
        );
        assert!(!vertical_moves_safe(band, 5, 1), "out at the top margin");
        assert!(!vertical_moves_safe(band, 23, 0), "across, up");
        assert!(!vertical_moves_safe(band, 0, 23), "across, down");
    }
}

//! The diff's line cursor (`›`): `j`/`k` a line, `n`/`N` a change, `J`/`K` a page, and what a
//! comment written there is about.
//!
//! The cursor is a row of the laid-out diff. It moves by lines (a wrapped line's continuation
//! rows are skipped) and the view follows it. `c` comments on the document block of the line
//! under it; a line with no block of its own (a blank line, a hunk header, a removed line)
//! takes the nearest block of the change request's version and the composer says which.

use std::ops::Range;

use super::ReviewScreen;
use crate::ui::diff::DiffSide;

/// What a comment written at the cursor is about.
#[derive(Debug, Clone, PartialEq)]
pub struct CommentSpot {
    /// The change request's line the block starts on (or the line under the cursor).
    pub line: usize,
    /// The block's document key, when the change request's document gave one.
    pub node: Option<String>,
    /// The block in words: "the paragraph 'Tokens carry scopes…'".
    pub about: String,
    /// Why the block is not the one under the cursor, when it is not.
    pub note: Option<SpotNote>,
}

/// Why a comment goes on another block than the line's, in full and in a few words for a
/// composer too small for the full reason.
#[derive(Debug, Clone, PartialEq)]
pub struct SpotNote {
    pub long: String,
    pub short: String,
}

impl ReviewScreen {
    /// The cursor's row, inside the diff; None in the rendered view or before a diff.
    pub fn cursor_row_now(&self) -> Option<usize> {
        if self.rendered {
            return None;
        }
        let view = self.diff_view.as_ref()?;
        let last = view.lines.len().checked_sub(1)?;
        Some(self.diff_cursor.min(last))
    }

    /// Puts the cursor on `row` and scrolls as little as needed to show it.
    pub fn place_cursor(&mut self, row: usize, height: usize) {
        let Some(view) = &self.diff_view else { return };
        let row = row.min(view.lines.len().saturating_sub(1));
        self.diff_cursor = row;
        let height = height.max(1);
        if row < self.diff_scroll {
            self.diff_scroll = row;
        } else if row >= self.diff_scroll + height {
            self.diff_scroll = row + 1 - height;
        }
    }

    /// `j`/`k`: the next (previous) line, skipping a wrapped line's continuation rows.
    pub fn move_cursor_by_lines(&mut self, lines: isize, height: usize) {
        let Some(view) = &self.diff_view else { return };
        let mut row = self.diff_cursor.min(view.lines.len().saturating_sub(1));
        for _ in 0..lines.unsigned_abs() {
            let next = if lines > 0 {
                (row + 1..view.lines.len()).find(|at| view.starts_line(*at))
            } else {
                (0..row).rev().find(|at| view.starts_line(*at))
            };
            match next {
                Some(next) => row = next,
                None => break,
            }
        }
        self.current_hunk = None;
        self.place_cursor(row, height);
    }

    /// `g`/`G`: the first (last) line of the diff.
    pub fn cursor_to_end(&mut self, last: bool, height: usize) {
        let Some(view) = &self.diff_view else { return };
        let row = if last {
            (0..view.lines.len())
                .rev()
                .find(|at| view.starts_line(*at))
                .unwrap_or(0)
        } else {
            0
        };
        self.current_hunk = None;
        self.place_cursor(row, height);
    }

    /// After the view scrolled by `delta` rows (a page key, the wheel): the cursor moves as
    /// far, onto the start of the line it lands in.
    pub fn carry_cursor(&mut self, delta: isize, height: usize) {
        let Some(view) = &self.diff_view else { return };
        let last = view.lines.len().saturating_sub(1);
        let mut row = self.diff_cursor.saturating_add_signed(delta).min(last);
        while row > 0 && !view.starts_line(row) {
            row -= 1;
        }
        let scroll = self.diff_scroll;
        self.place_cursor(row, height);
        // The scroll was already decided by the page key; the cursor only follows it.
        if (scroll..scroll + height.max(1)).contains(&row) {
            self.diff_scroll = scroll;
        }
    }

    /// Where a comment written at the cursor goes: the block of the line under it, or the
    /// nearest block of the change request's version, with the reason. None when the diff
    /// shows no line of the change request in a block (a deleted page, blocks unknown).
    pub fn comment_spot(&self) -> Option<CommentSpot> {
        let view = self.diff_view.as_ref()?;
        let (found, note) = self.spot_row()?;
        let spot = view.origin(found)?;
        let block = spot.block.as_ref()?;
        let line = spot.new_line?;
        let about = self.diff_threads.placement.describe(line);
        Some(CommentSpot {
            line: self
                .diff_threads
                .placement
                .first_line_of(line)
                .unwrap_or(line),
            node: block.node.clone(),
            about,
            note,
        })
    }

    /// The rows of the diff that show the block a comment written at the cursor goes on (with
    /// the removed lines inside it), to keep in sight above the composer.
    pub fn comment_block_rows(&self) -> Option<Range<usize>> {
        let view = self.diff_view.as_ref()?;
        let (found, _) = self.spot_row()?;
        let block = view.origin(found)?.block.clone()?;
        let in_block = |row: usize| {
            view.origin(row)
                .is_some_and(|o| o.side != DiffSide::Old && o.block.as_ref() == Some(&block))
        };
        let removed = |row: usize| view.origin(row).is_some_and(|o| o.side == DiffSide::Old);
        let mut start = found;
        let mut at = found;
        while at > 0 && (in_block(at - 1) || removed(at - 1)) {
            at -= 1;
            if in_block(at) {
                start = at;
            }
        }
        let mut end = found + 1;
        let mut at = found + 1;
        while at < view.lines.len() && (in_block(at) || removed(at)) {
            at += 1;
            if in_block(at - 1) {
                end = at;
            }
        }
        Some(start..end)
    }

    /// The row of the block a comment at the cursor goes on, and why when it is not the
    /// cursor's own.
    fn spot_row(&self) -> Option<(usize, Option<SpotNote>)> {
        let view = self.diff_view.as_ref()?;
        let row = self.cursor_row_now()?;
        let origin = view.origin(row)?;
        let (found, note) = match origin.side {
            DiffSide::New | DiffSide::Both | DiffSide::Paired if origin.block.is_some() => {
                (row, None)
            }
            DiffSide::Old => {
                let line = origin.old_line.unwrap_or_default();
                // The lines that replaced it, in the same hunk, come first.
                let hunk = view.hunk_of(row).unwrap_or(0);
                let hunk_end = view
                    .hunk_rows
                    .get(hunk + 1)
                    .copied()
                    .unwrap_or(view.lines.len());
                let replacement = view.nearest_block_row(row, row..hunk_end);
                let found =
                    replacement.or_else(|| view.nearest_block_row(row, 0..view.lines.len()))?;
                let (on, short) = if replacement.is_some() {
                    ("the block that replaces it", "its replacement")
                } else {
                    ("the nearest block still there", "the nearest block")
                };
                let why = SpotNote {
                    long: format!(
                        "Line {line} of main is removed here; a comment is on the change request's text, so it goes on {on}."
                    ),
                    short: format!("Line {line} was removed: on {short}."),
                };
                (found, Some(why))
            }
            _ => {
                let found = view.nearest_block_row(row, 0..view.lines.len())?;
                let (what, short) = match origin.new_line {
                    Some(line) => (
                        format!("Line {line} is in no block (a blank line)"),
                        format!("Line {line} is blank"),
                    ),
                    None => (
                        "The row under › shows no line of the page".to_string(),
                        "No line here".to_string(),
                    ),
                };
                let why = SpotNote {
                    long: format!("{what}: the comment goes on the nearest block."),
                    short: format!("{short}: on the nearest block."),
                };
                (found, Some(why))
            }
        };
        Some((found, note))
    }
}

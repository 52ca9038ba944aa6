//! A page's markdown, main against the change request: line hunks from `similar`, with the
//! changed words inside changed lines marked. Drawn unified, or side by side when there is room.
//!
//! Every drawn row knows what it shows ([`DiffRowOrigin`]): the page, the side, the line
//! numbers and the document block, once the screen said which page and blocks these are
//! ([`PageDiff::locate`]).

use std::sync::Arc;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use similar::{ChangeTag, TextDiff};
use unicode_segmentation::UnicodeSegmentation;

use crate::sanitize::sanitize;
use crate::text::grapheme_width;
use crate::theme::Theme;

/// Lines of unchanged text shown around each change.
pub const CONTEXT_LINES: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Same,
    Added,
    Removed,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DiffLine {
    pub kind: LineKind,
    pub old_number: Option<usize>,
    pub new_number: Option<usize>,
    /// The text in pieces; `true` marks a piece that changed within the line.
    pub pieces: Vec<(bool, String)>,
    /// The block of main's version the line is in (None for a blank line, or until located).
    pub old_block: Option<DiffBlock>,
    /// The block of the change request's version the line is in.
    pub new_block: Option<DiffBlock>,
}

impl DiffLine {
    /// What a row showing this line (alone) shows: an unchanged line is on both sides, and its
    /// block is the change request's, where comments go.
    fn origin(&self, page: Option<&Arc<str>>) -> DiffRowOrigin {
        let (side, block) = match self.kind {
            LineKind::Same => (DiffSide::Both, &self.new_block),
            LineKind::Added => (DiffSide::New, &self.new_block),
            LineKind::Removed => (DiffSide::Old, &self.old_block),
        };
        DiffRowOrigin {
            page: page.cloned(),
            side,
            old_line: self.old_number,
            new_line: self.new_number,
            block: block.clone(),
        }
    }
}

/// Which version of the page a row of the laid-out diff shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DiffSide {
    /// No line of either version: a hunk header, or a row about the page as a whole.
    #[default]
    None,
    /// A line only main has: removed.
    Old,
    /// A line only the change request has: added.
    New,
    /// An unchanged line, in both versions (context).
    Both,
    /// Side by side: a removed line on the left beside the added line that replaces it.
    Paired,
}

/// A block of one version of a page: its place among that version's top-level blocks, and
/// its document `key` (what comment threads name as `target.node`) when the change's
/// content gives one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffBlock {
    pub index: usize,
    pub node: Option<String>,
}

/// What one row of the laid-out diff shows: which page, which side, which line of each
/// version, and which document block. A wrapped line's continuation rows carry the origin of
/// the line they continue.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiffRowOrigin {
    /// The page's id; None until the diff was located on a page.
    pub page: Option<Arc<str>>,
    pub side: DiffSide,
    /// The line's number in main's version, when the row shows one.
    pub old_line: Option<usize>,
    /// The line's number in the change request's version, when the row shows one.
    pub new_line: Option<usize>,
    /// The block on the row's side (the change request's for [`DiffSide::Both`] and
    /// [`DiffSide::Paired`]); None for a blank line between blocks and for headers.
    pub block: Option<DiffBlock>,
}

impl DiffRowOrigin {
    /// A row of the page that shows no line: a hunk header, or a row about the whole page.
    pub fn header(page: Option<&Arc<str>>) -> DiffRowOrigin {
        DiffRowOrigin {
            page: page.cloned(),
            ..DiffRowOrigin::default()
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hunk {
    pub old_start: usize,
    pub new_start: usize,
    pub lines: Vec<DiffLine>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageDiff {
    pub hunks: Vec<Hunk>,
    pub added: usize,
    pub removed: usize,
    /// The page this is the diff of, once located.
    pub page: Option<Arc<str>>,
}

impl PageDiff {
    /// Says which page this is and which block each line is in, on each side (by its line
    /// number there): the rows drawn from it then carry it in their [`DiffRowOrigin`].
    pub fn locate(
        &mut self,
        page: &str,
        old_block: impl Fn(usize) -> Option<DiffBlock>,
        new_block: impl Fn(usize) -> Option<DiffBlock>,
    ) {
        self.page = Some(Arc::from(page));
        for line in self.hunks.iter_mut().flat_map(|hunk| &mut hunk.lines) {
            line.old_block = line.old_number.and_then(&old_block);
            line.new_block = line.new_number.and_then(&new_block);
        }
    }
}

/// Diffs two versions of a page. Either side may be empty (a created or deleted page).
pub fn diff_pages(old: &str, new: &str) -> PageDiff {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(500))
        .diff_lines(old, new);
    let mut page = PageDiff::default();
    for group in diff.grouped_ops(CONTEXT_LINES) {
        let Some(first) = group.first() else { continue };
        let mut hunk = Hunk {
            old_start: first.old_range().start + 1,
            new_start: first.new_range().start + 1,
            lines: Vec::new(),
        };
        for op in &group {
            for change in diff.iter_inline_changes(op) {
                let kind = match change.tag() {
                    ChangeTag::Equal => LineKind::Same,
                    ChangeTag::Insert => LineKind::Added,
                    ChangeTag::Delete => LineKind::Removed,
                };
                match kind {
                    LineKind::Added => page.added += 1,
                    LineKind::Removed => page.removed += 1,
                    LineKind::Same => {}
                }
                let pieces = change
                    .iter_strings_lossy()
                    .map(|(emphasized, text)| {
                        (emphasized, text.trim_end_matches(['\n', '\r']).to_string())
                    })
                    .filter(|(_, text)| !text.is_empty())
                    .collect();
                hunk.lines.push(DiffLine {
                    kind,
                    old_number: change.old_index().map(|i| i + 1),
                    new_number: change.new_index().map(|i| i + 1),
                    pieces,
                    old_block: None,
                    new_block: None,
                });
            }
        }
        page.hunks.push(hunk);
    }
    page
}

/// Drawn lines and the row where each hunk starts (for next/previous hunk).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiffView {
    pub lines: Vec<Line<'static>>,
    pub hunk_rows: Vec<usize>,
    /// For each row, the change request's line it starts (None for hunk headers, removed
    /// lines and wrapped continuations): where comment threads and `c` anchor.
    pub new_lines: Vec<Option<usize>>,
    /// For each row, what it shows: page, side, line numbers, block.
    pub origins: Vec<DiffRowOrigin>,
}

impl DiffView {
    /// What row `row` shows.
    pub fn origin(&self, row: usize) -> Option<&DiffRowOrigin> {
        self.origins.get(row)
    }
}

/// Side by side needs this many columns; below it the diff is unified.
pub const SIDE_BY_SIDE_MIN_WIDTH: u16 = 120;

pub fn render(diff: &PageDiff, width: u16, side_by_side: bool, theme: &Theme) -> DiffView {
    if side_by_side && width >= SIDE_BY_SIDE_MIN_WIDTH {
        render_side_by_side(diff, width, theme)
    } else {
        render_unified(diff, width, theme)
    }
}

fn styles(kind: LineKind, theme: &Theme) -> (Style, Style, &'static str) {
    match kind {
        LineKind::Same => (theme.style("text"), theme.style("text"), " "),
        LineKind::Added => (
            theme.style("diff_added"),
            theme.style("diff_added_word"),
            "+",
        ),
        LineKind::Removed => (
            theme.style("diff_removed"),
            theme.style("diff_removed_word"),
            "-",
        ),
    }
}

fn hunk_header(hunk: &Hunk, theme: &Theme) -> Line<'static> {
    Line::from(Span::styled(
        format!("@@ -{} +{} @@", hunk.old_start, hunk.new_start),
        theme.style("diff_hunk"),
    ))
}

fn render_unified(diff: &PageDiff, width: u16, theme: &Theme) -> DiffView {
    let mut view = DiffView::default();
    let gutter_width = 10usize;
    let text_width = (width as usize).saturating_sub(gutter_width).max(1);
    let page = diff.page.as_ref();
    for hunk in &diff.hunks {
        view.hunk_rows.push(view.lines.len());
        view.lines.push(hunk_header(hunk, theme));
        view.new_lines.push(None);
        view.origins.push(DiffRowOrigin::header(page));
        for line in &hunk.lines {
            let origin = line.origin(page);
            let (base, emphasis, sign) = styles(line.kind, theme);
            let gutter = format!(
                "{:>4} {:>4}{sign}",
                line.old_number.map(|n| n.to_string()).unwrap_or_default(),
                line.new_number.map(|n| n.to_string()).unwrap_or_default(),
            );
            for (index, row) in wrap_pieces(&line.pieces, text_width, base, emphasis)
                .into_iter()
                .enumerate()
            {
                let mut spans = vec![Span::styled(
                    if index == 0 {
                        gutter.clone()
                    } else {
                        " ".repeat(gutter_width)
                    },
                    theme.style("diff_gutter"),
                )];
                spans.extend(row);
                view.lines.push(Line::from(spans));
                view.new_lines.push(line.new_number.filter(|_| index == 0));
                view.origins.push(origin.clone());
            }
        }
    }
    view
}

fn render_side_by_side(diff: &PageDiff, width: u16, theme: &Theme) -> DiffView {
    let mut view = DiffView::default();
    let half = (width as usize).saturating_sub(3) / 2;
    let number_width = 5usize;
    let text_width = half.saturating_sub(number_width).max(1);
    let page = diff.page.as_ref();
    for hunk in &diff.hunks {
        view.hunk_rows.push(view.lines.len());
        view.lines.push(hunk_header(hunk, theme));
        view.new_lines.push(None);
        view.origins.push(DiffRowOrigin::header(page));
        // Pair removed lines with the added lines that replace them, row by row.
        let mut index = 0;
        while index < hunk.lines.len() {
            let line = &hunk.lines[index];
            if line.kind == LineKind::Same {
                push_pair(
                    &mut view,
                    Some(line),
                    Some(line),
                    line.origin(page),
                    text_width,
                    number_width,
                    theme,
                );
                index += 1;
                continue;
            }
            let removed: Vec<&DiffLine> = hunk.lines[index..]
                .iter()
                .take_while(|l| l.kind == LineKind::Removed)
                .collect();
            let after_removed = index + removed.len();
            let added: Vec<&DiffLine> = hunk.lines[after_removed..]
                .iter()
                .take_while(|l| l.kind == LineKind::Added)
                .collect();
            for pair in 0..removed.len().max(added.len()) {
                let (left, right) = (removed.get(pair).copied(), added.get(pair).copied());
                push_pair(
                    &mut view,
                    left,
                    right,
                    pair_origin(page, left, right),
                    text_width,
                    number_width,
                    theme,
                );
            }
            index = after_removed + added.len();
        }
    }
    view
}

/// What a side-by-side row of a removed line (left) and the added line beside it shows.
fn pair_origin(
    page: Option<&Arc<str>>,
    left: Option<&DiffLine>,
    right: Option<&DiffLine>,
) -> DiffRowOrigin {
    match (left, right) {
        (Some(left), Some(right)) => DiffRowOrigin {
            side: DiffSide::Paired,
            old_line: left.old_number,
            ..right.origin(page)
        },
        (Some(line), None) | (None, Some(line)) => line.origin(page),
        (None, None) => DiffRowOrigin::header(page),
    }
}

fn push_pair(
    view: &mut DiffView,
    left: Option<&DiffLine>,
    right: Option<&DiffLine>,
    origin: DiffRowOrigin,
    text_width: usize,
    number_width: usize,
    theme: &Theme,
) {
    let side = |line: Option<&DiffLine>, old: bool| -> Vec<Vec<Span<'static>>> {
        match line {
            Some(line) => {
                let (base, emphasis, _) = styles(line.kind, theme);
                wrap_pieces(&line.pieces, text_width, base, emphasis)
            }
            None => vec![Vec::new()],
        }
        .into_iter()
        .enumerate()
        .map(|(row, mut spans)| {
            let number = match (row, line) {
                (0, Some(line)) => if old {
                    line.old_number
                } else {
                    line.new_number
                }
                .map(|n| n.to_string())
                .unwrap_or_default(),
                _ => String::new(),
            };
            spans.insert(
                0,
                Span::styled(
                    format!("{number:>width$} ", width = number_width - 1),
                    theme.style("diff_gutter"),
                ),
            );
            spans
        })
        .collect()
    };
    let left_rows = side(left, true);
    let right_rows = side(right, false);
    let column = number_width + text_width;
    for row in 0..left_rows.len().max(right_rows.len()) {
        let mut spans = left_rows.get(row).cloned().unwrap_or_default();
        let used: usize = spans.iter().map(Span::width).sum();
        spans.push(Span::raw(" ".repeat(column.saturating_sub(used))));
        spans.push(Span::styled(" │ ", theme.style("diff_gutter")));
        spans.extend(right_rows.get(row).cloned().unwrap_or_default());
        view.lines.push(Line::from(spans));
        view.new_lines
            .push(right.and_then(|line| line.new_number).filter(|_| row == 0));
        view.origins.push(origin.clone());
    }
}

/// Wraps a line's pieces to `width` cells at spaces, as prose wraps; a word longer than a whole
/// row (a link, a path) is broken after a `/`, `-`, `#`, `.` or bracket inside it, and only
/// where it has none where the row ends. Spaces at the end of a row are dropped.
fn wrap_pieces(
    pieces: &[(bool, String)],
    width: usize,
    base: Style,
    emphasis: Style,
) -> Vec<Vec<Span<'static>>> {
    let width = width.max(1);
    // Each grapheme with whether it is a changed one.
    let cells: Vec<(String, bool)> = pieces
        .iter()
        .flat_map(|(emphasized, text)| {
            sanitize(text)
                .graphemes(true)
                .map(|grapheme| (grapheme.to_string(), *emphasized))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut rows: Vec<Vec<(String, bool)>> = vec![Vec::new()];
    let mut used = 0;
    for word in words(&cells)
        .into_iter()
        .flat_map(|word| parts_of_long(word, width))
    {
        let word_width: usize = word
            .iter()
            .filter(|(g, _)| !g.trim().is_empty())
            .map(|(g, _)| grapheme_width(g))
            .sum();
        if used > 0 && used + word_width > width {
            rows.push(Vec::new());
            used = 0;
        }
        for (grapheme, emphasized) in word {
            let cells = grapheme_width(grapheme);
            if used + cells > width {
                if grapheme.trim().is_empty() {
                    continue;
                }
                rows.push(Vec::new());
                used = 0;
            }
            if let Some(row) = rows.last_mut() {
                row.push((grapheme.clone(), *emphasized));
            }
            used += cells;
        }
    }
    rows.into_iter()
        .map(|row| styled_runs(&row, base, emphasis))
        .collect()
}

/// Words with the spaces after them: where a row may end.
fn words(cells: &[(String, bool)]) -> Vec<&[(String, bool)]> {
    let mut words = Vec::new();
    let mut start = 0;
    for index in 1..cells.len() {
        let after_space = cells[index - 1].0.trim().is_empty();
        if after_space && !cells[index].0.trim().is_empty() {
            words.push(&cells[start..index]);
            start = index;
        }
    }
    if start < cells.len() {
        words.push(&cells[start..]);
    }
    words
}

/// A word as it is, or, when it is wider than a row, its parts each ending after a character
/// a link or a path can be broken after.
fn parts_of_long(word: &[(String, bool)], width: usize) -> Vec<&[(String, bool)]> {
    let word_width: usize = word.iter().map(|(g, _)| grapheme_width(g)).sum();
    if word_width <= width {
        return vec![word];
    }
    let breaks_after = |grapheme: &str| {
        matches!(
            grapheme,
            "/" | "-" | "#" | "." | "(" | ")" | "[" | "]" | "?" | "&" | "=" | "_" | ","
        )
    };
    let mut parts = Vec::new();
    let mut start = 0;
    for (index, (grapheme, _)) in word.iter().enumerate() {
        if breaks_after(grapheme) && index + 1 < word.len() {
            parts.push(&word[start..=index]);
            start = index + 1;
        }
    }
    parts.push(&word[start..]);
    parts
}

/// One span per run of graphemes of the same kind.
fn styled_runs(row: &[(String, bool)], base: Style, emphasis: Style) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut kind = None;
    for (grapheme, emphasized) in row {
        if kind.is_some_and(|k| k != *emphasized) {
            let style = if kind == Some(true) { emphasis } else { base };
            spans.push(Span::styled(std::mem::take(&mut text), style));
        }
        kind = Some(*emphasized);
        text.push_str(grapheme);
    }
    if let Some(kind) = kind {
        spans.push(Span::styled(text, if kind { emphasis } else { base }));
    }
    spans
}

/// Moving over a laid-out diff: the rows a cursor stops on, the hunks, the blocks.
impl DiffView {
    /// Whether `row` starts a line (or is a header): the rows `j`/`k` stop on.
    pub fn starts_line(&self, row: usize) -> bool {
        row == 0
            || self.hunk_rows.contains(&row)
            || self.origins.get(row) != self.origins.get(row - 1)
    }

    /// The row `n` lands on in each hunk: its first changed line (its header when none).
    pub fn change_rows(&self) -> Vec<usize> {
        self.hunk_rows
            .iter()
            .enumerate()
            .map(|(index, start)| {
                let end = self
                    .hunk_rows
                    .get(index + 1)
                    .copied()
                    .unwrap_or(self.lines.len());
                (*start..end)
                    .find(|row| {
                        self.origins.get(*row).is_some_and(|origin| {
                            matches!(
                                origin.side,
                                DiffSide::Old | DiffSide::New | DiffSide::Paired
                            )
                        })
                    })
                    .unwrap_or(*start)
            })
            .collect()
    }

    /// The hunk a row is in (the last one starting at or above it).
    pub fn hunk_of(&self, row: usize) -> Option<usize> {
        self.hunk_rows.iter().rposition(|start| *start <= row)
    }

    /// The nearest row to `row` (itself first, then below before above at the same distance)
    /// that shows a line of the change request inside a block, within `rows`.
    pub fn nearest_block_row(&self, row: usize, rows: std::ops::Range<usize>) -> Option<usize> {
        let has_block = |at: usize| {
            self.origins.get(at).is_some_and(|origin| {
                origin.side != DiffSide::Old && origin.block.is_some() && origin.new_line.is_some()
            })
        };
        let reach = rows.end.saturating_sub(rows.start);
        (0..=reach).find_map(|distance| {
            let below = row + distance;
            let above = row.checked_sub(distance);
            if rows.contains(&below) && has_block(below) {
                return Some(below);
            }
            above.filter(|at| rows.contains(at) && has_block(*at))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(view: &DiffView) -> Vec<String> {
        view.lines
            .iter()
            .map(|line| line.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn long_lines_wrap_between_words_and_break_only_a_word_longer_than_a_row() {
        let pieces = vec![
            (false, "an API token with the ".to_string()),
            (true, "`fleet:write`".to_string()),
            (false, " scope and one robot".to_string()),
        ];
        let style = Style::default();
        let rows: Vec<String> = wrap_pieces(&pieces, 16, style, style)
            .iter()
            .map(|row| row.iter().map(|span| span.content.as_ref()).collect())
            .collect();
        assert_eq!(
            rows,
            [
                "an API token ",
                "with the ",
                "`fleet:write` ",
                "scope and one ",
                "robot"
            ]
        );
        let long = vec![(false, "x".repeat(20))];
        let rows = wrap_pieces(&long, 8, style, style);
        assert_eq!(rows.len(), 3, "a word wider than a row is broken");
        // A link longer than a row breaks after a `/`, `-` or `#` in it, not in a word.
        let link = vec![(
            false,
            "(see [Authentication](rest-api-guide.md#authentication)) and".to_string(),
        )];
        let rows: Vec<String> = wrap_pieces(&link, 30, style, style)
            .iter()
            .map(|row| row.iter().map(|span| span.content.as_ref()).collect())
            .collect();
        assert_eq!(
            rows,
            [
                "(see [Authentication](rest-",
                "api-guide.md#authentication)) ",
                "and"
            ]
        );
        // The changed word keeps its own span, whatever row it lands on.
        let emphasized = wrap_pieces(&pieces, 16, style, Style::new().bold());
        assert!(
            emphasized[2]
                .iter()
                .any(|span| span.content == "`fleet:write`" && span.style == Style::new().bold())
        );
    }

    #[test]
    fn changed_words_are_marked_inside_a_changed_line() {
        let diff = diff_pages(
            "# Title\n\nTokens need the read scope.\n",
            "# Title\n\nTokens need the write scope.\n",
        );
        assert_eq!((diff.added, diff.removed), (1, 1));
        let changed: Vec<&(bool, String)> = diff.hunks[0]
            .lines
            .iter()
            .flat_map(|l| &l.pieces)
            .filter(|(emphasized, _)| *emphasized)
            .collect();
        let words: Vec<&str> = changed.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(words, ["read", "write"]);
    }

    #[test]
    fn unified_view_has_signs_numbers_and_hunk_rows() {
        let diff = diff_pages("a\nb\nc\n", "a\nB\nc\nd\n");
        let view = render(&diff, 60, false, &Theme::default());
        let text = plain(&view);
        assert_eq!(view.hunk_rows, [0]);
        assert!(text[0].starts_with("@@ -1 +1 @@"));
        assert!(text.iter().any(|l| l == "   2     -b"), "{text:#?}");
        assert!(text.iter().any(|l| l == "        2+B"), "{text:#?}");
        assert!(text.iter().any(|l| l.ends_with("+d")));
    }

    #[test]
    fn side_by_side_pairs_removed_with_added() {
        let diff = diff_pages("keep\nold line\n", "keep\nnew line\n");
        let view = render(&diff, 120, true, &Theme::default());
        let text = plain(&view);
        let paired = text.iter().find(|l| l.contains("old line")).unwrap();
        assert!(paired.contains("new line"), "{paired}");
        let narrow = render(&diff, 80, true, &Theme::default());
        assert!(
            plain(&narrow).iter().all(|l| !l.contains(" │ ")),
            "unified when narrow"
        );
    }

    #[test]
    fn every_row_has_an_origin_that_agrees_with_the_numbers_drawn() {
        let long = format!("{}\n", "word ".repeat(40));
        let diff = diff_pages("a\nb\nc\n", &format!("a\nB\nc\n{long}"));
        for (width, side_by_side) in [(60, false), (130, true)] {
            let view = render(&diff, width, side_by_side, &Theme::default());
            assert_eq!(view.origins.len(), view.lines.len());
            for (row, new_line) in view.new_lines.iter().enumerate() {
                if let Some(line) = new_line {
                    assert_eq!(view.origins[row].new_line, Some(*line), "{row}");
                }
            }
            for row in &view.hunk_rows {
                assert_eq!(view.origins[*row], DiffRowOrigin::default());
            }
        }
    }

    #[test]
    fn created_and_deleted_pages_diff_against_nothing() {
        let created = diff_pages("", "# New\n\nText\n");
        assert_eq!((created.added, created.removed), (3, 0));
        let deleted = diff_pages("# Old\n", "");
        assert_eq!((deleted.added, deleted.removed), (0, 1));
    }

    #[test]
    fn no_row_is_wider_than_the_view_and_hostile_text_is_sanitized() {
        let long = format!("{}\u{1b}[2J日本語\n", "word ".repeat(100));
        let diff = diff_pages("short\n", &long);
        for width in [1u16, 20, 80, 121, 200] {
            for side in [false, true] {
                let view = render(&diff, width, side, &Theme::default());
                for line in &view.lines {
                    assert!(
                        line.width() <= (width as usize).max(12),
                        "{width}: {}",
                        line.width()
                    );
                    assert!(!line.spans.iter().any(|s| s.content.contains('\u{1b}')));
                }
            }
        }
    }
}

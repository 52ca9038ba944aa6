//! What each row of the laid-out diff shows: the page, the side, the line numbers, and the
//! document block the line belongs to (see [`crate::ui::diff::DiffRowOrigin`]), so a cursor on
//! a row knows which block a comment there is about.
//!
//! Lines map to blocks as the thread markers do (see [`super::diff_threads`]): each version's
//! markdown is cut into blocks by [`markdown_blocks`], and the n-th block of the change
//! request's version is the n-th `key` of its document. Main's version has no keys here, so
//! its blocks are known by their place only.

use super::diff_threads::markdown_blocks;
use crate::ui::diff::{self, DiffBlock, PageDiff};

/// Which block each line of one version of a page is in.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct LineBlocks {
    /// By 0-based line index: the block's index, None for a line between blocks.
    of_line: Vec<Option<usize>>,
    /// The document's block keys, in order; empty when unknown.
    keys: Vec<String>,
}

impl LineBlocks {
    pub(super) fn new(markdown: &str, keys: &[String]) -> LineBlocks {
        let mut of_line = vec![None; markdown.lines().count()];
        for (index, (first, last)) in markdown_blocks(markdown).into_iter().enumerate() {
            for line in first..=last {
                if let Some(slot) = of_line.get_mut(line - 1) {
                    *slot = Some(index);
                }
            }
        }
        LineBlocks {
            of_line,
            keys: keys.to_vec(),
        }
    }

    /// The block of a 1-based line number, with its key when the document gave one.
    pub(super) fn block(&self, line: usize) -> Option<DiffBlock> {
        let index = (*self.of_line.get(line.checked_sub(1)?)?)?;
        Some(DiffBlock {
            index,
            node: self.keys.get(index).cloned(),
        })
    }
}

/// The diff of one page, `old` against `new`, whose lines know their page and blocks.
/// `new_keys` are the change request side's block keys.
pub(super) fn page_diff(page: &str, old: &str, new: &str, new_keys: &[String]) -> PageDiff {
    let mut page_diff = diff::diff_pages(old, new);
    let old_blocks = LineBlocks::new(old, &[]);
    let new_blocks = LineBlocks::new(new, new_keys);
    page_diff.locate(
        page,
        |line| old_blocks.block(line),
        |line| new_blocks.block(line),
    );
    page_diff
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screens::change_requests::review::diff_threads::{Placement, decorate};
    use crate::ui::diff::{DiffRowOrigin, DiffSide, DiffView, render};
    use crate::ui::theme::Theme;

    /// A change to two pages: one created, one edited (a word changed, a line added).
    const CREATED: (&str, &str, &str) = ("page-start", "", "# Start\n\nRun it.\n");
    const EDITED: (&str, &str, &str) = (
        "page-tokens",
        "# Tokens\n\nTokens need the read scope.\n\nKeep them secret.\n",
        "# Tokens\n\nTokens need the write scope.\n\nKeep them secret.\nRotate them yearly.\n",
    );

    fn keys(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| name.to_string()).collect()
    }

    fn lay_out(page: (&str, &str, &str), keys: &[String], side_by_side: bool) -> DiffView {
        let (id, old, new) = page;
        let width = if side_by_side { 140 } else { 80 };
        render(
            &page_diff(id, old, new, keys),
            width,
            side_by_side,
            &Theme::default(),
        )
    }

    fn text(view: &DiffView, row: usize) -> String {
        view.lines[row]
            .spans
            .iter()
            .map(|span| span.content.as_ref())
            .collect()
    }

    /// The origin of the one row whose text contains `needle`.
    fn origin_of<'a>(view: &'a DiffView, needle: &str) -> &'a DiffRowOrigin {
        let rows: Vec<usize> = (0..view.lines.len())
            .filter(|row| text(view, *row).contains(needle))
            .collect();
        assert_eq!(rows.len(), 1, "{needle}: {rows:?}");
        view.origin(rows[0]).unwrap()
    }

    fn block(index: usize, node: Option<&str>) -> Option<DiffBlock> {
        Some(DiffBlock {
            index,
            node: node.map(str::to_string),
        })
    }

    #[test]
    fn each_row_of_a_two_page_change_says_what_it_shows() {
        let created = lay_out(CREATED, &keys(&["s-title", "s-run"]), false);
        let edited_keys = keys(&["t-title", "t-scope", "t-secret"]);
        let edited = lay_out(EDITED, &edited_keys, false);
        assert_eq!(created.origins.len(), created.lines.len());
        assert_eq!(edited.origins.len(), edited.lines.len());
        assert!(
            created
                .origins
                .iter()
                .all(|origin| origin.page.as_deref() == Some("page-start"))
        );
        assert!(
            edited
                .origins
                .iter()
                .all(|origin| origin.page.as_deref() == Some("page-tokens"))
        );

        // A hunk header: the page, and nothing else.
        assert!(text(&edited, edited.hunk_rows[0]).starts_with("@@"));
        assert_eq!(
            edited.origin(edited.hunk_rows[0]),
            Some(&DiffRowOrigin {
                page: Some("page-tokens".into()),
                side: DiffSide::None,
                old_line: None,
                new_line: None,
                block: None,
            })
        );
        // An added line: the change request's line, in the block its document names.
        let added = origin_of(&edited, "write scope");
        assert_eq!(added.side, DiffSide::New);
        assert_eq!((added.old_line, added.new_line), (None, Some(3)));
        assert_eq!(added.block, block(1, Some("t-scope")));
        let appended = origin_of(&edited, "Rotate them");
        assert_eq!((appended.side, appended.new_line), (DiffSide::New, Some(6)));
        assert_eq!(appended.block, block(2, Some("t-secret")), "same paragraph");
        // A removed line: main's line, in main's block of that place (main has no keys).
        let removed = origin_of(&edited, "read scope");
        assert_eq!(removed.side, DiffSide::Old);
        assert_eq!((removed.old_line, removed.new_line), (Some(3), None));
        assert_eq!(removed.block, block(1, None));
        // A context line: both lines, and the change request's block.
        let context = origin_of(&edited, "Keep them secret.");
        assert_eq!(context.side, DiffSide::Both);
        assert_eq!((context.old_line, context.new_line), (Some(5), Some(5)));
        assert_eq!(context.block, block(2, Some("t-secret")));
        // A blank line between blocks: both lines, no block.
        let blank = (0..edited.lines.len())
            .find(|row| text(&edited, *row) == "   4    4 ")
            .and_then(|row| edited.origin(row))
            .unwrap();
        assert_eq!(blank.side, DiffSide::Both);
        assert_eq!((blank.old_line, blank.new_line), (Some(4), Some(4)));
        assert_eq!(blank.block, None);
        // The created page: every line is added, in its own blocks.
        let run = origin_of(&created, "Run it.");
        assert_eq!((run.side, run.new_line), (DiffSide::New, Some(3)));
        assert_eq!(run.block, block(1, Some("s-run")));
    }

    #[test]
    fn side_by_side_rows_pair_the_removed_line_with_the_one_replacing_it() {
        let view = lay_out(EDITED, &keys(&["t-title", "t-scope", "t-secret"]), true);
        assert_eq!(view.origins.len(), view.lines.len());
        assert_eq!(view.origin(view.hunk_rows[0]).unwrap().side, DiffSide::None);
        let paired = origin_of(&view, "read scope");
        assert_eq!(
            paired,
            origin_of(&view, "write scope"),
            "one row, both lines"
        );
        assert_eq!(paired.side, DiffSide::Paired);
        assert_eq!((paired.old_line, paired.new_line), (Some(3), Some(3)));
        assert_eq!(paired.block, block(1, Some("t-scope")));
        let alone = origin_of(&view, "Rotate them");
        assert_eq!((alone.side, alone.old_line), (DiffSide::New, None));
        let context = origin_of(&view, "# Tokens");
        assert_eq!(context.side, DiffSide::Both);
        assert_eq!(context.block, block(0, Some("t-title")));
    }

    #[test]
    fn the_row_of_threads_on_the_whole_page_shows_no_line() {
        let edited_keys = keys(&["t-title", "t-scope", "t-secret"]);
        let mut view = lay_out(EDITED, &edited_keys, false);
        let placement = Placement::new(EDITED.2, &edited_keys);
        let threads = [(0, None, false), (1, Some("t-scope".to_string()), false)];
        let page = Some("page-tokens".into());
        decorate(
            &mut view,
            page.as_ref(),
            &placement,
            &threads,
            &[],
            &Theme::default(),
        );
        assert_eq!(view.origins.len(), view.lines.len());
        assert!(text(&view, 0).contains("on the page as a whole"));
        assert_eq!(
            view.origin(0),
            Some(&DiffRowOrigin::header(Some(&"page-tokens".into())))
        );
        assert_eq!(view.origin(view.hunk_rows[0]).unwrap().side, DiffSide::None);
        assert_eq!(origin_of(&view, "write scope").new_line, Some(3));
    }

    #[test]
    fn a_comment_waiting_in_the_outbox_is_marked_on_its_block() {
        let edited_keys = keys(&["t-title", "t-scope", "t-secret"]);
        let mut view = lay_out(EDITED, &edited_keys, false);
        let placement = Placement::new(EDITED.2, &edited_keys);
        let threads = [(0, Some("t-title".to_string()), false)];
        let queued = ["t-scope".to_string(), "t-title".to_string()];
        decorate(
            &mut view,
            None,
            &placement,
            &threads,
            &queued,
            &Theme::default(),
        );
        let row_with = |words: &str| {
            let row = (0..view.lines.len())
                .find(|row| text(&view, *row).contains(words))
                .expect("the line");
            text(&view, row)
        };
        let scope = row_with("write scope");
        assert!(scope.starts_with(" ◷ "), "{scope}");
        // A block with a thread and a queued comment says both.
        let title = row_with("# Tokens");
        assert!(title.starts_with(" ◷1"), "{title}");
    }
}

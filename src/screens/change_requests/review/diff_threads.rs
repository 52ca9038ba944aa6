//! Comment threads on the diff: a marker in the gutter beside the block a thread is about,
//! `m` to go from a marker to its thread on the comments tab and back, and `c` to start a
//! thread on the line the diff's cursor (`›`, the first line at the top of the view) is on.
//!
//! How lines map to blocks: a thread names a block of the page by its document `key`
//! (`target.node.id`). The page's document format lists its top-level blocks in order; the
//! markdown of the same page is cut into blocks by the same rules (a heading line, a fenced
//! code block, a run of non-blank lines), and the n-th markdown block is the n-th document
//! block. A thread whose block is unknown, or outside the lines the diff shows, or that has
//! no block at all, sits in a row at the top of its page's diff.

use std::sync::Arc;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{ComposeTarget, ReviewScreen, ReviewTab, ThreadFilter};
use crate::screens::step::Ctx;
use crate::ui::diff::{DiffRowOrigin, DiffView};
use crate::ui::theme::Theme;
use crate::vocabulary::Cmd;

/// Columns the gutter of markers takes before each diff row: the cursor and `▌N`.
pub const MARK_WIDTH: u16 = 3;

/// The blocks of a page's markdown as inclusive ranges of 1-based line numbers.
pub fn markdown_blocks(markdown: &str) -> Vec<(usize, usize)> {
    let mut blocks = Vec::new();
    let mut open: Option<usize> = None;
    let mut in_code: Option<usize> = None;
    for (index, line) in markdown.lines().enumerate() {
        let number = index + 1;
        if let Some(start) = in_code {
            if is_fence(line) {
                blocks.push((start, number));
                in_code = None;
            }
            continue;
        }
        if is_fence(line) {
            close(&mut blocks, &mut open, number);
            in_code = Some(number);
        } else if is_heading(line) {
            close(&mut blocks, &mut open, number);
            blocks.push((number, number));
        } else if line.trim().is_empty() {
            close(&mut blocks, &mut open, number);
        } else if open.is_none() {
            open = Some(number);
        }
    }
    let end = markdown.lines().count();
    if let Some(start) = in_code {
        blocks.push((start, end));
    }
    close(&mut blocks, &mut open, end + 1);
    blocks
}

fn close(blocks: &mut Vec<(usize, usize)>, open: &mut Option<usize>, next: usize) {
    if let Some(start) = open.take() {
        blocks.push((start, next.saturating_sub(1).max(start)));
    }
}

fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

fn is_heading(line: &str) -> bool {
    let level = line.chars().take_while(|c| *c == '#').count();
    (1..=6).contains(&level) && line[level..].starts_with(' ')
}

/// Which block each line of the change request's side of one page belongs to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placement {
    /// In page order.
    blocks: Vec<PlacedBlock>,
}

#[derive(Debug, Clone, PartialEq)]
struct PlacedBlock {
    first: usize,
    last: usize,
    /// The document's key of the block; None past the keys the document gave.
    key: Option<String>,
    /// The block in words, for a composer's title.
    words: String,
}

impl Placement {
    pub fn new(markdown: &str, keys: &[String]) -> Placement {
        let lines: Vec<&str> = markdown.lines().collect();
        let blocks = markdown_blocks(markdown)
            .into_iter()
            .enumerate()
            .map(|(index, (first, last))| PlacedBlock {
                first,
                last,
                key: keys.get(index).cloned(),
                words: describe_block(lines.get(first - 1..last).unwrap_or_default()),
            })
            .collect();
        Placement { blocks }
    }

    fn block_at(&self, line: usize) -> Option<&PlacedBlock> {
        self.blocks
            .iter()
            .find(|block| (block.first..=block.last).contains(&line))
    }

    /// Each block with a key, in words.
    pub fn keyed_words(&self) -> impl Iterator<Item = (&str, &str)> {
        self.blocks
            .iter()
            .filter_map(|block| Some((block.key.as_deref()?, block.words.as_str())))
    }

    /// The block key of a line, when the line is inside a known block.
    pub fn node_at(&self, line: usize) -> Option<&str> {
        self.block_at(line)?.key.as_deref()
    }

    pub fn lines_of(&self, node: &str) -> Option<(usize, usize)> {
        self.blocks
            .iter()
            .find(|block| block.key.as_deref() == Some(node))
            .map(|block| (block.first, block.last))
    }

    /// The first line of the block holding `line`.
    pub fn first_line_of(&self, line: usize) -> Option<usize> {
        Some(self.block_at(line)?.first)
    }

    /// The block holding `line` in words ("the paragraph 'Tokens carry…'"), or "line N".
    pub fn describe(&self, line: usize) -> String {
        self.block_at(line)
            .map(|block| block.words.clone())
            .unwrap_or_else(|| format!("line {line}"))
    }
}

/// Characters of a block's text a composer's title quotes.
const QUOTED_WIDTH: usize = 28;

/// A block of markdown in words: its kind and the start of its text.
pub fn describe_block(lines: &[&str]) -> String {
    let Some(first) = lines.iter().map(|line| line.trim()).find(|l| !l.is_empty()) else {
        return "an empty block".to_string();
    };
    let quote = |text: &str| {
        let text = crate::ui::sanitize::sanitize(text.trim());
        format!("'{}'", crate::ui::text::truncate(&text, QUOTED_WIDTH))
    };
    if let Some(language) = first.strip_prefix("```") {
        let language = crate::ui::sanitize::sanitize(language.trim());
        return match language.is_empty() {
            true => "the code block".to_string(),
            false => format!("the {language} code block"),
        };
    }
    if is_heading(first) {
        return format!("the heading {}", quote(first.trim_start_matches('#')));
    }
    if let Some(tag) = first.strip_prefix("{%") {
        // A GitBook block ({% hint %}, {% tabs %}…): its name, then its first line of text.
        let name = tag.split_whitespace().next().unwrap_or("block");
        let text = lines
            .iter()
            .map(|line| line.trim())
            .find(|line| !line.is_empty() && !line.starts_with("{%"));
        let name = crate::ui::sanitize::sanitize(name);
        return match text {
            Some(text) => format!("the {name} {}", quote(text)),
            None => format!("the {name} block"),
        };
    }
    let (kind, text) = if let Some(item) = list_item(first) {
        ("list", item)
    } else if let Some(quoted) = first.strip_prefix('>') {
        ("quote", quoted)
    } else if first.starts_with('|') {
        ("table", first.trim_matches('|'))
    } else {
        ("paragraph", first)
    };
    format!("the {kind} {}", quote(text))
}

/// The text of a list item's line ("- x", "* x", "+ x", "3. x"), None for other lines.
fn list_item(line: &str) -> Option<&str> {
    for bullet in ["- ", "* ", "+ "] {
        if let Some(rest) = line.strip_prefix(bullet) {
            return Some(rest);
        }
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    (digits > 0)
        .then(|| line[digits..].strip_prefix(". "))
        .flatten()
}

/// Where the threads of the page on screen were drawn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DiffMarks {
    /// Rows of the diff that carry a marker, with the threads (indices) there, in row order.
    pub rows: Vec<(usize, Vec<usize>)>,
}

impl DiffMarks {
    pub fn threads_at(&self, row: usize) -> Option<&[usize]> {
        self.rows
            .iter()
            .find(|(at, _)| *at == row)
            .map(|(_, threads)| threads.as_slice())
    }

    pub fn row_of(&self, thread: usize) -> Option<usize> {
        self.rows
            .iter()
            .find(|(_, threads)| threads.contains(&thread))
            .map(|(row, _)| *row)
    }
}

/// The diff-threads part of the review screen's state.
#[derive(Debug, Clone, Default)]
pub struct DiffThreads {
    pub placement: Placement,
    pub marks: DiffMarks,
    /// A thread to scroll to once its page's diff has loaded (`m` from the comments tab).
    pub landing: Option<String>,
    /// Every block seen in words, by page and block key, so that the comments tab can say
    /// which block of a page a thread is on once that page's text was read.
    pub block_words: std::collections::HashMap<(String, String), String>,
    /// Every table block seen, by page and block key, for a comment on one of its cells and
    /// for saying which cell a thread is on.
    pub tables:
        std::collections::HashMap<(String, String), crate::api::models::revision::TableShape>,
}

/// "▌3" for three threads, "▌+" for ten or more: two cells whatever the count.
fn marker(count: usize) -> String {
    match count {
        0 => "  ".to_string(),
        1..=9 => format!("▌{count}"),
        _ => "▌+".to_string(),
    }
}

/// "◷ " where a comment waits in the outbox, "◷3" when three threads are there too: two
/// cells, like [`marker`].
fn queued_marker(threads: usize) -> String {
    match threads {
        0 => "◷ ".to_string(),
        1..=9 => format!("◷{threads}"),
        _ => "◷+".to_string(),
    }
}

/// The first row of `view` showing a line of the block `node`.
fn row_of_block(view: &DiffView, placement: &Placement, node: Option<&str>) -> Option<usize> {
    let (first, last) = placement.lines_of(node?)?;
    view.new_lines
        .iter()
        .position(|line| line.is_some_and(|line| (first..=last).contains(&line)))
}

/// Puts the marker gutter before every row of `view` and, when some threads have no line
/// shown, a row at the top of `page` saying so. `threads` are (thread index, node, resolved);
/// `queued` are the blocks of comments waiting in the outbox, marked `◷`.
pub fn decorate(
    view: &mut DiffView,
    page: Option<&Arc<str>>,
    placement: &Placement,
    threads: &[(usize, Option<String>, bool)],
    queued: &[String],
    theme: &Theme,
) -> DiffMarks {
    let mut at_row: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut on_page = Vec::new();
    let queued_rows: Vec<usize> = queued
        .iter()
        .filter_map(|node| row_of_block(view, placement, Some(node)))
        .collect();
    for (thread, node, _) in threads {
        let row = row_of_block(view, placement, node.as_deref());
        match row {
            Some(row) => match at_row.iter_mut().find(|(at, _)| *at == row) {
                Some((_, list)) => list.push(*thread),
                None => at_row.push((row, vec![*thread])),
            },
            None => on_page.push(*thread),
        }
    }
    let resolved = |list: &[usize]| {
        list.iter().all(|thread| {
            threads
                .iter()
                .any(|(index, _, resolved)| index == thread && *resolved)
        })
    };
    let style = |list: &[usize]| {
        if resolved(list) {
            theme.style("muted")
        } else {
            theme.style("accent")
        }
    };
    let lines = std::mem::take(&mut view.lines);
    for (row, line) in lines.into_iter().enumerate() {
        let here = at_row.iter().find(|(at, _)| *at == row);
        let (text, mark_style) = match here {
            _ if queued_rows.contains(&row) => (
                queued_marker(here.map_or(0, |(_, list)| list.len())),
                theme.style("warning"),
            ),
            Some((_, list)) => (marker(list.len()), style(list)),
            None => (marker(0), Style::default()),
        };
        let mut spans = vec![Span::raw(" "), Span::styled(text, mark_style)];
        spans.extend(line.spans);
        view.lines.push(Line::from(spans));
    }
    let mut rows = at_row;
    if !on_page.is_empty() {
        let text = format!(
            " {} on the page as a whole",
            crate::ui::time::plural(on_page.len(), "thread", "threads")
        );
        view.lines.insert(
            0,
            Line::from(vec![
                Span::raw(" "),
                Span::styled(marker(on_page.len()), style(&on_page)),
                Span::styled(text, theme.style("muted")),
            ]),
        );
        view.new_lines.insert(0, None);
        view.origins.insert(0, DiffRowOrigin::header(page));
        for row in &mut view.hunk_rows {
            *row += 1;
        }
        for (row, _) in &mut rows {
            *row += 1;
        }
        rows.push((0, on_page));
    }
    rows.sort_by_key(|(row, _)| *row);
    DiffMarks { rows }
}

/// Marks the row the cursor is on among the visible rows (0-based): `›` in the gutter, and
/// its line numbers in the selection's colours, seen without colour too.
pub fn draw_cursor(visible: &mut [Line<'static>], cursor: Option<usize>, theme: &Theme) {
    let Some(line) = cursor.and_then(|row| visible.get_mut(row)) else {
        return;
    };
    if let Some(first) = line.spans.first_mut() {
        *first = Span::styled("›", theme.style("accent"));
    }
    // After the cursor and the marker: the line numbers (or a header's text).
    if let Some(numbers) = line.spans.get_mut(2) {
        numbers.style = numbers.style.patch(theme.style("selection"));
    }
}

impl ReviewScreen {
    /// The page's threads on the diff, once the diff was laid out again.
    pub fn decorate_diff(&mut self, theme: &Theme) {
        let Some(view) = self.diff_view.as_mut() else {
            return;
        };
        let Some(page) = self.sides_page.as_deref() else {
            return;
        };
        let threads: Vec<(usize, Option<String>, bool)> = self
            .bundle
            .value()
            .map(|bundle| {
                bundle
                    .threads
                    .iter()
                    .enumerate()
                    .filter(|(_, thread)| {
                        thread.comment.target.page.as_ref().map(|p| p.id.as_str()) == Some(page)
                    })
                    .map(|(index, thread)| {
                        (
                            index,
                            thread.comment.target.node.as_ref().map(|n| n.id.clone()),
                            thread.comment.is_resolved(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let queued: Vec<String> = self
            .queued
            .iter()
            .filter_map(|queued| match &queued.write {
                crate::api::outbox::Write::Comment {
                    page: Some(on),
                    node: Some(node),
                    ..
                } if on == page => Some(node.clone()),
                _ => None,
            })
            .collect();
        let page = self.page_diff.as_ref().and_then(|diff| diff.page.as_ref());
        self.diff_threads.marks = decorate(
            view,
            page,
            &self.diff_threads.placement,
            &threads,
            &queued,
            theme,
        );
    }

    /// The row `c` and `m` act on: the diff's cursor.
    pub fn cursor_row(&self, _ctx: &Ctx) -> Option<usize> {
        self.cursor_row_now()
    }

    /// [`Self::cursor_row`], for a view of any height (the cursor does not depend on it).
    pub fn cursor_row_in(&self, _height: usize) -> Option<usize> {
        self.cursor_row_now()
    }

    /// `c` on the changes tab: a thread on the block of the line under the cursor (or the
    /// nearest block, saying why), else on the selected page.
    pub fn comment_target_here(&self, _ctx: &Ctx) -> ComposeTarget {
        let page = self.selected_page().map(|p| p.page.clone());
        let spot = self.comment_spot();
        match (page, spot) {
            (Some(page), Some(spot)) if self.sides_page.as_deref() == Some(page.as_str()) => {
                ComposeTarget::BlockComment {
                    node: spot.node,
                    page,
                    line: spot.line,
                    about: spot.about,
                    note: spot.note,
                    cell: None,
                }
            }
            (page, _) => ComposeTarget::NewComment { page },
        }
    }

    /// `m` on the changes tab: the first thread marked in view, selected on the comments tab.
    pub fn show_thread_of_diff(&mut self, ctx: &Ctx) {
        let view_rows = self.diff_height(ctx);
        let in_view = self.diff_scroll..self.diff_scroll + view_rows;
        let cursor = self.cursor_row_now().unwrap_or(self.diff_scroll);
        // The marker nearest the cursor among those shown.
        let thread = self
            .diff_threads
            .marks
            .rows
            .iter()
            .filter(|(row, _)| in_view.contains(row))
            .min_by_key(|(row, _)| row.abs_diff(cursor))
            .and_then(|(_, threads)| threads.first().copied());
        let Some(thread) = thread else {
            self.notice(
                "No thread on the lines shown: ▌ in the gutter marks where threads are.",
                false,
            );
            return;
        };
        self.select_thread(thread);
        self.tab = ReviewTab::Comments;
    }

    /// Selects a thread's first row on the comments tab, showing every thread if the filter
    /// or the query hid it.
    pub fn select_thread(&mut self, thread: usize) {
        let find = |screen: &ReviewScreen| {
            screen
                .rows()
                .iter()
                .position(|row| row.thread == thread && row.reply.is_none())
        };
        if find(self).is_none() {
            self.thread_filter = ThreadFilter::All;
            self.comment_query = Default::default();
            self.author_filter = None;
        }
        if let Some(index) = find(self) {
            self.comment_selection.selected = index;
        }
    }

    /// `m` on the comments tab: the selected thread's page on the changes tab, its line in
    /// view once the diff is there.
    pub fn show_thread_in_diff(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(row) = self.selected_row() else {
            return Cmd::None;
        };
        let Some(thread) = self.threads().get(row.thread) else {
            return Cmd::None;
        };
        let id = thread.comment.id.clone();
        let Some(page) = thread.comment.target.page.as_ref().map(|p| p.id.clone()) else {
            self.notice(
                "This thread is about the change request as a whole, not a page.",
                false,
            );
            return Cmd::None;
        };
        let Some(index) = self.pages.iter().position(|p| p.page == page) else {
            self.notice(
                "This thread is on a page the change request does not change.",
                false,
            );
            return Cmd::None;
        };
        self.tab = ReviewTab::Changes;
        self.rendered = false;
        self.page_selection.selected = index;
        self.diff_threads.landing = Some(id);
        if self.sides_page.as_deref() == Some(page.as_str()) && self.diff_view.is_some() {
            self.land_on_thread(ctx);
            return Cmd::None;
        }
        self.follow_page(ctx, false)
    }

    /// Once the diff of the page `m` went to is laid out: its thread's row in view.
    pub fn land_on_thread(&mut self, ctx: &Ctx) {
        let Some(id) = self.diff_threads.landing.take() else {
            return;
        };
        let Some(thread) = self.threads().iter().position(|t| t.comment.id == id) else {
            return;
        };
        let Some(row) = self.diff_threads.marks.row_of(thread) else {
            return;
        };
        // At the top, under the cursor, even near the end of the diff (the rows below are
        // blank then): `c` comments right there.
        let _ = ctx;
        self.diff_scroll = row;
        self.diff_cursor = row;
        self.current_hunk = None;
    }

    /// The composer's titles for a comment on a block, longest first: the block in words,
    /// the page and the line it starts on; then without the quoted excerpt, without the page,
    /// and at last just the line.
    pub fn line_comment_titles(&self, line: usize, node: Option<&str>, about: &str) -> Vec<String> {
        let page = self
            .selected_page()
            .map(|p| crate::ui::sanitize::sanitize(&p.title).into_owned())
            .unwrap_or_default();
        let mut titles = match node {
            Some(_) => {
                let kind = without_excerpt(about);
                vec![
                    format!("Comment on {about} · {page}, line {line}"),
                    format!("Comment on {kind} · {page}, line {line}"),
                    format!("Comment on {kind}, line {line}"),
                    format!("Comment on line {line}"),
                ]
            }
            None => vec![
                format!("Comment on {page} (near line {line})"),
                format!("Comment near line {line}"),
            ],
        };
        titles.dedup();
        titles
    }
}

/// "the paragraph 'Tokens carry…'" without its quote: "the paragraph".
fn without_excerpt(about: &str) -> &str {
    match about.split_once(" '") {
        Some((kind, _)) if about.ends_with('\'') => kind,
        _ => about,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::models::revision::block_keys;

    #[test]
    fn blocks_follow_headings_code_and_paragraphs() {
        let markdown =
            "# Title\n\nFirst line\nsecond line\n\n```sh\ncode\n\nmore\n```\n## Next\ntext\n";
        assert_eq!(
            markdown_blocks(markdown),
            [(1, 1), (3, 4), (6, 10), (11, 11), (12, 12)]
        );
    }

    #[test]
    fn lines_map_to_the_document_blocks_in_order() {
        let markdown = "# A\ntext right under\n\n- one\n- two\n\n```\nx\n```\n### C\n";
        let document = serde_json::json!({"object": "document", "nodes": [
            {"object": "block", "key": "k0"}, {"object": "block", "key": "k1"},
            {"object": "block", "key": "k2"}, {"object": "block", "key": "k3"},
            {"object": "block", "key": "k4"}]});
        let keys = block_keys(&document);
        assert_eq!(keys.len(), markdown_blocks(markdown).len());
        let placement = Placement::new(markdown, &keys);
        assert_eq!(placement.node_at(2), Some("k1"));
        assert_eq!(placement.node_at(5), Some("k2"));
        assert_eq!(placement.node_at(3), None, "a blank line is in no block");
        assert_eq!(placement.lines_of("k3"), Some((7, 9)));
        assert_eq!(placement.lines_of("nope"), None);
    }

    #[test]
    fn the_excerpt_is_the_quoted_end_of_a_block_in_words() {
        assert_eq!(
            without_excerpt("the paragraph 'Tokens carry…'"),
            "the paragraph"
        );
        assert_eq!(without_excerpt("the heading 'It's here'"), "the heading");
        assert_eq!(
            without_excerpt("the bash code block"),
            "the bash code block"
        );
        assert_eq!(without_excerpt("line 4"), "line 4");
    }

    #[test]
    fn markers_are_two_cells_whatever_the_count() {
        for count in [0, 1, 9, 10, 500] {
            assert_eq!(crate::ui::text::width(&marker(count)), 2, "{count}");
            assert_eq!(crate::ui::text::width(&queued_marker(count)), 2, "{count}");
        }
    }
}

//! Markdown to styled terminal lines.
//!
//! A page is parsed once per version into width-independent blocks ([`MarkdownDoc::parse`]),
//! optionally re-coloured by syntect off the UI thread ([`MarkdownDoc::highlighted`]), and
//! wrapped per terminal width ([`MarkdownDoc::layout`]). Parsing never runs per frame.
//!
//! Every string taken from the page goes through [`crate::sanitize::sanitize`] before it
//! becomes a piece of a line, so a page can never drive the terminal.

mod build;
pub mod docs;
mod gitbook;
mod highlight;
mod layout;
mod links;
mod preview;
mod store;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use ratatui::style::Style;
use ratatui::text::Line;

pub use crate::code_colours::ColorDepth;
use crate::theme::Theme;

pub use highlight::worker as highlight_worker;
pub use highlight::{
    CodeTheme, grammar_ready, release_free_memory, syntax_set_in_memory, warm_common_grammars,
    warm_syntax_set,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    pub color_depth: ColorDepth,
    /// The longest syntect may spend on one code block before it is shown plain.
    pub highlight_budget: Duration,
    /// The syntect theme code is coloured with (the quire theme's `[code] theme`).
    pub code_theme: CodeTheme,
    /// False under `NO_COLOR`: code is not highlighted at all, since its colours would only be
    /// thrown away at output.
    pub highlight: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            color_depth: ColorDepth::Ansi16,
            highlight_budget: Duration::from_millis(50),
            code_theme: CodeTheme::default(),
            highlight: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    pub level: u8,
    pub text: String,
}

/// A parsed page: blocks that do not depend on the terminal width yet, in compact form (one
/// text buffer, interned styles).
#[derive(Clone, Debug)]
pub struct MarkdownDoc {
    store: store::BlockStore,
    headings: Vec<Heading>,
    /// The block that holds each heading's text, in `headings` order.
    heading_blocks: Vec<usize>,
    code_blocks: Vec<CodeBlock>,
    code_style: Style,
    /// False for a preview parsed from the start of a page only ([`MarkdownDoc::parse_preview`]).
    complete: bool,
    /// The page's links in reading order.
    links: Vec<DocLink>,
    /// The style link text is drawn in, to find the links in a layout.
    link_style: Style,
}

/// A link written on a page: its text as shown (sanitized) and where it goes (as written, not
/// sanitized: it is resolved, never drawn as is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocLink {
    pub text: String,
    pub destination: String,
}

/// A page wrapped to one width, as ratatui lines: for short texts (comments, the composer's
/// preview). Pages are kept as a [`PageLayout`], which is far smaller.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DocLayout {
    pub lines: Vec<Line<'static>>,
    /// The row of each heading, in [`MarkdownDoc::headings`] order.
    pub heading_rows: Vec<usize>,
    pub width: u16,
}

/// A match of a search in a laid-out page, in terminal cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextMatch {
    pub row: usize,
    pub start: u16,
    pub end: u16,
}

/// The most rows a page may lay out to; beyond it a "page truncated" line ends the page.
pub const MAX_ROWS: usize = 200_000;

impl MarkdownDoc {
    /// Parse once per page version. Fast: code blocks are plain (no syntect) here.
    pub fn parse(markdown: &str, theme: &Theme) -> MarkdownDoc {
        build::build(markdown, theme)
    }

    /// Returns a copy with fenced code highlighted by syntect (slow; the app runs it off the
    /// UI thread). A block that takes longer than the budget, or makes syntect panic, stays
    /// plain.
    pub fn highlighted(&self, _theme: &Theme, options: &RenderOptions) -> MarkdownDoc {
        if !options.highlight {
            return self.clone();
        }
        let jobs: Vec<highlight::Job> = self
            .code_blocks
            .iter()
            .map(|code| highlight::Job {
                language: code.language.clone(),
                lines: (code.first_block..code.first_block + code.line_count)
                    .map(|index| self.block_text(index))
                    .collect(),
                theme: options.code_theme,
            })
            .collect();
        let mut doc = self.clone();
        // Each block is restyled as soon as it is coloured and its tokens dropped: a page with
        // hundreds of blocks never holds all their tokens at once.
        // A preview's page is likely opened next: its worker waits for it longer.
        let worker_idle = if self.complete {
            highlight_worker::IDLE_EXIT
        } else {
            highlight_worker::IDLE_EXIT_AFTER_PREVIEW
        };
        let budget = options.highlight_budget;
        highlight::highlight_each(jobs, budget, worker_idle, |index, lines| {
            let Some(code) = self.code_blocks.get(index) else {
                return;
            };
            for (offset, tokens) in lines.into_iter().enumerate() {
                let styles = tokens.iter().map(|token| {
                    let style = highlight::token_style(token, self.code_style, options.color_depth);
                    (token.text.as_str(), style)
                });
                if !doc.restyle_code_line(code.first_block + offset, styles) {
                    break;
                }
            }
        });
        doc.store.shrink_to_fit();
        // Highlighting a big page frees tens of MB of tokens and worker memory.
        highlight::release_free_memory();
        doc
    }

    /// Replaces a code line's single run by runs over the same text, one per highlighted
    /// token (tokens are consecutive pieces of the line). False past the last block.
    fn restyle_code_line<'t>(
        &mut self,
        index: usize,
        tokens: impl Iterator<Item = (&'t str, Style)>,
    ) -> bool {
        let Some(block) = self.store.blocks.get(index) else {
            return false;
        };
        let store::StoredBody::Text { runs, .. } = &block.body else {
            return true;
        };
        let runs = self.store.text_runs(index, *runs);
        let buffer = &mut self.store.buffer;
        let [line] = buffer.runs(runs) else {
            return true;
        };
        let line = *line;
        let line_text_length = buffer.run_text(line).len();
        let first = buffer.run_count();
        let mut at = 0;
        for (text, style) in tokens {
            // The tokens cover the line in order; anything else keeps the line plain.
            if buffer.run_text(line).get(at..at + text.len()) != Some(text) {
                return true;
            }
            buffer.push_subrun(line, at, at + text.len(), style);
            at += text.len();
        }
        if at == line_text_length {
            let coloured = store::Runs::new(first, buffer.run_count());
            self.store.restyle(index, coloured);
        }
        true
    }

    /// The plain text of a text block.
    fn block_text(&self, index: usize) -> String {
        match self.store.blocks.get(index).map(|block| &block.body) {
            Some(store::StoredBody::Text { runs, .. }) => {
                self.store.buffer.plain(self.store.text_runs(index, *runs))
            }
            _ => String::new(),
        }
    }

    pub fn headings(&self) -> &[Heading] {
        &self.headings
    }

    /// The links written on the page, in reading order.
    pub fn links(&self) -> &[DocLink] {
        &self.links
    }

    /// Where this page's links are in `layout` (a layout of this page).
    pub fn link_spots(&self, layout: &PageLayout) -> Vec<LinkSpot> {
        if self.links.is_empty() {
            return Vec::new();
        }
        layout.locate_links(&self.links, self.link_style)
    }

    /// Wraps to `width` columns. The app caches the result per (doc, width) and draws only
    /// the visible slice.
    pub fn layout(&self, width: u16) -> DocLayout {
        layout::layout(self, width, MAX_ROWS, true).to_lines()
    }

    /// Lays out only the first `rows` rows, for showing the top of a big page before the
    /// full layout is ready. `heading_rows` then holds only the headings that were reached.
    pub fn layout_first(&self, width: u16, rows: usize) -> DocLayout {
        layout::layout(self, width, rows.min(MAX_ROWS), false).to_lines()
    }

    /// Wraps to `width` columns, keeping only where each block's rows start: what the reader
    /// keeps for a page. Its rows are made from this parse when they are drawn or searched.
    pub fn page_layout(self: &Arc<Self>, width: u16) -> PageLayout {
        layout::layout_on_demand(self, width)
    }

    /// Only the first `rows` rows in compact form, for a view that never scrolls.
    pub fn page_layout_first(&self, width: u16, rows: usize) -> PageLayout {
        layout::layout(self, width, rows.min(MAX_ROWS), false)
    }

    /// Parses the start of a page for its preview: `markdown` is a prefix cut by
    /// [`preview_source`]. The result is marked incomplete, so the whole page is still parsed
    /// when it is read.
    pub fn parse_preview(markdown: &str, theme: &Theme) -> MarkdownDoc {
        MarkdownDoc {
            complete: false,
            ..build::build(markdown, theme)
        }
    }

    /// False for a preview of the start of a page.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Bytes this document holds on the heap (its text, runs, blocks, tables, headings): a
    /// deterministic measure of its size.
    pub fn heap_bytes(&self) -> usize {
        let headings: usize = self
            .headings
            .iter()
            .map(|heading| heading.text.capacity())
            .sum::<usize>()
            + self.headings.capacity() * size_of::<Heading>();
        let code_blocks: usize = self
            .code_blocks
            .iter()
            .map(|code| code.language.capacity())
            .sum::<usize>()
            + self.code_blocks.capacity() * size_of::<CodeBlock>();
        let links: usize = self
            .links
            .iter()
            .map(|link| link.text.capacity() + link.destination.capacity())
            .sum::<usize>()
            + self.links.capacity() * size_of::<DocLink>();
        self.store.heap_bytes()
            + links
            + headings
            + code_blocks
            + self.heading_blocks.capacity() * size_of::<usize>()
    }
}

pub use layout::PageLayout;
pub use links::LinkSpot;
pub use preview::preview_source;

impl DocLayout {
    /// Case-insensitive matches of `query` in the laid-out text, in reading order (row, start
    /// column, end column, in cells). A match does not span rows.
    pub fn find(&self, query: &str) -> Vec<TextMatch> {
        layout::find(&self.lines, query)
    }
}

/// A run of text with one style, while a block is built or a row laid out; pages keep their
/// text in compact form ([`store`]). Text in a piece is already sanitized.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Piece {
    text: String,
    style: Style,
}

impl Piece {
    fn new(text: impl Into<String>, style: Style) -> Piece {
        Piece {
            text: text.into(),
            style,
        }
    }

    fn seg(&self) -> store::Seg<'_> {
        store::Seg {
            text: &self.text,
            style: self.style,
        }
    }
}

/// One width-independent unit of a page: a paragraph, a code line, a rule, a table…, with
/// the prefix its containers (quotes, list items, callouts) put before its first and its
/// other rows. This is the form the builder makes; the document stores it compactly.
#[derive(Clone, Debug)]
struct Block {
    first_prefix: Vec<Piece>,
    rest_prefix: Vec<Piece>,
    body: Body,
}

#[derive(Clone, Debug)]
enum Body {
    Text {
        pieces: Vec<Piece>,
        wrap: Wrap,
    },
    /// A line of `symbol` across the width, or across at most `max_width` cells.
    Rule {
        symbol: &'static str,
        style: Style,
        max_width: Option<usize>,
    },
    Table(Box<Table>),
    Blank,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrap {
    /// Prose: break between words, split only words longer than the line.
    Words,
    /// Code: keep every space, break anywhere.
    Anywhere,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Align {
    Left,
    Center,
    Right,
}

#[derive(Clone, Debug)]
struct Table {
    alignments: Vec<Align>,
    header: Vec<Vec<Piece>>,
    rows: Vec<Vec<Vec<Piece>>>,
    border: Style,
}

/// Where a fenced code block's lines are, so highlighting can replace them.
#[derive(Clone, Debug)]
struct CodeBlock {
    language: String,
    first_block: usize,
    line_count: usize,
}

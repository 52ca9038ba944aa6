//! Markdown events (and GitBook tag blocks) to width-independent [`Block`]s.
//!
//! Containers (quotes, list items, callouts) are a stack of prefixes rather than recursion, so
//! a page nested 100 000 levels deep costs memory for the stack and nothing else; only the
//! first [`MAX_DEPTH`] levels indent.

mod code;
mod containers;
mod events;
mod footnotes;
mod headings;
mod html;
mod inline;
mod tags;

use ratatui::style::Style;

use super::gitbook;
use super::store::BlockStore;
use super::{Align, Block, Body, CodeBlock, Heading, MAX_ROWS, MarkdownDoc, Piece, Wrap};
use crate::theme::Theme;
use footnotes::footnote_labels;

/// Containers deeper than this add no more indentation.
pub(super) const MAX_DEPTH: usize = 12;

/// Every block lays out to at least one row, so more blocks than rows can never be shown.
const MAX_BLOCKS: usize = MAX_ROWS;

pub(super) fn build(markdown: &str, theme: &Theme) -> MarkdownDoc {
    let mut builder = Builder::new(theme);
    builder.page_footnotes = footnote_labels(markdown);
    let nodes = gitbook::split(markdown);
    builder.render_nodes(&nodes);
    builder.finish()
}

/// One level of nesting that prefixes the rows inside it.
struct Container {
    first: Vec<Piece>,
    rest: Vec<Piece>,
    /// The first prefix (a list marker) is still to be shown.
    first_pending: bool,
    kind: ContainerKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ContainerKind {
    Item { ordered: bool },
    Other,
}

struct ListState {
    next_number: Option<u64>,
    /// A loose list (one with paragraphs) has blank rows between items.
    loose: bool,
}

/// Options a `{% code %}` tag gives the fence inside it.
#[derive(Clone, Default)]
struct CodeOverride {
    title: Option<String>,
    line_numbers: bool,
}

struct LinkState {
    destination: String,
    /// Bytes of inline text before the link started.
    text_start: usize,
}

struct ImageState {
    destination: String,
    alt: String,
    nesting: usize,
}

struct TableState {
    alignments: Vec<Align>,
    header: Vec<Vec<Piece>>,
    rows: Vec<Vec<Vec<Piece>>>,
    row: Vec<Vec<Piece>>,
}

struct Builder<'t> {
    theme: &'t Theme,
    blocks: BlockStore,
    headings: Vec<Heading>,
    heading_blocks: Vec<usize>,
    code_blocks: Vec<CodeBlock>,
    containers: Vec<Container>,
    lists: Vec<ListState>,
    base_styles: Vec<Style>,
    inline_styles: Vec<Style>,
    inline: Vec<Piece>,
    inline_bytes: usize,
    links: Vec<LinkState>,
    /// Every link of the page, in reading order, for the reader to cycle and follow.
    doc_links: Vec<super::DocLink>,
    image: Option<ImageState>,
    heading: Option<u8>,
    code: Option<(String, String)>,
    html: Option<String>,
    /// Inside YAML front matter, which is page metadata, not text.
    metadata: bool,
    table: Option<TableState>,
    code_override: Option<CodeOverride>,
    step_counters: Vec<usize>,
    pending_blank: bool,
    depth_notice_given: bool,
    truncated: bool,
    /// Every footnote label defined anywhere on the page (lower-cased). GitBook tags cut a
    /// page into chunks parsed one by one, so a reference and its definition can sit in
    /// different chunks.
    page_footnotes: std::collections::HashSet<String>,
    /// Labels of the placeholder definitions added to the chunk being parsed: they only make
    /// pulldown-cmark see the reference, and are not shown.
    stub_footnotes: std::collections::HashSet<String>,
    /// Inside a placeholder definition: its events are dropped.
    in_stub_footnote: bool,
    /// Footnote numbers in the order labels are first met (normally their first reference).
    footnote_numbers: std::collections::HashMap<String, usize>,
}

impl<'t> Builder<'t> {
    fn new(theme: &'t Theme) -> Builder<'t> {
        Builder {
            theme,
            blocks: BlockStore::default(),
            headings: Vec::new(),
            heading_blocks: Vec::new(),
            code_blocks: Vec::new(),
            containers: Vec::new(),
            lists: Vec::new(),
            base_styles: Vec::new(),
            inline_styles: Vec::new(),
            inline: Vec::new(),
            inline_bytes: 0,
            links: Vec::new(),
            doc_links: Vec::new(),
            image: None,
            heading: None,
            code: None,
            html: None,
            metadata: false,
            table: None,
            code_override: None,
            step_counters: Vec::new(),
            pending_blank: false,
            depth_notice_given: false,
            truncated: false,
            page_footnotes: std::collections::HashSet::new(),
            stub_footnotes: std::collections::HashSet::new(),
            in_stub_footnote: false,
            footnote_numbers: std::collections::HashMap::new(),
        }
    }

    fn finish(mut self) -> MarkdownDoc {
        if self.truncated {
            let notice = vec![Piece::new("… page truncated", self.theme.style("muted"))];
            self.blocks.push(Block {
                first_prefix: Vec::new(),
                rest_prefix: Vec::new(),
                body: Body::Text {
                    pieces: notice,
                    wrap: Wrap::Words,
                },
            });
        }
        MarkdownDoc {
            store: self.blocks.finish(),
            headings: self.headings,
            heading_blocks: self.heading_blocks,
            code_blocks: self.code_blocks,
            code_style: self.theme.style("code_block"),
            complete: true,
            links: self.doc_links,
            link_style: self.theme.style("link"),
        }
    }

    // ----- block plumbing -----

    /// Before a block: finish any inline text and put a blank row after the previous block.
    fn start_block(&mut self) {
        self.end_block();
        if self.pending_blank && !self.blocks.is_empty() {
            let (_, rest) = self.prefixes();
            self.push_block(Block {
                first_prefix: trim_end(rest.clone()),
                rest_prefix: trim_end(rest),
                body: Body::Blank,
            });
        }
        self.pending_blank = false;
    }

    /// Emits collected inline text (a paragraph, or a tight list item's text).
    fn end_block(&mut self) {
        if self.table.is_some() {
            return;
        }
        let pieces = self.take_inline();
        if pieces.iter().any(|piece| !piece.text.trim().is_empty()) {
            self.emit_text(pieces, Wrap::Words);
        }
    }

    fn emit_text(&mut self, pieces: Vec<Piece>, wrap: Wrap) -> bool {
        self.emit(Body::Text { pieces, wrap })
    }

    fn emit(&mut self, body: Body) -> bool {
        let (first_prefix, rest_prefix) = self.prefixes();
        let pushed = self.push_block(Block {
            first_prefix,
            rest_prefix,
            body,
        });
        for container in self.containers.iter_mut().take(MAX_DEPTH) {
            container.first_pending = false;
        }
        pushed
    }

    fn push_block(&mut self, block: Block) -> bool {
        if self.blocks.len() >= MAX_BLOCKS {
            self.truncated = true;
            return false;
        }
        self.blocks.push(block);
        true
    }

    /// The prefixes of the current containers, for a block's first row and its other rows.
    fn prefixes(&self) -> (Vec<Piece>, Vec<Piece>) {
        let mut first = Vec::new();
        let mut rest = Vec::new();
        for container in self.containers.iter().take(MAX_DEPTH) {
            if container.first_pending {
                first.extend(container.first.iter().cloned());
            } else {
                first.extend(container.rest.iter().cloned());
            }
            rest.extend(container.rest.iter().cloned());
        }
        (first, rest)
    }

    fn push_container(&mut self, first: Vec<Piece>, rest: Vec<Piece>, kind: ContainerKind) {
        if self.containers.len() == MAX_DEPTH && !self.depth_notice_given {
            self.depth_notice_given = true;
            self.emit_text(
                vec![Piece::new(
                    format!("⋯ nested deeper than {MAX_DEPTH} levels; not indented further"),
                    self.theme.style("muted"),
                )],
                Wrap::Words,
            );
        }
        self.containers.push(Container {
            first,
            rest,
            first_pending: true,
            kind,
        });
    }
}

fn concat(mut first: Vec<Piece>, second: Vec<Piece>) -> Vec<Piece> {
    first.extend(second);
    first
}

/// Drops trailing spaces, so a blank row inside a list carries no invisible indentation.
fn trim_end(mut pieces: Vec<Piece>) -> Vec<Piece> {
    while let Some(last) = pieces.last_mut() {
        let trimmed_length = last.text.trim_end().len();
        if trimmed_length == 0 {
            pieces.pop();
        } else {
            last.text.truncate(trimmed_length);
            break;
        }
    }
    pieces
}

//! pulldown-cmark's events, each handed to the part of the builder it opens, fills or closes.

use pulldown_cmark::{Alignment, CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use ratatui::style::Style;

use super::footnotes::{footnote_marker, with_footnote_stubs};
use super::headings::heading_level;
use super::{Builder, ContainerKind, ImageState, LinkState, ListState, TableState};
use crate::markdown::{Align, Body, Piece, Table};
use crate::sanitize::sanitize;
use crate::text::width as text_width;

impl Builder<'_> {
    pub(super) fn render_markdown(&mut self, markdown: &str) {
        let options = Options::ENABLE_TABLES
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_HEADING_ATTRIBUTES
            | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
            | Options::ENABLE_GFM;
        let container_depth = self.containers.len();
        let list_depth = self.lists.len();
        let (markdown, stubs) = with_footnote_stubs(markdown, &self.page_footnotes);
        self.stub_footnotes = stubs;
        for event in Parser::new_ext(&markdown, options) {
            if self.truncated {
                break;
            }
            self.event(event);
        }
        // A chunk cut short (truncation, or a tag in the middle of a list) must not leak its
        // containers into the next chunk.
        self.end_block();
        self.containers.truncate(container_depth);
        self.lists.truncate(list_depth);
        self.base_styles.clear();
        self.inline_styles.clear();
        self.links.clear();
        self.image = None;
        self.heading = None;
        self.code = None;
        self.html = None;
        self.metadata = false;
        self.table = None;
        self.stub_footnotes.clear();
        self.in_stub_footnote = false;
    }

    fn event(&mut self, event: Event<'_>) {
        if self.skips_stub_footnote(&event) {
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => {
                if self.metadata {
                    return;
                }
                if let Some((_, code)) = &mut self.code {
                    code.push_str(&text);
                } else if let Some(html) = &mut self.html {
                    html.push_str(&text);
                } else {
                    self.push_inline(&text, self.current_style());
                }
            }
            Event::Code(code) | Event::InlineMath(code) | Event::DisplayMath(code) => {
                let style = self.current_style().patch(self.theme.style("inline_code"));
                self.push_inline(&code, style);
            }
            Event::Html(html) => match &mut self.html {
                Some(collected) => collected.push_str(&html),
                None => self.html = Some(html.to_string()),
            },
            Event::InlineHtml(html) => {
                let lower = html.to_ascii_lowercase();
                if lower.starts_with("<br") {
                    self.hard_break();
                }
            }
            Event::FootnoteReference(label) => {
                let style = self.theme.style("footnote");
                let marker = footnote_marker(self.footnote_number(&label));
                self.push_inline(&marker, style);
            }
            Event::SoftBreak => self.push_inline(" ", self.current_style()),
            Event::HardBreak => self.hard_break(),
            Event::Rule => {
                self.start_block();
                self.emit(Body::Rule {
                    symbol: "─",
                    style: self.theme.style("rule"),
                    max_width: None,
                });
                self.pending_blank = true;
            }
            Event::TaskListMarker(checked) => self.task_marker(checked),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => {
                if let (Some(list), Some(container)) =
                    (self.lists.last_mut(), self.containers.last())
                    && matches!(container.kind, ContainerKind::Item { .. })
                {
                    list.loose = true;
                }
                self.start_block();
            }
            Tag::Heading { level, .. } => {
                self.start_block();
                let level = heading_level(level);
                self.heading = Some(level);
                self.base_styles.push(self.theme.heading(level));
            }
            Tag::BlockQuote(kind) => self.start_quote(kind),
            Tag::CodeBlock(kind) => {
                self.start_block();
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((info, String::new()));
            }
            Tag::HtmlBlock => {
                self.start_block();
                self.html = Some(String::new());
            }
            Tag::List(start) => {
                self.start_block();
                self.lists.push(ListState {
                    next_number: start,
                    loose: false,
                });
            }
            Tag::Item => self.start_item(),
            Tag::FootnoteDefinition(label) => {
                self.start_block();
                let marker = format!("{} ", footnote_marker(self.footnote_number(&label)));
                let indent = " ".repeat(text_width(&marker));
                self.push_container(
                    vec![Piece::new(
                        sanitize(&marker).into_owned(),
                        self.theme.style("footnote"),
                    )],
                    vec![Piece::new(indent, Style::default())],
                    ContainerKind::Other,
                );
            }
            Tag::Table(alignments) => {
                self.start_block();
                self.table = Some(TableState {
                    alignments: alignments.into_iter().map(align).collect(),
                    header: Vec::new(),
                    rows: Vec::new(),
                    row: Vec::new(),
                });
            }
            Tag::TableHead => self.base_styles.push(self.theme.style("table_header")),
            Tag::TableRow | Tag::TableCell => {
                self.take_inline();
            }
            Tag::Emphasis => self.inline_styles.push(self.theme.style("emphasis")),
            Tag::Strong => self.inline_styles.push(self.theme.style("strong")),
            Tag::Strikethrough => self.inline_styles.push(self.theme.style("strikethrough")),
            Tag::Superscript | Tag::Subscript => self.inline_styles.push(Style::default()),
            Tag::Link { dest_url, .. } => {
                self.links.push(LinkState {
                    destination: dest_url.to_string(),
                    text_start: self.inline_bytes,
                });
                self.inline_styles.push(self.theme.style("link"));
            }
            Tag::Image { dest_url, .. } => match &mut self.image {
                Some(image) => image.nesting += 1,
                None => {
                    self.image = Some(ImageState {
                        destination: dest_url.to_string(),
                        alt: String::new(),
                        nesting: 0,
                    })
                }
            },
            Tag::MetadataBlock(_) => self.metadata = true,
            Tag::DefinitionList | Tag::DefinitionListTitle | Tag::DefinitionListDefinition => {
                self.start_block()
            }
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::DefinitionListTitle | TagEnd::DefinitionListDefinition => {
                self.end_block();
                self.pending_blank = true;
            }
            TagEnd::Heading(_) => self.end_heading(),
            TagEnd::BlockQuote(_) => {
                self.end_block();
                self.base_styles.pop();
                self.containers.pop();
                self.pending_blank = true;
            }
            TagEnd::CodeBlock => {
                if let Some((info, code)) = self.code.take() {
                    self.emit_code(&info, &code);
                }
                self.pending_blank = true;
            }
            TagEnd::HtmlBlock => {
                if let Some(html) = self.html.take() {
                    self.emit_html(&html);
                }
            }
            TagEnd::List(_) => {
                self.end_block();
                self.lists.pop();
                self.pending_blank = true;
            }
            TagEnd::Item => {
                self.end_block();
                self.containers.pop();
            }
            TagEnd::FootnoteDefinition => {
                self.end_block();
                self.containers.pop();
                self.pending_blank = true;
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    self.emit(Body::Table(Box::new(Table {
                        alignments: table.alignments,
                        header: table.header,
                        rows: table.rows,
                        border: self.theme.style("table_border"),
                    })));
                }
                self.pending_blank = true;
            }
            TagEnd::TableHead => {
                self.base_styles.pop();
                if let Some(table) = &mut self.table {
                    table.header = std::mem::take(&mut table.row);
                }
            }
            TagEnd::TableRow => {
                if let Some(table) = &mut self.table {
                    let row = std::mem::take(&mut table.row);
                    table.rows.push(row);
                }
            }
            TagEnd::TableCell => {
                let cell = self.take_inline();
                if let Some(table) = &mut self.table {
                    table.row.push(cell);
                }
            }
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript => {
                self.inline_styles.pop();
            }
            TagEnd::Link => self.end_link(),
            TagEnd::Image => self.end_image(),
            TagEnd::MetadataBlock(_) => self.metadata = false,
            TagEnd::DefinitionList => {
                self.end_block();
                self.pending_blank = true;
            }
        }
    }
}

fn align(alignment: Alignment) -> Align {
    match alignment {
        Alignment::Center => Align::Center,
        Alignment::Right => Align::Right,
        Alignment::None | Alignment::Left => Align::Left,
    }
}

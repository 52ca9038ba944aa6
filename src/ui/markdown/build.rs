//! Markdown events (and GitBook tag blocks) to width-independent [`Block`]s.
//!
//! Containers (quotes, list items, callouts) are a stack of prefixes rather than recursion, so
//! a page nested 100 000 levels deep costs memory for the stack and nothing else; only the
//! first [`MAX_DEPTH`] levels indent.

use pulldown_cmark::{
    Alignment, BlockQuoteKind, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};
use ratatui::style::{Modifier, Style};

use super::gitbook::{self, Node};
use super::store::BlockStore;
use super::{Align, Block, Body, CodeBlock, Heading, MAX_ROWS, MarkdownDoc, Piece, Table, Wrap};
use crate::ui::sanitize::sanitize;
use crate::ui::text::width as text_width;
use crate::ui::theme::Theme;

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

    // ----- GitBook tags -----

    fn render_nodes(&mut self, nodes: &[Node]) {
        for node in nodes {
            if self.truncated {
                return;
            }
            match node {
                Node::Markdown(text) => self.render_markdown(text),
                Node::Tag(tag) => self.render_tag(tag),
            }
        }
    }

    fn render_tag(&mut self, tag: &gitbook::Tag) {
        let body = tag.body.as_deref().unwrap_or(&[]);
        match tag.name.as_str() {
            "hint" => self.render_hint(tag.argument("style").unwrap_or("info"), body),
            "tabs" | "stepper" | "columns" => {
                self.step_counters.push(0);
                self.render_nodes(body);
                self.step_counters.pop();
            }
            "tab" => {
                let title = tag.argument("title").unwrap_or("Tab");
                self.render_titled(format!("▸ {}", sanitize(title)), body);
            }
            "step" | "column" => {
                let number = match self.step_counters.last_mut() {
                    Some(counter) => {
                        *counter += 1;
                        *counter
                    }
                    None => 1,
                };
                let label = if tag.name == "step" { "Step" } else { "Column" };
                self.render_titled(format!("◆ {label} {number}"), body);
            }
            "code" => {
                self.code_override = Some(CodeOverride {
                    title: tag.argument("title").map(str::to_string),
                    line_numbers: tag
                        .argument("linenumbers")
                        .is_some_and(|value| value.eq_ignore_ascii_case("true")),
                });
                self.render_nodes(body);
                self.code_override = None;
            }
            "embed" => {
                let url = tag
                    .argument("url")
                    .or(tag.positional.first().map(String::as_str))
                    .unwrap_or("");
                self.label_row(vec![Piece::new(
                    format!("⧉ Embed: {}", sanitize(url)),
                    self.theme.style("embed"),
                )]);
                self.render_indented(body);
            }
            "content-ref" => self.render_content_ref(tag, body),
            "file" => {
                let source = tag.argument("src").unwrap_or("");
                self.label_row(vec![Piece::new(
                    format!("📎 File: {}", sanitize(source)),
                    self.theme.style("embed"),
                )]);
                self.render_indented(body);
            }
            "swagger" | "api-method" => {
                let method = tag.argument("method").unwrap_or("").to_ascii_uppercase();
                let address = format!(
                    "{}{}",
                    tag.argument("baseurl").unwrap_or(""),
                    tag.argument("path").unwrap_or("")
                );
                let mut label = format!("⚙ API: {} {}", method, address);
                if let Some(summary) = tag.argument("summary") {
                    label.push_str(" — ");
                    label.push_str(summary);
                }
                self.render_labelled(label, "embed", body);
            }
            "openapi" | "openapi-operation" | "openapi-schemas" => {
                let mut label = format!(
                    "⚙ OpenAPI: {} {}",
                    tag.argument("method").unwrap_or("").to_ascii_uppercase(),
                    tag.argument("path").unwrap_or("")
                );
                if let Some(source) = tag.argument("src").or(tag.argument("spec")) {
                    label.push_str(&format!(" ({source})"));
                }
                self.render_labelled(label, "embed", body);
            }
            "swagger-description" | "api-method-summary" | "api-method-description" => {
                self.render_nodes(body)
            }
            "swagger-parameter" | "api-method-parameter" => {
                let name = tag.argument("name").unwrap_or("");
                let details: Vec<&str> = ["in", "type"]
                    .iter()
                    .filter_map(|key| tag.argument(key))
                    .chain(
                        tag.argument("required")
                            .filter(|r| *r == "true")
                            .map(|_| "required"),
                    )
                    .collect();
                self.render_labelled(
                    format!("• {} ({})", name, details.join(", ")),
                    "list_marker",
                    body,
                );
            }
            "swagger-response" | "api-method-response" => {
                let status = tag.argument("status").unwrap_or("");
                self.render_labelled(format!("↩ Response {status}"), "list_marker", body);
            }
            "include" => {
                let path = tag
                    .positional
                    .first()
                    .map(String::as_str)
                    .or(tag.argument("src"))
                    .unwrap_or("");
                self.label_row(vec![Piece::new(
                    format!("⤷ Include: {}", sanitize(path)),
                    self.theme.style("muted"),
                )]);
            }
            _ => {
                let mut label = format!("◇ {}", tag.name);
                for (key, value) in &tag.arguments {
                    label.push_str(&format!(" {key}={value}"));
                }
                for value in &tag.positional {
                    label.push_str(&format!(" {value}"));
                }
                self.render_labelled(label, "muted", body);
            }
        }
    }

    fn render_hint(&mut self, style_name: &str, body: &[Node]) {
        let (icon, label, style_key) = match style_name.to_ascii_lowercase().as_str() {
            "success" => ("✔", "Success", "hint_success"),
            "warning" => ("⚠", "Warning", "hint_warning"),
            "danger" => ("✖", "Danger", "hint_danger"),
            _ => ("ℹ", "Info", "hint_info"),
        };
        self.callout(icon, label, style_key, |builder| builder.render_nodes(body));
    }

    /// A bar-prefixed box with an icon and label on its first row.
    fn callout(&mut self, icon: &str, label: &str, style_key: &str, body: impl FnOnce(&mut Self)) {
        let style = self.theme.style(style_key);
        self.start_block();
        self.push_container(
            vec![Piece::new("▌ ", style)],
            vec![Piece::new("▌ ", style)],
            ContainerKind::Other,
        );
        self.emit_text(
            vec![Piece::new(
                format!("{icon} {label}"),
                style.add_modifier(Modifier::BOLD),
            )],
            Wrap::Words,
        );
        body(self);
        self.end_block();
        self.containers.pop();
        self.pending_blank = true;
    }

    /// A title row followed by the body, indented under it.
    fn render_titled(&mut self, title: String, body: &[Node]) {
        self.label_row(vec![Piece::new(title, self.theme.style("tab_title"))]);
        self.pending_blank = false;
        self.render_indented(body);
    }

    fn render_labelled(&mut self, label: String, style_key: &str, body: &[Node]) {
        self.label_row(vec![Piece::new(
            sanitize(&label).into_owned(),
            self.theme.style(style_key),
        )]);
        self.pending_blank = false;
        self.render_indented(body);
    }

    fn render_indented(&mut self, body: &[Node]) {
        if body.is_empty() {
            return;
        }
        self.push_container(
            vec![Piece::new("  ", Style::default())],
            vec![Piece::new("  ", Style::default())],
            ContainerKind::Other,
        );
        self.render_nodes(body);
        self.end_block();
        self.containers.pop();
        self.pending_blank = true;
    }

    /// `→ text (link)`: the first link in the body, or the tag's url.
    fn render_content_ref(&mut self, tag: &gitbook::Tag, body: &[Node]) {
        let markdown: String = body
            .iter()
            .filter_map(|node| match node {
                Node::Markdown(text) => Some(text.as_str()),
                Node::Tag(_) => None,
            })
            .collect();
        let (text, destination) = first_link(&markdown)
            .unwrap_or_else(|| (String::new(), tag.argument("url").unwrap_or("").to_string()));
        let mut pieces = vec![Piece::new("→ ", self.theme.style("embed"))];
        if !text.is_empty() {
            self.doc_links.push(super::DocLink {
                text: sanitize(&text).into_owned(),
                destination: destination.clone(),
            });
            pieces.push(Piece::new(
                sanitize(&text).into_owned(),
                self.theme.style("link"),
            ));
            pieces.push(Piece::new(" ", self.theme.style("text")));
        }
        pieces.push(Piece::new(
            format!("({})", sanitize(&destination)),
            self.theme.style("link_target"),
        ));
        self.label_row(pieces);
    }

    /// A one-row block (tag label) separated from what comes before and after.
    fn label_row(&mut self, pieces: Vec<Piece>) {
        self.start_block();
        self.emit_text(pieces, Wrap::Words);
        self.pending_blank = true;
    }

    // ----- markdown -----

    fn render_markdown(&mut self, markdown: &str) {
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

    /// Whether `event` belongs to a placeholder footnote definition (and so is dropped).
    fn skips_stub_footnote(&mut self, event: &Event<'_>) -> bool {
        if self.in_stub_footnote {
            if matches!(event, Event::End(TagEnd::FootnoteDefinition)) {
                self.in_stub_footnote = false;
            }
            return true;
        }
        if let Event::Start(Tag::FootnoteDefinition(label)) = event
            && self.stub_footnotes.contains(&label.to_lowercase())
        {
            self.in_stub_footnote = true;
            return true;
        }
        false
    }

    /// The footnote's number: 1 for the first label met on the page, 2 for the next…
    fn footnote_number(&mut self, label: &str) -> usize {
        let label = label.to_lowercase();
        let next = self.footnote_numbers.len() + 1;
        match self.footnote_numbers.get(&label) {
            Some(number) => *number,
            None => {
                self.footnote_numbers.insert(label, next);
                next
            }
        }
    }

    fn start_quote(&mut self, kind: Option<BlockQuoteKind>) {
        self.start_block();
        let alert = kind.map(|kind| match kind {
            BlockQuoteKind::Note => ("ℹ", "Note", "hint_info"),
            BlockQuoteKind::Tip => ("✔", "Tip", "hint_success"),
            BlockQuoteKind::Important => ("‼", "Important", "hint_info"),
            BlockQuoteKind::Warning => ("⚠", "Warning", "hint_warning"),
            BlockQuoteKind::Caution => ("✖", "Caution", "hint_danger"),
        });
        let (bar, bar_style) = match alert {
            Some((_, _, style_key)) => ("▌ ", self.theme.style(style_key)),
            None => ("│ ", self.theme.style("quote_bar")),
        };
        self.push_container(
            vec![Piece::new(bar, bar_style)],
            vec![Piece::new(bar, bar_style)],
            ContainerKind::Other,
        );
        if let Some((icon, label, _)) = alert {
            self.emit_text(
                vec![Piece::new(
                    format!("{icon} {label}"),
                    bar_style.add_modifier(Modifier::BOLD),
                )],
                Wrap::Words,
            );
            self.base_styles.push(self.base_style());
        } else {
            self.base_styles.push(self.theme.style("quote"));
        }
    }

    fn start_item(&mut self) {
        self.end_block();
        let bullet_depth = self.lists.len().saturating_sub(1);
        let Some(list) = self.lists.last_mut() else {
            return;
        };
        if !list.loose {
            self.pending_blank = false;
        }
        let (marker, ordered) = match &mut list.next_number {
            Some(number) => {
                let marker = format!("{number}. ");
                *number = number.saturating_add(1);
                (marker, true)
            }
            None => {
                let bullet = ["• ", "◦ ", "▪ "][bullet_depth % 3];
                (bullet.to_string(), false)
            }
        };
        let indent = " ".repeat(text_width(&marker));
        let style = self.theme.style("list_marker");
        self.push_container(
            vec![Piece::new(marker, style)],
            vec![Piece::new(indent, Style::default())],
            ContainerKind::Item { ordered },
        );
    }

    /// `[ ]` / `[x]` replace a bullet, or follow a number.
    fn task_marker(&mut self, checked: bool) {
        let box_symbol = if checked { "☑ " } else { "☐ " };
        let style = self.theme.style("list_marker");
        let Some(container) = self.containers.last_mut() else {
            return;
        };
        let ContainerKind::Item { ordered } = container.kind else {
            return;
        };
        if !container.first_pending {
            self.push_inline(box_symbol, style);
            return;
        }
        if ordered {
            container.first.push(Piece::new(box_symbol, style));
        } else {
            container.first = vec![Piece::new(box_symbol, style)];
        }
        let width: usize = container
            .first
            .iter()
            .map(|piece| text_width(&piece.text))
            .sum();
        container.rest = vec![Piece::new(" ".repeat(width), Style::default())];
    }

    fn end_heading(&mut self) {
        let level = self.heading.take().unwrap_or(1);
        self.base_styles.pop();
        let pieces = self.take_inline();
        let text: String = pieces.iter().map(|piece| piece.text.as_str()).collect();
        // Levels 1 and 2 are underlined by a rule; the others are told apart by the theme's
        // heading styles alone, never by `###` markers a reader would have to decode.
        let style = self.theme.heading(level);
        let text_width = pieces
            .iter()
            .map(|piece| text_width(&piece.text))
            .sum::<usize>();
        let index = self.blocks.len();
        if self.emit_text(pieces, Wrap::Words) {
            self.heading_blocks.push(index);
            self.headings.push(Heading { level, text });
        }
        if level <= 2 {
            self.emit(Body::Rule {
                symbol: if level == 1 { "═" } else { "─" },
                style,
                max_width: Some(text_width.max(1)),
            });
        }
        self.pending_blank = true;
    }

    fn end_link(&mut self) {
        self.inline_styles.pop();
        let Some(link) = self.links.pop() else { return };
        let text = self.inline_text_since(link.text_start);
        let destination = link.destination;
        // An image's alt text is not in the paragraph yet: such a link has no text to find.
        if self.image.is_none() {
            self.doc_links.push(super::DocLink {
                text: text.clone(),
                destination: destination.clone(),
            });
        }
        let same = destination.is_empty()
            || destination == text
            || destination.strip_prefix("mailto:") == Some(text.as_str());
        if !same {
            let style = self.theme.style("link_target");
            self.push_inline(&format!(" ⟨{destination}⟩"), style);
        }
    }

    fn end_image(&mut self) {
        let Some(image) = &mut self.image else { return };
        if image.nesting > 0 {
            image.nesting -= 1;
            return;
        }
        let Some(image) = self.image.take() else {
            return;
        };
        let alt = if image.alt.trim().is_empty() {
            "image".to_string()
        } else {
            image.alt
        };
        self.push_inline(&format!("🖼 {alt}"), self.theme.style("image"));
        if !image.destination.is_empty() {
            let style = self.theme.style("link_target");
            self.push_inline(&format!(" ⟨{}⟩", image.destination), style);
        }
    }

    fn hard_break(&mut self) {
        if self.table.is_some() || self.heading.is_some() {
            self.push_inline(" ", self.current_style());
        } else {
            self.end_block();
        }
    }

    // ----- code and html -----

    fn emit_code(&mut self, info: &str, code: &str) {
        let (language, info_title) = parse_info(info);
        let overrides = self.code_override.take().unwrap_or_default();
        let title = overrides.title.or(info_title);
        let border = self.theme.style("code_border");
        let muted = self.theme.style("muted");
        let mut header = vec![Piece::new("╭─", border)];
        if !language.is_empty() {
            header.push(Piece::new(" ", border));
            header.push(Piece::new(sanitize(&language).into_owned(), muted));
        }
        if let Some(title) = title {
            header.push(Piece::new(" · ", border));
            header.push(Piece::new(
                sanitize(&title).into_owned(),
                self.theme.style("text").add_modifier(Modifier::BOLD),
            ));
        }
        self.emit_text(header, Wrap::Anywhere);
        let lines: Vec<&str> = code.lines().collect();
        let number_width = if overrides.line_numbers {
            lines.len().to_string().len()
        } else {
            0
        };
        let code_style = self.theme.style("code_block");
        let first_block = self.blocks.len();
        let mut line_count = 0;
        for (index, line) in lines.iter().enumerate() {
            let mut gutter = vec![Piece::new("│ ", border)];
            let mut gutter_rest = gutter.clone();
            if number_width > 0 {
                gutter.push(Piece::new(format!("{:>number_width$} ", index + 1), muted));
                gutter_rest.push(Piece::new(" ".repeat(number_width + 1), Style::default()));
            }
            let (first, rest) = self.prefixes();
            let block = Block {
                first_prefix: concat(first, gutter),
                rest_prefix: concat(rest, gutter_rest),
                body: Body::Text {
                    pieces: vec![Piece::new(sanitize(line).into_owned(), code_style)],
                    wrap: Wrap::Anywhere,
                },
            };
            if !self.push_block(block) {
                break;
            }
            line_count += 1;
        }
        self.code_blocks.push(CodeBlock {
            language,
            first_block,
            line_count,
        });
        self.emit_text(vec![Piece::new("╰─", border)], Wrap::Anywhere);
    }

    /// HTML blocks: images become placeholders, other markup is dropped, text is kept.
    fn emit_html(&mut self, html: &str) {
        for image in html_images(html) {
            let mut pieces = vec![Piece::new(
                format!("🖼 {}", sanitize(&image.alt)),
                self.theme.style("image"),
            )];
            if !image.source.is_empty() {
                pieces.push(Piece::new(
                    format!(" ⟨{}⟩", sanitize(&image.source)),
                    self.theme.style("link_target"),
                ));
            }
            self.start_block();
            self.emit_text(pieces, Wrap::Words);
            self.pending_blank = true;
        }
        let text = strip_html(html);
        for paragraph in text.split("\n\n") {
            let words: Vec<&str> = paragraph.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            self.start_block();
            let joined = words.join(" ");
            self.emit_text(
                vec![Piece::new(
                    sanitize(&joined).into_owned(),
                    self.base_style(),
                )],
                Wrap::Words,
            );
            self.pending_blank = true;
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

    // ----- inline text -----

    fn base_style(&self) -> Style {
        self.base_styles
            .last()
            .copied()
            .unwrap_or_else(|| self.theme.style("text"))
    }

    fn current_style(&self) -> Style {
        self.inline_styles
            .iter()
            .fold(self.base_style(), |style, patch| style.patch(*patch))
    }

    /// Adds page text (sanitized here) to the paragraph being collected.
    fn push_inline(&mut self, text: &str, style: Style) {
        if let Some(image) = &mut self.image {
            image.alt.push_str(&sanitize(text));
            return;
        }
        let clean = sanitize(text);
        if clean.is_empty() {
            return;
        }
        self.inline_bytes += clean.len();
        match self.inline.last_mut() {
            Some(last) if last.style == style => last.text.push_str(&clean),
            _ => self.inline.push(Piece::new(clean.into_owned(), style)),
        }
    }

    fn take_inline(&mut self) -> Vec<Piece> {
        self.inline_bytes = 0;
        std::mem::take(&mut self.inline)
    }

    /// The inline text added after `start` bytes, e.g. a link's text.
    fn inline_text_since(&self, start: usize) -> String {
        let mut needed = self.inline_bytes.saturating_sub(start);
        let mut parts = Vec::new();
        for piece in self.inline.iter().rev() {
            if needed == 0 {
                break;
            }
            let take = needed.min(piece.text.len());
            let from = piece.text.len() - take;
            let part = piece.text.get(from..).unwrap_or("");
            parts.push(part);
            needed -= take;
        }
        parts.reverse();
        parts.concat()
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

fn heading_level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

fn align(alignment: Alignment) -> Align {
    match alignment {
        Alignment::Center => Align::Center,
        Alignment::Right => Align::Right,
        Alignment::None | Alignment::Left => Align::Left,
    }
}

/// A footnote's number in superscript digits: `¹²`.
fn footnote_marker(number: usize) -> String {
    const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    number
        .to_string()
        .bytes()
        .map(|digit| SUPERSCRIPTS[usize::from(digit.saturating_sub(b'0')).min(9)])
        .collect()
}

/// At most this many footnote labels are tracked per page: enough for any real page, and a
/// hostile one cannot make every chunk carry thousands of placeholders.
const MAX_FOOTNOTE_LABELS: usize = 1_000;

/// The labels (lower-cased) of the footnote definitions in `markdown`: lines that start,
/// after at most three spaces, with `[^label]:`.
fn footnote_labels(markdown: &str) -> std::collections::HashSet<String> {
    let mut labels = std::collections::HashSet::new();
    for line in markdown.lines() {
        if labels.len() >= MAX_FOOTNOTE_LABELS {
            break;
        }
        let trimmed = line.trim_start_matches(' ');
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        let Some(label) = trimmed
            .strip_prefix("[^")
            .and_then(|rest| rest.split_once("]:"))
            .map(|(label, _)| label.to_lowercase())
        else {
            continue;
        };
        if !label.is_empty() && !label.contains(['[', ']']) {
            labels.insert(label);
        }
    }
    labels
}

/// The labels (lower-cased) that `chunk` refers to as `[^label]`, definitions included.
fn footnote_references(chunk: &str) -> std::collections::HashSet<String> {
    let mut references = std::collections::HashSet::new();
    for (start, _) in chunk.match_indices("[^") {
        let rest = &chunk[start + 2..];
        if let Some(end) = rest.find(']')
            && end > 0
            && end <= 200
        {
            references.insert(rest[..end].to_lowercase());
        }
        if references.len() >= MAX_FOOTNOTE_LABELS {
            break;
        }
    }
    references
}

/// The chunk with a placeholder definition appended for each footnote it refers to that is
/// defined elsewhere on the page, so pulldown-cmark turns those references into footnote
/// references instead of raw `[^label]` text. Returns the placeholders' labels so their
/// definitions can be dropped. Only labels the chunk uses get one, so the work stays in
/// proportion to the chunk.
fn with_footnote_stubs<'a>(
    chunk: &'a str,
    page_labels: &std::collections::HashSet<String>,
) -> (std::borrow::Cow<'a, str>, std::collections::HashSet<String>) {
    if page_labels.is_empty() || !chunk.contains("[^") {
        return (std::borrow::Cow::Borrowed(chunk), Default::default());
    }
    let defined_here = footnote_labels(chunk);
    let stubs: std::collections::HashSet<String> = footnote_references(chunk)
        .into_iter()
        .filter(|label| page_labels.contains(label) && !defined_here.contains(label))
        .collect();
    if stubs.is_empty() {
        return (std::borrow::Cow::Borrowed(chunk), stubs);
    }
    let mut source = String::with_capacity(chunk.len() + stubs.len() * 16);
    source.push_str(chunk);
    for label in &stubs {
        source.push_str(&format!("\n\n[^{label}]: -\n"));
    }
    (std::borrow::Cow::Owned(source), stubs)
}

/// The language token and an optional `title="…"` from a fence's info string, e.g.
/// `rust title="main.rs"`, `{.python}` or `js,ignore`.
fn parse_info(info: &str) -> (String, Option<String>) {
    let token = info.split_whitespace().next().unwrap_or("");
    let language = token
        .trim_start_matches('{')
        .trim_end_matches('}')
        .trim_start_matches('.')
        .split(',')
        .next()
        .unwrap_or("");
    let language = if language.contains('=') { "" } else { language };
    let title = info.find("title=").map(|start| {
        let value = &info[start + "title=".len()..];
        match value.chars().next() {
            Some(quote @ ('"' | '\'')) => value[1..].split(quote).next().unwrap_or("").to_string(),
            _ => value.split_whitespace().next().unwrap_or("").to_string(),
        }
    });
    (language.to_string(), title)
}

/// The text and destination of the first link in some markdown.
fn first_link(markdown: &str) -> Option<(String, String)> {
    let mut destination = None;
    let mut text = String::new();
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) if destination.is_none() => {
                destination = Some(dest_url.to_string());
            }
            Event::Text(part) | Event::Code(part) if destination.is_some() => text.push_str(&part),
            Event::End(TagEnd::Link) if destination.is_some() => break,
            _ => {}
        }
    }
    destination.map(|destination| (text, destination))
}

struct HtmlImage {
    source: String,
    alt: String,
}

fn html_images(html: &str) -> Vec<HtmlImage> {
    let lower = html.to_ascii_lowercase();
    let mut images = Vec::new();
    let mut from = 0;
    while let Some(start) = lower[from..].find("<img").map(|offset| from + offset) {
        let end = lower[start..]
            .find('>')
            .map_or(lower.len(), |offset| start + offset);
        let tag = &html[start..end];
        images.push(HtmlImage {
            source: html_attribute(tag, "src").unwrap_or_default(),
            alt: html_attribute(tag, "alt").unwrap_or_default(),
        });
        from = end;
    }
    images
}

fn html_attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let needle = format!("{name}=");
    let mut from = 0;
    while let Some(offset) = lower[from..].find(&needle) {
        let start = from + offset;
        let preceded_by_space = lower[..start].ends_with(|c: char| c.is_whitespace());
        let value = &tag[start + needle.len()..];
        if preceded_by_space {
            return Some(match value.chars().next() {
                Some(quote @ ('"' | '\'')) => value[1..].split(quote).next().unwrap_or("").into(),
                _ => value
                    .split(|c: char| c.is_whitespace() || c == '>')
                    .next()
                    .unwrap_or("")
                    .into(),
            });
        }
        from = start + needle.len();
    }
    None
}

/// Text outside tags and comments, with a few common entities decoded.
fn strip_html(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
        } else if rest.starts_with('<') {
            let end = rest.find('>').map_or(rest.len(), |end| end + 1);
            let tag = rest[..end].to_ascii_lowercase();
            if [
                "<p",
                "</p",
                "<div",
                "</div",
                "<br",
                "<figure",
                "</figure",
                "<figcaption",
                "<li",
                "<tr",
                "<h",
            ]
            .iter()
            .any(|block| tag.starts_with(block))
            {
                text.push_str("\n\n");
            }
            rest = &rest[end..];
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            text.push_str(&rest[..end]);
            rest = &rest[end..];
        }
    }
    text.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_strings_give_language_and_title() {
        assert_eq!(parse_info("rust"), ("rust".into(), None));
        assert_eq!(
            parse_info("ts title=\"app.ts\" {1,3}"),
            ("ts".into(), Some("app.ts".into()))
        );
        assert_eq!(parse_info("{.python}"), ("python".into(), None));
        assert_eq!(parse_info("rust,ignore"), ("rust".into(), None));
        assert_eq!(parse_info(""), (String::new(), None));
    }

    #[test]
    fn footnote_markers_are_superscript_numbers() {
        assert_eq!(footnote_marker(12), "¹²");
        assert_eq!(footnote_marker(3), "³");
    }

    #[test]
    fn a_chunk_gets_placeholders_only_for_the_footnotes_it_uses() {
        let page_labels: std::collections::HashSet<String> =
            (0..5_000).map(|n| format!("l{n}")).collect();
        let (source, stubs) = with_footnote_stubs("see[^l42] and [^unknown]", &page_labels);
        assert_eq!(
            stubs.len(),
            1,
            "one placeholder, not one per label on the page"
        );
        assert!(source.len() < 100, "{source}");
        let many: String = (0..5_000).map(|n| format!("[^l{n}]: x\n")).collect();
        assert_eq!(footnote_labels(&many).len(), MAX_FOOTNOTE_LABELS);
    }

    #[test]
    fn footnote_labels_are_found_at_line_starts_only() {
        let markdown = "Text[^a].\n\n[^A]: one\n   [^b-2]: two\n    [^code]: no\n[^]: no\n";
        let mut labels: Vec<String> = footnote_labels(markdown).into_iter().collect();
        labels.sort();
        assert_eq!(labels, ["a", "b-2"]);
    }

    #[test]
    fn html_images_and_text_are_extracted() {
        let html = "<figure><img src=\"a.png\" alt=\"A chart\"><figcaption><p>Caption &amp; more</p></figcaption></figure><!-- hidden -->";
        let images = html_images(html);
        assert_eq!(images[0].source, "a.png");
        assert_eq!(images[0].alt, "A chart");
        let text = strip_html(html);
        assert!(text.contains("Caption & more"));
        assert!(!text.contains("hidden"));
    }
}

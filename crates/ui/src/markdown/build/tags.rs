//! GitBook `{% %}` tags (hints, tabs, steppers, embeds, API blocks…) as labelled, indented
//! or bar-prefixed blocks.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};

use super::{Builder, CodeOverride, ContainerKind};
use crate::markdown::gitbook::{self, Node};
use crate::markdown::{DocLink, Piece, Wrap};
use crate::sanitize::sanitize;

impl Builder<'_> {
    pub(super) fn render_nodes(&mut self, nodes: &[Node]) {
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
            self.doc_links.push(DocLink {
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

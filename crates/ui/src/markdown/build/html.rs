//! HTML blocks: images become placeholders, other markup is dropped and its text kept.

use super::Builder;
use crate::markdown::{Piece, Wrap};
use crate::sanitize::sanitize;

impl Builder<'_> {
    /// HTML blocks: images become placeholders, other markup is dropped, text is kept.
    pub(super) fn emit_html(&mut self, html: &str) {
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

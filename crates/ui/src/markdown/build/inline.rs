//! Inline text: the styles it is drawn in, the paragraph it is collected into, breaks, and the
//! links and images inside it.

use ratatui::style::Style;

use super::Builder;
use crate::markdown::{DocLink, Piece};
use crate::sanitize::sanitize;

impl Builder<'_> {
    pub(super) fn base_style(&self) -> Style {
        self.base_styles
            .last()
            .copied()
            .unwrap_or_else(|| self.theme.style("text"))
    }

    pub(super) fn current_style(&self) -> Style {
        self.inline_styles
            .iter()
            .fold(self.base_style(), |style, patch| style.patch(*patch))
    }

    /// Adds page text (sanitized here) to the paragraph being collected.
    pub(super) fn push_inline(&mut self, text: &str, style: Style) {
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

    pub(super) fn take_inline(&mut self) -> Vec<Piece> {
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

    pub(super) fn end_link(&mut self) {
        self.inline_styles.pop();
        let Some(link) = self.links.pop() else { return };
        let text = self.inline_text_since(link.text_start);
        let destination = link.destination;
        // An image's alt text is not in the paragraph yet: such a link has no text to find.
        if self.image.is_none() {
            self.doc_links.push(DocLink {
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

    pub(super) fn end_image(&mut self) {
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

    pub(super) fn hard_break(&mut self) {
        if self.table.is_some() || self.heading.is_some() {
            self.push_inline(" ", self.current_style());
        } else {
            self.end_block();
        }
    }
}

//! Block quotes (and GitHub alerts), list items and task markers: the containers whose prefixes
//! start the rows inside them.

use pulldown_cmark::BlockQuoteKind;
use ratatui::style::{Modifier, Style};

use super::{Builder, ContainerKind};
use crate::markdown::{Piece, Wrap};
use crate::text::width as text_width;

impl Builder<'_> {
    pub(super) fn start_quote(&mut self, kind: Option<BlockQuoteKind>) {
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

    pub(super) fn start_item(&mut self) {
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
    pub(super) fn task_marker(&mut self, checked: bool) {
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
}

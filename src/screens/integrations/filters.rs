//! The integrations filter popup (`f`): one row per filter the catalogue offers — category,
//! scope, target, has blocks, has content sources, owner, block domain (the domains the blocks
//! of the integrations listed unfurl links of) — each cycled through its values with
//! ←/→ (or space); enter applies, esc leaves the filters as they were, backspace resets a row.

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::api::IntegrationFilter;
use crate::api::integrations::{CATEGORIES, SCOPES, TARGETS};
use crate::ui::hit::Canvas;
use crate::ui::layout::centered;
use crate::ui::picker::popup_block;
use crate::ui::theme::Theme;

/// The rows of the popup, in order.
pub const ROWS: [&str; 7] = [
    "Category",
    "Scope",
    "Target",
    "Has blocks",
    "Has content sources",
    "Owner",
    "Block domain",
];

/// The row of the block domain.
const BLOCK_DOMAIN: usize = 6;

#[derive(Debug, Clone, PartialEq)]
pub struct FilterPopup {
    pub row: usize,
    pub draft: IntegrationFilter,
    /// The organization `Owner` can be set to, with its title.
    pub owner: (String, String),
    /// The domains `Block domain` can be set to.
    pub domains: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PopupOutcome {
    Pending,
    Apply(IntegrationFilter),
    Cancel,
}

impl FilterPopup {
    pub fn new(
        filter: &IntegrationFilter,
        owner: (String, String),
        domains: Vec<String>,
    ) -> FilterPopup {
        FilterPopup {
            row: 0,
            draft: filter.clone(),
            owner,
            domains,
        }
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> PopupOutcome {
        match key.code {
            KeyCode::Esc => return PopupOutcome::Cancel,
            KeyCode::Enter => return PopupOutcome::Apply(self.draft.clone()),
            KeyCode::Up | KeyCode::Char('k') => self.row = self.row.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.row = (self.row + 1).min(ROWS.len() - 1)
            }
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => self.cycle(true),
            KeyCode::Left | KeyCode::Char('h') => self.cycle(false),
            KeyCode::Backspace | KeyCode::Delete => self.reset_row(),
            _ => {}
        }
        PopupOutcome::Pending
    }

    /// The values a text row can take: none, then each allowed one.
    fn text_values(&self) -> Vec<String> {
        match self.row {
            0 => CATEGORIES.iter().map(|c| c.to_string()).collect(),
            1 => SCOPES.iter().map(|s| s.to_string()).collect(),
            2 => TARGETS.iter().map(|t| t.to_string()).collect(),
            BLOCK_DOMAIN => self.domains.clone(),
            _ => vec![self.owner.0.clone()],
        }
    }

    fn cycle(&mut self, forward: bool) {
        match self.row {
            3 => self.draft.blocks = next_flag(self.draft.blocks, forward),
            4 => self.draft.content_sources = next_flag(self.draft.content_sources, forward),
            _ => {
                let values = self.text_values();
                let slot = self.text_slot();
                *slot = next_value(slot.as_deref(), &values, forward);
            }
        }
    }

    fn text_slot(&mut self) -> &mut Option<String> {
        match self.row {
            0 => &mut self.draft.category,
            1 => &mut self.draft.scope,
            2 => &mut self.draft.target,
            BLOCK_DOMAIN => &mut self.draft.block_domain,
            _ => &mut self.draft.owner,
        }
    }

    fn reset_row(&mut self) {
        match self.row {
            3 => self.draft.blocks = None,
            4 => self.draft.content_sources = None,
            _ => *self.text_slot() = None,
        }
    }

    /// A row's value in words.
    pub fn value(&self, row: usize) -> String {
        let text = |value: &Option<String>| value.clone().unwrap_or_else(|| "any".into());
        let flag = |value: Option<bool>| match value {
            None => "any".to_string(),
            Some(true) => "yes".to_string(),
            Some(false) => "no".to_string(),
        };
        match row {
            0 => text(&self.draft.category),
            1 => self.draft.scope.as_deref().map_or_else(
                || "any".to_string(),
                |scope| format!("{scope} ({})", explain_scope(scope)),
            ),
            2 => text(&self.draft.target),
            3 => flag(self.draft.blocks),
            4 => flag(self.draft.content_sources),
            BLOCK_DOMAIN => text(&self.draft.block_domain),
            _ => match &self.draft.owner {
                Some(id) if *id == self.owner.0 => self.owner.1.clone(),
                Some(id) => id.clone(),
                None => "any".to_string(),
            },
        }
    }
}

/// any → yes → no → any (or backwards).
fn next_flag(value: Option<bool>, forward: bool) -> Option<bool> {
    match (value, forward) {
        (None, true) | (Some(false), false) => Some(true),
        (Some(true), true) | (None, false) => Some(false),
        _ => None,
    }
}

/// none → first → … → last → none (or backwards).
fn next_value(current: Option<&str>, values: &[String], forward: bool) -> Option<String> {
    let position = current.and_then(|current| values.iter().position(|value| value == current));
    let next = match (position, forward) {
        (None, true) => Some(0),
        (None, false) => values.len().checked_sub(1),
        (Some(index), true) => (index + 1 < values.len()).then_some(index + 1),
        (Some(index), false) => index.checked_sub(1),
    };
    next.and_then(|index| values.get(index).cloned())
}

/// A scope (`resource:area:action`) in words: `space:content:read` → "read space content".
pub fn explain_scope(scope: &str) -> String {
    let parts: Vec<&str> = scope.split(':').collect();
    let words = |text: &str| text.replace('-', " ");
    match parts.as_slice() {
        [resource, area, action] => {
            let verb = match *action {
                "read" => "read",
                "write" => "change",
                "sync" => "sync",
                "inject" => "inject",
                "auth" => "authenticate",
                other => other,
            };
            let thing = match (*area, *action) {
                ("script", "inject") => format!("scripts into {resource}s"),
                ("script", "cookies") => format!("set cookies from {resource} scripts"),
                ("visitor", "auth") => format!("{resource} visitors"),
                ("visitor", "claims") => format!("read {resource} visitor claims"),
                _ => format!("{} {}", words(resource), words(area)),
            };
            match (*area, *action) {
                ("script", "cookies") | ("visitor", "claims") => thing,
                _ => format!("{verb} {thing}"),
            }
        }
        [resource, action] => format!("{} {}", words(action), words(resource)),
        _ => scope.to_string(),
    }
}

pub fn draw(popup: &FilterPopup, frame: &mut Canvas, area: Rect, theme: &Theme) {
    if area.width < 10 || area.height < 4 {
        return;
    }
    frame.hits.modal();
    let rect = centered(area, 64, ROWS.len() as u16 + 3);
    frame.render_widget(Clear, rect);
    let block = popup_block("Filters", theme);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let mut lines: Vec<Line> = ROWS
        .iter()
        .enumerate()
        .map(|(row, label)| {
            let style = if row == popup.row {
                theme.style("selection")
            } else {
                theme.style("text")
            };
            Line::from(vec![
                Span::styled(format!("{label:<20}"), style),
                Span::styled(format!("‹ {} ›", popup.value(row)), style),
            ])
        })
        .collect();
    lines.push(Line::from(Span::styled(
        "←/→ change · ⌫ any · enter apply · esc cancel",
        theme.style("muted"),
    )));
    frame.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_read_as_words() {
        assert_eq!(explain_scope("space:content:read"), "read space content");
        assert_eq!(
            explain_scope("space:metadata:write"),
            "change space metadata"
        );
        assert_eq!(
            explain_scope("site:script:inject"),
            "inject scripts into sites"
        );
        assert_eq!(
            explain_scope("conversations:ingest"),
            "ingest conversations"
        );
        assert_eq!(explain_scope("odd"), "odd");
    }

    #[test]
    fn values_cycle_through_any() {
        let values = vec!["a".to_string(), "b".to_string()];
        assert_eq!(next_value(None, &values, true).as_deref(), Some("a"));
        assert_eq!(next_value(Some("b"), &values, true), None);
        assert_eq!(next_value(None, &values, false).as_deref(), Some("b"));
        assert_eq!(next_flag(None, true), Some(true));
        assert_eq!(next_flag(Some(false), true), None);
    }
}

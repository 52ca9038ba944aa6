//! A popup showing one address the server gave (a PDF, a download): `y` copies it with OSC 52,
//! `o` opens it in the browser, esc closes. The address is server text: drawn sanitized, and
//! wrapped so a long one is seen whole.

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::hit::Canvas;
use crate::layout::centered;
use crate::sanitize::sanitize;
use crate::theme::Theme;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressPopup {
    /// What the address is of ("PDF of #1").
    pub title: String,
    pub address: String,
}

/// What a key asks for; the popup stays open after a copy or an open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressOutcome {
    Copy(String),
    Open(String),
    Close,
    Pending,
}

impl AddressPopup {
    pub fn new(title: impl Into<String>, address: impl Into<String>) -> AddressPopup {
        AddressPopup {
            title: title.into(),
            address: address.into(),
        }
    }

    pub fn handle_key(&self, key: &KeyEvent) -> AddressOutcome {
        match key.code {
            KeyCode::Char('y') => AddressOutcome::Copy(self.address.clone()),
            KeyCode::Char('o') => AddressOutcome::Open(self.address.clone()),
            KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q') => AddressOutcome::Close,
            _ => AddressOutcome::Pending,
        }
    }

    pub fn draw(&self, frame: &mut Canvas, area: Rect, theme: &Theme) {
        if area.width < 4 || area.height < 3 {
            return;
        }
        let width = area.width.min(72);
        let inner_width = usize::from(width.saturating_sub(2).max(1));
        let address = sanitize(&self.address).into_owned();
        let address_rows = (address.chars().count() / inner_width + 1) as u16;
        frame.hits.modal();
        let popup = centered(area, width, address_rows + 4);
        frame.render_widget(Clear, popup);
        let block = crate::picker::popup_block(&self.title, theme);
        let lines = vec![
            Line::from(Span::styled(address, theme.style("accent"))),
            Line::from(""),
            Line::from(Span::styled(
                "y copy · o open · esc close",
                theme.style("muted"),
            )),
        ];
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false }),
            popup,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn y_copies_o_opens_esc_closes() {
        let popup = AddressPopup::new("PDF", "https://files.example/a.pdf");
        assert_eq!(
            popup.handle_key(&key(KeyCode::Char('y'))),
            AddressOutcome::Copy("https://files.example/a.pdf".into())
        );
        assert_eq!(
            popup.handle_key(&key(KeyCode::Char('o'))),
            AddressOutcome::Open("https://files.example/a.pdf".into())
        );
        assert_eq!(popup.handle_key(&key(KeyCode::Esc)), AddressOutcome::Close);
        assert_eq!(
            popup.handle_key(&key(KeyCode::Char('x'))),
            AddressOutcome::Pending
        );
    }
}

//! A yes/no question before something that cannot be taken back (publish, delete, revoke,
//! leaving unsaved work): what is asked, what will happen, `y`/enter confirms, `n`/esc cancels.
//! The widget holds only text; the caller keeps what to do once confirmed.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::ui::chrome::centered;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirm {
    /// The question, e.g. "Delete share link “Partners”?".
    pub question: String,
    /// What confirming will do, in sentences, e.g. "People using this link lose access."
    pub consequence: String,
    /// The verb on the confirming key ("delete", "publish").
    pub verb: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfirmOutcome {
    Confirmed,
    Cancelled,
    /// Any other key: the question stays.
    Ignored,
}

impl Confirm {
    pub fn new(
        question: impl Into<String>,
        consequence: impl Into<String>,
        verb: impl Into<String>,
    ) -> Confirm {
        Confirm {
            question: question.into(),
            consequence: consequence.into(),
            verb: verb.into(),
        }
    }

    pub fn handle_key(&self, key: &KeyEvent) -> ConfirmOutcome {
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter if !control => {
                ConfirmOutcome::Confirmed
            }
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => ConfirmOutcome::Cancelled,
            KeyCode::Char('c') if control => ConfirmOutcome::Cancelled,
            _ => ConfirmOutcome::Ignored,
        }
    }

    /// The whole text as shown, for tests and screen readers of the buffer.
    pub fn text(&self) -> String {
        format!("{}\n{}", self.question, self.consequence)
    }

    /// Drawn as a box in the middle of `area`; the text wraps, nothing is cut at small sizes
    /// except what does not fit at all.
    pub fn draw(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        if area.width < 3 || area.height < 3 {
            return;
        }
        let width = area.width.min(64);
        let inner_width = width.saturating_sub(2).max(1) as usize;
        let text_rows = |text: &str| (text.chars().count() / inner_width + 1) as u16;
        let height = text_rows(&self.question) + text_rows(&self.consequence) + 4;
        let popup = centered(area, width, height);
        frame.render_widget(Clear, popup);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.style("border_focused"))
            .title(" Confirm ");
        let lines = vec![
            Line::from(Span::styled(
                sanitize(&self.question).into_owned(),
                theme.style("title"),
            )),
            Line::from(Span::styled(
                sanitize(&self.consequence).into_owned(),
                theme.style("text"),
            )),
            Line::from(""),
            Line::from(vec![
                Span::styled(" y ", theme.style("footer_key")),
                Span::styled(format!(" {}  ", self.verb), theme.style("footer_text")),
                Span::styled(" n ", theme.style("footer_key")),
                Span::styled(" cancel", theme.style("footer_text")),
            ]),
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

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn y_and_enter_confirm_n_and_esc_cancel() {
        let confirm = Confirm::new("Delete?", "It is gone for good.", "delete");
        assert_eq!(
            confirm.handle_key(&key(KeyCode::Char('y'))),
            ConfirmOutcome::Confirmed
        );
        assert_eq!(
            confirm.handle_key(&key(KeyCode::Enter)),
            ConfirmOutcome::Confirmed
        );
        assert_eq!(
            confirm.handle_key(&key(KeyCode::Char('n'))),
            ConfirmOutcome::Cancelled
        );
        assert_eq!(
            confirm.handle_key(&key(KeyCode::Esc)),
            ConfirmOutcome::Cancelled
        );
        assert_eq!(
            confirm.handle_key(&key(KeyCode::Char('x'))),
            ConfirmOutcome::Ignored
        );
    }
}

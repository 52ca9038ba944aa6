//! The one-line prompt: a popup asking for a short text, checked as it is typed. What the text
//! is for (`P`) says what is refused and why.

use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::hit::Canvas;
use crate::input::LineInput;
use crate::layout::centered;
use crate::sanitize::sanitize;
use crate::theme::Theme;

/// Why a prompt's text would be refused, in words; `None` when it is fine.
pub trait TextCheck {
    fn check(&self, text: &str) -> Option<String>;
}

#[derive(Debug, Clone, PartialEq)]
pub struct Prompt<P> {
    pub title: String,
    pub hint: String,
    pub input: LineInput,
    pub purpose: P,
}

impl<P: TextCheck> Prompt<P> {
    pub fn new(title: &str, hint: &str, text: &str, purpose: P) -> Prompt<P> {
        Prompt {
            title: title.to_string(),
            hint: hint.to_string(),
            input: LineInput::with_text(text),
            purpose,
        }
    }

    pub fn error(&self) -> Option<String> {
        self.purpose.check(&self.input.text)
    }
}

pub fn draw<P: TextCheck>(prompt: &Prompt<P>, frame: &mut Canvas, area: Rect, theme: &Theme) {
    if area.width < 4 || area.height < 3 {
        return;
    }
    frame.hits.modal();
    let popup = centered(area, 60, 5);
    frame.render_widget(Clear, popup);
    let block = crate::picker::popup_block(&prompt.title, theme);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let status = match prompt.error() {
        Some(error) => Span::styled(format!("✗ {error}"), theme.style("error")),
        None => Span::styled(
            format!("{} · enter ok · esc cancel", prompt.hint),
            theme.style("muted"),
        ),
    };
    let lines = vec![
        Line::from(Span::styled(
            sanitize(&prompt.input.text).into_owned(),
            theme.style("text"),
        )),
        Line::from(status),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    let x = inner.x.saturating_add(prompt.input.cursor_column() as u16);
    if x < inner.right() && inner.height > 0 {
        frame.set_cursor_position(Position::new(x, inner.y));
    }
}

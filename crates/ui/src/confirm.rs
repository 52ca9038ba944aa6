//! A yes/no question before something that cannot be taken back (publish, delete, revoke,
//! leaving unsaved work): what is asked, what will happen, `y`/enter confirms, `n`/esc cancels.
//! The widget holds only text; the caller keeps what to do once confirmed.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::hit::Canvas;
use crate::layout::centered;
use crate::sanitize::sanitize;
use crate::theme::Theme;

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

    /// Drawn as a box in the middle of `area`; the text wraps, and the `y` / `n` row stays on
    /// the box's last line however small the screen: what does not fit is the text's end.
    pub fn draw(&self, frame: &mut Canvas, area: Rect, theme: &Theme) {
        if area.width < 3 || area.height < 3 {
            return;
        }
        let width = area.width.min(64);
        let inner_width = width.saturating_sub(2).max(1);
        // Line by line: sanitizing the whole would turn the line breaks into marks.
        let question = sanitize_lines(&self.question);
        let consequence = sanitize_lines(&self.consequence);
        let text_rows =
            wrapped_rows(&question, inner_width) + wrapped_rows(&consequence, inner_width);
        // Borders, a blank row and the keys' row.
        frame.hits.modal();
        let popup = centered(area, width, text_rows.saturating_add(4));
        frame.render_widget(Clear, popup);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.style("border_focused"))
            .title(" Confirm ");
        let inner = block.inner(popup);
        frame.render_widget(block, popup);
        let [text_area, keys_area] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(inner);
        let mut lines: Vec<Line> = question
            .split('\n')
            .map(|line| Line::from(Span::styled(line.to_string(), theme.style("title"))))
            .collect();
        lines.extend(
            consequence
                .split('\n')
                .map(|line| Line::from(Span::styled(line.to_string(), theme.style("text")))),
        );
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), text_area);
        let keys = Line::from(vec![
            Span::styled(" y ", theme.style("footer_key")),
            Span::styled(format!(" {}  ", self.verb), theme.style("footer_text")),
            Span::styled(" n ", theme.style("footer_key")),
            Span::styled(" cancel", theme.style("footer_text")),
        ]);
        frame.render_widget(Paragraph::new(keys), keys_area);
    }
}

/// `text` with each line sanitized, the line breaks kept.
fn sanitize_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| sanitize(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rows `text` takes wrapped at word boundaries to `width` cells, each of its lines at
/// least one: as `Paragraph`'s word wrapping lays it out, near enough to size the box.
fn wrapped_rows(text: &str, width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let rows: usize = text
        .split('\n')
        .map(|line| {
            let mut rows = 1;
            let mut used = 0;
            for word in line.split(' ') {
                let word_width = crate::text::width(word);
                let needed = if used == 0 {
                    word_width
                } else {
                    used + 1 + word_width
                };
                if needed <= width {
                    used = needed;
                    continue;
                }
                if used > 0 {
                    rows += 1;
                }
                // A word wider than the box is broken over as many rows as it needs.
                let extra_rows = word_width.saturating_sub(1) / width;
                rows += extra_rows;
                used = word_width - extra_rows * width;
            }
            rows
        })
        .sum();
    u16::try_from(rows).unwrap_or(u16::MAX)
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

    fn drawn(confirm: &Confirm, width: u16, height: u16) -> String {
        let backend = ratatui::backend::TestBackend::new(width, height);
        let mut terminal = ratatui::Terminal::new(backend).expect("terminal");
        terminal
            .draw(|frame| {
                let area = frame.area();
                confirm.draw(&mut Canvas::new(frame), area, &Theme::default());
            })
            .expect("draw");
        terminal.backend().to_string()
    }

    #[test]
    fn the_keys_row_shows_however_long_the_text_is() {
        let consequence = (1..=8)
            .map(|n| format!("Line {n}: someone added and removed ends up removed."))
            .collect::<Vec<_>>()
            .join("\n");
        let confirm = Confirm::new("Apply these changes to “Platform”?", &consequence, "apply");
        for (width, height) in [(40, 12), (80, 24), (20, 6)] {
            let screen = drawn(&confirm, width, height);
            assert!(screen.contains(" y "), "{width}x{height}:\n{screen}");
            assert!(screen.contains(" n "), "{width}x{height}:\n{screen}");
        }
        // With room, every line of the text shows, each on a row of its own.
        let screen = drawn(&confirm, 80, 24);
        assert!(screen.contains("Line 8"), "{screen}");
        let rows_with_a_line = screen.lines().filter(|row| row.contains("Line ")).count();
        assert_eq!(rows_with_a_line, 8, "{screen}");
        assert!(!screen.contains('\u{fffd}'), "{screen}");
    }

    #[test]
    fn rows_are_counted_as_words_wrap() {
        assert_eq!(wrapped_rows("", 10), 1);
        assert_eq!(wrapped_rows("one two three", 7), 2);
        assert_eq!(wrapped_rows("a\nb\nc", 10), 3);
        assert_eq!(wrapped_rows("abcdefghijklmnopqrstuvwxyz", 10), 3);
    }
}

//! A one-line text input for filters and searches.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_segmentation::UnicodeSegmentation;

use crate::sanitize::sanitize;
use crate::theme::Theme;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineInput {
    pub text: String,
    /// Byte offset of the cursor, always on a grapheme boundary.
    cursor: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputOutcome {
    Changed,
    Moved,
    Submitted,
    Cancelled,
    Ignored,
}

impl LineInput {
    pub fn with_text(text: &str) -> LineInput {
        LineInput {
            text: text.to_string(),
            cursor: text.len(),
        }
    }

    /// Cursor position in graphemes, for drawing.
    pub fn cursor_column(&self) -> usize {
        crate::text::width(&self.text[..self.cursor])
    }

    pub fn insert_str(&mut self, text: &str) {
        let clean: String = text.chars().filter(|c| !c.is_control()).collect();
        self.text.insert_str(self.cursor, &clean);
        self.cursor += clean.len();
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> InputOutcome {
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Enter => InputOutcome::Submitted,
            KeyCode::Esc => InputOutcome::Cancelled,
            KeyCode::Char('c') if control => InputOutcome::Cancelled,
            KeyCode::Char('u') if control => {
                self.text.replace_range(..self.cursor, "");
                self.cursor = 0;
                InputOutcome::Changed
            }
            KeyCode::Char('w') if control => {
                let before = self.text[..self.cursor].trim_end();
                let start = before.rfind(' ').map_or(0, |i| i + 1);
                self.text.replace_range(start..self.cursor, "");
                self.cursor = start;
                InputOutcome::Changed
            }
            KeyCode::Char('a') if control => {
                self.cursor = 0;
                InputOutcome::Moved
            }
            KeyCode::Char('e') if control => {
                self.cursor = self.text.len();
                InputOutcome::Moved
            }
            KeyCode::Char(c) if !control => {
                self.text.insert(self.cursor, c);
                self.cursor += c.len_utf8();
                InputOutcome::Changed
            }
            KeyCode::Backspace => match self.previous_boundary() {
                Some(start) => {
                    self.text.replace_range(start..self.cursor, "");
                    self.cursor = start;
                    InputOutcome::Changed
                }
                None => InputOutcome::Ignored,
            },
            KeyCode::Delete => match self.next_boundary() {
                Some(end) => {
                    self.text.replace_range(self.cursor..end, "");
                    InputOutcome::Changed
                }
                None => InputOutcome::Ignored,
            },
            KeyCode::Left => {
                self.cursor = self.previous_boundary().unwrap_or(self.cursor);
                InputOutcome::Moved
            }
            KeyCode::Right => {
                self.cursor = self.next_boundary().unwrap_or(self.cursor);
                InputOutcome::Moved
            }
            KeyCode::Home => {
                self.cursor = 0;
                InputOutcome::Moved
            }
            KeyCode::End => {
                self.cursor = self.text.len();
                InputOutcome::Moved
            }
            _ => InputOutcome::Ignored,
        }
    }

    fn previous_boundary(&self) -> Option<usize> {
        self.text[..self.cursor]
            .grapheme_indices(true)
            .next_back()
            .map(|(i, _)| i)
    }

    fn next_boundary(&self) -> Option<usize> {
        self.text[self.cursor..]
            .graphemes(true)
            .next()
            .map(|g| self.cursor + g.len())
    }
}

/// Splits off a bottom row for a filter when one is shown.
pub fn with_filter_row(area: Rect, show: bool) -> (Rect, Option<Rect>) {
    if !show || area.height < 2 {
        return (area, None);
    }
    let [main, filter] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    (main, Some(filter))
}

/// Draws "/ text" with a cursor while typing, or the applied filter when done.
pub fn draw_filter(frame: &mut Frame, area: Rect, filter: &Filter, theme: &Theme) {
    let input = filter.input.as_ref();
    let text = input.map_or(filter.text.as_str(), |i| i.text.as_str());
    let mut spans = vec![
        Span::styled("/", theme.style("accent")),
        Span::styled(sanitize(text).into_owned(), theme.style("text")),
    ];
    if input.is_none() {
        spans.push(Span::styled("   (esc clears)", theme.style("muted")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
    if let Some(input) = input {
        let x = area.x + 1 + input.cursor_column() as u16;
        if x < area.right() {
            frame.set_cursor_position(Position::new(x, area.y));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(input: &mut LineInput, code: KeyCode) -> InputOutcome {
        input.handle_key(&KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn typing_editing_and_graphemes() {
        let mut input = LineInput::default();
        for c in "café👍🏽".chars() {
            press(&mut input, KeyCode::Char(c));
        }
        assert_eq!(press(&mut input, KeyCode::Backspace), InputOutcome::Changed);
        assert_eq!(input.text, "café", "one backspace removes the whole emoji");
        press(&mut input, KeyCode::Left);
        press(&mut input, KeyCode::Delete);
        assert_eq!(input.text, "caf");
        assert_eq!(press(&mut input, KeyCode::Enter), InputOutcome::Submitted);
    }

    #[test]
    fn pasted_control_characters_are_dropped() {
        let mut input = LineInput::default();
        input.insert_str("a\u{1b}[2Jb\n");
        assert_eq!(input.text, "a[2Jb");
    }
}

/// The `/` filter every list shares: typing filters live, enter keeps it, esc clears it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Some while the user is typing.
    pub input: Option<LineInput>,
    /// The filter in force (follows the input while typing).
    pub text: String,
}

impl Filter {
    pub fn open(&mut self) {
        self.input = Some(LineInput::with_text(&self.text));
    }

    pub fn is_typing(&self) -> bool {
        self.input.is_some()
    }

    /// Whether a filter row should be drawn.
    pub fn is_shown(&self) -> bool {
        self.input.is_some() || !self.text.is_empty()
    }

    pub fn clear(&mut self) {
        self.input = None;
        self.text.clear();
    }

    /// Handles a key while typing; None when the filter is not open.
    pub fn handle_key(&mut self, key: &KeyEvent) -> Option<InputOutcome> {
        let input = self.input.as_mut()?;
        let outcome = input.handle_key(key);
        match outcome {
            InputOutcome::Cancelled => self.clear(),
            InputOutcome::Submitted => self.input = None,
            _ => self.text = input.text.clone(),
        }
        Some(outcome)
    }

    pub fn paste(&mut self, text: &str) {
        if let Some(input) = self.input.as_mut() {
            input.insert_str(text);
            self.text = input.text.clone();
        }
    }

    /// True while no filter text is in force: everything matches, so a caller need not build
    /// the text it would match against.
    pub fn keeps_everything(&self) -> bool {
        self.text.is_empty()
    }

    /// Case-insensitive substring match against the filter text.
    pub fn matches(&self, candidate: &str) -> bool {
        self.text.is_empty() || candidate.to_lowercase().contains(&self.text.to_lowercase())
    }
}

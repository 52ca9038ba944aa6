//! Choose a reaction: fuzzy search by emoji name (and GitHub shortcode), recently used first.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::hit::Canvas;
use crate::input::{InputOutcome, LineInput};
use crate::layout::centered;
use crate::list::Selection;
use crate::text;
use crate::theme::Theme;

/// Offered first when nothing was searched, after the recently used ones.
const FAVOURITES: &[&str] = &["👍", "👎", "😄", "🎉", "😕", "❤️", "🚀", "👀", "✅", "🙏"];

#[derive(Debug, Clone, PartialEq)]
pub struct EmojiChoice {
    pub emoji: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PickerOutcome {
    Chosen(String),
    Cancelled,
    Pending,
}

#[derive(Debug, Clone)]
pub struct EmojiPicker {
    pub input: LineInput,
    pub results: Vec<EmojiChoice>,
    pub selection: Selection,
    recent: Vec<String>,
    /// Emoji the user already gave on this comment: choosing one removes it.
    pub mine: Vec<String>,
    /// The popup's title: what the emoji is for.
    pub title: String,
}

impl EmojiPicker {
    pub fn new(recent: &[String], mine: Vec<String>) -> EmojiPicker {
        let mut picker = EmojiPicker {
            input: LineInput::default(),
            results: Vec::new(),
            selection: Selection::default(),
            recent: recent.to_vec(),
            mine,
            title: " React — type to search, enter picks ".to_string(),
        };
        picker.search();
        picker
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> PickerOutcome {
        match key.code {
            KeyCode::Down | KeyCode::Tab => {
                self.selection.move_by(1, self.results.len());
                return PickerOutcome::Pending;
            }
            KeyCode::Up | KeyCode::BackTab => {
                self.selection.move_by(-1, self.results.len());
                return PickerOutcome::Pending;
            }
            _ => {}
        }
        match self.input.handle_key(key) {
            InputOutcome::Submitted => match self.results.get(self.selection.selected) {
                Some(choice) => PickerOutcome::Chosen(choice.emoji.clone()),
                None => PickerOutcome::Pending,
            },
            InputOutcome::Cancelled => PickerOutcome::Cancelled,
            InputOutcome::Changed => {
                self.search();
                PickerOutcome::Pending
            }
            _ => PickerOutcome::Pending,
        }
    }

    fn search(&mut self) {
        self.selection = Selection::default();
        let query = self.input.text.trim();
        self.results = if query.is_empty() {
            self.default_choices()
        } else {
            fuzzy(query)
        };
    }

    fn default_choices(&self) -> Vec<EmojiChoice> {
        let mut choices: Vec<EmojiChoice> = Vec::new();
        for emoji in self
            .recent
            .iter()
            .map(String::as_str)
            .chain(FAVOURITES.iter().copied())
        {
            if choices.iter().any(|c| c.emoji == emoji) {
                continue;
            }
            let name = emojis::get(emoji).map_or(String::new(), |e| e.name().to_string());
            choices.push(EmojiChoice {
                emoji: emoji.to_string(),
                name,
            });
        }
        choices
    }

    pub fn draw(&self, frame: &mut Canvas, area: Rect, theme: &Theme) {
        frame.hits.modal();
        let popup = centered(area, 44, 14);
        frame.render_widget(Clear, popup);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.style("border_focused"))
            .title(self.title.clone());
        let inner = block.inner(popup);
        frame.render_widget(block, popup);
        if inner.height == 0 {
            return;
        }
        let query = Line::from(vec![
            Span::styled("> ", theme.style("accent")),
            Span::raw(self.input.text.clone()),
        ]);
        frame.render_widget(
            Paragraph::new(query),
            Rect::new(inner.x, inner.y, inner.width, 1),
        );
        let cursor = inner.x + 2 + self.input.cursor_column() as u16;
        if cursor < inner.right() {
            frame.set_cursor_position(Position::new(cursor, inner.y));
        }
        let list = Rect::new(inner.x, inner.y + 1, inner.width, inner.height - 1);
        let range = self
            .selection
            .visible_range(self.results.len(), list.height as usize);
        let lines: Vec<Line> = self.results[range.clone()]
            .iter()
            .enumerate()
            .map(|(offset, choice)| {
                let given = self.mine.contains(&choice.emoji);
                let note = if given { "  (yours: removes it)" } else { "" };
                let style = if range.start + offset == self.selection.selected {
                    theme.style("selection")
                } else {
                    theme.style("text")
                };
                // Drawn as every emoji is drawn (one width everywhere), fitted to the
                // popup so no row can reach past its border.
                let emoji = text::emoji_presentation(&choice.emoji);
                let row = format!("{emoji} {}{note}", choice.name);
                Line::from(Span::styled(text::truncate(&row, list.width.into()), style))
            })
            .collect();
        frame.render_widget(Paragraph::new(lines), list);
    }
}

/// Emoji whose name or shortcodes match `query`, best first.
pub fn fuzzy(query: &str) -> Vec<EmojiChoice> {
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut buffer = Vec::new();
    let mut scored: Vec<(u32, &'static emojis::Emoji)> = Vec::new();
    for emoji in emojis::iter() {
        let best = std::iter::once(emoji.name())
            .chain(emoji.shortcodes())
            .filter_map(|text| pattern.score(Utf32Str::new(text, &mut buffer), &mut matcher))
            .max();
        if let Some(score) = best {
            scored.push((score, emoji));
        }
    }
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    scored
        .into_iter()
        .take(200)
        .map(|(_, emoji)| EmojiChoice {
            emoji: emoji.as_str().to_string(),
            name: emoji.name().to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn type_text(picker: &mut EmojiPicker, text: &str) {
        for c in text.chars() {
            picker.handle_key(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
    }

    #[test]
    fn search_by_name_and_shortcode() {
        assert_eq!(fuzzy("thumbs up")[0].emoji, "👍");
        assert!(fuzzy("tada").iter().take(3).any(|c| c.emoji == "🎉"));
        assert!(fuzzy("rocket").iter().take(3).any(|c| c.emoji == "🚀"));
    }

    #[test]
    fn recent_reactions_come_first_then_favourites() {
        let picker = EmojiPicker::new(&["🦀".to_string()], Vec::new());
        assert_eq!(picker.results[0].emoji, "🦀");
        assert_eq!(picker.results[1].emoji, "👍");
    }

    /// Emoji with a variation selector (❤️, ☘️) and text-presentation ones (🗺) end every
    /// row at the border: each row is as wide as ratatui draws it, never wider than the popup.
    #[test]
    fn rows_with_variation_selectors_keep_the_border_in_place() {
        let recent: Vec<String> = ["☘️", "❤️", "🗺️", "🗺", "☘"]
            .iter()
            .map(|e| e.to_string())
            .collect();
        let picker = EmojiPicker::new(&recent, vec!["❤️".into()]);
        let theme = Theme::default();
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(50, 16)).expect("terminal");
        terminal
            .draw(|frame| {
                let area = frame.area();
                picker.draw(&mut Canvas::new(frame), area, &theme);
            })
            .expect("draw");
        let buffer = terminal.backend().buffer();
        let popup = centered(buffer.area, 44, 14);
        let right = popup.right() - 1;
        for y in popup.y + 1..popup.bottom() - 1 {
            assert_eq!(buffer[(right, y)].symbol(), "│", "row {y}: {buffer:?}");
        }
        for choice in &picker.results {
            let shown = text::emoji_presentation(&choice.emoji);
            assert_eq!(text::width(&shown), 2, "{:?}", choice.emoji);
        }
    }

    #[test]
    fn typing_then_enter_chooses() {
        let mut picker = EmojiPicker::new(&[], Vec::new());
        type_text(&mut picker, "rocket");
        let chosen = picker.handle_key(&KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        assert_eq!(chosen, PickerOutcome::Chosen("🚀".into()));
        let cancelled = picker.handle_key(&KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        assert_eq!(cancelled, PickerOutcome::Cancelled);
    }
}

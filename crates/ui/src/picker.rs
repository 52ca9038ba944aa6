//! The one picker: a popup list to choose one value, or several with space. Screens keep a
//! `Picker<P>` whose `P` says what the choice is for. `/` narrows a long list by what is typed
//! (as in every list of quire); `esc` then clears the text before it cancels the picker.

use std::collections::BTreeSet;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::hit::Canvas;
use crate::layout::centered;
use crate::list::Selection;
use crate::sanitize::sanitize;
use crate::theme::Theme;

/// One choice of a picker: the value it stands for, a label and a line explaining it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickOption {
    pub value: String,
    pub label: String,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Picker<P> {
    pub title: String,
    pub options: Vec<PickOption>,
    pub selection: Selection,
    /// Several choices with space; enter confirms them all.
    pub multiple: bool,
    pub chosen: BTreeSet<usize>,
    pub purpose: P,
    /// Text narrowing the options (case-insensitive, on the label); `None` when not filtering.
    pub filter: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickOutcome {
    /// The values chosen (one, unless the picker takes several).
    Picked(Vec<String>),
    Cancelled,
    Pending,
}

impl<P> Picker<P> {
    pub fn new(title: &str, options: Vec<PickOption>, purpose: P) -> Picker<P> {
        Picker {
            title: title.to_string(),
            options,
            selection: Selection::default(),
            multiple: false,
            chosen: BTreeSet::new(),
            purpose,
            filter: None,
        }
    }

    /// Indices into `options` of those shown: all, or those whose label holds the filter.
    pub fn shown(&self) -> Vec<usize> {
        let needle = self.filter.as_deref().unwrap_or_default().to_lowercase();
        (0..self.options.len())
            .filter(|&index| {
                needle.is_empty() || self.options[index].label.to_lowercase().contains(&needle)
            })
            .collect()
    }

    /// The option under the cursor, as an index into `options`.
    pub fn current(&self) -> Option<usize> {
        self.shown().get(self.selection.selected).copied()
    }

    /// Typing into the filter: `Some` when the key was the filter's.
    fn filter_key(&mut self, key: &KeyEvent) -> Option<PickOutcome> {
        let filter = self.filter.as_mut()?;
        match key.code {
            // Typed text narrows; space still marks in a picker of several.
            KeyCode::Char(c)
                if !(key.modifiers.contains(KeyModifiers::CONTROL)
                    || c == ' ' && self.multiple) =>
            {
                filter.push(c)
            }
            KeyCode::Backspace => {
                filter.pop();
            }
            KeyCode::Esc => self.filter = None,
            _ => return None,
        }
        self.selection.top();
        Some(PickOutcome::Pending)
    }

    pub fn multiple(mut self) -> Picker<P> {
        self.multiple = true;
        self
    }

    /// Starts on the option holding `value`.
    pub fn at(mut self, value: Option<&str>) -> Picker<P> {
        if let Some(index) = self
            .options
            .iter()
            .position(|option| Some(option.value.as_str()) == value)
            && self.filter.is_none()
        {
            self.selection.select(index, self.options.len());
        }
        self
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> PickOutcome {
        if let Some(outcome) = self.filter_key(key) {
            return outcome;
        }
        let len = self.shown().len();
        match key.code {
            KeyCode::Char('/') => {
                self.filter = Some(String::new());
            }
            KeyCode::Down | KeyCode::Char('j') => self.selection.move_by(1, len),
            KeyCode::Up | KeyCode::Char('k') => self.selection.move_by(-1, len),
            KeyCode::Home | KeyCode::Char('g') => self.selection.top(),
            KeyCode::End | KeyCode::Char('G') => self.selection.bottom(len),
            KeyCode::Char(' ') if self.multiple => {
                if let Some(index) = self.current()
                    && !self.chosen.remove(&index)
                {
                    self.chosen.insert(index);
                }
            }
            KeyCode::Enter => {
                let picked: Vec<String> = if self.multiple {
                    self.chosen
                        .iter()
                        .filter_map(|index| self.options.get(*index))
                        .map(|option| option.value.clone())
                        .collect()
                } else {
                    self.current()
                        .and_then(|index| self.options.get(index))
                        .map(|option| option.value.clone())
                        .into_iter()
                        .collect()
                };
                if picked.is_empty() && !self.multiple {
                    return PickOutcome::Cancelled;
                }
                return PickOutcome::Picked(picked);
            }
            KeyCode::Esc | KeyCode::Char('q') => return PickOutcome::Cancelled,
            _ => {}
        }
        PickOutcome::Pending
    }
}

/// The bordered box of a popup, titled.
pub fn popup_block<'a>(title: &str, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(format!(" {} ", sanitize(title)))
}

pub fn draw<P>(picker: &Picker<P>, frame: &mut Canvas, area: Rect, theme: &Theme) {
    if area.width < 4 || area.height < 3 {
        return;
    }
    let shown = picker.shown();
    let filter_rows = u16::from(picker.filter.is_some());
    let height = (shown.len() as u16).max(1).saturating_add(6 + filter_rows);
    frame.hits.modal();
    let popup = centered(area, 70, height);
    frame.render_widget(Clear, popup);
    let block = popup_block(&picker.title, theme);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let [filter_area, list_area, detail_area] = Layout::vertical([
        Constraint::Length(filter_rows),
        Constraint::Min(0),
        Constraint::Length(4),
    ])
    .areas(inner);
    if let Some(filter) = &picker.filter {
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled("/", theme.style("muted")),
                Span::styled(sanitize(filter).into_owned(), theme.style("text")),
            ])),
            filter_area,
        );
    }
    let range = picker
        .selection
        .visible_range(shown.len(), list_area.height as usize);
    let mut lines: Vec<Line> = shown[range.clone()]
        .iter()
        .enumerate()
        .filter_map(|(offset, &index)| {
            Some((range.start + offset, index, picker.options.get(index)?))
        })
        .map(|(row, index, option)| {
            let style = if row == picker.selection.selected {
                theme.style("selection")
            } else {
                theme.style("text")
            };
            let mark = if !picker.multiple {
                ""
            } else if picker.chosen.contains(&index) {
                "[x] "
            } else {
                "[ ] "
            };
            Line::from(Span::styled(
                format!("{mark}{}", sanitize(&option.label)),
                style,
            ))
        })
        .collect();
    if shown.is_empty() {
        lines.push(Line::from(Span::styled(
            "Nothing matches — esc clears",
            theme.style("muted"),
        )));
    }
    frame.render_widget(Paragraph::new(lines), list_area);
    let detail = picker
        .current()
        .and_then(|index| picker.options.get(index))
        .map(|option| sanitize(&option.detail).into_owned())
        .unwrap_or_default();
    let keys = match (picker.multiple, picker.filter.is_some()) {
        (true, false) => "space marks · / filters · enter ok · esc cancel",
        (false, false) => "enter picks · / filters · esc cancel",
        (true, true) => "type to narrow · space marks · enter ok · esc clears",
        (false, true) => "type to narrow · enter picks · esc clears",
    };
    // A rule sets the selected option's description apart from the options themselves.
    let rule = "─".repeat(detail_area.width as usize);
    frame.render_widget(
        Paragraph::new(vec![
            Line::from(Span::styled(rule, theme.style("border"))),
            Line::from(Span::styled(
                detail,
                theme
                    .style("muted")
                    .add_modifier(ratatui::style::Modifier::ITALIC),
            )),
            Line::from(Span::styled(keys, theme.style("muted"))),
        ])
        .wrap(Wrap { trim: false }),
        detail_area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picker() -> Picker<()> {
        let options = ["Engineering", "Engineering › Platform", "Product Docs"]
            .into_iter()
            .map(|label| PickOption {
                value: label.to_lowercase(),
                label: label.into(),
                detail: String::new(),
            })
            .collect();
        Picker::new("Move to", options, ())
    }

    fn press(picker: &mut Picker<()>, code: KeyCode) -> PickOutcome {
        picker.handle_key(&KeyEvent::from(code))
    }

    #[test]
    fn slash_narrows_by_label_and_enter_picks_among_what_is_shown() {
        let mut picker = picker();
        press(&mut picker, KeyCode::Char('/'));
        for c in "plat".chars() {
            press(&mut picker, KeyCode::Char(c));
        }
        assert_eq!(picker.shown(), vec![1]);
        assert_eq!(
            press(&mut picker, KeyCode::Enter),
            PickOutcome::Picked(vec!["engineering › platform".into()])
        );
    }

    #[test]
    fn escape_clears_the_filter_before_it_cancels() {
        let mut picker = picker();
        press(&mut picker, KeyCode::Char('/'));
        press(&mut picker, KeyCode::Char('x'));
        assert!(picker.shown().is_empty());
        assert_eq!(press(&mut picker, KeyCode::Enter), PickOutcome::Cancelled);
        let mut picker = self::picker();
        press(&mut picker, KeyCode::Char('/'));
        press(&mut picker, KeyCode::Char('q'));
        assert_eq!(press(&mut picker, KeyCode::Esc), PickOutcome::Pending);
        assert_eq!(picker.shown().len(), 3, "q was text, esc cleared it");
        assert_eq!(press(&mut picker, KeyCode::Esc), PickOutcome::Cancelled);
    }

    #[test]
    fn marks_in_a_filtered_picker_of_several_are_of_the_options_shown() {
        let mut picker = picker().multiple();
        press(&mut picker, KeyCode::Char('/'));
        press(&mut picker, KeyCode::Char('d'));
        press(&mut picker, KeyCode::Char('o'));
        press(&mut picker, KeyCode::Char(' '));
        assert_eq!(
            press(&mut picker, KeyCode::Enter),
            PickOutcome::Picked(vec!["product docs".into()])
        );
    }
}

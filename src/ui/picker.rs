//! The one picker: a popup list to choose one value, or several with space. Screens keep a
//! `Picker<P>` whose `P` says what the choice is for.

use std::collections::BTreeSet;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::ui::chrome::centered;
use crate::ui::list::Selection;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;

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
        }
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
        {
            self.selection.select(index, self.options.len());
        }
        self
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> PickOutcome {
        let len = self.options.len();
        match key.code {
            KeyCode::Down | KeyCode::Char('j') => self.selection.move_by(1, len),
            KeyCode::Up | KeyCode::Char('k') => self.selection.move_by(-1, len),
            KeyCode::Home | KeyCode::Char('g') => self.selection.top(),
            KeyCode::End | KeyCode::Char('G') => self.selection.bottom(len),
            KeyCode::Char(' ') if self.multiple => {
                let index = self.selection.selected;
                if !self.chosen.remove(&index) && index < len {
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
                    self.options
                        .get(self.selection.selected)
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

pub fn draw<P>(picker: &Picker<P>, frame: &mut Frame, area: Rect, theme: &Theme) {
    if area.width < 4 || area.height < 3 {
        return;
    }
    let height = (picker.options.len() as u16).saturating_add(5);
    let popup = centered(area, 70, height);
    frame.render_widget(Clear, popup);
    let block = popup_block(&picker.title, theme);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let [list_area, detail_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(3)]).areas(inner);
    let range = picker
        .selection
        .visible_range(picker.options.len(), list_area.height as usize);
    let lines: Vec<Line> = picker.options[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, option)| {
            let index = range.start + offset;
            let style = if index == picker.selection.selected {
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
    frame.render_widget(Paragraph::new(lines), list_area);
    let detail = picker
        .options
        .get(picker.selection.selected)
        .map(|option| sanitize(&option.detail).into_owned())
        .unwrap_or_default();
    let keys = if picker.multiple {
        "space marks · enter ok · esc cancel"
    } else {
        "enter picks · esc cancel"
    };
    frame.render_widget(
        Paragraph::new(vec![
            Line::from(Span::styled(detail, theme.style("text"))),
            Line::from(Span::styled(keys, theme.style("muted"))),
        ])
        .wrap(Wrap { trim: false }),
        detail_area,
    );
}

//! Drawing a [`Form`]: a line per field (marks, label, value) with its message, the terminal
//! cursor where the user types, and how each screen's forms look ([`FormStyle`]).

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Form, FormFields};
use crate::sanitize::sanitize;
use crate::text;
use crate::theme::Theme;

/// How a form is drawn. The settings screens differ in small ways; each keeps its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormStyle {
    pub marks: Marks,
    /// Columns for the label, the two of the marks not included.
    pub label_width: usize,
    pub value: ValueFit,
    pub messages: Messages,
    pub checks: ShowChecks,
    /// A server refusal naming a field shows on that field after this prefix ("server: ");
    /// `None` leaves it to the view (a status line under the form, say).
    pub server_prefix: Option<&'static str>,
    /// When the fields do not fit the area, [`draw`] scrolls so the selected one stays in view.
    pub scroll: bool,
}

/// How the selected field and the changed ones stand out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marks {
    /// `› ` before the selected field and `*` after a changed field's label, all muted, the
    /// label padded to its width.
    Cursor,
    /// `• ` before a changed field and the selected field's label highlighted, the label fitted
    /// to its width and a space after it.
    Changed,
}

/// How a value fits the width left of the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueFit {
    /// Whole (the view wraps it); the terminal cursor where it is in the line being typed.
    Whole,
    /// Cut to the width left less `margin` columns; while typing, the end of the line stays in
    /// view (a pasted certificate) and the terminal cursor after it.
    Cut { margin: usize },
}

/// Where a field's message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Messages {
    /// After the value, on the field's line: `  ✗ message`.
    Inline,
    /// On a line of its own under the field, `indent` columns in.
    Below { indent: usize },
}

/// Which fields show what their check says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShowChecks {
    /// Every field, changed or not.
    Always,
    /// The fields that count for a save (see [`Form::counts`]).
    Counted,
    /// Those, and the field being typed into.
    CountedOrTyping,
}

/// What the view is told of a field's row when it says how to show its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub selected: bool,
    /// The selected field, being typed into.
    pub editing: bool,
    /// Differs from what was loaded.
    pub changed: bool,
}

/// A form as lines, ready to draw or to add to.
#[derive(Debug, Clone, PartialEq)]
pub struct FormLines {
    pub lines: Vec<Line<'static>>,
    /// Where the terminal cursor goes while typing: (column, row) in the lines.
    pub cursor: Option<(u16, u16)>,
    /// The rows of the selected field, its message included.
    pub selected_rows: Option<(usize, usize)>,
}

impl FormStyle {
    /// The column the values start at.
    pub fn value_column(&self) -> usize {
        match self.marks {
            Marks::Cursor => 2 + self.label_width,
            Marks::Changed => 2 + self.label_width + 1,
        }
    }

    fn label_spans(&self, label: &str, row: Row, theme: &Theme) -> Vec<Span<'static>> {
        match self.marks {
            Marks::Cursor => {
                let marker = if row.selected { "› " } else { "  " };
                let changed = if row.changed { "*" } else { "" };
                vec![Span::styled(
                    format!(
                        "{marker}{:<w$}",
                        format!("{label}{changed}"),
                        w = self.label_width
                    ),
                    theme.style("muted"),
                )]
            }
            Marks::Changed => {
                let marker = if row.changed { "• " } else { "  " };
                let label_style = if row.selected {
                    theme.style("selection")
                } else {
                    theme.style("muted")
                };
                vec![
                    Span::styled(marker, theme.style("accent")),
                    Span::styled(text::fit(label, self.label_width), label_style),
                    Span::raw(" "),
                ]
            }
        }
    }
}

impl<F: FormFields> Form<F> {
    /// The fields as lines `width` wide. `value` says how a field's value reads and its style
    /// (the view knows what its values mean); the form adds the marks, the label, the cut and
    /// the messages.
    pub fn lines(
        &self,
        look: &FormStyle,
        width: u16,
        theme: &Theme,
        value: impl Fn(F, Row) -> (String, Style),
    ) -> FormLines {
        let column = look.value_column();
        let mut drawn = FormLines {
            lines: Vec::new(),
            cursor: None,
            selected_rows: None,
        };
        for (index, field) in self.fields().iter().copied().enumerate() {
            let selected = index == self.selection.selected;
            let row = Row {
                selected,
                editing: selected && self.editing.is_some(),
                changed: self.is_changed(field),
            };
            let first_row = drawn.lines.len();
            let (text, style) = value(field, row);
            let mut spans = look.label_spans(field.spec().label, row, theme);
            match look.value {
                ValueFit::Whole => {
                    if row.editing
                        && let Some(input) = &self.editing
                    {
                        drawn.cursor =
                            Some(((column + input.cursor_column()) as u16, first_row as u16));
                    }
                    spans.push(Span::styled(sanitize(&text).into_owned(), style));
                }
                ValueFit::Cut { margin } => {
                    let value_width = (width as usize).saturating_sub(column + margin).max(1);
                    let shown = if row.editing {
                        let skip = text::width(&text).saturating_sub(value_width.saturating_sub(1));
                        text.chars().skip(skip).collect::<String>()
                    } else {
                        text::truncate(&text, value_width)
                    };
                    if row.editing {
                        drawn.cursor =
                            Some(((column + text::width(&shown)) as u16, first_row as u16));
                    }
                    spans.push(Span::styled(sanitize(&shown).into_owned(), style));
                }
            }
            let message = self.message(field, row, look);
            let error = theme.style("error");
            match (look.messages, message) {
                (Messages::Inline, Some(message)) => {
                    spans.push(Span::styled(format!("  ✗ {message}"), error));
                    drawn.lines.push(Line::from(spans));
                }
                (Messages::Below { indent }, Some(message)) => {
                    drawn.lines.push(Line::from(spans));
                    drawn.lines.push(Line::from(Span::styled(
                        format!("{:indent$}✗ {message}", ""),
                        error,
                    )));
                }
                (_, None) => drawn.lines.push(Line::from(spans)),
            }
            if selected {
                drawn.selected_rows = Some((first_row, drawn.lines.len() - 1));
            }
        }
        drawn
    }

    /// What shows on a field, sanitized: its check's complaint, else the server's refusal of it.
    fn message(&self, field: F, row: Row, look: &FormStyle) -> Option<String> {
        let check_shown = match look.checks {
            ShowChecks::Always => true,
            ShowChecks::Counted => self.counts(field),
            ShowChecks::CountedOrTyping => self.counts(field) || row.editing,
        };
        let refusal = || {
            let prefix = look.server_prefix?;
            self.server_error
                .as_ref()
                .filter(|(about, _)| *about == Some(field))
                .map(|(_, message)| format!("{prefix}{message}"))
        };
        check_shown
            .then(|| self.error(field))
            .flatten()
            .or_else(refusal)
            .map(|message| sanitize(&message).into_owned())
    }
}

/// Draws `form` in `area` with the terminal cursor where the user types; see [`Form::lines`].
pub fn draw<F: FormFields>(
    form: &Form<F>,
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    look: &FormStyle,
    value: impl Fn(F, Row) -> (String, Style),
) {
    let drawn = form.lines(look, area.width, theme, value);
    let height = area.height as usize;
    let offset = match drawn.selected_rows {
        Some((_, last)) if look.scroll && last >= height => last + 1 - height,
        _ => 0,
    };
    frame.render_widget(Paragraph::new(drawn.lines).scroll((offset as u16, 0)), area);
    let cursor = drawn
        .cursor
        .and_then(|(column, row)| Some((column, row.checked_sub(offset as u16)?)));
    place_cursor(frame, area, cursor);
}

/// Puts the terminal cursor at `cursor` (column, row) inside `area`, when it falls inside.
pub fn place_cursor(frame: &mut Frame, area: Rect, cursor: Option<(u16, u16)>) {
    let Some((column, row)) = cursor else {
        return;
    };
    let x = area.x.saturating_add(column);
    let y = area.y.saturating_add(row);
    if x < area.right() && y < area.bottom() {
        frame.set_cursor_position(Position::new(x, y));
    }
}

//! A multi-line editor for comments and replies: ratatui-textarea, with a rendered preview,
//! a hand-off to `$EDITOR`, and a question before a non-empty draft is thrown away.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui_textarea::TextArea;

use crate::hit::Canvas;
use crate::markdown::MarkdownDoc;
use crate::sanitize::sanitize;
use crate::theme::Theme;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComposerOutcome {
    /// The text changed: save the draft.
    Edited,
    Submit,
    /// Closed; the draft (if any) stays saved for next time.
    Closed,
    /// Closed and the draft thrown away on purpose.
    Discarded,
    OpenEditor,
    Ignored,
}

#[derive(Debug, Clone)]
pub struct Composer {
    /// What is being written, shown as the box's title ("Reply to Ada", "New comment").
    pub title: String,
    /// Shorter titles, longest first, for a box too narrow for the title: the first that
    /// fits is shown, so the title is shortened by whole parts rather than cut.
    pub short_titles: Vec<String>,
    textarea: TextArea<'static>,
    pub preview: bool,
    /// Set after esc on a non-empty draft: the next key decides.
    pub asking_to_discard: bool,
    /// Why the last submit failed; the text stays.
    pub error: Option<String>,
    pub submitting: bool,
    /// A review may be sent without a comment; a comment may not be empty.
    pub allow_blank: bool,
    /// A line above the text saying more than the title can (why a comment goes where it
    /// goes); wrapped, never cut.
    pub note: Option<String>,
    /// The note in a few words, for a composer too small for the whole of it.
    pub short_note: Option<String>,
    /// The keys row under the text, where the usual one (send, draft kept) would mislead.
    pub keys_hint: Option<String>,
}

impl Composer {
    pub fn new(title: impl Into<String>, text: &str) -> Composer {
        // Text may come from the server (a comment being edited) or from `$EDITOR`.
        let text = crate::sanitize::sanitize_multiline(text);
        let lines: Vec<String> = if text.is_empty() {
            vec![String::new()]
        } else {
            text.lines().map(str::to_string).collect()
        };
        let mut textarea = TextArea::new(lines);
        textarea.move_cursor(ratatui_textarea::CursorMove::Bottom);
        textarea.move_cursor(ratatui_textarea::CursorMove::End);
        Composer {
            title: title.into(),
            short_titles: Vec::new(),
            textarea,
            preview: false,
            asking_to_discard: false,
            error: None,
            submitting: false,
            allow_blank: false,
            note: None,
            short_note: None,
            keys_hint: None,
        }
    }

    pub fn text(&self) -> String {
        self.textarea.lines().join("\n")
    }

    pub fn is_blank(&self) -> bool {
        self.text().trim().is_empty()
    }

    /// Replaces the text, e.g. with what came back from `$EDITOR`.
    pub fn set_text(&mut self, text: &str) {
        let title = std::mem::take(&mut self.title);
        let short_titles = std::mem::take(&mut self.short_titles);
        let allow_blank = self.allow_blank;
        *self = Composer::new(title, text);
        self.short_titles = short_titles;
        self.allow_blank = allow_blank;
    }

    pub fn insert_str(&mut self, text: &str) {
        let clean = crate::sanitize::sanitize_multiline(text);
        self.textarea.insert_str(clean);
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> ComposerOutcome {
        if self.submitting {
            return ComposerOutcome::Ignored;
        }
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        if self.asking_to_discard {
            self.asking_to_discard = false;
            return match key.code {
                KeyCode::Char('y') | KeyCode::Char('d') => ComposerOutcome::Discarded,
                KeyCode::Char('k') => ComposerOutcome::Closed,
                _ => ComposerOutcome::Ignored,
            };
        }
        match key.code {
            KeyCode::Char('s') if control => {
                if self.is_blank() && !self.allow_blank {
                    self.error = Some("Nothing to send yet.".into());
                    ComposerOutcome::Ignored
                } else {
                    ComposerOutcome::Submit
                }
            }
            KeyCode::Enter if key.modifiers.contains(KeyModifiers::ALT) => {
                if self.is_blank() {
                    ComposerOutcome::Ignored
                } else {
                    ComposerOutcome::Submit
                }
            }
            KeyCode::Char('p') if control => {
                self.preview = !self.preview;
                ComposerOutcome::Ignored
            }
            KeyCode::Char('e') if control => ComposerOutcome::OpenEditor,
            KeyCode::Esc => {
                if self.is_blank() {
                    ComposerOutcome::Discarded
                } else {
                    self.asking_to_discard = true;
                    ComposerOutcome::Ignored
                }
            }
            _ if self.preview => ComposerOutcome::Ignored,
            _ => {
                if self.textarea.input(*key) {
                    self.error = None;
                    ComposerOutcome::Edited
                } else {
                    ComposerOutcome::Ignored
                }
            }
        }
    }

    /// " Title" (with the preview mark) in `width` cells: the longest of the title's forms
    /// that fits whole, else the shortest one ended by "…".
    fn fitted_title(&self, width: usize, mode: &str) -> String {
        let forms = std::iter::once(&self.title).chain(&self.short_titles);
        let framed = |title: &String| format!(" {}{mode}", sanitize(title));
        let shortest = forms.clone().last().map(framed).unwrap_or_default();
        forms
            .map(framed)
            .find(|title| crate::text::width(title) <= width)
            .unwrap_or_else(|| crate::text::truncate(&shortest, width))
    }

    /// How many rows the composer takes at the bottom of an area `height` rows tall.
    pub fn rows_in(height: u16) -> u16 {
        ((u32::from(height) * 2 / 3) as u16).max(6).min(height)
    }

    /// Drawn over the bottom part of `area`.
    pub fn draw(&self, frame: &mut Canvas, area: Rect, theme: &Theme) {
        let height = Composer::rows_in(area.height);
        let popup = Rect::new(area.x, area.bottom() - height, area.width, height);
        self.draw_filling(frame, popup, theme);
    }

    /// Drawn over the whole of `popup`, for a screen that keeps something in sight above it.
    pub fn draw_filling(&self, frame: &mut Canvas, popup: Rect, theme: &Theme) {
        frame.render_widget(Clear, popup);
        frame.hits.modal();
        let mode = if self.preview { " preview " } else { "" };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.style("border_focused"))
            .title(self.fitted_title(usize::from(popup.width.saturating_sub(2)), mode));
        let mut inner = block.inner(popup);
        frame.render_widget(block, popup);
        if let Some(note) = &self.note {
            // The whole note when it leaves rows to write in, else its short form.
            let room = inner.height.saturating_sub(2) as usize;
            let wrapped = |note: &str| crate::text::wrap(&sanitize(note), inner.width as usize);
            let mut rows_of_note = wrapped(note);
            if rows_of_note.len() > room.min(3)
                && let Some(short) = &self.short_note
            {
                rows_of_note = wrapped(short);
            }
            let lines: Vec<Line> = rows_of_note
                .into_iter()
                .map(|line| Line::from(Span::styled(line, theme.style("muted"))))
                .collect();
            let rows = (lines.len() as u16).min(inner.height.saturating_sub(2));
            frame.render_widget(
                Paragraph::new(lines),
                Rect::new(inner.x, inner.y, inner.width, rows),
            );
            inner.y += rows;
            inner.height -= rows;
        }
        let status = self.status_lines(inner, theme);
        let [text_area, status_area] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(status.len() as u16)])
                .areas(inner);
        if self.preview {
            let doc = MarkdownDoc::parse(&self.text(), theme);
            let layout = doc.layout(text_area.width);
            let lines: Vec<Line> = layout
                .lines
                .into_iter()
                .take(text_area.height as usize)
                .collect();
            frame.render_widget(Paragraph::new(lines), text_area);
        } else {
            frame.render_widget(&self.textarea, bounded_for_textarea(text_area));
        }
        frame.render_widget(Paragraph::new(status), status_area);
    }

    /// The status under the text: one row, except that a refusal is wrapped onto up to three so
    /// that its whole reason (a schema path, say) stays readable in a narrow box, leaving at
    /// least one row to write in.
    fn status_lines(&self, inner: Rect, theme: &Theme) -> Vec<Line<'static>> {
        let (text, style) = if self.asking_to_discard {
            (
                "Discard this draft? y discard · k keep it for later · other key: go on writing"
                    .to_string(),
                "warning",
            )
        } else if self.submitting {
            ("Sending…".to_string(), "muted")
        } else if let Some(error) = &self.error {
            let refusal = format!("{} — ctrl-s to try again", sanitize(error));
            let room = usize::from(inner.height.saturating_sub(1)).clamp(1, 3);
            return crate::text::wrap(&refusal, usize::from(inner.width))
                .into_iter()
                .take(room)
                .map(|row| Line::from(Span::styled(row, theme.style("error"))))
                .collect();
        } else {
            let keys = self.keys_hint.as_deref().unwrap_or(
                "ctrl-s send · ctrl-p preview · ctrl-e $EDITOR · esc close (draft kept)",
            );
            (keys.to_string(), "muted")
        };
        vec![Line::from(Span::styled(text, theme.style(style)))]
    }
}

/// The text area's own scrolling adds its width to a column in `u16` and overflows on a
/// terminal close to 65,535 columns; no real terminal is wider than this bound.
fn bounded_for_textarea(area: Rect) -> Rect {
    const WIDEST: u16 = 8192;
    Rect {
        width: area.width.min(WIDEST),
        height: area.height.min(WIDEST),
        ..area
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn ctrl(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    #[test]
    fn typing_submitting_and_multi_line_text() {
        let mut composer = Composer::new("Reply", "");
        assert_eq!(
            composer.handle_key(&ctrl('s')),
            ComposerOutcome::Ignored,
            "blank"
        );
        for c in "Looks good".chars() {
            assert_eq!(
                composer.handle_key(&key(KeyCode::Char(c))),
                ComposerOutcome::Edited
            );
        }
        composer.handle_key(&key(KeyCode::Enter));
        composer.handle_key(&key(KeyCode::Char('!')));
        assert_eq!(composer.text(), "Looks good\n!");
        assert_eq!(composer.handle_key(&ctrl('s')), ComposerOutcome::Submit);
    }

    #[test]
    fn esc_on_a_draft_asks_before_discarding() {
        let mut composer = Composer::new("Reply", "half a thought");
        assert_eq!(
            composer.handle_key(&key(KeyCode::Esc)),
            ComposerOutcome::Ignored
        );
        assert!(composer.asking_to_discard);
        assert_eq!(
            composer.handle_key(&key(KeyCode::Char('x'))),
            ComposerOutcome::Ignored
        );
        assert_eq!(
            composer.text(),
            "half a thought",
            "any other key keeps writing"
        );
        composer.handle_key(&key(KeyCode::Esc));
        assert_eq!(
            composer.handle_key(&key(KeyCode::Char('y'))),
            ComposerOutcome::Discarded
        );
        let mut empty = Composer::new("Reply", "");
        assert_eq!(
            empty.handle_key(&key(KeyCode::Esc)),
            ComposerOutcome::Discarded
        );
    }

    #[test]
    fn preview_and_editor_keys() {
        let mut composer = Composer::new("Reply", "**bold**");
        composer.handle_key(&ctrl('p'));
        assert!(composer.preview);
        assert_eq!(
            composer.handle_key(&key(KeyCode::Char('x'))),
            ComposerOutcome::Ignored
        );
        assert_eq!(composer.text(), "**bold**", "no typing into the preview");
        assert_eq!(composer.handle_key(&ctrl('e')), ComposerOutcome::OpenEditor);
    }
}

//! What a pane shows when it has no data to show: loading, empty, failed, or refused.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::look::Look;
use crate::sanitize::sanitize;
use quire_api::ApiError;

/// A failed reload while the old data stays on screen, with how to retry said once, first.
pub fn reload_failed_text(error: &ApiError) -> String {
    let message = sanitize(&error.user_message()).into_owned();
    if !error.is_retryable_by_hand() {
        return format!("{RELOAD_FAILED}: {message}");
    }
    // The way out comes first, where a wrap never splits it; the message's own ending that
    // says the same goes.
    let message = message
        .strip_suffix("; r to retry.")
        .map_or(message.clone(), |start| format!("{start}."));
    format!("{RELOAD_FAILED}, r to retry: {message}")
}

/// How [`reload_failed_text`] begins, so a screen can take its notice down once a reload works.
pub const RELOAD_FAILED: &str = "Reload failed";

/// Draws [`reload_failed_text`] over the last rows of `area`, wrapped between words so it is
/// read whole (up to half the area; a narrower pane than that ends it with "…"). Returns the
/// rows it took, for the caller to keep its content above them.
pub fn reload_failed(frame: &mut Frame, area: Rect, look: &Look, error: &ApiError) -> u16 {
    if area.height == 0 || area.width == 0 {
        return 0;
    }
    let text = reload_failed_text(error);
    let mut rows = crate::text::wrap(&text, usize::from(area.width));
    let room = usize::from((area.height / 2).max(1));
    if rows.len() > room {
        rows.truncate(room);
        if let Some(last) = rows.last_mut() {
            *last = crate::text::truncate(&format!("{last} …"), usize::from(area.width));
        }
    }
    let height = rows.len() as u16;
    let bottom = Rect::new(area.x, area.bottom() - height, area.width, height);
    let style = look.theme.style("error");
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|row| Line::from(Span::styled(row, style)))
        .collect();
    frame.render_widget(ratatui::widgets::Clear, bottom);
    frame.render_widget(Paragraph::new(lines), bottom);
    height
}

/// Says that a list read whole did not end within its cap (or its server repeated a page), so
/// what shows is the `pages` read, not everything.
pub fn stopped_after(pages: usize) -> String {
    format!("stopped after {pages} pages: the list did not end; showing what was loaded")
}

/// A picker's `title`, saying when the list it offers did not end within its cap (a title
/// padded for its frame stays padded).
pub fn picker_title(title: &str, stopped_after_pages: Option<usize>) -> String {
    let Some(pages) = stopped_after_pages else {
        return title.to_string();
    };
    let padding = if title.ends_with(' ') { " " } else { "" };
    format!(
        "{} — stopped after {pages} pages{padding}",
        title.trim_end()
    )
}

pub fn loading(frame: &mut Frame, area: Rect, look: &Look, what: &str) {
    let line = Line::from(Span::styled(
        format!("Loading {what}…"),
        look.theme.style("muted"),
    ));
    draw_message(frame, area, line);
}

pub fn empty(frame: &mut Frame, area: Rect, look: &Look, message: &str) {
    let line = Line::from(Span::styled(message.to_string(), look.theme.style("muted")));
    draw_message(frame, area, line);
}

/// One line of words at the top of `area`, wrapped between words when it does not fit. A line
/// that fits is drawn on its row alone: a paragraph styles every cell of its area first, and a
/// wide pane waiting for its page (a page tree's preview, on every key) is thousands of cells.
fn draw_message(frame: &mut Frame, area: Rect, line: Line) {
    if line.width() <= usize::from(area.width) {
        crate::one_line::draw_line(frame.buffer_mut(), area, &line);
    } else {
        frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: true }), area);
    }
}

/// What an empty list says while a filter is on: the filter (it is why nothing shows) and how
/// to clear it.
pub fn no_matches(filter: &str) -> String {
    format!(
        "No matches for '{}' — esc clears",
        crate::text::truncate(&sanitize(filter), 40)
    )
}

/// An error with what failed and how to retry; a 401 explains how to set a token instead.
pub fn error(frame: &mut Frame, area: Rect, look: &Look, error: &ApiError) {
    error_retried_by(frame, area, look, error, "r");
}

/// [`error`] on a screen whose retry key is `key` (a text field keeps `r` for typing).
pub fn error_retried_by(frame: &mut Frame, area: Rect, look: &Look, error: &ApiError, key: &str) {
    let theme = look.theme;
    let lines = if error.is_unauthorized() {
        vec![
            Line::from(Span::styled(
                "The server rejected the token (401).",
                theme.style("error"),
            )),
            Line::from(Span::styled(
                format!("Press {key} to try again: a token refused once may be accepted now."),
                theme.style("muted"),
            )),
            Line::from(""),
            Line::from("If it keeps failing, set a valid API token in one of these ways and"),
            Line::from("start quire again:"),
            Line::from("  • quire auth login"),
            Line::from("  • quire --token <TOKEN>"),
            Line::from("  • export GITBOOK_TOKEN=<TOKEN>"),
            Line::from(format!("  • token = \"<TOKEN>\" in {}", look.config_path)),
            Line::from(""),
            Line::from(Span::styled(
                "Or try the built-in demo: quire --demo",
                theme.style("muted"),
            )),
        ]
    } else {
        let message = sanitize(&error.user_message_with_retry_key(key)).into_owned();
        let mut lines = vec![Line::from(Span::styled(
            message.clone(),
            theme.style("error"),
        ))];
        // The client's message usually says how to retry already; say it once. An operation
        // the server does not offer is not worth retrying.
        if !message.contains("retry") && error.is_retryable_by_hand() {
            lines.push(Line::from(""));
            lines.push(Line::from(Span::styled(
                format!("Press {key} to retry."),
                theme.style("muted"),
            )));
        }
        lines
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

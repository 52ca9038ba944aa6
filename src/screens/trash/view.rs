//! Drawing the Trash tab: the deleted spaces with when they were deleted and the days left to
//! restore them.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::{Trash, days_left_text, deleted_ago_text};
use crate::screens::look::Look;
use crate::ui::sanitize::sanitize;
use crate::ui::{status, text};
use crate::vocabulary::Loadable;

/// The deleted spaces as a table; `listing` is the organization's listing they come from, for
/// its loading and error states.
pub fn draw<T>(trash: &Trash, listing: &Loadable<T>, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    if listing.value().is_none() {
        match listing.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "deleted spaces"),
        }
        return;
    }
    let entries = trash.entries();
    if entries.is_empty() {
        if let Some(error) = listing.error() {
            status::error(frame, area, look, error);
            return;
        }
        status::empty(
            frame,
            area,
            look,
            "The trash is empty. Spaces deleted here (d in the Spaces tab) stay restorable for 7 days; this service lists no other deleted spaces.",
        );
        return;
    }
    let [header, rows_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let left_width = 20u16.min(area.width / 2);
    let date_width = if area.width >= 60 { 12 } else { 0 };
    let title_width = area.width.saturating_sub(left_width + date_width).max(4);
    let widths = [title_width, date_width, left_width];
    frame.render_widget(
        Paragraph::new(text::columns(
            &["Space", "Deleted", "Restorable"],
            &widths,
            theme.style("table_header"),
        )),
        header,
    );
    let now = chrono::Utc::now();
    let range = trash
        .selection
        .visible_range(entries.len(), rows_area.height as usize);
    let lines: Vec<Line> = entries[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, space)| {
            let emoji = text::emoji(space.emoji.as_deref()).unwrap_or_else(|| "📄".into());
            let title = format!("{emoji} {}", sanitize(&space.title));
            let deleted = deleted_ago_text(space, now);
            let left = days_left_text(space, now);
            let style = trash.selection.style(range.start + offset, theme);
            text::columns(&[&title, &deleted, &left], &widths, style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), rows_area);
    // What is shown is the last list read; a refresh that failed says so in full.
    if let Some(error) = listing.error() {
        let _ = status::reload_failed(frame, area, look, error);
    }
}

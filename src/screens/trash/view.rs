//! Drawing the Trash tab: the deleted spaces with when they were deleted and the days left to
//! restore them, and the tab's notice under them.

use ratatui::layout::Rect;

use super::{Trash, days_left_text, deleted_ago_text};
use crate::screens::list_pane::{self, Listing};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::table::Column;
use crate::ui::{status, text};

const EMPTY: &str = "The trash is empty. Spaces deleted here (d in the Spaces tab) stay restorable for 7 days; this service lists no other deleted spaces.";

/// The space takes the room; the days left stay longest.
const COLUMNS: [Column; 3] = [
    Column::cut("Space", 8, 0).flex(),
    Column::whole("Deleted", 2),
    Column::whole("Restorable", 1),
];

pub fn draw(trash: &Trash, frame: &mut Canvas, area: Rect, look: &Look) {
    let busy = trash.is_restoring();
    let (area, notice_area) = list_pane::notice_row(area, trash.notice.is_some() || busy);
    if let Some(row) = notice_area {
        list_pane::draw_notice(trash.notice.as_ref(), busy, frame, row, look);
    }
    let entries = trash.entries();
    if let (true, Some(error)) = (entries.is_empty(), trash.error()) {
        status::error(frame, area, look, error);
        return;
    }
    let empty = || entries.is_empty().then(|| EMPTY.to_string());
    if list_pane::draw_unlisted(frame, area, look, (trash, "deleted spaces"), empty) {
        return;
    }
    let now = chrono::Utc::now();
    let rows: Vec<[String; 3]> = entries
        .iter()
        .map(|space| {
            let emoji = text::emoji(space.emoji.as_deref()).unwrap_or_else(|| "📄".into());
            [
                format!("{emoji} {}", sanitize(&space.title)),
                deleted_ago_text(space, now),
                days_left_text(space, now),
            ]
        })
        .collect();
    let table = Table::new(&COLUMNS, &rows, &trash.selection);
    list_pane::draw_table(frame, area, look, table, trash.selection.selected);
    // What is shown is the last list read; a refresh that failed says so in full.
    if let Some(error) = trash.error() {
        let _ = status::reload_failed(frame, area, look, error);
    }
}

//! Where the app's frame leaves room for a screen, and where a popup sits.

use ratatui::layout::Rect;

/// The size left to a screen's body once the header and footer rows are taken.
pub fn body_size(width: u16, height: u16) -> (u16, u16) {
    (width, height.saturating_sub(2))
}

/// A `width` × `height` rectangle in the middle of `area` (smaller when `area` is). A popup
/// placed there notes itself in the frame's hit map (`HitMap::modal`), so the mouse leaves the
/// screen behind it alone.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

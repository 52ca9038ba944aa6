//! The review's frame: the rows its header takes above every tab, and what is left to a tab.

use crate::screens::step::Ctx;

/// Rows above the tab bodies: title, facts, tabs, notice.
pub(super) const HEADER_ROWS: u16 = 4;

/// Rows of a tab's body at the terminal's size.
pub(super) fn body_height(ctx: &Ctx) -> usize {
    let (_, height) = crate::ui::layout::body_size(ctx.size.width, ctx.size.height);
    height.saturating_sub(HEADER_ROWS) as usize
}

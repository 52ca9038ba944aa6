//! A screen that is one list below the header (the outbox, the action log, who can reach
//! what): a title row, the list, and a row for the screen's notice.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::look::Look;
use crate::notice::Notice;

/// The rows below the title.
pub struct Areas {
    pub body: Rect,
    pub notice: Rect,
}

/// Draws the title row, `name` then `more` (a count, whose it is), and gives the body and the
/// notice row; None when `area` has no room for the three.
pub fn split(
    frame: &mut Frame,
    area: Rect,
    look: &Look,
    name: &str,
    more: Vec<Span<'static>>,
) -> Option<Areas> {
    if area.height < 3 {
        return None;
    }
    let [title, body, notice] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let mut spans = vec![Span::styled(name.to_string(), look.theme.style("title"))];
    spans.extend(more);
    frame.render_widget(Paragraph::new(Line::from(spans)), title);
    Some(Areas { body, notice })
}

/// The screen's notice, if any, in its row.
pub fn draw_notice(frame: &mut Frame, area: Rect, notice: Option<&Notice>, look: &Look) {
    if let Some(notice) = notice {
        frame.render_widget(
            Paragraph::new(crate::notice::row(notice, area.width, look)),
            area,
        );
    }
}

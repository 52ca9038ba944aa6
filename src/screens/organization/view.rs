//! Drawing the organization screen: the tab bar, then the Spaces tab with its notice row, or
//! the pane of another tab.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Organization, Tab, space_ops};
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::text;
use crate::ui::theme::Theme;

pub(super) fn draw(screen: &Organization, frame: &mut Canvas, area: Rect, look: &Look) {
    let [tabs_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    draw_tabs(screen, frame, tabs_area, look.theme);
    if let Some(pane) = screen.pane() {
        pane.draw(frame, body, look);
        return;
    }
    let (notice, busy) = (screen.space_ops.notice.as_ref(), screen.space_ops.is_busy());
    let (body, notice_area) = list_pane::notice_row(body, notice.is_some() || busy);
    if let Some(row) = notice_area {
        list_pane::draw_notice(notice, busy, frame, row, look);
    }
    super::spaces_view::draw(screen, frame, body, look);
    super::content_ops::draw(screen, frame, body, look);
    space_ops::draw_modal(&screen.space_ops, frame, area, look.theme);
}

fn draw_tabs(screen: &Organization, frame: &mut Canvas, area: Rect, theme: &Theme) {
    let labels: Vec<String> = Tab::ALL
        .iter()
        .map(|tab| format!(" {} ", tab.label()))
        .collect();
    let widths: Vec<usize> = labels.iter().map(|label| text::width(label) + 1).collect();
    let active = Tab::ALL
        .iter()
        .position(|tab| *tab == screen.tab)
        .unwrap_or(0);
    let shown = tab_window(&widths, active, area.width as usize);
    let mut spans = Vec::new();
    if shown.start > 0 {
        spans.push(Span::styled("‹ ", theme.style("muted")));
    }
    for index in shown.clone() {
        let style = if index == active {
            "tab_active"
        } else {
            "tab_inactive"
        };
        spans.push(Span::styled(labels[index].clone(), theme.style(style)));
        spans.push(Span::raw(" "));
    }
    if shown.end < labels.len() {
        spans.push(Span::styled("›", theme.style("muted")));
    }
    let marker = if shown.start > 0 { 2 } else { 0 };
    let bar = Rect {
        x: area.x.saturating_add(marker),
        width: area.width.saturating_sub(marker),
        ..area
    };
    frame.hits.record_tabs(
        bar,
        shown.start,
        &widths[shown.clone()],
        (active, labels.len()),
    );
    // The `‹` and `›` markers stand for the hidden tabs next to them.
    if shown.start > 0 {
        let marker = Rect { width: 2, ..area };
        frame
            .hits
            .record_tabs(marker, shown.start - 1, &[2], (active, labels.len()));
    }
    if shown.end < labels.len() {
        let used: usize = widths[shown.clone()].iter().sum::<usize>() + usize::from(marker);
        if let Ok(used) = u16::try_from(used) {
            // The marker and the rest of the row after it.
            let right = Rect {
                x: area.x.saturating_add(used),
                width: area.width.saturating_sub(used),
                ..area
            };
            let rest = usize::from(right.width);
            frame
                .hits
                .record_tabs(right, shown.end, &[rest], (active, labels.len()));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The tabs that fit in `width` cells around the active one. Tabs hidden on either side are
/// marked by `‹ ` (2 cells) or `›` (1 cell), so the active tab is always in view.
pub(super) fn tab_window(widths: &[usize], active: usize, width: usize) -> std::ops::Range<usize> {
    if widths.iter().sum::<usize>() <= width || widths.is_empty() {
        return 0..widths.len();
    }
    let active = active.min(widths.len() - 1);
    let fits = |range: &std::ops::Range<usize>| {
        let markers = usize::from(range.start > 0) * 2 + usize::from(range.end < widths.len());
        widths[range.clone()].iter().sum::<usize>() + markers <= width
    };
    let mut shown = active..active + 1;
    loop {
        // Grow to the right first (what `tab` goes to next), then to the left.
        let right = shown.start..shown.end + 1;
        let left = shown.start.saturating_sub(1)..shown.end;
        if shown.end < widths.len() && fits(&right) {
            shown = right;
        } else if shown.start > 0 && fits(&left) {
            shown = left;
        } else {
            return shown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tab_window;

    #[test]
    fn all_tabs_show_when_they_fit() {
        assert_eq!(tab_window(&[5, 5, 5], 1, 15), 0..3);
    }

    #[test]
    fn the_active_tab_and_its_neighbours_show_when_they_do_not() {
        let widths = [10; 12];
        let shown = tab_window(&widths, 8, 40);
        assert!(shown.contains(&8), "{shown:?}");
        // Room for three tabs and both markers.
        assert_eq!(shown.len(), 3);
        assert_eq!(tab_window(&widths, 0, 40), 0..3);
        assert_eq!(tab_window(&widths, 11, 40), 9..12);
    }

    #[test]
    fn a_screen_narrower_than_one_tab_still_shows_the_active_one() {
        assert_eq!(tab_window(&[10, 30, 10], 1, 5), 1..2);
    }
}

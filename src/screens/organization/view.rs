//! Drawing the organization screen: the tab bar, the notice row of the Spaces and Trash tabs,
//! and the shown tab's body (each tab draws its own).

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Organization, Tab, space_ops};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::notice::Notice;
use crate::ui::text;
use crate::ui::theme::Theme;

pub(super) fn draw(screen: &Organization, frame: &mut Canvas, area: Rect, look: &Look) {
    let [tabs_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    draw_tabs(screen, frame, tabs_area, look.theme);
    let (body, notice_area) = notice_row(screen, body);
    if let Some(notice_area) = notice_area {
        draw_notice(screen, frame, notice_area, look);
    }
    match screen.tab {
        Tab::Spaces => {
            super::spaces_view::draw(screen, frame, body, look);
            super::content_ops::draw(screen, frame, body, look);
        }
        Tab::Trash => {
            crate::screens::trash::view::draw(&screen.trash, &screen.tree, frame, body, look)
        }
        Tab::ChangeRequests => {
            if let Some(list) = &screen.change_requests {
                list.draw(frame, body, look);
            }
        }
        _ => {
            if let Some(pane) = screen.pane() {
                pane.draw(frame, body, look);
            }
        }
    }
    if screen.tab == Tab::Spaces {
        space_ops::draw_modal(&screen.space_ops, frame, area, look.theme);
    }
}

/// The notice (or "sending…") of the Spaces and Trash tabs, on the body's last row.
fn notice_text(screen: &Organization) -> Option<(String, Option<&Notice>)> {
    let (notice, busy) = match screen.tab {
        Tab::Spaces => (&screen.space_ops.notice, screen.space_ops.is_busy()),
        Tab::Trash => (&screen.trash.notice, screen.trash.is_restoring()),
        _ => return None,
    };
    match notice {
        Some(notice) => Some((notice.text.clone(), Some(notice))),
        None if busy => Some(("Sending…".to_string(), None)),
        None => None,
    }
}

fn notice_row(screen: &Organization, area: Rect) -> (Rect, Option<Rect>) {
    if notice_text(screen).is_none() || area.height < 2 {
        return (area, None);
    }
    let [body, notice] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    (body, Some(notice))
}

fn draw_notice(screen: &Organization, frame: &mut Canvas, area: Rect, look: &Look) {
    let Some((text, notice)) = notice_text(screen) else {
        return;
    };
    let theme = look.theme;
    let style = notice.map_or(theme.style("muted"), |notice| notice.style(theme));
    let line = crate::ui::notice::span(&text, area.width, style, look);
    frame.render_widget(Paragraph::new(line), area);
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

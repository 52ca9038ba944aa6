use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{LinkList, LinksScreen, STATUS_TABS};
use crate::api::models::{Link, LinkStatus};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::sanitize::sanitize;
use crate::ui::segments::{self, Segment};
use crate::ui::theme::Theme;
use crate::ui::{list, status, text};

pub(super) fn draw(screen: &LinksScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let [heading_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(heading(screen, theme, heading_area.width)),
        heading_area,
    );
    if !screen.links.loaded_once() {
        match &screen.links.error {
            Some(error) => status::error(frame, body, look, error),
            None => status::loading(frame, body, look, "links"),
        }
        return;
    }
    let links = screen.visible();
    if links.is_empty() {
        status::empty(frame, body, look, &empty_message(screen));
        return;
    }
    let range = screen
        .selection
        .visible_range(links.len(), body.height as usize);
    frame
        .hits
        .record_rows(body, range.clone(), screen.selection.selected);
    let mut lines: Vec<Line> = links[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, link)| {
            let selected = range.start + offset == screen.selection.selected;
            row(screen, link, selected, body.width, theme)
        })
        .collect();
    let used = lines.len();
    lines.extend(list::unreadable_rows(
        &screen.links.unreadable,
        body,
        used,
        theme,
    ));
    frame.render_widget(Paragraph::new(lines), body);
}

/// The status tabs (links) or what the list is about (backlinks), then the totals; each
/// shown whole or left out.
fn heading(screen: &LinksScreen, theme: &Theme, width: u16) -> Line<'static> {
    let mut line = Vec::new();
    // Nothing to sort or count when the server has no such list, or it has not loaded yet.
    if screen.is_unsupported() {
        return Line::default();
    }
    if screen.has_status_tabs() {
        for (index, status) in STATUS_TABS.iter().enumerate() {
            let style = if index == screen.status {
                theme.style("tab_active")
            } else {
                theme.style("tab_inactive")
            };
            let label = status.as_ref().map_or("all", LinkStatus::as_str);
            line.push(
                Segment::new(format!(" {label} "), 0)
                    .styled(style)
                    .after(""),
            );
        }
    }
    let muted = theme.style("muted");
    line.extend(
        totals(screen)
            .into_iter()
            .map(|segment| segment.styled(muted).in_group(1)),
    );
    segments::line(&line, usize::from(width))
}

/// "23 links · 3 broken (1 in change requests)", or "linked from 4 places".
fn totals(screen: &LinksScreen) -> Vec<Segment> {
    if !screen.links.loaded_once() {
        return Vec::new();
    }
    if screen.list.is_backlinks() {
        return match screen.links.total.or(Some(screen.links.items.len() as u64)) {
            Some(1) => vec![Segment::new("linked from 1 place", 1)],
            Some(count) => vec![Segment::new(format!("linked from {count} places"), 1)],
            None => Vec::new(),
        };
    }
    let Some(stats) = &screen.stats else {
        return Vec::new();
    };
    let total = i64::try_from(stats.total.unwrap_or(0)).unwrap_or(i64::MAX);
    let mut line = vec![Segment::new(
        crate::ui::time::plural(total, "link", "links"),
        1,
    )];
    if let Some(broken) = stats.broken.total {
        line.push(Segment::new(format!("{broken} broken"), 2).after(" · "));
    }
    if let Some(in_change_requests) = stats.broken.change_request.filter(|count| *count > 0) {
        line.push(Segment::new(
            format!("({in_change_requests} in change requests)"),
            3,
        ));
    }
    line
}

fn empty_message(screen: &LinksScreen) -> String {
    match (&screen.list, screen.status_filter()) {
        (LinkList::PageBacklinks { .. } | LinkList::FileBacklinks { .. }, _) => {
            "Nothing links here.".to_string()
        }
        (_, Some(status)) => format!("No {status} links."),
        (_, None) => "No links.".to_string(),
    }
}

/// A link: its status, where it points and the page it is on; a backlink: the linking page
/// with its place in the tree.
fn row(
    screen: &LinksScreen,
    link: &Link,
    selected: bool,
    width: u16,
    theme: &Theme,
) -> Line<'static> {
    let base = if selected {
        theme.style("selection")
    } else {
        theme.style("text")
    };
    let muted = if selected { base } else { theme.style("muted") };
    let width = width as usize;
    let places: Vec<String> = link
        .location_references
        .iter()
        .map(|location| sanitize(&screen.describe(location)).into_owned())
        .collect();
    if screen.list.is_backlinks() {
        let page = link
            .location_references
            .first()
            .and_then(|location| location.page.as_deref());
        let crumbs = page
            .and_then(|page| Some(screen.page_index()?.breadcrumb(page)))
            .unwrap_or_default()
            .iter()
            .map(|crumb| sanitize(crumb).into_owned())
            .collect::<Vec<_>>()
            .join(" › ");
        let title = places.first().cloned().unwrap_or_default();
        let mut spans = vec![Span::styled(
            text::truncate(&format!("  {title}"), width),
            base,
        )];
        if !crumbs.is_empty() {
            spans.push(Span::styled(format!("  · {crumbs}"), muted));
        }
        return Line::from(spans);
    }
    let (label, style) = match &link.status {
        Some(LinkStatus::Broken) => ("broken", theme.style("error")),
        Some(LinkStatus::InApp) => ("in-app", theme.style("warning")),
        Some(LinkStatus::Ok) => ("ok", theme.style("success")),
        Some(LinkStatus::Other(other)) => (other.as_str(), theme.style("muted")),
        None => ("", theme.style("muted")),
    };
    let status_style = if selected { base } else { style };
    let target = link
        .target_reference
        .as_ref()
        .map(|target| sanitize(&screen.describe(target)).into_owned())
        .unwrap_or_default();
    // The place takes at most a third of the row; the target gets what is left.
    let on_width = text::width(&on_places(&places, usize::MAX)).min(width / 3);
    let target_width = width.saturating_sub(9 + on_width + 2);
    Line::from(vec![
        Span::styled(text::fit(label, 8), status_style),
        Span::styled(" ", base),
        Span::styled(text::fit(&target, target_width), base),
        Span::styled("  ", base),
        Span::styled(on_places(&places, on_width), muted),
    ])
}

/// "on Quickstart +2" in at most `room` cells: the page's name is shortened (with `…`), the
/// count of other places never is; with no room for a name, the count alone.
fn on_places(places: &[String], room: usize) -> String {
    let (first, more) = match places {
        [] => return String::new(),
        [one] => (one, String::new()),
        [first, rest @ ..] => (first, format!(" +{}", rest.len())),
    };
    let full = format!("on {first}{more}");
    if text::width(&full) <= room {
        return full;
    }
    let fixed = text::width("on ") + text::width(&more);
    if room > fixed + 1 {
        return format!("on {}{more}", text::truncate(first, room - fixed));
    }
    let count = more.trim_start();
    if text::width(count) <= room {
        count.to_string()
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::on_places;

    #[test]
    fn the_count_of_other_places_is_never_cut() {
        let places = ["Quickstart guide".to_string(), "b".into(), "c".into()];
        assert_eq!(on_places(&places, 40), "on Quickstart guide +2");
        assert_eq!(on_places(&places, 12), "on Quick… +2");
        assert_eq!(on_places(&places, 4), "+2");
        assert_eq!(on_places(&places, 1), "");
        assert_eq!(on_places(&places[..1], 8), "on Quic…");
        assert_eq!(on_places(&[], 8), "");
    }
}

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{OrgNode, Organization, Tab, space_ops};
use crate::app::Model;
use crate::screens::ScreenState;
use crate::ui::notice::Notice;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

/// Below this width the details pane gives its room to the tree.
const DETAILS_MIN_WIDTH: u16 = 70;

pub fn draw(screen: &Organization, frame: &mut Frame, area: Rect, model: &Model) {
    let [tabs_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    draw_tabs(screen, frame, tabs_area, &model.theme);
    let (body, notice_area) = notice_row(screen, body);
    if let Some(notice_area) = notice_area {
        draw_notice(screen, frame, notice_area, &model.theme);
    }
    match screen.tab {
        Tab::Spaces => {
            draw_spaces(screen, frame, body, model);
            super::content_ops::draw(screen, frame, body, model);
        }
        Tab::Trash => {
            crate::screens::trash::view::draw(&screen.trash, &screen.tree, frame, body, model)
        }
        Tab::ChangeRequests => {
            if let Some(list) = &screen.change_requests {
                list.draw(frame, body, model);
            }
        }
        Tab::Sites => crate::screens::sites::view::draw(&screen.sites, frame, body, model),
        _ => {
            if let Some(pane) = screen.pane() {
                pane.draw(frame, body, model);
            }
        }
    }
    if screen.tab == Tab::Spaces {
        space_ops::draw_modal(&screen.space_ops, frame, area, &model.theme);
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

fn draw_notice(screen: &Organization, frame: &mut Frame, area: Rect, theme: &Theme) {
    let Some((text, notice)) = notice_text(screen) else {
        return;
    };
    let style = notice.map_or(theme.style("muted"), |notice| notice.style(theme));
    let text = text::truncate(&sanitize(&text), area.width as usize);
    frame.render_widget(Paragraph::new(Span::styled(text, style)), area);
}

fn draw_tabs(screen: &Organization, frame: &mut Frame, area: Rect, theme: &Theme) {
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
            theme.style("tab_active")
        } else {
            theme.style("tab_inactive")
        };
        spans.push(Span::styled(labels[index].clone(), style));
        spans.push(Span::raw(" "));
    }
    if shown.end < labels.len() {
        spans.push(Span::styled("›", theme.style("muted")));
    }
    // ── command palette ──
    let marker = if shown.start > 0 { 2 } else { 0 };
    let bar = Rect {
        x: area.x.saturating_add(marker),
        width: area.width.saturating_sub(marker),
        ..area
    };
    crate::ui::hit::record_tabs(
        bar,
        shown.start,
        &widths[shown.clone()],
        active,
        labels.len(),
    );
    // The `‹` and `›` markers stand for the hidden tabs next to them.
    if shown.start > 0 {
        let marker = Rect { width: 2, ..area };
        crate::ui::hit::record_tabs(marker, shown.start - 1, &[2], active, labels.len());
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
            crate::ui::hit::record_tabs(right, shown.end, &[rest], active, labels.len());
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The tabs that fit in `width` cells around the active one. Tabs hidden on either side are
/// marked by `‹ ` (2 cells) or `›` (1 cell), so the active tab is always in view.
pub fn tab_window(widths: &[usize], active: usize, width: usize) -> std::ops::Range<usize> {
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

fn draw_spaces(screen: &Organization, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let (area, filter_area) = text::with_filter_row(area, screen.tree_filter.is_shown());
    if let Some(filter_area) = filter_area {
        text::draw_filter(frame, filter_area, &screen.tree_filter, theme);
    }
    let Some(tree) = screen.tree.value() else {
        match screen.tree.error() {
            Some(error) => status::error(frame, area, model, error),
            None => status::loading(frame, area, model, "collections and spaces"),
        }
        return;
    };
    let area = match &screen.tree_note {
        Some(note) => {
            let [rest, note_area] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
            frame.render_widget(
                Paragraph::new(Span::styled(
                    text::truncate(&format!("⚠ {}", sanitize(note)), note_area.width as usize),
                    theme.style("warning"),
                )),
                note_area,
            );
            rest
        }
        None => area,
    };
    if tree.is_empty() {
        status::empty(
            frame,
            area,
            model,
            "This organization has no collections or spaces yet.",
        );
        return;
    }
    let (tree_area, details_area) = if area.width >= DETAILS_MIN_WIDTH {
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
                .areas(area);
        (left, Some(right))
    } else {
        (area, None)
    };

    let rows = screen.visible_rows();
    if rows.is_empty() {
        let message = status::no_matches(&screen.tree_filter.text);
        status::empty(frame, tree_area, model, &message);
    }
    let range = screen
        .tree_selection
        .visible_range(rows.len(), tree_area.height as usize);
    // ── command palette ──
    crate::ui::hit::record_rows(tree_area, range.clone(), screen.tree_selection.selected);
    let mut lines = Vec::new();
    for (offset, row) in rows[range.clone()].iter().enumerate() {
        let Some(node) = tree.item(row.node) else {
            continue;
        };
        let selected = range.start + offset == screen.tree_selection.selected;
        lines.push(tree_line(
            node,
            row,
            selected,
            &screen.tree_filter.text,
            tree_area.width,
            theme,
        ));
    }
    frame.render_widget(Paragraph::new(lines), tree_area);
    if let Some(error) = screen.tree.error() {
        // A failed reload keeps the old tree; say so on its last row.
        status::reload_failed(frame, tree_area, model, error);
    }
    if let (Some(details_area), Some(node)) = (details_area, screen.selected_node()) {
        draw_details(node, frame, details_area, model);
    }
}

fn tree_line(
    node: &OrgNode,
    row: &crate::ui::tree::VisibleRow,
    selected: bool,
    filter: &str,
    width: u16,
    theme: &Theme,
) -> Line<'static> {
    let indent = "  ".repeat(row.depth.min(12));
    let marker = match (row.has_children, row.expanded) {
        (true, true) => "▾ ",
        (true, false) => "▸ ",
        (false, _) => "  ",
    };
    let (icon, badges) = match node {
        OrgNode::Collection(_) => ("📁 ".to_string(), Vec::new()),
        OrgNode::Space(space) => (
            format!(
                "{} ",
                text::emoji(space.emoji.as_deref()).unwrap_or_else(|| "📄".into())
            ),
            space_badges(space, theme),
        ),
    };
    let base = if selected {
        theme.style("selection")
    } else {
        theme.style("text")
    };
    let title = sanitize(node.title()).into_owned();
    let used = indent.len() + 2 + 3;
    let badge_width: usize = badges.iter().map(Span::width).sum();
    let room = (width as usize).saturating_sub(used + badge_width);
    let title = text::truncate(&title, room.max(4));
    let mut spans = vec![
        Span::styled(format!("{indent}{marker}"), theme.style("muted")),
        Span::styled(icon, base),
    ];
    spans.extend(text::highlight(&title, filter, base, theme.style("match")));
    spans.extend(badges);
    Line::from(spans).style(if selected { base } else { Default::default() })
}

fn space_badges(space: &crate::api::models::Space, theme: &Theme) -> Vec<Span<'static>> {
    let mut badges = Vec::new();
    if let Some(visibility) = &space.visibility {
        let name = sanitize(visibility.as_str()).into_owned();
        let style = match name.as_str() {
            "public" => theme.style("badge_public"),
            "private" => theme.style("badge_private"),
            _ => theme.style("badge"),
        };
        badges.push(Span::raw(" "));
        badges.push(Span::styled(format!(" {name} "), style));
    }
    if space
        .edit_mode
        .as_ref()
        .is_some_and(|m| m.to_string() == "locked")
    {
        badges.push(Span::raw(" "));
        badges.push(Span::styled(" 🔒locked ", theme.style("badge_locked")));
    }
    badges
}

fn draw_details(node: &OrgNode, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let block = Block::default()
        .borders(Borders::LEFT)
        .border_style(theme.style("border"));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let field = |label: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{label:<13}"), theme.style("muted")),
            Span::styled(sanitize(&value).into_owned(), theme.style("text")),
        ])
    };
    let mut lines = Vec::new();
    match node {
        OrgNode::Collection(collection) => {
            lines.push(Line::from(Span::styled(
                format!("📁 {}", sanitize(&collection.title)),
                theme.style("title"),
            )));
            lines.push(Line::from(""));
            if let Some(description) = &collection.description {
                lines.push(Line::from(sanitize(description).into_owned()));
                lines.push(Line::from(""));
            }
            lines.push(field("Kind", "collection".into()));
            if let Some(level) = &collection.default_level {
                lines.push(field("Default role", level.to_string()));
            }
            lines.push(field("Id", collection.id.clone()));
        }
        OrgNode::Space(space) => {
            let emoji = text::emoji(space.emoji.as_deref()).unwrap_or_else(|| "📄".into());
            lines.push(Line::from(Span::styled(
                format!("{emoji} {}", sanitize(&space.title)),
                theme.style("title"),
            )));
            lines.push(Line::from(""));
            if let Some(visibility) = &space.visibility {
                lines.push(field("Visibility", visibility.as_str().to_string()));
            }
            if let Some(mode) = &space.edit_mode {
                lines.push(field("Edit mode", mode.to_string()));
            }
            if let Some(updated) = &space.updated_at {
                lines.push(field("Updated", text::date(updated)));
            }
            if let Some(open) = space.change_requests_open {
                lines.push(field("Open CRs", open.to_string()));
            }
            if let Some(comments) = space.comments {
                lines.push(field("Comments", comments.to_string()));
            }
            if let Some(language) = &space.language {
                lines.push(field("Language", language.clone()));
            }
            if let Some(url) = space.urls.published.clone() {
                lines.push(field("Published", url));
            }
            lines.push(field("Id", space.id.clone()));
            lines.push(Line::from(""));
            lines.push(Line::from(Span::styled(
                "enter: browse pages   y: copy link",
                theme.style("muted"),
            )));
        }
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
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

//! Drawing the Spaces tab: the collections-and-spaces tree (filter row, note on what it lacks,
//! badges) and, when the screen is wide enough, the selected item's details beside it.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{OrgNode, Organization};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

/// Below this width the details pane gives its room to the tree.
const DETAILS_MIN_WIDTH: u16 = 70;

pub(super) fn draw(screen: &Organization, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (area, filter_area) =
        crate::ui::input::with_filter_row(area, screen.tree_filter.is_shown());
    if let Some(filter_area) = filter_area {
        crate::ui::input::draw_filter(frame, filter_area, &screen.tree_filter, theme);
    }
    let Some(tree) = screen.tree.value() else {
        match screen.tree.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "collections and spaces"),
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
            look,
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
        status::empty(
            frame,
            tree_area,
            look,
            &status::no_matches(&screen.tree_filter.text),
        );
    }
    let range = screen
        .tree_selection
        .visible_range(rows.len(), tree_area.height as usize);
    frame
        .hits
        .record_rows(tree_area, range.clone(), screen.tree_selection.selected);
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
        let _ = status::reload_failed(frame, tree_area, look, error);
    }
    if let (Some(details_area), Some(node)) = (details_area, screen.selected_node()) {
        draw_details(node, frame, details_area, look);
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
    let prefix = crate::ui::list::tree_prefix(row);
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
    let base = theme.style(if selected { "selection" } else { "text" });
    let title = sanitize(node.title()).into_owned();
    let used = text::width(&prefix) + 3;
    let badge_width: usize = badges.iter().map(Span::width).sum();
    let room = (width as usize).saturating_sub(used + badge_width);
    let title = text::truncate(&title, room.max(4));
    let mut spans = vec![
        Span::styled(prefix, theme.style("muted")),
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

fn draw_details(node: &OrgNode, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
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

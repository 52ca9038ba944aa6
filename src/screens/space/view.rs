use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{PageNode, SpaceScreen};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::tree::VisibleRow;
use crate::ui::{status, text};

pub(super) fn draw(screen: &SpaceScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    // the focused pane alone when zoomed; its border says which it is.
    let (tree_area, preview_area) = screen.panes(area);
    if let Some(tree_area) = tree_area {
        let (tree_area, filter_area) =
            crate::ui::input::with_filter_row(tree_area, screen.filter.is_shown());
        if let Some(filter_area) = filter_area {
            crate::ui::input::draw_filter(frame, filter_area, &screen.filter, theme);
        }
        draw_tree(screen, frame, tree_area, look);
    }
    if let Some(preview_area) = preview_area {
        if preview_area.x > area.x {
            let separator = Rect::new(preview_area.x - 1, area.y, 1, area.height);
            let border = if screen.preview_focused {
                theme.style("border_focused")
            } else {
                theme.style("border")
            };
            frame.render_widget(
                Block::default().borders(Borders::LEFT).border_style(border),
                separator,
            );
        }
        // `j`/`k` move the tree: the wheel over the preview scrolls it.
        frame.hits.record(
            preview_area,
            crate::ui::hit::Hit::Wheel {
                down: crate::ui::keymap::Action::PreviewWheelDown,
                up: crate::ui::keymap::Action::PreviewWheelUp,
            },
        );
        draw_preview(screen, frame, preview_area, look);
    }
    screen.change_requests.draw(frame, area, look);
}

fn draw_tree(screen: &SpaceScreen, frame: &mut Canvas, mut area: Rect, look: &Look) {
    let theme = look.theme;
    let Some(tree) = screen.pages.value() else {
        match screen.pages.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "pages"),
        }
        return;
    };
    if tree.is_empty() {
        status::empty(frame, area, look, "This space has no pages yet.");
        return;
    }
    if let Some(error) = screen.pages.error() {
        // A failed reload keeps the old tree; the last row says so.
        let taken = status::reload_failed(frame, area, look, error);
        area.height = area.height.saturating_sub(taken);
    }
    let rows = screen.visible_rows();
    if rows.is_empty() {
        let message = status::no_matches(&screen.filter.text);
        status::empty(frame, area, look, &message);
        return;
    }
    let range = screen
        .selection
        .visible_range(rows.len(), area.height as usize);
    frame
        .hits
        .record_rows(area, range.clone(), screen.selection.selected);
    // Row by row as a paragraph of these lines would draw them, without its cost per grapheme.
    let lines = rows[range.clone()]
        .iter()
        .enumerate()
        .filter_map(|(offset, row)| {
            let page = tree.item(row.node)?;
            let selected = range.start + offset == screen.selection.selected;
            Some(page_line(
                page,
                row,
                selected,
                &screen.filter.text,
                area.width,
                theme,
            ))
        });
    for (y, line) in (area.top()..area.bottom()).zip(lines) {
        let row = Rect::new(area.x, y, area.width, 1);
        crate::ui::one_line::draw_line(frame.buffer_mut(), row, &line);
    }
}

fn page_line(
    page: &PageNode,
    row: &VisibleRow,
    selected: bool,
    filter: &str,
    width: u16,
    theme: &Theme,
) -> Line<'static> {
    let prefix = crate::ui::list::tree_prefix(row);
    let icon = match page.kind.as_ref() {
        "group" => String::new(),
        "link" => "↗ ".to_string(),
        // Pages without an icon keep the column so titles line up.
        _ => text::emoji(page.emoji.as_deref())
            .map(|e| format!("{e} "))
            .unwrap_or_else(|| "   ".to_string()),
    };
    let mut base = match page.kind.as_ref() {
        "group" => theme.style("accent"),
        _ if page.hidden => theme.style("hidden"),
        _ => theme.style("text"),
    };
    if selected {
        base = theme.style("selection");
    }
    let title = sanitize(&page.title).into_owned();
    let title = if page.kind == "group" {
        title.to_uppercase()
    } else {
        title
    };
    let suffix = if page.hidden { " (hidden)" } else { "" };
    let room =
        (width as usize).saturating_sub(text::width(&prefix) + text::width(&icon) + suffix.len());
    let title = text::truncate(&title, room.max(4));
    let mut spans = vec![
        Span::styled(prefix, theme.style("muted")),
        Span::styled(icon, base),
    ];
    spans.extend(text::highlight(&title, filter, base, theme.style("match")));
    if page.hidden {
        spans.push(Span::styled(suffix, theme.style("hidden")));
    }
    Line::from(spans).style(if selected { base } else { Default::default() })
}

fn draw_preview(screen: &SpaceScreen, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    let Some(page) = screen.selected_page() else {
        return;
    };
    let [title_area, body] =
        Layout::vertical([Constraint::Length(2), Constraint::Min(0)]).areas(area);
    let mut title = vec![Span::styled(
        sanitize(&page.title).into_owned(),
        theme.style("title"),
    )];
    if let Some(path) = &page.path {
        title.push(Span::styled(
            format!("  /{}", sanitize(path)),
            theme.style("muted"),
        ));
    }
    crate::ui::one_line::draw_line(frame.buffer_mut(), title_area, &Line::from(title));

    if !page.has_body() {
        let message = match (page.kind.as_ref(), &page.link_target) {
            ("link", Some(target)) => format!("A link to {}", sanitize(target)),
            ("link", None) => "A link to another place.".to_string(),
            _ => "A group of pages: expand it with l or →.".to_string(),
        };
        frame.render_widget(
            Paragraph::new(Span::styled(message, theme.style("muted"))).wrap(Wrap { trim: true }),
            body,
        );
        return;
    }
    if screen.reader.is_ready() {
        screen.reader.draw(frame, body, theme);
        return;
    }
    match screen.preview.error() {
        Some(error) => status::error(frame, body, look, error),
        None => status::loading(frame, body, look, "page"),
    }
}

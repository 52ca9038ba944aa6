//! The frame around every screen: breadcrumb on top, key hints at the bottom, overlays above.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::keymap::KeyContext;
use crate::app::{Model, Overlay};
use crate::ui::sanitize::sanitize;

const SPINNER: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Splits the terminal into header, body and footer rows.
pub fn areas(area: Rect) -> (Rect, Rect, Rect) {
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    (header, body, footer)
}

/// The body's size for a terminal of `width` x `height`: what screens lay text out for.
pub fn body_size(width: u16, height: u16) -> (u16, u16) {
    (width, height.saturating_sub(2))
}

pub fn draw(frame: &mut Frame, model: &Model) {
    let (header, body, footer) = areas(frame.area());
    draw_header(frame, header, model);
    model.top().draw(frame, body, model);
    draw_footer(frame, footer, model);
    if let Some(overlay) = &model.overlay {
        draw_overlay(frame, body, overlay, model);
    }
}

fn draw_header(frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let mut spans = vec![Span::styled(" quire ", theme.style("tab_active"))];
    let crumbs = model.breadcrumb();
    for (index, crumb) in crumbs.iter().enumerate() {
        let style = if index + 1 == crumbs.len() {
            theme.style("title")
        } else {
            theme.style("breadcrumb")
        };
        spans.push(Span::styled(" › ", theme.style("muted")));
        spans.push(Span::styled(sanitize(crumb).into_owned(), style));
    }
    let server = format!(" {} ", model.environment.server_label);
    let used: usize = spans.iter().map(Span::width).sum();
    let room = (area.width as usize).saturating_sub(used);
    if room > server.chars().count() + 1 {
        spans.push(Span::raw(" ".repeat(room - server.chars().count())));
        spans.push(Span::styled(server, theme.style("muted")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_footer(frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let mut spans = Vec::new();
    if model.is_busy() {
        let frame_index = model.spinner_frame % SPINNER.len();
        spans.push(Span::styled(
            format!("{} ", SPINNER[frame_index]),
            theme.style("accent"),
        ));
    }
    if let Some(toast) = &model.toast {
        spans.push(Span::styled(
            sanitize(toast).into_owned(),
            theme.style("success"),
        ));
        spans.push(Span::raw("  "));
    }
    let screen = model.top();
    let mut contexts = screen.key_contexts().to_vec();
    contexts.push(KeyContext::Global);
    let disabled = screen.disabled_actions();
    for (action, label) in screen.hints() {
        if let Some(key) = model.keymap.label(&contexts, action) {
            if disabled.contains(&action) {
                spans.push(Span::styled(
                    format!(" {key} {label} "),
                    theme.style("disabled"),
                ));
                spans.push(Span::raw("  "));
                continue;
            }
            spans.push(Span::styled(format!(" {key} "), theme.style("footer_key")));
            spans.push(Span::styled(
                format!(" {label}  "),
                theme.style("footer_text"),
            ));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_overlay(frame: &mut Frame, area: Rect, overlay: &Overlay, model: &Model) {
    match overlay {
        Overlay::Help { scroll } => draw_help(frame, area, *scroll, model),
        Overlay::ConfirmQuit { unsaved } => draw_confirm_quit(frame, area, unsaved, model),
    }
}

fn draw_confirm_quit(frame: &mut Frame, area: Rect, unsaved: &[String], model: &Model) {
    let theme = &model.theme;
    let mut lines = vec![Line::from("Quitting now would lose:")];
    for item in unsaved {
        lines.push(Line::from(format!("  • {}", sanitize(item))));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "y quit anyway · any other key stays",
        theme.style("accent"),
    )));
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let popup = centered(area, 60, rows.saturating_add(2));
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(" Quit? ");
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        popup,
    );
}

fn draw_help(frame: &mut Frame, area: Rect, scroll: u16, model: &Model) {
    let theme = &model.theme;
    let mut contexts = model.top().key_contexts().to_vec();
    contexts.push(KeyContext::Global);
    let rows = model.keymap.help_rows(&contexts);
    let key_width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|(keys, help)| {
            Line::from(vec![
                Span::styled(format!("{keys:>key_width$}  "), theme.style("accent")),
                Span::styled(help, theme.style("text")),
            ])
        })
        .collect();
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let popup = centered(area, 60, rows.saturating_add(2));
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(" Keys — ? or esc to close ");
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .scroll((scroll, 0))
            .wrap(Wrap { trim: false }),
        popup,
    );
}

/// A rectangle of at most `width` x `height` in the middle of `area`.
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

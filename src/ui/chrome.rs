//! The frame around every screen: breadcrumb on top, key hints at the bottom, overlays above.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::keymap::{Action, KeyContext};
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
    let brand: usize = spans.iter().map(Span::width).sum();
    let crumbs: Vec<String> = model
        .breadcrumb()
        .iter()
        .map(|crumb| sanitize(crumb).into_owned())
        .collect();
    let room = (area.width as usize).saturating_sub(brand);
    let shown = fit_breadcrumb(&crumbs, room);
    let last = shown.len().saturating_sub(1);
    for (index, crumb) in shown.into_iter().enumerate() {
        let style = if index == last {
            theme.style("title")
        } else {
            theme.style("breadcrumb")
        };
        spans.push(Span::styled(CRUMB_SEPARATOR, theme.style("muted")));
        spans.push(Span::styled(crumb, style));
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

const CRUMB_SEPARATOR: &str = " › ";

/// The breadcrumb cut to `room` cells: the oldest crumbs give way to one `…` first, then the
/// last crumb (where you are) is cut with an ellipsis, so a cut is always visible.
fn fit_breadcrumb(crumbs: &[String], room: usize) -> Vec<String> {
    let separator = CRUMB_SEPARATOR.chars().count();
    let width = |parts: &[String]| -> usize {
        parts
            .iter()
            .map(|part| separator + crate::ui::text::width(part))
            .sum()
    };
    let mut shown: Vec<String> = crumbs.to_vec();
    let mut dropped = false;
    while width(&shown) > room && shown.len() > 1 {
        let first = usize::from(dropped);
        if first + 1 >= shown.len() {
            break;
        }
        shown.remove(first);
        if !dropped {
            shown.insert(0, "…".to_string());
            dropped = true;
        }
    }
    if width(&shown) > room && !shown.is_empty() {
        let last = shown.len() - 1;
        let others: usize = width(&shown[..last]);
        let left = room.saturating_sub(others + separator);
        shown[last] = crate::ui::text::truncate(&shown[last], left);
    }
    shown
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
    if let Some((_, deadline)) = model.retry_waits.first() {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        spans.push(Span::styled(
            format!("retrying in {} s…  ", left.as_secs_f64().ceil().max(1.0)),
            theme.style("accent"),
        ));
    }
    let hints = footer_hints(model);
    let help_width = hints
        .iter()
        .find(|hint| hint.action == Action::Help)
        .map_or(0, FooterHint::width);
    if let Some(toast) = &model.toast {
        // The message gets the room left beside `?`, cut with an ellipsis if it must be.
        let used: usize = spans.iter().map(Span::width).sum();
        let room = (area.width as usize).saturating_sub(used + help_width + 2);
        let text = crate::ui::text::truncate(&sanitize(&toast.text), room);
        spans.push(Span::styled(text, toast.style(theme)));
        spans.push(Span::raw("  "));
    }
    let used: usize = spans.iter().map(Span::width).sum();
    let room = (area.width as usize).saturating_sub(used);
    for hint in fit_hints(hints, room) {
        if hint.disabled {
            spans.push(Span::styled(
                format!(" {} {} ", hint.key, hint.label),
                theme.style("disabled"),
            ));
            spans.push(Span::raw("  "));
        } else {
            spans.push(Span::styled(
                format!(" {} ", hint.key),
                theme.style("footer_key"),
            ));
            spans.push(Span::styled(
                format!(" {}  ", hint.label),
                theme.style("footer_text"),
            ));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// One key hint of the footer.
#[derive(Debug, Clone, PartialEq)]
struct FooterHint {
    action: Action,
    key: String,
    label: &'static str,
    disabled: bool,
}

impl FooterHint {
    /// Cells taken: ` key ` + ` label  `, or ` key label ` and two spaces when struck through.
    fn width(&self) -> usize {
        let key = crate::ui::text::width(&self.key);
        let label = crate::ui::text::width(self.label);
        key + label + 5
    }
}

/// The screen's hints in order of importance, with `?` always among them.
fn footer_hints(model: &Model) -> Vec<FooterHint> {
    let screen = model.top();
    let mut contexts = screen.key_contexts().to_vec();
    contexts.push(KeyContext::Global);
    let disabled = screen.disabled_actions();
    let mut hints: Vec<FooterHint> = screen
        .hints()
        .into_iter()
        .filter_map(|(action, label)| {
            let key = model.keymap.label(&contexts, action)?;
            // While a read waits to be retried, `r` cuts the wait short.
            let label = if action == Action::Refresh && !model.retry_waits.is_empty() {
                "retry now"
            } else {
                label
            };
            Some(FooterHint {
                action,
                key,
                label,
                disabled: disabled.contains(&action),
            })
        })
        .collect();
    if !hints.iter().any(|hint| hint.action == Action::Help)
        && let Some(key) = model.keymap.label(&contexts, Action::Help)
    {
        hints.push(FooterHint {
            action: Action::Help,
            key,
            label: "keys",
            disabled: false,
        });
    }
    hints
}

/// The hints that fit in `room` cells: the least important (last) go first, `?` never, so the
/// footer never cuts a hint in the middle of a word.
fn fit_hints(mut hints: Vec<FooterHint>, room: usize) -> Vec<FooterHint> {
    let total = |hints: &[FooterHint]| hints.iter().map(FooterHint::width).sum::<usize>();
    while total(&hints) > room {
        let Some(drop) = hints.iter().rposition(|hint| hint.action != Action::Help) else {
            break;
        };
        hints.remove(drop);
    }
    if total(&hints) > room {
        hints.clear();
    }
    hints
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

/// The rows of the help overlay for the screen on top.
fn help_lines(model: &Model) -> Vec<Line<'static>> {
    let theme = &model.theme;
    let mut contexts = model.top().key_contexts().to_vec();
    contexts.push(KeyContext::Global);
    let rows = model.keymap.help_rows(&contexts);
    let key_width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    rows.into_iter()
        .map(|(keys, help)| {
            Line::from(vec![
                Span::styled(format!("{keys:>key_width$}  "), theme.style("accent")),
                Span::styled(help, theme.style("text")),
            ])
        })
        .collect()
}

const HELP_WIDTH: u16 = 60;

/// The help overlay for the model's terminal size: its lines, where it sits in the body and
/// how far it can scroll. Built once per use, so a frame does not build the lines again for
/// each measure.
struct HelpLayout {
    lines: Vec<Line<'static>>,
    popup: Rect,
    visible_rows: u16,
    max_scroll: u16,
}

fn help_layout(model: &Model) -> HelpLayout {
    let (width, height) = body_size(model.size.width, model.size.height);
    let lines = help_lines(model);
    let inner = HELP_WIDTH.min(width).saturating_sub(2).max(1) as usize;
    // Lines wrap inside the popup: count the rows they take.
    let rows: usize = lines
        .iter()
        .map(|line| line.width().div_ceil(inner).max(1))
        .sum();
    let rows = u16::try_from(rows).unwrap_or(u16::MAX);
    let popup = centered(
        Rect::new(0, 0, width, height),
        HELP_WIDTH,
        rows.saturating_add(2),
    );
    let visible_rows = popup.height.saturating_sub(2);
    HelpLayout {
        lines,
        popup,
        visible_rows,
        // Its last row at the bottom of the popup, never past it.
        max_scroll: rows.saturating_sub(visible_rows),
    }
}

/// Rows of help visible at once.
pub fn help_visible_rows(model: &Model) -> u16 {
    help_layout(model).visible_rows
}

/// The furthest the help can scroll: its last row at the bottom of the popup, never past it.
pub fn help_max_scroll(model: &Model) -> u16 {
    help_layout(model).max_scroll
}

fn draw_help(frame: &mut Frame, area: Rect, scroll: u16, model: &Model) {
    let theme = &model.theme;
    let layout = help_layout(model);
    let popup = Rect::new(
        area.x + layout.popup.x,
        area.y + layout.popup.y,
        layout.popup.width.min(area.width),
        layout.popup.height.min(area.height),
    );
    let title = if layout.max_scroll > 0 {
        " Keys — j/k scroll · ? or esc closes "
    } else {
        " Keys — ? or esc to close "
    };
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(title);
    frame.render_widget(
        Paragraph::new(layout.lines)
            .block(block)
            .scroll((scroll.min(layout.max_scroll), 0))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(action: Action, key: &str, label: &'static str) -> FooterHint {
        FooterHint {
            action,
            key: key.to_string(),
            label,
            disabled: false,
        }
    }

    #[test]
    fn hints_that_do_not_fit_go_from_the_end_but_help_stays() {
        let hints = vec![
            hint(Action::Down, "j", "down"),
            hint(Action::Open, "enter", "open"),
            hint(Action::Filter, "/", "filter"),
            hint(Action::Help, "?", "keys"),
        ];
        let kept = fit_hints(hints.clone(), 34);
        let names: Vec<_> = kept.iter().map(|h| h.label).collect();
        assert_eq!(names, ["down", "open", "keys"]);
        let kept = fit_hints(hints, 10);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].action, Action::Help);
    }

    #[test]
    fn a_long_breadcrumb_drops_its_oldest_crumbs_behind_an_ellipsis() {
        let crumbs: Vec<String> = [
            "Organizations",
            "Acme Robotics",
            "Engineering",
            "Quickstart",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(fit_breadcrumb(&crumbs, 200), crumbs);
        let cut = fit_breadcrumb(&crumbs, 34);
        assert_eq!(cut.first().map(String::as_str), Some("…"));
        assert_eq!(cut.last().map(String::as_str), Some("Quickstart"));
        let tiny = fit_breadcrumb(&crumbs, 12);
        assert!(tiny.last().unwrap().ends_with('…'), "{tiny:?}");
        let width: usize = tiny.iter().map(|c| 3 + Span::raw(c.as_str()).width()).sum();
        assert!(width <= 12, "{tiny:?}");
    }
}

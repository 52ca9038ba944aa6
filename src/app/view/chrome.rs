//! The frame around every screen: breadcrumb on top, key hints at the bottom, overlays above.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::{Model, Overlay};
use crate::ui::hit::{Canvas, HitMap};
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::layout::{body_size, centered};
use crate::ui::one_line::draw_line;
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

pub fn draw(frame: &mut Frame, model: &Model) {
    draw_noting_hits(frame, model);
}

/// [`draw`], returning where rows, tabs and popups were drawn: the next click is mapped through
/// this map.
pub fn draw_noting_hits(frame: &mut Frame, model: &Model) -> HitMap {
    let mut canvas = Canvas::new(frame);
    let (header, body, footer) = areas(canvas.area());
    draw_header(&mut canvas, header, model);
    model.top().draw(&mut canvas, body, &model.look());
    draw_footer(&mut canvas, footer, model);
    if let Some(overlay) = &model.overlay {
        draw_overlay(&mut canvas, body, overlay, model);
    }
    if let Some(palette) = &model.palette {
        crate::app::view::palette::draw(&mut canvas, body, palette, &model.theme);
    }
    model.theme.paint_background(canvas.buffer_mut());
    canvas.into_hits()
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
    // On a very narrow terminal where you are matters more: the count goes.
    let count = review_requested_span(model)
        .filter(|count| area.width as usize >= brand + count.width() + 12);
    let note = offline_note(model, (area.width as usize).saturating_sub(brand));
    let waiting = outbox_waiting(model, (area.width as usize).saturating_sub(brand));
    let count_width = count.as_ref().map_or(0, Span::width)
        + note.as_ref().map_or(0, Span::width)
        + waiting.as_ref().map_or(0, Span::width);
    let room = (area.width as usize).saturating_sub(brand + count_width);
    let (shown, right) = fit_header(&crumbs, &who_and_where(model), room);
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
    spans.extend(count);
    spans.extend(note);
    spans.extend(waiting);
    if let Some(right) = right {
        let right = format!(" {right} ");
        let used: usize = spans.iter().map(Span::width).sum();
        let gap = (area.width as usize).saturating_sub(used + crate::ui::text::width(&right));
        spans.push(Span::raw(" ".repeat(gap)));
        spans.push(Span::styled(right, theme.style("muted")));
    }
    draw_line(frame.buffer_mut(), area, &Line::from(spans));
}

/// The header's right side: who is signed in and where ("Ada Lovelace · api.gitbook.com"),
/// and the server alone for when that does not fit. Never the token: the name comes from
/// `GET /user` and the server label is a host name.
struct WhoAndWhere {
    both: Option<String>,
    server: Option<String>,
}

fn who_and_where(model: &Model) -> WhoAndWhere {
    let server = sanitize(&model.environment.server_label).trim().to_string();
    let server = (!server.is_empty()).then_some(server);
    let who = model
        .signed_in_as
        .as_deref()
        .map(|who| crate::ui::text::truncate(&sanitize(who), WHO_MAX_WIDTH));
    let both = match (who, &server) {
        (Some(who), Some(server)) => Some(format!("{who} · {server}")),
        (who, _) => who,
    };
    WhoAndWhere { both, server }
}

/// A long display name gives way to the server label past this many cells.
const WHO_MAX_WIDTH: usize = 24;

/// The breadcrumb and the right side that fit in `room` cells together. The last crumb (where
/// you are) has priority: who-and-where is shown when the last crumb stays whole beside it
/// (older crumbs may give way to `…`); else the server alone takes the room the breadcrumb
/// leaves, or nothing does.
fn fit_header(
    crumbs: &[String],
    right: &WhoAndWhere,
    room: usize,
) -> (Vec<String>, Option<String>) {
    // The right side's text plus a space either side and at least one before it.
    let taken = |text: &str| crate::ui::text::width(text) + 3;
    if let Some(both) = &right.both
        && let Some(left) = room.checked_sub(taken(both))
    {
        let shown = fit_breadcrumb(crumbs, left);
        if shown.last() == crumbs.last() {
            return (shown, Some(both.clone()));
        }
    }
    let shown = fit_breadcrumb(crumbs, room);
    let used = breadcrumb_width(&shown);
    let server = right
        .server
        .clone()
        .filter(|server| room.saturating_sub(used) > taken(server));
    (shown, server)
}

fn breadcrumb_width(crumbs: &[String]) -> usize {
    crumbs
        .iter()
        .map(|crumb| CRUMB_SEPARATOR.chars().count() + crate::ui::text::width(crumb))
        .sum()
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
            format!(" {} ", SPINNER[frame_index]),
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
    if let Some(pending) = pending_sequence_spans(model) {
        spans.extend(pending);
        draw_line(frame.buffer_mut(), area, &Line::from(spans));
        return;
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
        let key = model.message_key();
        let text = crate::ui::notice::fit(&sanitize(&toast.text), room, key.as_deref());
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
    draw_line(frame.buffer_mut(), area, &Line::from(spans));
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
    let disabled = model.disabled_actions();
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

fn draw_overlay(frame: &mut Canvas, area: Rect, overlay: &Overlay, model: &Model) {
    match overlay {
        Overlay::Help { scroll, .. } => draw_help(frame, area, *scroll, model),
        Overlay::ConfirmQuit { unsaved } => draw_confirm(frame, area, unsaved, model, &QUIT_WORDS),
        Overlay::ConfirmLeave { unsaved } => {
            draw_confirm(frame, area, unsaved, model, &LEAVE_WORDS)
        }
        Overlay::Messages { scroll } => {
            crate::app::view::message_popup::draw(frame, area, *scroll, model)
        }
    }
}

/// The words of a question before losing unsaved work.
struct ConfirmWords {
    title: &'static str,
    lead: &'static str,
    keys: &'static str,
}

const QUIT_WORDS: ConfirmWords = ConfirmWords {
    title: " Quit? ",
    lead: "Quitting now would lose:",
    keys: "y quit anyway · any other key stays",
};

const LEAVE_WORDS: ConfirmWords = ConfirmWords {
    title: " Leave? ",
    lead: "Going back now would lose:",
    keys: "y leave anyway · any other key stays",
};

fn draw_confirm(
    frame: &mut Canvas,
    area: Rect,
    unsaved: &[String],
    model: &Model,
    words: &ConfirmWords,
) {
    let theme = &model.theme;
    let mut lines = vec![Line::from(words.lead)];
    for item in unsaved {
        lines.push(Line::from(format!("  • {}", sanitize(item))));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(words.keys, theme.style("accent"))));
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let popup = centered(area, 60, rows.saturating_add(2));
    frame.hits.cover(popup);
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(words.title);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        popup,
    );
}

/// Actions that move in a list, a tree or a page: the help lists them last, once.
const MOVEMENT: &[Action] = &[
    Action::Up,
    Action::Down,
    Action::HalfPageUp,
    Action::HalfPageDown,
    Action::PageUp,
    Action::PageDown,
    Action::Top,
    Action::Bottom,
];

/// A section's title for a context shared by many screens; None for a screen's own context.
fn shared_section(context: KeyContext) -> Option<&'static str> {
    match context {
        KeyContext::List | KeyContext::Browse => Some("Lists"),
        KeyContext::Tree => Some("Trees"),
        KeyContext::Tabs => Some("Tabs"),
        KeyContext::Reader => Some("Reading"),
        KeyContext::Global => Some("Everywhere"),
        _ => None,
    }
}

/// One titled group of (keys, description) rows.
pub type HelpSection = (&'static str, Vec<(String, &'static str)>);

/// The help for the screen on top, grouped: this screen's own actions first, then the wider
/// contexts (lists, trees, tabs, reading, everywhere), movement last; each action once. Rows
/// are narrowed to those whose keys or text contain `query` (any case).
pub fn help_sections(model: &Model, query: &str) -> Vec<HelpSection> {
    let mut contexts = model.top().key_contexts().to_vec();
    contexts.push(KeyContext::Global);
    let keymap = &model.keymap;
    let own: Vec<KeyContext> = contexts
        .iter()
        .copied()
        .filter(|context| shared_section(*context).is_none())
        .collect();
    let mut groups: Vec<(&'static str, Vec<KeyContext>)> = vec![("This screen", own)];
    for context in &contexts {
        if let Some(title) = shared_section(*context) {
            match groups.iter_mut().find(|(existing, _)| *existing == title) {
                Some((_, members)) => members.push(*context),
                None => groups.push((title, vec![*context])),
            }
        }
    }
    let mut seen: Vec<Action> = MOVEMENT.to_vec();
    let mut sections: Vec<HelpSection> = Vec::new();
    for (title, members) in groups {
        let actions: Vec<Action> = Action::ALL
            .iter()
            .copied()
            .filter(|action| !seen.contains(action))
            .collect();
        let rows = help_rows_of(keymap, &members, &actions);
        seen.extend(
            actions
                .iter()
                .filter(|a| !keymap.keys_for(&members, **a).is_empty()),
        );
        sections.push((title, rows));
    }
    sections.push(("Movement", help_rows_of(keymap, &contexts, MOVEMENT)));
    let query = query.trim().to_lowercase();
    for (_, rows) in &mut sections {
        rows.retain(|(keys, help)| {
            query.is_empty()
                || keys.to_lowercase().contains(&query)
                || help.to_lowercase().contains(&query)
        });
    }
    sections.retain(|(_, rows)| !rows.is_empty());
    sections
}

/// (keys, description) for each of `actions` bound in `contexts`.
fn help_rows_of(
    keymap: &crate::app::Keymap,
    contexts: &[KeyContext],
    actions: &[Action],
) -> Vec<(String, &'static str)> {
    actions
        .iter()
        .filter_map(|action| {
            let keys = keymap.keys_for(contexts, *action);
            if keys.is_empty() {
                return None;
            }
            let labels: Vec<String> = keys.iter().map(ToString::to_string).collect();
            Some((labels.join(" "), action.help()))
        })
        .collect()
}

/// A key column and its description, the description wrapped to `width` cells in all with its
/// continuation rows under the description, not under the keys.
fn described(keys: Span<'static>, text: &str, style: Style, width: usize) -> Vec<Line<'static>> {
    let indent = keys.width() + 2;
    let room = width.saturating_sub(indent);
    // Too narrow for a column of its own: the text follows the keys and wraps as it will.
    if room < 12 {
        return vec![Line::from(vec![
            keys,
            Span::raw("  "),
            Span::styled(text.to_string(), style),
        ])];
    }
    let mut rows = crate::ui::text::wrap(text, room).into_iter();
    let first = rows.next().unwrap_or_default();
    let mut lines = vec![Line::from(vec![
        keys,
        Span::raw("  "),
        Span::styled(first, style),
    ])];
    lines.extend(rows.map(|row| {
        Line::from(vec![
            Span::raw(" ".repeat(indent)),
            Span::styled(row, style),
        ])
    }));
    lines
}

/// The rows of the help overlay for the screen on top, `width` cells wide: section titles,
/// their keys, a blank line between sections, and the query row while one is typed or in
/// force.
fn help_lines(model: &Model, width: usize) -> Vec<Line<'static>> {
    let theme = &model.theme;
    let filter = match &model.overlay {
        Some(Overlay::Help { filter, .. }) => Some(filter),
        _ => None,
    };
    let query = filter.map_or("", |filter| filter.text.as_str());
    let sections = help_sections(model, query);
    let key_width = sections
        .iter()
        .flat_map(|(_, rows)| rows.iter())
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines = Vec::new();
    if let Some(filter) = filter.filter(|filter| filter.is_shown()) {
        let cursor = if filter.is_typing() { "▏" } else { "" };
        lines.push(Line::from(vec![
            Span::styled("/", theme.style("accent")),
            Span::styled(
                format!("{}{cursor}", sanitize(&filter.text)),
                theme.style("text"),
            ),
        ]));
        if sections.is_empty() {
            lines.push(Line::from(Span::styled(
                "No key matches — esc clears",
                theme.style("muted"),
            )));
        }
    }
    let disabled = model.disabled_actions();
    for (index, (title, rows)) in sections.into_iter().enumerate() {
        if index > 0 {
            lines.push(Line::from(""));
        }
        lines.push(Line::from(Span::styled(title, theme.style("title"))));
        for (keys, help) in rows {
            let refused = disabled.iter().find(|action| action.help() == help);
            let Some(action) = refused else {
                let keys = Span::styled(format!("{keys:>key_width$}"), theme.style("accent"));
                lines.extend(described(keys, help, theme.style("text"), width));
                continue;
            };
            // Struck through like the footer's hint, with the reason under it when the screen
            // has one.
            let keys = Span::styled(format!("{keys:>key_width$}"), theme.style("disabled"));
            lines.extend(described(keys, help, theme.style("disabled"), width));
            if let Some(reason) = model.disabled_reason(*action) {
                let under = Span::raw(" ".repeat(key_width));
                lines.extend(described(
                    under,
                    &sanitize(&reason),
                    theme.style("muted"),
                    width,
                ));
            }
        }
    }
    lines
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
    let inner = HELP_WIDTH.min(width).saturating_sub(2).max(1) as usize;
    let lines = help_lines(model, inner);
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

fn draw_help(frame: &mut Canvas, area: Rect, scroll: u16, model: &Model) {
    let theme = &model.theme;
    let layout = help_layout(model);
    let popup = Rect::new(
        area.x + layout.popup.x,
        area.y + layout.popup.y,
        layout.popup.width.min(area.width),
        layout.popup.height.min(area.height),
    );
    let title = if layout.max_scroll > 0 {
        " Keys — j/k scroll · / search · esc closes "
    } else {
        " Keys — / search · ? or esc closes "
    };
    frame.hits.cover(popup);
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

/// "  offline · as of 3 h ago" (or "  offline" where that does not fit beside a short
/// breadcrumb), "  as of 3 h ago" while an old cached answer waits for the server's.
fn offline_note(model: &Model, room: usize) -> Option<Span<'static>> {
    let note = model.offline.header_note(std::time::SystemTime::now())?;
    let note = format!("  {note}");
    let note = if crate::ui::text::width(&note) + 12 <= room {
        note
    } else if model.offline.offline {
        "  offline".to_string()
    } else {
        return None;
    };
    Some(Span::styled(note, model.theme.style("warning")))
}

/// "  ◷ 2 queued": writes waiting in the outbox, or "  ◷2" beside a short breadcrumb.
fn outbox_waiting(model: &Model, room: usize) -> Option<Span<'static>> {
    let waiting = model.outbox.waiting;
    if waiting == 0 {
        return None;
    }
    let long = format!("  ◷ {waiting} queued");
    let text = if crate::ui::text::width(&long) + 24 <= room {
        long
    } else {
        format!("  ◷{waiting}")
    };
    Some(Span::styled(text, model.theme.style("warning")))
}

/// "  2 review requested": the open change requests of this organization waiting for your
/// review, from the last watch refresh; nothing when zero or not known.
pub fn review_requested_span(model: &Model) -> Option<Span<'static>> {
    let in_organization = model
        .screens
        .iter()
        .any(|screen| matches!(screen, crate::screens::Screen::Organization(_)));
    if !in_organization {
        return None;
    }
    let count = model.watch.review_requested.filter(|count| *count > 0)?;
    Some(Span::styled(
        format!("  {count} review requested"),
        model.theme.style("accent"),
    ))
}

/// While the first key of a sequence waits: "]…  c next change request of the list  esc cancels".
fn pending_sequence_spans(model: &Model) -> Option<Vec<Span<'static>>> {
    let first = model.pending_prefix?;
    let mut contexts = model.top().key_contexts().to_vec();
    contexts.push(KeyContext::Global);
    let theme = &model.theme;
    let mut spans = vec![Span::styled(
        format!(" {first}… "),
        theme.style("footer_key"),
    )];
    for (keys, help) in model.keymap.sequences_after(&contexts, first) {
        spans.push(Span::styled(format!(" {keys} "), theme.style("footer_key")));
        spans.push(Span::styled(
            format!(" {help}  "),
            theme.style("footer_text"),
        ));
    }
    spans.push(Span::styled(" esc cancels", theme.style("muted")));
    Some(spans)
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
    fn the_header_names_who_and_where_while_the_last_crumb_stays_whole() {
        let crumbs: Vec<String> = ["Organizations", "Acme Robotics", "Quickstart"]
            .map(String::from)
            .to_vec();
        let right = WhoAndWhere {
            both: Some("Ada Lovelace · api.gitbook.com".into()),
            server: Some("api.gitbook.com".into()),
        };
        let both = right.both.as_deref();
        let (shown, who) = fit_header(&crumbs, &right, 120);
        assert_eq!((shown, who.as_deref()), (crumbs.clone(), both));
        // Older crumbs give way before the right side shrinks.
        let (shown, who) = fit_header(&crumbs, &right, 60);
        assert_eq!(shown.first().map(String::as_str), Some("…"));
        assert_eq!(shown.last(), crumbs.last());
        assert_eq!(who.as_deref(), both);
        // Too narrow for both: the breadcrumb keeps the row, the server takes what is left.
        let (shown, who) = fit_header(&crumbs, &right, 30);
        assert_eq!(shown.last(), crumbs.last());
        assert_eq!(who, None, "{shown:?}");
        let short = ["Organizations".to_string()];
        let (_, who) = fit_header(&short, &right, 40);
        assert_eq!(who.as_deref(), Some("api.gitbook.com"));
        let (shown, who) = fit_header(&crumbs, &right, 8);
        assert_eq!(who, None);
        assert!(!shown.is_empty());
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

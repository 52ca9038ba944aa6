use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Modal, OutboxScreen};
use crate::api::outbox::{Queued, Write};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::{sanitize::sanitize, status, text, titled};

pub(super) fn draw(screen: &OutboxScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let count = crate::ui::time::plural(screen.writes().len(), "write", "writes");
    let mut more = vec![Span::styled(
        format!(" — {count} waiting"),
        theme.style("muted"),
    )];
    if !screen.marked.is_empty() {
        more.push(Span::styled(
            format!(" · {} marked", screen.marked.len()),
            theme.style("accent"),
        ));
    }
    let Some(areas) = titled::split(frame, area, look, "Outbox", more) else {
        return;
    };
    let mut body = areas.body;
    if screen.offline_by_flag && body.height > 1 {
        let line = Rect { height: 1, ..body };
        let said = text::truncate(super::NOTHING_SENT_BY_FLAG, body.width as usize);
        frame.render_widget(
            Paragraph::new(Line::from(Span::styled(said, theme.style("warning")))),
            line,
        );
        body = Rect {
            y: body.y + 1,
            height: body.height - 1,
            ..body
        };
    }
    if !screen.loaded {
        status::empty(frame, body, look, "Reading the outbox…");
    } else if screen.writes().is_empty() {
        status::empty(
            frame,
            body,
            look,
            "Nothing waits: writes made while the server is out of reach are queued here.",
        );
    } else {
        frame.render_widget(Paragraph::new(rows(screen, body, look)), body);
    }
    titled::draw_notice(frame, areas.notice, screen.notice.as_ref(), look);
    match &screen.modal {
        Some(Modal::Confirm(confirm, _)) => confirm.draw(frame, area, theme),
        Some(Modal::Edit { composer, .. }) => composer.draw(frame, area, theme),
        None => {}
    }
}

/// A heading per change request (with what happened to it meanwhile), then its writes, one
/// line each and a line for what changed in their thread; scrolled to the selection.
fn rows(screen: &OutboxScreen, body: Rect, look: &Look) -> Vec<Line<'static>> {
    let theme = look.theme;
    let width = body.width as usize;
    let mut lines = Vec::new();
    let mut selected_line = 0;
    for (index, queued) in screen.writes().iter().enumerate() {
        let new_target = index == 0 || screen.writes()[index - 1].target != queued.target;
        if new_target {
            lines.push(heading(screen, queued, width, look));
        }
        let selected = index == screen.selection.selected;
        if selected {
            selected_line = lines.len();
        }
        let style = if selected { "selection" } else { "text" };
        let cursor = if selected { "▶" } else { " " };
        let mark = if screen.marked.contains(&queued.id) {
            "✓"
        } else {
            " "
        };
        let line = format!("{cursor}{mark}◷ {}", summary(queued));
        lines.push(Line::from(Span::styled(
            text::truncate(&line, width),
            theme.style(style),
        )));
        if let Some(note) = screen.listing.notes.get(&queued.id) {
            lines.push(Line::from(Span::styled(
                text::truncate(&format!("     {note}"), width),
                theme.style("warning"),
            )));
            if selected {
                selected_line = lines.len() - 1;
            }
        }
    }
    let height = body.height as usize;
    let skip = (selected_line + 1).saturating_sub(height);
    lines.into_iter().skip(skip).collect()
}

fn heading(screen: &OutboxScreen, queued: &Queued, width: usize, look: &Look) -> Line<'static> {
    let theme = look.theme;
    let title = sanitize(&screen.heading(Some(&queued.target))).into_owned();
    let meanwhile = screen
        .listing
        .change_requests
        .get(&queued.target)
        .and_then(|news| news.meanwhile.as_deref());
    let Some(meanwhile) = meanwhile else {
        return Line::from(Span::styled(
            text::truncate(&title, width),
            theme.style("accent"),
        ));
    };
    // What happened to the change request keeps its room; the title gives way.
    let said = format!(" — {meanwhile}");
    let room = width.saturating_sub(text::width(&said));
    Line::from(vec![
        Span::styled(text::truncate(&title, room), theme.style("accent")),
        Span::styled(text::truncate(&said, width), theme.style("warning")),
    ])
}

/// "reply to Diego Álvarez's thread 'Screenshot in the…' (read back first): Looks good" —
/// the kind of write, the thread it goes to when known, and its text, on one line.
pub(super) fn summary(queued: &Queued) -> String {
    let unsure = if queued.held {
        " (outcome unknown: s sends it again)"
    } else if queued.attempted {
        " (read back first)"
    } else {
        ""
    };
    let qualifier = match thread_words(&queued.write, queued.about.thread()) {
        Some(place) => format!(" {place}{unsure}"),
        None => unsure.to_string(),
    };
    crate::vocabulary::outbox::write_line(&queued.write, &qualifier)
}

/// Where on the thread the write goes: "to Diego's thread '…'", "on a reply in Diego's
/// thread '…'"; None when the thread is not known (a write queued by an older quire).
fn thread_words(write: &Write, thread: Option<String>) -> Option<String> {
    let thread = thread?;
    let words = match write {
        Write::Reply { .. } => format!("to {thread}"),
        Write::Resolve { .. } => thread,
        Write::Edit { .. } => format!("in {thread}"),
        Write::Reaction { reply: None, .. } => format!("on {thread}"),
        Write::Reaction { reply: Some(_), .. } => format!("on a reply in {thread}"),
        Write::Comment { .. } | Write::Review { .. } => return None,
    };
    Some(words)
}

//! The comments tab: every thread with its replies and reactions, the selected one whole.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::api::models::Reaction;
use crate::api::outbox::Write;
use crate::screens::change_requests::review::ReviewScreen;
use crate::screens::change_requests::review::threads::{self, Row};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::{status, text};
use crate::vocabulary::change_requests::Thread;
use crate::vocabulary::outbox;

/// The lines of one comment or reply: who and when, the text, the reactions.
pub(super) fn row_lines(
    screen: &ReviewScreen,
    thread: &Thread,
    row: Row,
    width: usize,
    selected: bool,
    (theme, now): (&Theme, chrono::DateTime<chrono::Utc>),
) -> Vec<Line<'static>> {
    let me = screen.me.value().map(|u| u.id.as_str()).unwrap_or("");
    let indent = if row.reply.is_some() { "    " } else { "" };
    let (author, posted, edited, body, reactions) = match threads::reply_of(thread, row.reply) {
        Some(reply) => (
            reply.posted_by.as_ref().map(|u| u.display_name.clone()),
            reply.posted_at.clone(),
            reply.edited_at.is_some(),
            reply.body.markdown().unwrap_or("").to_string(),
            &reply.reactions,
        ),
        None => (
            thread
                .comment
                .posted_by
                .as_ref()
                .map(|u| u.display_name.clone()),
            thread.comment.posted_at.clone(),
            thread.comment.edited_at.is_some(),
            thread.comment.body.markdown().unwrap_or("").to_string(),
            &thread.comment.reactions,
        ),
    };
    let mut header = vec![Span::raw(indent.to_string())];
    if row.reply.is_none() {
        // A resolve or reopen waiting in the outbox says so in place of the thread's state.
        // The last one queued is what the thread ends up as.
        let waiting_resolve = waiting_at(screen, &thread.comment.id, None)
            .filter_map(|write| match write {
                Write::Resolve { resolved, .. } => Some(*resolved),
                _ => None,
            })
            .last();
        let (mark, style) = match waiting_resolve {
            Some(true) => ("◷ resolving ", theme.style("warning")),
            Some(false) => ("◷ reopening ", theme.style("warning")),
            None if thread.comment.is_resolved() => ("✓ resolved ", theme.style("resolved")),
            None => ("● open ", theme.style("open_thread")),
        };
        header.push(Span::styled(mark, style));
        if screen.is_new_thread(row.thread) {
            header.push(Span::styled("●new ", theme.style("accent")));
        }
    } else {
        header.push(Span::styled("↳ ", theme.style("muted")));
    }
    header.push(Span::styled(
        sanitize(&author.unwrap_or_else(|| "someone".into())).into_owned(),
        theme.style("author"),
    ));
    let mut meta = posted
        .as_deref()
        .map(|at| crate::ui::time::relative(at, now))
        .unwrap_or_default();
    if edited {
        meta.push_str(" (edited)");
    }
    if row.reply.is_none()
        && let Some(page) = &thread.comment.target.page
    {
        let title = screen
            .page_title(&page.id)
            .unwrap_or(super::super::page_titles::UNKNOWN_PAGE);
        meta.push_str(&format!(" · on {}", sanitize(title)));
        if let Some(node) = &thread.comment.target.node {
            // The cell first: the table's words are long and are cut on a narrow terminal.
            let joiner = match &thread.comment.target.table_cell {
                Some(cell) => {
                    let table = screen.table_of(&page.id, &node.id);
                    let words =
                        crate::screens::change_requests::review::cells::cell_words(table, cell);
                    meta.push_str(&format!(", {words}"));
                    " of "
                }
                None => ", ",
            };
            let words = screen
                .diff_threads
                .block_words
                .get(&(page.id.clone(), node.id.clone()));
            match words {
                Some(words) => meta.push_str(&format!("{joiner}{words}")),
                None => meta.push_str(&format!("{joiner}a block")),
            }
        }
    }
    header.push(Span::styled(format!("  {meta}"), theme.style("muted")));
    if row.reply.is_none()
        && let Some(mark) = screen.news.mark(&thread.comment.id)
    {
        header.push(Span::styled(format!("  {mark}"), theme.style("accent")));
    }
    let mut lines = vec![Line::from(header)];
    let body_width = width.saturating_sub(indent.len() + 3).max(1);
    let rendered = screen.bodies.lines(&body, body_width as u16, theme);
    for line in rendered.iter().take(if selected { 40 } else { 4 }) {
        let mut spans = vec![Span::raw(format!("{indent}  "))];
        spans.extend(line.spans.iter().cloned());
        lines.push(Line::from(spans));
    }
    let reply_id = threads::reply_of(thread, row.reply).map(|reply| reply.id.as_str());
    let waiting: Vec<&Write> = waiting_at(screen, &thread.comment.id, reply_id).collect();
    let pending_chips = pending_reactions(&waiting, theme);
    if !reactions.is_empty() || !pending_chips.is_empty() {
        let mut chips = reaction_chips(indent, reactions, me, theme);
        chips.extend(pending_chips);
        lines.push(Line::from(chips));
    }
    lines.extend(pending_edits(&waiting, indent, width, theme));
    if row.reply.is_none()
        && let Some(waiting) = replies_waiting(screen, thread, theme)
    {
        lines.push(waiting);
    }
    if is_last_row(thread, row) {
        let replies = waiting_at(screen, &thread.comment.id, None)
            .filter(|write| matches!(write, Write::Reply { .. }));
        lines.extend(replies.map(|write| pending_line("    ↳ ", write, width, theme)));
    }
    // A bar down the left side marks the selected comment in any colour depth.
    let (bar, style) = if selected {
        ("▌", theme.style("accent"))
    } else {
        (" ", theme.style("text"))
    };
    for line in lines.iter_mut() {
        line.spans.insert(0, Span::styled(bar, style));
    }
    lines
}

/// The queued writes shown on the comment `comment` (or on its reply `reply`): reactions, an
/// edit, a resolve; and, asked with no reply, the thread's queued replies.
fn waiting_at<'a>(
    screen: &'a ReviewScreen,
    comment: &'a str,
    reply: Option<&'a str>,
) -> impl Iterator<Item = &'a Write> + 'a {
    screen
        .queued
        .iter()
        .map(|queued| &queued.write)
        .filter(move |write| write.place() == Some((comment, reply)))
}

/// A thread's last row, under which its queued replies show.
fn is_last_row(thread: &Thread, row: Row) -> bool {
    match row.reply {
        None => thread.replies.is_empty(),
        Some(index) => index + 1 == thread.replies.len(),
    }
}

/// "◷ 👍" beside the reactions for each reaction waiting to be sent ("◷ −👍" taken back).
fn pending_reactions(waiting: &[&Write], theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    for write in waiting {
        if let Write::Reaction { emoji, add, .. } = write {
            let sign = if *add { "" } else { "−" };
            spans.push(Span::styled(
                format!(" ◷ {sign}{} ", sanitize(emoji)),
                theme.style("warning"),
            ));
            spans.push(Span::raw(" "));
        }
    }
    spans
}

/// "◷ edit of a comment: the new text" under a comment whose new text waits to be sent.
fn pending_edits(
    waiting: &[&Write],
    indent: &str,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let prefix = format!("{indent}  ");
    waiting
        .iter()
        .filter(|write| matches!(write, Write::Edit { .. }))
        .map(|write| pending_line(&prefix, write, width, theme))
        .collect()
}

/// "◷ reply: text": a queued write as the comments tab says it, in place or above the threads.
fn marked_pending(write: &Write) -> String {
    format!("◷ {}", outbox::write_line(write, ""))
}

/// One queued write on one line after `prefix`, marked `◷`, cut to `width`.
fn pending_line(prefix: &str, write: &Write, width: usize, theme: &Theme) -> Line<'static> {
    let words = marked_pending(write);
    let room = width.saturating_sub(prefix.chars().count() + 1).max(1);
    Line::from(vec![
        Span::raw(prefix.to_string()),
        Span::styled(text::truncate(&words, room), theme.style("warning")),
    ])
}

/// Under a thread whose replies are still to come: "↳ loading 3 replies…", or that they did
/// not load. Nothing once they are here, or while earlier ones are shown.
fn replies_waiting(screen: &ReviewScreen, thread: &Thread, theme: &Theme) -> Option<Line<'static>> {
    let count = thread.comment.replies.unwrap_or(0) as usize;
    if thread.replies_loaded || !thread.replies.is_empty() || count == 0 {
        return None;
    }
    let (text, style) = if screen.reply_loading.has_failed(&thread.comment.id) {
        (
            format!(
                "↳ {} did not load (r reloads)",
                crate::ui::time::plural(count, "reply", "replies")
            ),
            theme.style("error"),
        )
    } else {
        (
            format!(
                "↳ loading {}…",
                crate::ui::time::plural(count, "reply", "replies")
            ),
            theme.style("muted"),
        )
    };
    Some(Line::from(vec![
        Span::raw("    "),
        Span::styled(text, style),
    ]))
}

fn reaction_chips(
    indent: &str,
    reactions: &[Reaction],
    me: &str,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let mut spans = vec![Span::raw(format!("{indent}  "))];
    for reaction in reactions {
        let mine = reaction.users.iter().any(|u| u.user.id == me);
        let style = if mine {
            theme.style("reaction_mine")
        } else {
            theme.style("reaction")
        };
        spans.push(Span::styled(
            format!(" {} {} ", sanitize(&reaction.emoji), reaction.count),
            style,
        ));
        spans.push(Span::raw(" "));
    }
    spans
}

/// A first row saying the threads did not end within their cap, when they did not; the rest of
/// `area` is returned for the threads.
fn stop_note(screen: &ReviewScreen, frame: &mut Frame, area: Rect, theme: &Theme) -> Rect {
    let stopped = screen
        .bundle
        .value()
        .and_then(|bundle| bundle.threads_stopped_after_pages);
    let Some(pages) = stopped.filter(|_| area.height > 1) else {
        return area;
    };
    let [note, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let words = format!("Threads: {}", status::stopped_after(pages));
    frame.render_widget(
        Paragraph::new(Span::styled(words, theme.style("warning"))),
        note,
    );
    rest
}

/// Pending writes shown at most, so the threads keep the room on a small terminal.
const PENDING_SHOWN: usize = 3;

/// Queued writes that have no place among the threads shown (a new thread, a review, a write
/// on a thread that is filtered out or not loaded), one line each above the threads, marked `◷`.
fn pending_note(
    screen: &ReviewScreen,
    rows: &[Row],
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
) -> Rect {
    let unplaced: Vec<&Write> = screen
        .queued
        .iter()
        .map(|queued| &queued.write)
        .filter(|write| !shown_in_place(screen, rows, write))
        .collect();
    let lines = pending_lines(&unplaced, area.width as usize);
    let height = lines.len() as u16;
    if height == 0 || area.height <= height {
        return area;
    }
    let [note, rest] =
        Layout::vertical([Constraint::Length(height), Constraint::Min(0)]).areas(area);
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|line| Line::from(Span::styled(line, theme.style("warning"))))
        .collect();
    frame.render_widget(Paragraph::new(lines), note);
    rest
}

/// Whether `write` shows on a thread in `rows` (and, for a write on a reply, that reply is
/// loaded there).
fn shown_in_place(screen: &ReviewScreen, rows: &[Row], write: &Write) -> bool {
    let Some((comment, reply)) = write.place() else {
        return false;
    };
    let threads = screen.threads();
    rows.iter()
        .filter(|row| row.reply.is_none())
        .filter_map(|row| threads.get(row.thread))
        .any(|thread| {
            thread.comment.id == comment
                && reply.is_none_or(|id| thread.replies.iter().any(|r| r.id == id))
        })
}

/// "◷ comment: text…" for each of the first writes waiting, then how many more there are.
fn pending_lines(waiting: &[&Write], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = waiting
        .iter()
        .take(PENDING_SHOWN)
        .map(|write| text::truncate(&marked_pending(write), width))
        .collect();
    if waiting.len() > PENDING_SHOWN {
        let more = format!(
            "◷ {} more waiting in the outbox",
            waiting.len() - PENDING_SHOWN
        );
        lines.push(text::truncate(&more, width));
    }
    lines
}

pub(super) fn draw_comments(screen: &ReviewScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (area, query_area) =
        crate::ui::input::with_filter_row(area, screen.comment_query.is_shown());
    if let Some(query_area) = query_area {
        crate::ui::input::draw_filter(frame, query_area, &screen.comment_query, theme);
    }
    let area = stop_note(screen, frame, area, theme);
    let rows = screen.rows();
    let area = pending_note(screen, &rows, frame, area, theme);
    if rows.is_empty() {
        let message = if let Some(author) = screen
            .author_filter
            .as_ref()
            .filter(|_| screen.comment_query.text.is_empty())
        {
            let which = match screen.thread_filter {
                crate::screens::change_requests::review::ThreadFilter::All => "",
                crate::screens::change_requests::review::ThreadFilter::Open => "open ",
                crate::screens::change_requests::review::ThreadFilter::Resolved => "resolved ",
            };
            format!(
                "No {which}threads by {} — a picks someone else.",
                author.name
            )
        } else if screen.comment_query.text.is_empty() {
            match screen.thread_filter {
                crate::screens::change_requests::review::ThreadFilter::All => {
                    "No comments yet. Press c to start a thread.".into()
                }
                crate::screens::change_requests::review::ThreadFilter::Open => {
                    "No open threads. 🎉".into()
                }
                crate::screens::change_requests::review::ThreadFilter::Resolved => {
                    "No resolved threads.".into()
                }
            }
        } else {
            crate::ui::status::no_matches(&screen.comment_query.text)
        };
        status::empty(frame, area, look, &message);
        return;
    }
    let threads = screen.threads();
    let selected = screen.comment_selection.selected.min(rows.len() - 1);
    let block = |index: usize| -> Vec<Line<'static>> {
        let row = rows[index];
        threads
            .get(row.thread)
            .map(|thread| {
                row_lines(
                    screen,
                    thread,
                    row,
                    area.width as usize,
                    index == selected,
                    (theme, look.now()),
                )
            })
            .unwrap_or_default()
    };
    // Keep the selected row in view with up to a third of the screen of context above it.
    let height = area.height as usize;
    let selected_lines = block(selected);
    let mut start = selected;
    let mut used = selected_lines.len();
    while start > 0 {
        let above = block(start - 1).len() + 1;
        if used + above > height / 3 + selected_lines.len().min(height) {
            break;
        }
        used += above;
        start -= 1;
    }
    let mut lines = Vec::new();
    for (index, row) in rows.iter().enumerate().skip(start) {
        if lines.len() >= height {
            break;
        }
        if index > start && row.reply.is_none() {
            lines.push(Line::from(""));
        }
        let thread_lines = block(index);
        let top = lines.len();
        let taken = thread_lines.len().min(height.saturating_sub(top));
        if let (Ok(top), Ok(taken)) = (u16::try_from(top), u16::try_from(taken)) {
            frame.hits.record(
                Rect::new(area.x, area.y + top, area.width, taken),
                crate::ui::hit::Hit::Row {
                    index,
                    selected,
                    down: crate::ui::keymap::Action::Down,
                    up: crate::ui::keymap::Action::Up,
                },
            );
        }
        lines.extend(thread_lines);
    }
    lines.truncate(height);
    frame.render_widget(Paragraph::new(lines), area);
}

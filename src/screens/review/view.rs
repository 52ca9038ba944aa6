use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::changes::split;
use super::threads::{self, Row};
use super::{ComposeTarget, Confirmation, Overlay, ReviewScreen, ReviewTab, counted};
use crate::api::models::{ChangeRequestStatus, Reaction, ReviewStatus};
use crate::app::Model;
use crate::app::review_calls::Thread;
use crate::ui::chrome::centered;
use crate::ui::composer::Composer;
use crate::ui::markdown::MarkdownDoc;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

/// Rows above the tab bodies: title, facts, tabs, notice.
pub const HEADER_ROWS: u16 = 4;

/// The fewest rows the composer needs: borders, a few lines of text, its key line.
const COMPOSER_MIN_ROWS: u16 = 6;

/// One body laid out at one width.
type DrawnBody = Arc<Vec<Line<'static>>>;

/// Comment bodies and the description drawn as markdown. Parsing happens once per text and
/// wrapping once per (text, width), not per frame: drawing only reads the cache.
#[derive(Debug, Default)]
pub struct RenderedBodies {
    layouts: RefCell<HashMap<(String, u16), DrawnBody>>,
}

impl RenderedBodies {
    /// Enough for every body of a big review at a few widths; past it the cache starts over.
    const MAX_ENTRIES: usize = 2_000;

    pub fn lines(&self, markdown: &str, width: u16, theme: &Theme) -> DrawnBody {
        let key = (markdown.to_string(), width.max(1));
        if let Some(lines) = self.layouts.borrow().get(&key) {
            return Arc::clone(lines);
        }
        let doc = MarkdownDoc::parse(markdown, theme);
        let lines = Arc::new(doc.layout(key.1).lines);
        let mut layouts = self.layouts.borrow_mut();
        if layouts.len() >= Self::MAX_ENTRIES {
            layouts.clear();
        }
        layouts.insert(key, Arc::clone(&lines));
        lines
    }
}

pub fn draw(screen: &ReviewScreen, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let [title, facts, tabs, notice, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
    ])
    .areas(area);
    draw_title(screen, frame, title, theme);
    draw_facts(screen, frame, facts, theme);
    draw_tabs(screen, frame, tabs, theme);
    if let Some(message) = &screen.notice {
        frame.render_widget(
            Paragraph::new(Span::styled(
                sanitize(&message.text).into_owned(),
                message.style(theme),
            )),
            notice,
        );
    }
    match (&screen.bundle.value(), screen.bundle.error()) {
        (None, Some(error)) => status::error(frame, body, model, error),
        (None, None) => status::loading(frame, body, model, "the change request"),
        (Some(_), reload_error) => {
            // A failed reload keeps what was shown; the body's last row says so.
            let mut body = body;
            if let Some(error) = reload_error {
                status::reload_failed(frame, body, model, error);
                body.height = body.height.saturating_sub(1);
            }
            match screen.tab {
                ReviewTab::Changes => draw_changes(screen, frame, body, model),
                ReviewTab::Comments => draw_comments(screen, frame, body, model),
                ReviewTab::Reviews => draw_overview(screen, frame, body, model),
                ReviewTab::Overview => super::overview::draw(screen, frame, body, model),
            }
        }
    }
    if let Some(overlay) = &screen.overlay {
        draw_overlay(screen, overlay, frame, area, model);
    }
}

fn status_style(status: Option<&ChangeRequestStatus>, theme: &Theme) -> Style {
    match status {
        Some(ChangeRequestStatus::Open) => theme.style("badge_public"),
        Some(ChangeRequestStatus::Merged) => theme.style("tab_active"),
        Some(ChangeRequestStatus::Draft) => theme.style("badge"),
        _ => theme.style("badge_private"),
    }
}

fn draw_title(screen: &ReviewScreen, frame: &mut Frame, area: Rect, theme: &Theme) {
    let Some(cr) = screen.change_request() else {
        return;
    };
    let mut spans = vec![
        Span::styled(
            cr.number.map(|n| format!("#{n} ")).unwrap_or_default(),
            theme.style("accent"),
        ),
        Span::styled(sanitize(&cr.subject).into_owned(), theme.style("title")),
        Span::raw("  "),
        Span::styled(
            format!(
                " {} ",
                sanitize(cr.status.as_ref().map_or("unknown", |s| s.as_str()))
            ),
            status_style(cr.status.as_ref(), theme),
        ),
    ];
    if cr.outdated {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(" outdated ", theme.style("badge_locked")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_facts(screen: &ReviewScreen, frame: &mut Frame, area: Rect, theme: &Theme) {
    let Some(cr) = screen.change_request() else {
        return;
    };
    let author = cr
        .created_by
        .as_ref()
        .map(|u| sanitize(&u.display_name).into_owned())
        .unwrap_or_else(|| "someone".into());
    // Most important last-to-drop: who, threads, reviews, merged; the dates give way first.
    let parts = vec![format!("by {author}")];
    let created = cr
        .created_at
        .as_ref()
        .map(|created| format!("created {}", crate::ui::time::ago_now(created)));
    let updated = cr
        .updated_at
        .as_ref()
        .map(|updated| format!("updated {}", crate::ui::time::ago_now(updated)));
    let mut rest = Vec::new();
    if let Some(bundle) = screen.bundle.value() {
        let open = threads::unresolved(&bundle.threads).len();
        rest.push(format!(
            "{} ({open} open)",
            counted(bundle.threads.len(), "thread", "threads")
        ));
        let current = bundle.reviews.iter().filter(|r| !r.outdated);
        let (approved, changes): (Vec<_>, Vec<_>) =
            current.partition(|r| r.status == Some(ReviewStatus::Approved));
        rest.push(format!("✓ {} ✗ {}", approved.len(), changes.len()));
        if let Some(merged) = &cr.merged_at {
            rest.push(format!("merged {}", crate::ui::time::ago_now(merged)));
        }
    }
    let join = |dates: &[&Option<String>]| {
        let mut all = parts.clone();
        all.extend(dates.iter().filter_map(|date| (*date).clone()));
        all.extend(rest.iter().cloned());
        all.join(" · ")
    };
    let room = area.width as usize;
    let facts = [join(&[&created, &updated]), join(&[&updated]), join(&[])]
        .into_iter()
        .find(|facts| text::width(facts) <= room)
        .unwrap_or_else(|| text::truncate(&join(&[]), room));
    frame.render_widget(
        Paragraph::new(Span::styled(facts, theme.style("muted"))),
        area,
    );
}

fn draw_tabs(screen: &ReviewScreen, frame: &mut Frame, area: Rect, theme: &Theme) {
    let counts = screen.bundle.value().map(|b| {
        [
            None,
            Some(screen.pages.len()),
            Some(b.threads.len()),
            Some(b.reviews.iter().filter(|r| !r.outdated).count()),
        ]
    });
    let mut spans = Vec::new();
    // ── command palette ──
    let mut widths = Vec::new();
    for (index, tab) in ReviewTab::ALL.iter().enumerate() {
        let style = if *tab == screen.tab {
            theme.style("tab_active")
        } else {
            theme.style("tab_inactive")
        };
        let mut count = counts
            .and_then(|c| c[index])
            .map(|count| format!(" ({count})"))
            .unwrap_or_default();
        // "Comments (12) · 3 new"
        if *tab == ReviewTab::Comments && counts.is_some() {
            let new = screen.new_thread_count();
            if new > 0 {
                count.push_str(&format!(" · {new} new"));
            }
        }
        let label = format!(" {} {}{count} ", index + 1, tab.label());
        widths.push(text::width(&label) + 1);
        spans.push(Span::styled(label, style));
        spans.push(Span::raw(" "));
    }
    let active = ReviewTab::ALL
        .iter()
        .position(|tab| *tab == screen.tab)
        .unwrap_or(0);
    crate::ui::hit::record_tabs(area, 0, &widths, active, ReviewTab::ALL.len());
    let extra = match screen.tab {
        ReviewTab::Changes => {
            let position = screen
                .search_position()
                .or_else(|| screen.hunk_position())
                .unwrap_or_default();
            match screen.since_label() {
                Some(since) => format!("{since} · {position}"),
                None => position,
            }
        }
        ReviewTab::Comments => {
            let triage = super::actions::triage_position(screen)
                .map(|p| format!("unresolved {p} · "))
                .unwrap_or_default();
            format!("{triage}showing {}", screen.thread_filter.label())
        }
        ReviewTab::Reviews | ReviewTab::Overview => String::new(),
    };
    spans.push(Span::styled(extra, theme.style("muted")));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_changes(screen: &ReviewScreen, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let (area, query_area) = text::with_filter_row(area, screen.diff_search.is_shown());
    if let Some(query_area) = query_area {
        text::draw_filter(frame, query_area, &screen.diff_search, theme);
    }
    let (list_area, diff_area) = split(area);
    // ── command palette ──
    // `j`/`k` choose the page here; the diff scrolls with ctrl-d/ctrl-u, so does the wheel.
    crate::ui::hit::record(
        diff_area,
        crate::ui::hit::Hit::Wheel {
            down: crate::app::keymap::Action::HalfPageDown,
            up: crate::app::keymap::Action::HalfPageUp,
        },
    );
    if let Some(bundle) = screen.bundle.value()
        && let Err(error) = &bundle.changes
    {
        status::error(frame, list_area, model, error);
        return;
    }
    if screen.pages.is_empty() {
        status::empty(frame, list_area, model, "No page changed.");
        return;
    }
    let range = screen
        .page_selection
        .visible_range(screen.pages.len(), list_area.height as usize);
    // ── command palette ──
    crate::ui::hit::record_rows(list_area, range.clone(), screen.page_selection.selected);
    let lines: Vec<Line> = screen.pages[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, page)| {
            let marks: String = page.kinds.iter().map(|k| k.marker()).collect();
            let selected = range.start + offset == screen.page_selection.selected;
            let style = if selected {
                theme.style("selection")
            } else if page.kinds.contains(&super::ChangeKind::Created) {
                theme.style("diff_added")
            } else if page.kinds.contains(&super::ChangeKind::Deleted) {
                theme.style("diff_removed")
            } else {
                theme.style("text")
            };
            let label = text::fit(
                &format!("{marks:<2} {}", sanitize(&page.title)),
                list_area.width as usize,
            );
            Line::from(Span::styled(label, style))
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list_area);
    if diff_area.width == 0 {
        return;
    }
    let separator = Rect::new(diff_area.x - 1, area.y, 1, area.height);
    frame.render_widget(
        Block::default()
            .borders(Borders::LEFT)
            .border_style(theme.style("border")),
        separator,
    );
    if screen.rendered {
        if screen.reader.is_ready() {
            screen.reader.draw(frame, diff_area, theme);
        } else {
            status::loading(frame, diff_area, model, "the rendered page");
        }
        return;
    }
    match (&screen.diff_view, screen.sides.error()) {
        (Some(view), _) => {
            let end = (screen.diff_scroll + diff_area.height as usize).min(view.lines.len());
            let start = screen.diff_scroll.min(end);
            let mut visible: Vec<Line> = view.lines[start..end].to_vec();
            let cursor = screen
                .cursor_row_in(diff_area.height as usize)
                .map(|row| row - start);
            super::diff_threads::draw_cursor(&mut visible, cursor, theme);
            if visible.is_empty() {
                status::empty(frame, diff_area, model, "No text changed on this page.");
            } else {
                frame.render_widget(Paragraph::new(visible), diff_area);
            }
        }
        (None, Some(error)) => status::error(frame, diff_area, model, error),
        (None, None) => status::loading(frame, diff_area, model, "both versions of the page"),
    }
}

/// The lines of one comment or reply: who and when, the text, the reactions.
fn row_lines(
    screen: &ReviewScreen,
    thread: &Thread,
    row: Row,
    width: usize,
    selected: bool,
    theme: &Theme,
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
        let (mark, style) = if thread.comment.is_resolved() {
            ("✓ resolved ", theme.style("resolved"))
        } else {
            ("● open ", theme.style("open_thread"))
        };
        header.push(Span::styled(mark, style));
        // ── threads on the diff ──
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
        .map(crate::ui::time::ago_now)
        .unwrap_or_default();
    if edited {
        meta.push_str(" (edited)");
    }
    if row.reply.is_none()
        && let Some(page) = &thread.comment.target.page
    {
        let title = screen
            .pages
            .iter()
            .find(|p| p.page == page.id)
            .map(|p| p.title.clone())
            .or_else(|| Some(page.id.clone()))
            .unwrap_or_default();
        meta.push_str(&format!(" · on {}", sanitize(&title)));
    }
    header.push(Span::styled(format!("  {meta}"), theme.style("muted")));
    // ── review flow: new since the last watch refresh ──
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
    if !reactions.is_empty() {
        lines.push(Line::from(reaction_chips(indent, reactions, me, theme)));
    }
    if row.reply.is_none()
        && let Some(waiting) = replies_waiting(screen, thread, theme)
    {
        lines.push(waiting);
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
                counted(count, "reply", "replies")
            ),
            theme.style("error"),
        )
    } else {
        (
            format!("↳ loading {}…", counted(count, "reply", "replies")),
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

fn draw_comments(screen: &ReviewScreen, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let (area, query_area) = text::with_filter_row(area, screen.comment_query.is_shown());
    if let Some(query_area) = query_area {
        text::draw_filter(frame, query_area, &screen.comment_query, theme);
    }
    let rows = screen.rows();
    if rows.is_empty() {
        let message = if screen.comment_query.text.is_empty() {
            match screen.thread_filter {
                super::ThreadFilter::All => "No comments yet. Press c to start a thread.".into(),
                super::ThreadFilter::Open => "No open threads. 🎉".into(),
                super::ThreadFilter::Resolved => "No resolved threads.".into(),
            }
        } else {
            crate::ui::status::no_matches(&screen.comment_query.text)
        };
        status::empty(frame, area, model, &message);
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
                    theme,
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
        // ── command palette ──
        let top = lines.len();
        let taken = thread_lines.len().min(height.saturating_sub(top));
        if let (Ok(top), Ok(taken)) = (u16::try_from(top), u16::try_from(taken)) {
            crate::ui::hit::record(
                Rect::new(area.x, area.y + top, area.width, taken),
                crate::ui::hit::Hit::Row { index, selected },
            );
        }
        lines.extend(thread_lines);
    }
    lines.truncate(height);
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_overview(screen: &ReviewScreen, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let Some(bundle) = screen.bundle.value() else {
        return;
    };
    let mut lines = Vec::new();
    let description = bundle
        .change_request
        .description
        .as_ref()
        .map(crate::ui::document::display_markdown)
        .unwrap_or_default();
    if !description.trim().is_empty() {
        lines.push(Line::from(Span::styled(
            "Description",
            theme.style("heading2"),
        )));
        let rendered = screen.bodies.lines(&description, area.width, theme);
        lines.extend(rendered.iter().cloned());
        lines.push(Line::from(""));
    }
    lines.push(Line::from(Span::styled("Reviews", theme.style("heading2"))));
    if bundle.reviews.is_empty() {
        lines.push(Line::from(Span::styled(
            "No reviews yet.",
            theme.style("muted"),
        )));
    }
    for review in &bundle.reviews {
        let (mark, style) = match review.status {
            Some(ReviewStatus::Approved) => ("✓ approved", theme.style("success")),
            Some(ReviewStatus::ChangesRequested) => ("✗ changes requested", theme.style("error")),
            _ => ("• reviewed", theme.style("text")),
        };
        let who = review
            .reviewer
            .as_ref()
            .map(|u| sanitize(&u.display_name).into_owned())
            .unwrap_or_default();
        let when = review
            .created_at
            .as_deref()
            .map(crate::ui::time::ago_now)
            .unwrap_or_default();
        let outdated = if review.outdated { "  (outdated)" } else { "" };
        lines.push(Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::styled(who, theme.style("author")),
            Span::styled(format!("  {when}{outdated}"), theme.style("muted")),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "Requested reviewers (+ add, - remove)",
        theme.style("heading2"),
    )));
    if bundle.requested.is_empty() {
        lines.push(Line::from(Span::styled(
            "Nobody is asked to review.",
            theme.style("muted"),
        )));
    }
    for (index, requested) in bundle.requested.iter().enumerate() {
        let name = requested
            .user
            .as_ref()
            .map(|u| sanitize(&u.display_name).into_owned())
            .or_else(|| {
                requested
                    .team
                    .as_ref()
                    .map(|t| format!("team {}", sanitize(&t.id)))
            })
            .unwrap_or_default();
        let style = if index == screen.reviewer_selection.selected {
            theme.style("selection")
        } else {
            theme.style("text")
        };
        lines.push(Line::from(Span::styled(format!("  {name}"), style)));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

fn draw_overlay(
    screen: &ReviewScreen,
    overlay: &Overlay,
    frame: &mut Frame,
    area: Rect,
    model: &Model,
) {
    let theme = &model.theme;
    match overlay {
        Overlay::Composer {
            composer, target, ..
        } => match context_row(screen, target) {
            Some(row) => draw_composer_under(screen, row, composer, frame, area, theme),
            None => composer.draw(frame, area, theme),
        },
        Overlay::Reactions { picker, .. } => picker.draw(frame, area, theme),
        Overlay::WhoReacted { lines } => {
            let text: Vec<Line> = if lines.is_empty() {
                vec![Line::from("No reactions yet.")]
            } else {
                lines
                    .iter()
                    .map(|l| Line::from(sanitize(l).into_owned()))
                    .collect()
            };
            popup(
                frame,
                area,
                " Who reacted — any key closes ",
                text,
                None,
                theme,
            );
        }
        Overlay::Confirm(confirmation) => {
            let question = confirmation_text(screen, confirmation);
            let mut text: Vec<Line> = question.into_iter().map(Line::from).collect();
            text.push(Line::from(""));
            let keys = Line::from(Span::styled(
                "y / enter: yes    n / esc: no",
                theme.style("accent"),
            ));
            popup(frame, area, " Please confirm ", text, Some(keys), theme);
        }
        Overlay::Preflight => {
            let text = preflight_lines(screen, theme);
            let keys = preflight_keys(screen, theme);
            popup(
                frame,
                area,
                " Merge — pre-flight check ",
                text,
                Some(keys),
                theme,
            );
        }
        Overlay::Reviewers {
            members,
            filter,
            selection,
        } => {
            let mut text = vec![Line::from(vec![
                Span::styled("> ", theme.style("accent")),
                Span::raw(sanitize(&filter.text).into_owned()),
            ])];
            match members.value() {
                None => text.push(Line::from("Loading members…")),
                Some(members) => {
                    let candidates: Vec<_> = members
                        .iter()
                        .filter(|m| {
                            filter.matches(&format!(
                                "{} {}",
                                m.user.display_name,
                                m.user.email.as_deref().unwrap_or("")
                            ))
                        })
                        .collect();
                    let range = selection.visible_range(candidates.len(), 10);
                    for (offset, member) in candidates[range.clone()].iter().enumerate() {
                        let style = if range.start + offset == selection.selected {
                            theme.style("selection")
                        } else {
                            theme.style("text")
                        };
                        let role = sanitize(member.role.as_ref().map_or("guest", |r| r.as_str()));
                        text.push(Line::from(Span::styled(
                            format!("{}  ({role})", sanitize(&member.user.display_name)),
                            style,
                        )));
                    }
                }
            }
            popup(
                frame,
                area,
                " Request a review — type to filter, enter asks, esc closes ",
                text,
                None,
                theme,
            );
        }
        Overlay::Pdf(address) => address.draw(frame, area, theme),
        Overlay::Subject { input, error } => {
            let mut text = vec![Line::from(vec![
                Span::styled("> ", theme.style("accent")),
                Span::raw(sanitize(&input.text).into_owned()),
            ])];
            if let Some(error) = error {
                text.push(Line::from(Span::styled(
                    sanitize(error).into_owned(),
                    theme.style("error"),
                )));
            }
            popup(
                frame,
                area,
                " Subject — enter confirms, esc cancels ",
                text,
                None,
                theme,
            );
        }
    }
}

/// The comment a reply answers (or an edit changes), to keep in sight above the composer.
fn context_row(screen: &ReviewScreen, target: &ComposeTarget) -> Option<Row> {
    let threads = screen.threads();
    let thread_of = |id: &str| threads.iter().position(|t| t.comment.id == id);
    match target {
        ComposeTarget::Reply { comment } => {
            let thread = thread_of(comment)?;
            // The reply the user was on when pressing reply, else the thread's comment.
            Some(
                screen
                    .selected_row()
                    .filter(|row| row.thread == thread)
                    .unwrap_or(Row {
                        thread,
                        reply: None,
                    }),
            )
        }
        ComposeTarget::Edit { comment, reply } => {
            let thread = thread_of(comment)?;
            let reply = match reply {
                Some(id) => Some(threads[thread].replies.iter().position(|r| r.id == *id)?),
                None => None,
            };
            Some(Row { thread, reply })
        }
        ComposeTarget::NewComment { .. }
        | ComposeTarget::Review { .. }
        | ComposeTarget::Description
        | ComposeTarget::BlockComment { .. } => None,
    }
}

/// The composer at the bottom with the comment it answers shown whole above it (and the rest
/// of its thread when there is room): under the header when it fits, else over it (the comment
/// matters more than the header).
fn draw_composer_under(
    screen: &ReviewScreen,
    row: Row,
    composer: &Composer,
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
) {
    let Some(thread) = screen.threads().get(row.thread) else {
        composer.draw(frame, area, theme);
        return;
    };
    let width = area.width as usize;
    let mut lines = row_lines(screen, thread, row, width, true, theme);
    let wanted = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let comment_rows = wanted.min(area.height.saturating_sub(COMPOSER_MIN_ROWS));
    let composer_area = Rect::new(
        area.x,
        area.y + comment_rows,
        area.width,
        area.height - comment_rows,
    );
    let context_rows = area.height - Composer::rows_in(composer_area.height);
    let (top, context_rows) = if context_rows >= HEADER_ROWS + comment_rows {
        (area.y + HEADER_ROWS, context_rows - HEADER_ROWS)
    } else {
        (area.y, context_rows)
    };
    // The replies after it fill what is left above the composer.
    let first_reply = row.reply.map_or(0, |reply| reply + 1);
    for reply in first_reply..thread.replies.len() {
        if lines.len() >= usize::from(context_rows) {
            break;
        }
        let next = Row {
            thread: row.thread,
            reply: Some(reply),
        };
        lines.extend(row_lines(screen, thread, next, width, false, theme));
    }
    let context_area = Rect::new(area.x, top, area.width, context_rows);
    frame.render_widget(Clear, context_area);
    frame.render_widget(Paragraph::new(lines), context_area);
    composer.draw(frame, composer_area, theme);
}

fn confirmation_text(screen: &ReviewScreen, confirmation: &Confirmation) -> Vec<String> {
    match confirmation {
        Confirmation::Delete { reply, .. } => vec![if reply.is_some() {
            "Delete your reply? This cannot be undone.".into()
        } else {
            "Delete your comment and its replies? This cannot be undone.".into()
        }],
        Confirmation::SetStatus { status } => {
            let subject = screen
                .change_request()
                .map(|cr| cr.subject.clone())
                .unwrap_or_default();
            let what = match status {
                ChangeRequestStatus::Archived => "Archive",
                ChangeRequestStatus::Draft => "Move back to draft",
                ChangeRequestStatus::Open => "Mark as ready for review",
                _ => "Change the status of",
            };
            vec![format!("{what}: “{}”?", sanitize(&subject))]
        }
        Confirmation::RemoveReviewer { name, .. } => {
            vec![format!("No longer ask {} to review?", sanitize(name))]
        }
        Confirmation::SetSubject { subject } => {
            vec![format!("Change the subject to “{}”?", sanitize(subject))]
        }
        Confirmation::SetDescription { kept, .. } => vec![
            "Save the description?".to_string(),
            format!(
                "{}.",
                crate::ui::document::kept_notice(*kept).unwrap_or_default()
            ),
        ],
    }
}

pub(super) fn preflight_lines(screen: &ReviewScreen, theme: &Theme) -> Vec<Line<'static>> {
    let Some(bundle) = screen.bundle.value() else {
        return vec![Line::from("Still loading…")];
    };
    let check = |ok: bool, good: String, bad: String| -> Line<'static> {
        if ok {
            Line::from(Span::styled(format!("✓ {good}"), theme.style("success")))
        } else {
            Line::from(Span::styled(format!("⚠ {bad}"), theme.style("warning")))
        }
    };
    let cr = &bundle.change_request;
    let unresolved = threads::unresolved(&bundle.threads).len();
    let current: Vec<_> = bundle.reviews.iter().filter(|r| !r.outdated).collect();
    let approvals = current
        .iter()
        .filter(|r| r.status == Some(ReviewStatus::Approved))
        .count();
    let changes = current
        .iter()
        .filter(|r| r.status == Some(ReviewStatus::ChangesRequested))
        .count();
    let waiting: Vec<String> = bundle
        .requested
        .iter()
        .filter_map(|r| {
            r.user
                .as_ref()
                .map(|u| sanitize(&u.display_name).into_owned())
        })
        .collect();
    let rules = bundle
        .space
        .as_ref()
        .and_then(|s| s.merge_rules.as_ref())
        .map(merge_rules_text)
        .unwrap_or_else(|| "the space reports none".into());
    let may_merge = screen.can_merge();
    let lines = vec![
        Line::from(Span::styled(
            format!(
                "Merge #{} “{}” into main?",
                cr.number.unwrap_or_default(),
                sanitize(&cr.subject)
            ),
            theme.style("title"),
        )),
        Line::from(""),
        check(
            may_merge,
            "You may merge in this space.".into(),
            "Your role may not merge here: ask an admin.".into(),
        ),
        check(
            cr.status == Some(ChangeRequestStatus::Open),
            "The change request is open.".into(),
            format!(
                "Its status is {}: only open change requests merge.",
                sanitize(cr.status.as_ref().map_or("unknown", |s| s.as_str()))
            ),
        ),
        check(
            !cr.outdated,
            "Up to date with main.".into(),
            "Behind main: press U to bring main's changes in first.".into(),
        ),
        check(
            unresolved == 0,
            "No unresolved threads.".into(),
            format!(
                "{}.",
                counted(unresolved, "unresolved thread", "unresolved threads")
            ),
        ),
        check(
            approvals > 0 && changes == 0,
            format!(
                "{}, no changes requested.",
                counted(approvals, "approval", "approvals")
            ),
            format!(
                "{}, {changes} asking for changes.",
                counted(approvals, "approval", "approvals")
            ),
        ),
        check(
            waiting.is_empty(),
            "No requested review is pending.".into(),
            format!("Still waiting on: {}.", waiting.join(", ")),
        ),
        Line::from(Span::styled(
            format!("Merge rules: {rules}"),
            theme.style("muted"),
        )),
    ];
    lines
}

/// The pre-flight's answer keys, always on screen.
fn preflight_keys(screen: &ReviewScreen, theme: &Theme) -> Line<'static> {
    let keys = if screen.bundle.value().is_some() && screen.can_merge() {
        "y / enter: merge    U: update from main    esc: not now"
    } else {
        "esc: close"
    };
    Line::from(Span::styled(keys, theme.style("accent")))
}

fn merge_rules_text(rules: &serde_json::Value) -> String {
    match rules.get("type").and_then(|t| t.as_str()) {
        Some("inherit") => "inherited from the organization".into(),
        Some("rules") => {
            let required: Vec<String> = rules
                .get("rules")
                .and_then(|r| r.as_array())
                .into_iter()
                .flatten()
                .flat_map(|rule| {
                    rule.get("users")
                        .and_then(|u| u.as_array())
                        .into_iter()
                        .flatten()
                        .filter_map(|u| u.as_str().map(str::to_string))
                })
                .collect();
            if required.is_empty() {
                "custom rules".into()
            } else {
                format!("reviews required from {}", sanitize(&required.join(", ")))
            }
        }
        _ => "unknown".into(),
    }
}

/// A bordered box in the middle of `area`. The `footer` (the keys that answer it) is pinned to
/// the last row, so a short terminal cuts the text above it, never the way out.
fn popup(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    lines: Vec<Line>,
    footer: Option<Line>,
    theme: &Theme,
) {
    let width = 72.min(area.width);
    // The footer wraps on a narrow terminal rather than losing its last keys.
    let inner_width = usize::from(width.saturating_sub(2)).max(1);
    let footer_rows = footer
        .as_ref()
        .map_or(0, |line| line.width().div_ceil(inner_width));
    let footer_rows = u16::try_from(footer_rows).unwrap_or(u16::MAX);
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let height = rows
        .saturating_add(footer_rows)
        .saturating_add(2)
        .min(area.height);
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(title.to_string());
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let [body, footer_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(footer_rows)]).areas(inner);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), body);
    if let Some(footer) = footer {
        frame.render_widget(
            Paragraph::new(footer).wrap(Wrap { trim: true }),
            footer_area,
        );
    }
}

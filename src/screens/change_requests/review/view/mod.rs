//! Drawing the review screen: the header (title, facts, tabs, notice) here, each tab's body
//! and each overlay in a file of its own.

mod changes;
mod comments;
mod composer;
pub(super) mod merge;
mod overlays;
mod reviews;
mod tab_line;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::threads;
use super::{ReviewScreen, ReviewTab};
use crate::api::models::{ChangeRequest, ChangeRequestStatus, ReviewStatus};
use crate::screens::look::Look;
use crate::ui::markdown::MarkdownDoc;
use crate::ui::sanitize::sanitize;
use crate::ui::segments::{self, Segment};
use crate::ui::theme::Theme;
use crate::ui::{status, text};

use crate::ui::hit::Canvas;
use changes::draw_changes;
use comments::draw_comments;
use overlays::draw_overlay;
use reviews::draw_overview;
use tab_line::draw_tabs;

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

pub(super) fn draw(screen: &ReviewScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let [title, facts, tabs, notice, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
    ])
    .areas(area);
    draw_title(screen, frame, title, theme);
    draw_facts(screen, frame, facts, look);
    draw_tabs(screen, frame, tabs, theme);
    if let Some(message) = &screen.notice {
        // Cut to the row with the key that shows it whole, like every screen's notice.
        let line = crate::ui::notice::row(message, notice.width, look);
        frame.render_widget(Paragraph::new(line), notice);
    }
    match (&screen.bundle.value(), screen.bundle.error()) {
        (None, Some(error)) => status::error(frame, body, look, error),
        (None, None) => status::loading(frame, body, look, "the change request"),
        (Some(_), reload_error) => {
            // A failed reload keeps what was shown; the body's last row says so.
            let mut body = body;
            if let Some(error) = reload_error {
                let taken = status::reload_failed(frame, body, look, error);
                body.height = body.height.saturating_sub(taken);
            }
            match screen.tab {
                ReviewTab::Changes => draw_changes(screen, frame, body, look),
                ReviewTab::Comments => draw_comments(screen, frame, body, look),
                ReviewTab::Reviews => draw_overview(screen, frame, body, look),
                ReviewTab::Overview => super::overview::draw(screen, frame, body, look),
            }
        }
    }
    if let Some(overlay) = &screen.overlay {
        draw_overlay(screen, overlay, frame, area, look);
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

fn draw_facts(screen: &ReviewScreen, frame: &mut Frame, area: Rect, look: &Look) {
    let Some(cr) = screen.change_request() else {
        return;
    };
    let line = segments::line(&facts(screen, cr, look.now()), usize::from(area.width));
    frame.render_widget(Paragraph::new(line.style(look.theme.style("muted"))), area);
}

/// "by Ada · created 3 days ago · updated 2 h ago · 26 threads (18 open) · ✓ 1 ✗ 0 · merged
/// 1 h ago". Who, the threads, the reviews and the merge stay longest; the dates give way
/// first; each is shown whole or not at all.
fn facts(
    screen: &ReviewScreen,
    cr: &ChangeRequest,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<Segment> {
    let author = cr
        .created_by
        .as_ref()
        .map(|u| sanitize(&u.display_name).into_owned())
        .unwrap_or_else(|| "someone".into());
    let fact = |text: String, priority: u8| Segment::new(text, priority).after(" · ");
    let mut line =
        vec![fact(format!("by {author}"), 0).or(format!("by {}", text::truncate(&author, 16)))];
    if let Some(created) = &cr.created_at {
        line.push(fact(
            format!("created {}", crate::ui::time::relative(created, now)),
            5,
        ));
    }
    if let Some(updated) = &cr.updated_at {
        line.push(fact(
            format!("updated {}", crate::ui::time::relative(updated, now)),
            4,
        ));
    }
    if let Some(bundle) = screen.bundle.value() {
        let open = threads::unresolved(&bundle.threads).len();
        let all = crate::ui::time::plural(bundle.threads.len(), "thread", "threads");
        line.push(fact(format!("{all} ({open} open)"), 1).or(all));
        let current = bundle.reviews.iter().filter(|r| !r.outdated);
        let (approved, changes): (Vec<_>, Vec<_>) =
            current.partition(|r| r.status == Some(ReviewStatus::Approved));
        line.push(fact(format!("✓ {} ✗ {}", approved.len(), changes.len()), 2));
        if let Some(merged) = &cr.merged_at {
            line.push(fact(
                format!("merged {}", crate::ui::time::relative(merged, now)),
                3,
            ));
        }
    }
    line
}

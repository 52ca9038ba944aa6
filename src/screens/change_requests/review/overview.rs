//! The overview tab, where a review opens: the description rendered, status, author and dates,
//! the merge pre-flight's checks as ✓/⚠ lines, and a timeline of what happened, newest first.
//! Also `]c` / `[c`: the next or previous change request of the list the review came from.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::ReviewScreen;
use crate::api::models::ReviewStatus;
use crate::screens::Screen;
use crate::screens::look::Look;
use crate::screens::step::{Ctx, Nav, Step};
use crate::ui::keymap::Action;
use crate::ui::sanitize::sanitize;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::vocabulary::change_requests::{ReviewBundle, Siblings};

/// `]c` / `[c`: the review of the next (previous) change request replaces this one; at the
/// ends, or when the review was not opened from a list, it says so.
pub(super) fn step_change_request(screen: &mut ReviewScreen, forward: bool) -> Step {
    let Some(siblings) = &screen.siblings else {
        screen.notice(
            "]c and [c move through the list a review was opened from; this one was opened alone.",
            false,
        );
        return Step::default();
    };
    let next = if forward {
        siblings.index + 1
    } else {
        match siblings.index.checked_sub(1) {
            Some(index) => index,
            None => {
                screen.notice("This is the first change request of the list.", false);
                return Step::default();
            }
        }
    };
    let Some((target, summary)) = siblings.items.get(next).cloned() else {
        screen.notice("This is the last change request of the list.", false);
        return Step::default();
    };
    let mut review = ReviewScreen::new(target, Some(summary));
    review.tab = screen.tab;
    review.siblings = Some(Siblings {
        items: siblings.items.clone(),
        index: next,
    });
    Step {
        cmd: crate::vocabulary::Cmd::None,
        nav: Nav::Replace(Box::new(Screen::Review(Box::new(review)))),
    }
}

/// Keys of the overview tab: it scrolls.
pub(super) fn on_action(screen: &mut ReviewScreen, action: Action, ctx: &mut Ctx) -> Option<Step> {
    let page = super::layout::body_height(ctx).max(1) as u16;
    let scroll = &mut screen.overview_scroll;
    match action {
        Action::Down => *scroll = scroll.saturating_add(1),
        Action::Up => *scroll = scroll.saturating_sub(1),
        Action::HalfPageDown => *scroll = scroll.saturating_add(page / 2),
        Action::HalfPageUp => *scroll = scroll.saturating_sub(page / 2),
        Action::PageDown => *scroll = scroll.saturating_add(page),
        Action::PageUp => *scroll = scroll.saturating_sub(page),
        Action::Top => *scroll = 0,
        Action::Bottom => *scroll = u16::MAX,
        _ => return None,
    }
    Some(Step::default())
}

pub(super) fn draw(screen: &ReviewScreen, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    let Some(bundle) = screen.bundle.value() else {
        return;
    };
    let width = area.width.max(1);
    let mut lines = Vec::new();
    lines.extend(summary_lines(bundle, theme));
    lines.push(Line::from(""));
    let description = bundle
        .change_request
        .description
        .as_ref()
        .map(crate::ui::document::display_markdown)
        .unwrap_or_default();
    lines.push(heading("Description", theme));
    if description.trim().is_empty() {
        lines.push(muted("No description. D writes one.", theme));
    } else {
        lines.extend(
            screen
                .bodies
                .lines(&description, width, theme)
                .iter()
                .cloned(),
        );
    }
    lines.push(Line::from(""));
    lines.push(heading("Checks before a merge", theme));
    // The pre-flight's own lines, without its question and the blank row under it.
    lines.extend(
        super::view::merge::preflight_lines(screen, theme, look.now())
            .into_iter()
            .skip(2),
    );
    lines.push(Line::from(""));
    lines.push(heading("Timeline, newest first", theme));
    let now = chrono::Utc::now();
    for event in timeline(bundle) {
        lines.push(event.line(now, width as usize, theme));
    }
    let last = lines.len().saturating_sub(area.height as usize) as u16;
    let scroll = screen.overview_scroll.min(last);
    frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), area);
}

fn heading(title: &str, theme: &Theme) -> Line<'static> {
    Line::from(Span::styled(title.to_string(), theme.style("heading2")))
}

fn muted(text: &str, theme: &Theme) -> Line<'static> {
    Line::from(Span::styled(text.to_string(), theme.style("muted")))
}

/// Status and author, then the dates relative with the absolute ones in a details line.
fn summary_lines(bundle: &ReviewBundle, theme: &Theme) -> Vec<Line<'static>> {
    let cr = &bundle.change_request;
    let now = chrono::Utc::now();
    let status = cr.status.as_ref().map_or("unknown", |s| s.as_str());
    let author = cr.created_by.as_ref().map_or("someone".to_string(), |u| {
        sanitize(&u.display_name).into_owned()
    });
    let relative = |at: &Option<String>| {
        at.as_deref()
            .map(|at| sanitize(&crate::ui::time::ago_or_raw(at, now)).into_owned())
    };
    let mut facts = vec![
        Span::styled(sanitize(status).into_owned(), theme.style("text")),
        Span::styled(format!(" · by {author}"), theme.style("muted")),
    ];
    if let Some(created) = relative(&cr.created_at) {
        facts.push(Span::styled(
            format!(" · created {created}"),
            theme.style("muted"),
        ));
    }
    if let Some(updated) = relative(&cr.updated_at) {
        facts.push(Span::styled(
            format!(" · updated {updated}"),
            theme.style("muted"),
        ));
    }
    let absolute = |label: &str, at: &Option<String>| {
        at.as_deref()
            .and_then(crate::ui::time::absolute)
            .map(|at| format!("{label} {at}"))
    };
    let details: Vec<String> = [
        absolute("created", &cr.created_at),
        absolute("updated", &cr.updated_at),
        absolute("merged", &cr.merged_at),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut lines = vec![Line::from(facts)];
    if !details.is_empty() {
        lines.push(muted(&details.join(" · "), theme));
    }
    lines
}

/// One thing that happened to the change request.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub at: String,
    pub who: String,
    /// "commented", "approved" …
    pub what: &'static str,
    /// The first line of a comment, or nothing.
    pub text: String,
}

impl Event {
    fn line(
        &self,
        now: chrono::DateTime<chrono::Utc>,
        width: usize,
        theme: &Theme,
    ) -> Line<'static> {
        let when = sanitize(&crate::ui::time::ago_or_raw(&self.at, now)).into_owned();
        let head = format!("{when:>12}  ");
        let who = sanitize(&self.who).into_owned();
        let mut spans = vec![
            Span::styled(head.clone(), theme.style("muted")),
            Span::styled(who.clone(), theme.style("author")),
            Span::styled(format!(" {}", self.what), theme.style("text")),
        ];
        if !self.text.is_empty() {
            let used = text::width(&head) + text::width(&who) + self.what.len() + 3;
            let room = width.saturating_sub(used);
            if room > 3 {
                spans.push(Span::styled(
                    format!(": {}", text::truncate(&sanitize(&self.text), room)),
                    theme.style("muted"),
                ));
            }
        }
        Line::from(spans)
    }
}

fn first_line(markdown: Option<&str>) -> String {
    markdown
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default()
        .to_string()
}

/// Everything the loaded review tells about its history, newest first. The API lists no
/// revisions of a change request, so updates show as its last update time.
pub fn timeline(bundle: &ReviewBundle) -> Vec<Event> {
    let cr = &bundle.change_request;
    let name = |user: Option<&crate::api::models::User>| {
        user.map_or("someone".to_string(), |u| u.display_name.clone())
    };
    let mut events = Vec::new();
    let mut push = |at: Option<&String>, who: String, what: &'static str, text: String| {
        if let Some(at) = at {
            events.push(Event {
                at: at.clone(),
                who,
                what,
                text,
            });
        }
    };
    push(
        cr.created_at.as_ref(),
        name(cr.created_by.as_ref()),
        "opened it",
        String::new(),
    );
    if cr.updated_at != cr.created_at && cr.merged_at.is_none() {
        push(
            cr.updated_at.as_ref(),
            "It".to_string(),
            "was last updated",
            String::new(),
        );
    }
    push(
        cr.merged_at.as_ref(),
        name(cr.merged_by.as_ref()),
        "merged it",
        String::new(),
    );
    for thread in &bundle.threads {
        let comment = &thread.comment;
        push(
            comment.posted_at.as_ref(),
            name(comment.posted_by.as_ref()),
            "commented",
            first_line(comment.body.markdown()),
        );
        if comment.is_resolved() {
            push(
                comment.resolved_at.as_ref(),
                name(comment.resolved_by.as_ref()),
                "resolved a thread",
                first_line(comment.body.markdown()),
            );
        }
        for reply in &thread.replies {
            push(
                reply.posted_at.as_ref(),
                name(reply.posted_by.as_ref()),
                "replied",
                first_line(reply.body.markdown()),
            );
        }
    }
    for review in &bundle.reviews {
        let what = match review.status {
            Some(ReviewStatus::Approved) => "approved",
            Some(ReviewStatus::ChangesRequested) => "requested changes",
            _ => "reviewed",
        };
        push(
            review.created_at.as_ref(),
            name(review.reviewer.as_ref()),
            what,
            String::new(),
        );
    }
    // RFC 3339 times of one server sort as text; newest first.
    events.sort_by(|a, b| b.at.cmp(&a.at));
    events
}

impl ReviewScreen {
    /// After a load: a load the watch started marks what is new since the one before; either
    /// way the next refresh is set (when watching is on).
    pub(super) fn on_watched_load(
        &mut self,
        earlier: Option<&ReviewBundle>,
        ctx: &mut Ctx,
    ) -> crate::vocabulary::Cmd {
        if std::mem::take(&mut self.watch_reload)
            && let (Some(earlier), Some(now)) = (earlier, self.bundle.value())
        {
            let news = crate::vocabulary::watch::ReviewNews::between(earlier, now);
            if !news.is_empty() {
                self.notice(news.summary(), false);
            }
            self.news = news;
        }
        self.ticker.arm(ctx)
    }
}

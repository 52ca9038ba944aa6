//! The reviews tab: the description, the reviews given and the reviewers asked.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::api::models::ReviewStatus;
use crate::screens::change_requests::review::ReviewScreen;
use crate::screens::look::Look;
use crate::ui::sanitize::sanitize;

/// What the reviewer wrote with the review: as the review carries it, else its thread's text.
fn review_text(
    bundle: &crate::vocabulary::change_requests::ReviewBundle,
    review: &crate::api::models::ChangeRequestReview,
) -> Option<String> {
    let comment = review.comment.as_ref()?;
    let text = comment.markdown().map(str::to_string).or_else(|| {
        let id = comment.id.as_deref()?;
        let thread = bundle.threads.iter().find(|t| t.comment.id == id)?;
        thread.comment.body.markdown().map(str::to_string)
    })?;
    (!text.trim().is_empty()).then_some(text)
}

pub(super) fn draw_overview(screen: &ReviewScreen, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
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
            .map(|at| crate::ui::time::relative(at, look.now()))
            .unwrap_or_default();
        let outdated = if review.outdated { "  (outdated)" } else { "" };
        lines.push(Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::styled(who, theme.style("author")),
            Span::styled(format!("  {when}{outdated}"), theme.style("muted")),
        ]));
        if let Some(text) = review_text(bundle, review) {
            let rendered = screen
                .bodies
                .lines(&text, area.width.saturating_sub(2), theme);
            lines.extend(rendered.iter().map(|line| {
                let mut spans = vec![Span::raw("  ")];
                spans.extend(line.spans.iter().cloned());
                Line::from(spans)
            }));
        }
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
        let style = screen.reviewer_selection.style(index, theme);
        lines.push(Line::from(Span::styled(format!("  {name}"), style)));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

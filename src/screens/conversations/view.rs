//! Drawing a cluster's issues and a conversation's transcript.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{ClusterIssuesScreen, ConversationScreen};
use crate::api::models::ConversationDetail;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::markdown::MarkdownDoc;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

pub(super) fn draw_issues(
    screen: &ClusterIssuesScreen,
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
) {
    let theme = look.theme;
    let cluster = &screen.cluster;
    let [header, rows_area] =
        Layout::vertical([Constraint::Length(2), Constraint::Min(0)]).areas(area);
    let heading = vec![Line::from(Span::styled(
        format!(
            "{} {}",
            super::tab_view::icon(cluster.icon.as_deref()),
            sanitize(&cluster.label)
        ),
        theme.style("title"),
    ))];
    let mut heading = heading;
    // The summary is markdown; its first row fits the header.
    if let Some(summary) = cluster.summary.as_deref() {
        let layout = MarkdownDoc::parse(summary, theme).layout(area.width.max(1));
        heading.extend(layout.lines.into_iter().take(1));
    }
    frame.render_widget(Paragraph::new(heading), header);
    let items = &screen.issues.items;
    let empty = "No issues in this cluster.";
    if crate::screens::list_pane::draw_if_empty(
        frame,
        rows_area,
        look,
        (&screen.issues, "issues"),
        empty,
    ) {
        return;
    }
    // Two rows per issue: its title, then its conversation's subject and date.
    let per_issue = 2usize;
    let range = screen
        .selection
        .visible_range(items.len(), rows_area.height as usize / per_issue);
    let mut lines = Vec::new();
    for (offset, item) in items[range.clone()].iter().enumerate() {
        let style = screen.selection.style(range.start + offset, theme);
        lines.push(Line::from(Span::styled(
            text::fit(&sanitize(&item.issue.title), rows_area.width as usize),
            style,
        )));
        let date = item
            .issue
            .created_at
            .as_deref()
            .map(|at| crate::ui::time::relative(at, look.now()))
            .unwrap_or_default();
        lines.push(Line::from(Span::styled(
            text::truncate(
                &format!(
                    "  💬 {} · {} · {date}",
                    sanitize(&item.conversation.subject),
                    sanitize(item.conversation.source.as_deref().unwrap_or("—"))
                ),
                rows_area.width as usize,
            ),
            theme.style("muted"),
        )));
    }
    frame.render_widget(Paragraph::new(lines), rows_area);
}

pub(super) fn draw_conversation(
    screen: &ConversationScreen,
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
) {
    let Some(detail) = screen.detail.value() else {
        match screen.detail.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "the conversation"),
        }
        return;
    };
    let lines = transcript_lines(screen, detail, area.width, look.theme, look.now());
    let shown = screen.scroll.visible(lines, area.height);
    frame.render_widget(Paragraph::new(shown), area);
}

/// Every row of the transcript at `width`: metadata, the issue, then the messages.
fn transcript_lines(
    screen: &ConversationScreen,
    detail: &ConversationDetail,
    width: u16,
    theme: &Theme,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<Line<'static>> {
    let conversation = &detail.conversation;
    let wrapped = |text: &str, style| -> Vec<Line<'static>> {
        text::wrap(&sanitize(text), width.max(1) as usize)
            .into_iter()
            .map(|row| Line::from(Span::styled(row, style)))
            .collect()
    };
    let field = |label: &str, value: String| -> Vec<Line<'static>> {
        let row = format!("{label:<11}{value}");
        text::wrap(&sanitize(&row), width.max(1) as usize)
            .into_iter()
            .map(|row| Line::from(Span::styled(row, theme.style("muted"))))
            .collect()
    };
    let mut lines = wrapped(&conversation.subject, theme.style("title"));
    let date = |value: Option<&String>| {
        value.map_or_else(|| "—".to_string(), |at| crate::ui::time::exactly(at, now))
    };
    lines.extend(field(
        "Source",
        conversation.source.clone().unwrap_or_else(|| "—".into()),
    ));
    lines.extend(field(
        "Created",
        date(
            detail
                .metadata
                .created_at
                .as_ref()
                .or(conversation.created_at.as_ref()),
        ),
    ));
    lines.extend(field("Processed", date(conversation.processed_at.as_ref())));
    if let Some(url) = detail
        .metadata
        .url
        .as_ref()
        .or(conversation.urls.source.as_ref())
    {
        lines.extend(field("Address", url.clone()));
    }
    if !detail.metadata.attributes.is_empty() {
        let attributes: Vec<String> = detail
            .metadata
            .attributes
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        lines.extend(field("Attributes", attributes.join(" · ")));
    }
    if let Some(issue) = &screen.issue {
        lines.push(Line::from(""));
        lines.extend(wrapped(
            &format!("Issue: {}", issue.title),
            theme.style("accent"),
        ));
        if let Some(summary) = &issue.summary {
            lines.extend(wrapped(summary, theme.style("text")));
        }
    }
    let body_width = width.saturating_sub(2).max(1);
    for part in &detail.parts {
        lines.push(Line::from(""));
        let role = if part.role.is_empty() {
            "(no role)"
        } else {
            &part.role
        };
        let role_style = if part.role == "user" {
            theme.style("accent")
        } else {
            theme.style("success")
        };
        lines.push(Line::from(Span::styled(
            format!("▌ {}", sanitize(role)),
            role_style,
        )));
        let body = MarkdownDoc::parse(&part.body, theme)
            .layout(body_width)
            .lines;
        lines.extend(body.into_iter().map(|line| {
            let mut spans = vec![Span::raw("  ")];
            spans.extend(line.spans);
            Line::from(spans)
        }));
    }
    lines
}

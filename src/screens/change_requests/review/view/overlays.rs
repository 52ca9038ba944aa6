//! The overlays drawn over a tab: composer, reactions, confirmations, the merge pre-flight,
//! the reviewer picker, the subject editor and the PDF address; and the popup box they share.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::composer::{context_row, draw_composer_by_block, draw_composer_under};
use super::merge::draw_preflight;
use crate::api::models::ChangeRequestStatus;
use crate::screens::change_requests::review::{
    ComposeTarget, Confirmation, Overlay, ReviewScreen, ReviewTab,
};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::layout::centered;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;

pub(super) fn draw_overlay(
    screen: &ReviewScreen,
    overlay: &Overlay,
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
) {
    let theme = look.theme;
    match overlay {
        Overlay::Composer {
            composer, target, ..
        } => match (context_row(screen, target), target) {
            (Some(row), _) => draw_composer_under(screen, row, composer, frame, area, look),
            (None, ComposeTarget::BlockComment { .. }) if screen.tab == ReviewTab::Changes => {
                draw_composer_by_block(screen, composer, frame, area, look);
            }
            (None, _) => composer.draw(frame, area, theme),
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
        Overlay::Preflight(preflight) => {
            draw_preflight(screen, preflight, frame, area, theme, look.now());
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
                    if let Some(pages) = members.stopped_after_pages() {
                        text.push(Line::from(Span::styled(
                            crate::ui::status::stopped_after(pages),
                            theme.style("warning"),
                        )));
                    }
                    let candidates: Vec<_> = members
                        .items
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
                        let style = selection.style(range.start + offset, theme);
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
        Overlay::Authors(picker) => crate::ui::picker::draw(picker, frame, area, theme),
        Overlay::Cell(picker) => crate::ui::picker::draw(picker, frame, area, theme),
        Overlay::Template(flow) => flow.draw(frame, area, theme),
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

/// A bordered box in the middle of `area`. The `footer` (the keys that answer it) is pinned to
/// the last row, so a short terminal cuts the text above it, never the way out.
fn popup(
    frame: &mut Canvas,
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
    frame.hits.modal();
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

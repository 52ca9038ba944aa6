//! The merge pre-flight: what a merge would go through, checked line by line.

use ratatui::text::{Line, Span};

use crate::api::models::{ChangeRequestStatus, ReviewStatus};
use crate::screens::review::threads;
use crate::screens::review::{ReviewScreen, counted};
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;

pub(crate) fn preflight_lines(screen: &ReviewScreen, theme: &Theme) -> Vec<Line<'static>> {
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
pub(super) fn preflight_keys(screen: &ReviewScreen, theme: &Theme) -> Line<'static> {
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

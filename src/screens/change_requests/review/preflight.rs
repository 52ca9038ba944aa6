//! The merge pre-flight: what a merge would go through, warnings first, in a box that scrolls
//! when it does not fit; and why a change request cannot be merged at all. Who may merge is the
//! server's `permissions.merge`, never a role guessed here; the words for a refusal come from
//! one place, so the pre-flight, a refused `M` and the help say the same thing.

use std::collections::BTreeSet;

use crate::api::ApiError;
use crate::api::models::{ChangeRequestStatus, ReviewStatus};
use crate::screens::change_requests::review::{PreflightLine, ReviewScreen, threads};
use crate::screens::step::Ctx;
use crate::ui::sanitize::sanitize;
use crate::ui::text;
use crate::vocabulary::Cmd;

/// The open pre-flight box: how far it is scrolled and which warnings have been on screen.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Preflight {
    /// The first row of text shown.
    pub scroll: usize,
    /// Warnings (by their text, so a reload that changes one makes it unread again) that have
    /// been wholly in the box: a merge waits until every warning has.
    seen: BTreeSet<String>,
    /// `y` came while a warning had not been in the box yet: the keys row says why nothing was
    /// merged.
    pub nudged: bool,
}

/// The pre-flight box for a body area: its text wrapped into rows and what fits.
#[derive(Debug, Clone, PartialEq)]
pub struct PreflightLayout {
    pub lines: Vec<PreflightLine>,
    /// Each row of text: the line it belongs to and its words.
    pub rows: Vec<(usize, String)>,
    /// The keys row, wrapped.
    pub keys: Vec<String>,
    pub width: u16,
    pub height: u16,
    /// Rows of text the box shows at once.
    pub visible: usize,
}

/// The box is at most this wide, like the review's other popups.
const BOX_WIDTH: u16 = 72;

impl PreflightLayout {
    pub fn new(
        screen: &ReviewScreen,
        preflight: &Preflight,
        (width, height): (u16, u16),
        now: chrono::DateTime<chrono::Utc>,
    ) -> Self {
        let lines = preflight_content(screen, now);
        let width = BOX_WIDTH.min(width);
        let inner = usize::from(width.saturating_sub(2)).max(1);
        let rows: Vec<(usize, String)> = lines
            .iter()
            .enumerate()
            .flat_map(|(index, line)| {
                text::wrap(&line.text(), inner)
                    .into_iter()
                    .map(move |row| (index, row))
            })
            .collect();
        let mut layout = PreflightLayout {
            lines,
            rows,
            keys: Vec::new(),
            width,
            height,
            visible: 0,
        };
        layout.keys = text::wrap(&keys_text(screen, preflight, &layout, inner), inner);
        let wanted = layout.rows.len() + layout.keys.len() + 2;
        layout.height = height.min(u16::try_from(wanted).unwrap_or(u16::MAX));
        layout.visible = usize::from(layout.height)
            .saturating_sub(2)
            .saturating_sub(layout.keys.len());
        layout
    }

    /// For the body area of a terminal of `ctx.size`, where the box is drawn.
    pub fn for_ctx(screen: &ReviewScreen, preflight: &Preflight, ctx: &Ctx) -> Self {
        let (width, height) = crate::ui::layout::body_size(ctx.size.width, ctx.size.height);
        Self::new(screen, preflight, (width, height), ctx.clock.now())
    }

    pub fn max_scroll(&self) -> usize {
        self.rows.len().saturating_sub(self.visible)
    }

    /// The rows `first..=last` of line `index`.
    fn rows_of(&self, index: usize) -> Option<(usize, usize)> {
        let first = self.rows.iter().position(|(line, _)| *line == index)?;
        let last = self.rows.iter().rposition(|(line, _)| *line == index)?;
        Some((first, last))
    }

    /// Whether line `index` is as much in the box as it can be at `scroll`: wholly, or, for a
    /// line taller than the box, down to its last row.
    fn shows(&self, index: usize, scroll: usize) -> bool {
        let Some((first, last)) = self.rows_of(index) else {
            return false;
        };
        let end = scroll + self.visible;
        let whole = first >= scroll && last < end;
        let taller = last + 1 - first > self.visible && last >= scroll && last < end;
        self.visible > 0 && (whole || taller)
    }

    fn warnings(&self) -> impl Iterator<Item = (usize, &String)> {
        self.lines
            .iter()
            .enumerate()
            .filter_map(|(index, line)| match line {
                PreflightLine::Warning(text) => Some((index, text)),
                _ => None,
            })
    }
}

impl Preflight {
    /// Notes the warnings the box shows now, after keeping the scroll within its text.
    pub fn look(&mut self, layout: &PreflightLayout) {
        self.scroll = self.scroll.min(layout.max_scroll());
        let shown: Vec<String> = layout
            .warnings()
            .filter(|(index, _)| layout.shows(*index, self.scroll))
            .map(|(_, text)| text.clone())
            .collect();
        self.seen.extend(shown);
    }

    /// The first row of the first warning that has not been in the box yet.
    fn first_unread_row(&self, layout: &PreflightLayout) -> Option<usize> {
        layout
            .warnings()
            .find(|(_, text)| !self.seen.contains(*text))
            .and_then(|(index, _)| layout.rows_of(index))
            .map(|(first, _)| first)
    }

    pub fn all_read(&self, layout: &PreflightLayout) -> bool {
        self.first_unread_row(layout).is_none()
    }

    /// Scrolls by `delta` rows (negative: up) and notes what comes into view.
    pub fn scroll_by(&mut self, delta: isize, layout: &PreflightLayout) {
        self.scroll = self.scroll.saturating_add_signed(delta);
        self.look(layout);
    }

    /// `y`: true when every warning has been in the box, so the merge may go. Otherwise the
    /// first unread warning is scrolled into view and the keys row says nothing was merged.
    pub fn ready_to_merge(&mut self, layout: &PreflightLayout) -> bool {
        self.look(layout);
        let Some(row) = self.first_unread_row(layout) else {
            return true;
        };
        self.scroll = row;
        self.look(layout);
        self.nudged = true;
        false
    }
}

/// The keys row: the answers, or, after a `y` that merged nothing, why. The long form when it
/// fits the box, else a short one, so the way out stays on screen at 40 columns.
fn keys_text(
    screen: &ReviewScreen,
    preflight: &Preflight,
    layout: &PreflightLayout,
    inner: usize,
) -> String {
    let fitting = |long: &str, short: &str| {
        if text::width(long) <= inner {
            long.to_string()
        } else {
            short.to_string()
        }
    };
    if !screen.may_merge_now() {
        return "esc: close".into();
    }
    if preflight.nudged && !preflight.all_read(layout) {
        return fitting(
            "Not merged yet: more warnings below, j / ↓ shows them    esc: not now",
            "Not merged: j shows more ⚠ · esc",
        );
    }
    if preflight.nudged {
        return fitting(
            "Not merged yet: read the warnings, then y / enter merges    esc: not now",
            "Read the ⚠, then y merges · esc",
        );
    }
    fitting(
        "y / enter: merge    U: update from main    esc: not now",
        "y merge · U update · esc not now",
    )
}

impl ReviewScreen {
    /// True when this change request is merged or archived already: no one can merge it.
    pub fn is_merge_closed(&self) -> bool {
        self.change_request().is_some_and(|cr| {
            matches!(
                cr.status,
                Some(ChangeRequestStatus::Merged | ChangeRequestStatus::Archived)
            )
        })
    }

    /// Why this change request cannot be merged by anyone: it is merged or archived already
    /// (when, measured from `now`).
    pub fn merge_closed(&self, now: chrono::DateTime<chrono::Utc>) -> Option<String> {
        let cr = self.change_request()?;
        match cr.status.as_ref()? {
            ChangeRequestStatus::Merged => {
                let when = cr
                    .merged_at
                    .as_deref()
                    .map(|at| format!(" {}", crate::ui::time::relative(at, now)))
                    .unwrap_or_default();
                let by = cr
                    .merged_by
                    .as_ref()
                    .map(|user| format!(" by {}", sanitize(&user.display_name)))
                    .unwrap_or_default();
                Some(format!("Already merged{when}{by}."))
            }
            ChangeRequestStatus::Archived => {
                let when = cr
                    .updated_at
                    .as_deref()
                    .map(|at| format!(" (last changed {})", crate::ui::time::relative(at, now)))
                    .unwrap_or_default();
                Some(format!("Archived{when}: only open change requests merge."))
            }
            _ => None,
        }
    }

    /// What the pre-flight, a refused `M` and the help all say when the server's
    /// `permissions.merge` does not let this user merge here.
    pub fn merge_permission_refusal(&self) -> String {
        let you_are = self
            .role()
            .map(|role| format!(" (you are {role})"))
            .unwrap_or_default();
        format!("Your role cannot merge in this space{you_are}: ask an admin.")
    }

    /// A merge the server refused: a 403 in the words the pre-flight uses, a 409 (merged or
    /// archived meanwhile) in the server's own words, not its whole error line; then the
    /// review reloads, so it shows what the server holds now.
    pub(super) fn merge_refused(&mut self, error: &ApiError, ctx: &mut Ctx) -> Cmd {
        let text = match error {
            ApiError::Status { status: 403, .. } => self.merge_permission_refusal(),
            ApiError::Status {
                status: 409,
                message,
                ..
            } => format!("Not merged: {}.", sanitize(message).trim_end_matches('.')),
            _ => {
                self.notice(self.refused("Merging", error), true);
                return Cmd::None;
            }
        };
        self.notice(text, true);
        self.load(ctx)
    }

    /// True once the change request is loaded, open to a merge and the server lets this user
    /// merge: what `y` in the pre-flight needs.
    pub fn may_merge_now(&self) -> bool {
        self.bundle.value().is_some() && !self.is_merge_refused()
    }

    /// True when `M` does not open the pre-flight ([`ReviewScreen::merge_refusal`] says why).
    pub fn is_merge_refused(&self) -> bool {
        self.bundle.value().is_some() && (self.is_merge_closed() || !self.can_merge())
    }

    /// Why `M` does not open the pre-flight, or None when it may: merged or archived already,
    /// else the server does not let this user merge.
    pub fn merge_refusal(&self, now: chrono::DateTime<chrono::Utc>) -> Option<String> {
        self.bundle.value()?;
        if let Some(closed) = self.merge_closed(now) {
            return Some(closed);
        }
        (!self.can_merge()).then(|| self.merge_permission_refusal())
    }
}

/// The pre-flight's lines: the question, then the checks that warn, then those that pass, then
/// the merge rules. A change request that cannot be merged at all says only why.
pub fn preflight_content(
    screen: &ReviewScreen,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<PreflightLine> {
    let Some(bundle) = screen.bundle.value() else {
        return vec![PreflightLine::Note("Still loading…".into())];
    };
    let cr = &bundle.change_request;
    let title = PreflightLine::Title(format!(
        "Merge #{} “{}” into main?",
        cr.number.unwrap_or_default(),
        sanitize(&cr.subject)
    ));
    if let Some(closed) = screen.merge_closed(now) {
        return vec![title, PreflightLine::Blank, PreflightLine::Note(closed)];
    }
    let checks = checks(screen, bundle);
    let rules = bundle
        .space
        .as_ref()
        .and_then(|s| s.merge_rules.as_ref())
        .map(merge_rules_text)
        .unwrap_or_else(|| "the space reports none".into());
    let links = super::breaking_links::link_lines(screen);
    let mut lines = vec![title, PreflightLine::Blank];
    lines.extend(
        checks
            .iter()
            .filter(|(ok, _)| !ok)
            .map(|(_, bad)| PreflightLine::Warning(bad.clone())),
    );
    lines.extend(links.warning);
    lines.extend(
        checks
            .iter()
            .filter(|(ok, _)| *ok)
            .map(|(_, good)| PreflightLine::Passed(good.clone())),
    );
    lines.extend(links.passed);
    lines.extend(links.note);
    lines.push(PreflightLine::Note(format!("Merge rules: {rules}")));
    lines
}

/// Each check as (passes, what to say), in the order they are thought through.
fn checks(
    screen: &ReviewScreen,
    bundle: &crate::vocabulary::change_requests::ReviewBundle,
) -> Vec<(bool, String)> {
    let cr = &bundle.change_request;
    let unresolved = threads::unresolved(&bundle.threads).len();
    let current: Vec<_> = bundle.reviews.iter().filter(|r| !r.outdated).collect();
    let count = |status: ReviewStatus| {
        current
            .iter()
            .filter(|r| r.status.as_ref() == Some(&status))
            .count()
    };
    let (approvals, changes) = (
        count(ReviewStatus::Approved),
        count(ReviewStatus::ChangesRequested),
    );
    let waiting: Vec<String> = bundle
        .requested
        .iter()
        .filter_map(|r| {
            r.user
                .as_ref()
                .map(|u| sanitize(&u.display_name).into_owned())
        })
        .collect();
    let pick = |ok: bool, good: String, bad: String| (ok, if ok { good } else { bad });
    vec![
        pick(
            screen.can_merge(),
            "You may merge in this space.".into(),
            screen.merge_permission_refusal(),
        ),
        pick(
            cr.status == Some(ChangeRequestStatus::Open),
            "The change request is open.".into(),
            format!(
                "Its status is {}: only open change requests merge.",
                sanitize(cr.status.as_ref().map_or("unknown", |s| s.as_str()))
            ),
        ),
        pick(
            !cr.outdated,
            "Up to date with main.".into(),
            "Behind main: press U to bring main's changes in first.".into(),
        ),
        pick(
            unresolved == 0,
            "No unresolved threads.".into(),
            format!(
                "{}.",
                crate::ui::time::plural(unresolved, "unresolved thread", "unresolved threads")
            ),
        ),
        pick(
            approvals > 0 && changes == 0,
            format!(
                "{}, no changes requested.",
                crate::ui::time::plural(approvals, "approval", "approvals")
            ),
            format!(
                "{}, {changes} asking for changes.",
                crate::ui::time::plural(approvals, "approval", "approvals")
            ),
        ),
        pick(
            waiting.is_empty(),
            "No requested review is pending.".into(),
            format!("Still waiting on: {}.", waiting.join(", ")),
        ),
    ]
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

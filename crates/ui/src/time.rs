//! Dates as people read them: relative in lists ("5 min ago"), absolute in details panes.
//! Server timestamps are RFC 3339 text; one that does not parse is shown as it came (sanitized
//! by the caller), never dropped silently.

use chrono::{DateTime, Utc};

/// What views measure "5 min ago" from: the real clock, or an instant pinned so snapshots of
/// views with relative dates do not change as the days pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    #[default]
    Real,
    Pinned(DateTime<Utc>),
}

impl Clock {
    pub fn now(self) -> DateTime<Utc> {
        match self {
            Clock::Real => Utc::now(),
            Clock::Pinned(at) => at,
        }
    }
}

/// "3 days ago" for a server timestamp in a list, measured from `now`; the text as it came
/// when it is not a date.
pub fn relative(at: &str, now: DateTime<Utc>) -> String {
    ago(at, now).unwrap_or_else(|| crate::sanitize::sanitize(at).into_owned())
}

/// "2026-11-23 10:53 UTC (3 days ago)" for a details pane; the text as it came when it is not
/// a date.
pub fn exactly(at: &str, now: DateTime<Utc>) -> String {
    match absolute(at) {
        Some(absolute) => format!("{absolute} ({})", relative(at, now)),
        None => crate::sanitize::sanitize(at).into_owned(),
    }
}

/// "1 page", "3 pages": a count with its noun in the right number.
pub fn plural<N>(count: N, one: &str, many: &str) -> String
where
    N: std::fmt::Display + PartialEq + From<u8>,
{
    if count == N::from(1) {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

/// "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", "3 weeks ago",
/// "2 months ago", "1 year ago"; "in 5 min" for the future. `None` when `at` is not a date.
pub fn ago(at: &str, now: DateTime<Utc>) -> Option<String> {
    let at = DateTime::parse_from_rfc3339(at).ok()?.with_timezone(&Utc);
    Some(describe(now - at))
}

/// [`ago`], or the text as it came when it is not a date.
pub fn ago_or_raw(at: &str, now: DateTime<Utc>) -> String {
    ago(at, now).unwrap_or_else(|| at.to_string())
}

/// "2026-11-23 10:53 UTC": for details panes, next to or instead of the relative form.
pub fn absolute(at: &str) -> Option<String> {
    let at = DateTime::parse_from_rfc3339(at).ok()?.with_timezone(&Utc);
    Some(at.format("%Y-%m-%d %H:%M UTC").to_string())
}

fn describe(elapsed: chrono::TimeDelta) -> String {
    let seconds = elapsed.num_seconds();
    if seconds < 0 {
        let ahead = describe(-elapsed);
        return match ahead.strip_suffix(" ago") {
            Some(amount) => format!("in {amount}"),
            None => ahead,
        };
    }
    let minutes = seconds / 60;
    let hours = minutes / 60;
    let days = hours / 24;
    match () {
        _ if seconds < 45 => "just now".to_string(),
        _ if minutes < 60 => format!("{} min ago", minutes.max(1)),
        _ if hours < 24 => format!("{hours} h ago"),
        _ if days == 1 => "yesterday".to_string(),
        _ if days < 14 => units_ago(days, "day"),
        _ if days < 60 => units_ago(days / 7, "week"),
        _ if days < 365 => units_ago(days / 30, "month"),
        _ => units_ago(days / 365, "year"),
    }
}

fn units_ago(count: i64, unit: &str) -> String {
    format!("{} ago", plural(count, unit, &format!("{unit}s")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-23T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn recent_times_read_as_people_say_them() {
        let cases = [
            ("2026-11-23T11:59:50Z", "just now"),
            ("2026-11-23T11:55:00Z", "5 min ago"),
            ("2026-11-23T09:00:00Z", "3 h ago"),
            ("2026-11-22T10:00:00Z", "yesterday"),
            ("2026-11-19T12:00:00Z", "4 days ago"),
            ("2026-11-02T12:00:00Z", "3 weeks ago"),
            ("2026-09-20T12:00:00Z", "2 months ago"),
            ("2025-11-01T12:00:00Z", "1 year ago"),
            ("2023-11-01T12:00:00Z", "3 years ago"),
            ("2026-11-23T12:05:00Z", "in 5 min"),
        ];
        for (at, expected) in cases {
            assert_eq!(ago(at, now()).as_deref(), Some(expected), "{at}");
        }
    }

    #[test]
    fn plurals_agree_with_their_count() {
        assert_eq!(plural(1, "page", "pages"), "1 page");
        assert_eq!(plural(0, "page", "pages"), "0 pages");
        assert_eq!(plural(2u32, "reply", "replies"), "2 replies");
        assert_eq!(plural(-1, "day", "days"), "-1 days");
    }

    #[test]
    fn a_pinned_clock_makes_lists_and_details_stable() {
        let now = Clock::Pinned(now()).now();
        assert_eq!(relative("2026-11-20T12:00:00Z", now), "3 days ago");
        assert_eq!(
            exactly("2026-11-20T12:00:00Z", now),
            "2026-11-20 12:00 UTC (3 days ago)"
        );
        assert_eq!(exactly("soon", now), "soon");
    }

    #[test]
    fn text_that_is_not_a_date_is_kept() {
        assert_eq!(ago("soon", now()), None);
        assert_eq!(ago_or_raw("soon", now()), "soon");
        assert_eq!(
            absolute("2026-11-23T10:53:07+01:00").as_deref(),
            Some("2026-11-23 09:53 UTC")
        );
    }
}

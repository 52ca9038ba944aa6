//! When a read is tried again: exponential backoff with jitter, `Retry-After` honoured, a cap on
//! tries and on total time. Writes never come here: resending one could post a comment twice.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::error::ApiError;

/// Tries per read, first one included.
pub const MAX_TRIES: u32 = 3;
/// A read gives up once retrying would take it past this, counted from its first try.
pub const MAX_TOTAL: Duration = Duration::from_secs(30);
/// The wait after the first failure; it doubles after each further one (before jitter).
pub const FIRST_DELAY: Duration = Duration::from_millis(800);

/// What the client tells whoever listens (the runtime, for the footer) about a read it retries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetryNotice {
    /// `endpoint` failed and will be tried again after `delay`.
    Waiting { endpoint: String, delay: Duration },
    /// The wait for `endpoint` is over (elapsed, or cut short by [`super::Client::retry_now`]).
    Resumed { endpoint: String },
}

pub type RetryObserver = Arc<dyn Fn(RetryNotice) + Send + Sync>;

/// True for failures a repeated read may get past: busy or overloaded server, a gateway in
/// trouble, a dropped connection, a timeout, an answer cut off.
pub fn is_transient(error: &ApiError) -> bool {
    match error {
        ApiError::Network { .. } | ApiError::Timeout { .. } | ApiError::CutOff { .. } => true,
        ApiError::Status { status, .. } => matches!(status, 408 | 429 | 502 | 503 | 504),
        _ => false,
    }
}

/// The wait before try number `failures + 1`, or `None` when the read should give up.
/// `retry_after` (the server's wish) replaces the backoff; if it does not fit in what is
/// left of [`MAX_TOTAL`], the read gives up rather than wait past the budget.
pub fn delay_before_next_try(
    failures: u32,
    elapsed: Duration,
    retry_after: Option<Duration>,
) -> Option<Duration> {
    if failures >= MAX_TRIES {
        return None;
    }
    let delay = retry_after.unwrap_or_else(|| backoff(failures));
    (elapsed + delay <= MAX_TOTAL).then_some(delay)
}

/// FIRST_DELAY, doubled per earlier failure, times a random factor in [0.5, 1.0] so many
/// clients failing together do not come back together.
fn backoff(failures: u32) -> Duration {
    let exponential = FIRST_DELAY.saturating_mul(1 << failures.saturating_sub(1).min(8));
    exponential.mul_f64(0.5 + fastrand::f64() / 2.0)
}

/// `Retry-After` as seconds (`2`) or an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`); a date in
/// the past means now. Anything else is ignored.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_takes_seconds_and_http_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_475);
        assert_eq!(parse_retry_after(" 2 ", now), Some(Duration::from_secs(2)));
        // 07:28:00 is 5 s after `now` (07:27:55).
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now),
            Some(Duration::from_secs(5))
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn at_most_three_tries_and_thirty_seconds() {
        let first = delay_before_next_try(1, Duration::ZERO, None).unwrap_or_default();
        assert!(
            first >= FIRST_DELAY / 2 && first <= FIRST_DELAY,
            "{first:?}"
        );
        let second = delay_before_next_try(2, Duration::ZERO, None).unwrap_or_default();
        assert!(
            second >= FIRST_DELAY && second <= FIRST_DELAY * 2,
            "{second:?}"
        );
        assert_eq!(delay_before_next_try(3, Duration::ZERO, None), None);
        let wish = Some(Duration::from_secs(2));
        assert_eq!(
            delay_before_next_try(1, Duration::ZERO, wish),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            delay_before_next_try(1, Duration::from_secs(29), wish),
            None
        );
        assert_eq!(
            delay_before_next_try(1, Duration::ZERO, Some(Duration::from_secs(120))),
            None
        );
    }

    #[test]
    fn only_transient_failures_are_retried() {
        let status = |status| ApiError::Status {
            endpoint: "GET /orgs".into(),
            status,
            code: None,
            message: String::new(),
        };
        for transient in [429, 502, 503, 504] {
            assert!(is_transient(&status(transient)), "{transient}");
        }
        for lasting in [400, 401, 403, 404, 500] {
            assert!(!is_transient(&status(lasting)), "{lasting}");
        }
        assert!(is_transient(&ApiError::CutOff {
            endpoint: "GET /orgs".into()
        }));
    }
}

//! Faults per route: rules such as "GET /spaces/* answers 503 twice" that a test or a person
//! (`quire sandbox --fault …`) sets, and the request counts a test asserts on ("this POST was
//! sent exactly once").

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::watch;

use super::error::ApiError;

/// What a matching request gets instead of (or on top of) its normal answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Answers this status with the error body (5xx, 401 or 403 mid-session, …).
    Status(u16),
    /// Answers 429 with `Retry-After: <seconds>`.
    TooManyRequests { retry_after_seconds: u64 },
    /// Closes the connection without an answer.
    Reset,
    /// Sends the normal answer's head and half its body, then closes: the body is shorter than
    /// its `Content-Length`.
    Truncated,
    /// Answers 200 with an HTML page, as a captive portal or a misconfigured proxy does.
    Html,
    /// Waits this long before handling the request normally.
    Latency(Duration),
    /// Handles the request (a write lands) but answers 500: the client cannot know it landed.
    StoreThenFail,
}

/// One fault for the requests it matches, optionally only the first `times` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultRule {
    /// Only this method (`GET`, `POST`, …); any method when `None`.
    pub method: Option<String>,
    /// Matched against the path after `/v1`: with `*` it is a glob (`*` matches anything,
    /// slashes included), without one a substring.
    pub path: String,
    pub fault: Fault,
    /// Applies to this many matching requests, then the route behaves again; always when `None`.
    pub times: Option<u32>,
}

impl FaultRule {
    /// A rule for every request whose path matches `path`, always.
    pub fn new(path: impl Into<String>, fault: Fault) -> FaultRule {
        FaultRule {
            method: None,
            path: path.into(),
            fault,
            times: None,
        }
    }

    /// Only for requests with this method.
    pub fn method(mut self, method: &str) -> FaultRule {
        self.method = Some(method.to_ascii_uppercase());
        self
    }

    /// Only for the first `times` matching requests.
    pub fn times(mut self, times: u32) -> FaultRule {
        self.times = Some(times);
        self
    }

    /// Parses the `--fault` syntax: `[METHOD ]PATH=FAULT[xTIMES]`, where FAULT is a status
    /// (`503`), `429:SECONDS`, `reset`, `truncate`, `html`, `latency:MILLIS` or `store-fail`.
    /// Examples: `GET /spaces/*=503x2`, `/orgs=429:2`, `POST /comments=store-fail`.
    pub fn parse(text: &str) -> Result<FaultRule, String> {
        let (target, fault) = text
            .rsplit_once('=')
            .ok_or_else(|| format!("`{text}`: expected PATH=FAULT, e.g. /orgs=503"))?;
        let (method, path) = match target.trim().split_once(' ') {
            Some((method, path)) => (Some(method.trim().to_ascii_uppercase()), path.trim()),
            None => (None, target.trim()),
        };
        let (fault, times) = match fault.trim().rsplit_once('x') {
            Some((fault, times)) if times.parse::<u32>().is_ok() => {
                (fault, times.parse::<u32>().ok())
            }
            _ => (fault.trim(), None),
        };
        Ok(FaultRule {
            method,
            path: path.to_owned(),
            fault: parse_fault(fault)?,
            times,
        })
    }

    fn matches(&self, method: &Method, path: &str) -> bool {
        let method_matches = self
            .method
            .as_deref()
            .is_none_or(|wanted| wanted.eq_ignore_ascii_case(method.as_str()));
        method_matches && path_matches(&self.path, api_path(path))
    }
}

fn parse_fault(text: &str) -> Result<Fault, String> {
    let number = |value: &str| {
        value
            .parse::<u64>()
            .map_err(|_| format!("`{value}` is not a number"))
    };
    match text.split_once(':') {
        Some(("429", seconds)) => Ok(Fault::TooManyRequests {
            retry_after_seconds: number(seconds)?,
        }),
        Some(("latency", millis)) => Ok(Fault::Latency(Duration::from_millis(number(millis)?))),
        _ => match text {
            "reset" => Ok(Fault::Reset),
            "truncate" => Ok(Fault::Truncated),
            "html" => Ok(Fault::Html),
            "store-fail" => Ok(Fault::StoreThenFail),
            "429" => Ok(Fault::TooManyRequests {
                retry_after_seconds: 1,
            }),
            status => match status.parse::<u16>() {
                Ok(code) if (400..600).contains(&code) => Ok(Fault::Status(code)),
                _ => Err(format!(
                    "unknown fault `{status}`: use a status (503), 429:SECONDS, reset, truncate, \
                     html, latency:MILLIS or store-fail"
                )),
            },
        },
    }
}

/// The path without its `/v1` prefix, as the API reference writes routes.
fn api_path(path: &str) -> &str {
    path.strip_prefix("/v1").unwrap_or(path)
}

/// `*` matches any run of characters; without `*` the pattern is a substring.
fn path_matches(pattern: &str, path: &str) -> bool {
    if !pattern.contains('*') {
        return path.contains(pattern);
    }
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = path.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (index, part) in parts.iter().enumerate() {
        let last = index + 1 == parts.len();
        if last {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Requests seen per `"METHOD /path"` (path after `/v1`), how often each rule has fired, and
/// the load a client put on the server: connections opened, requests in flight at once.
#[derive(Default)]
pub struct Counters {
    requests: Mutex<HashMap<String, usize>>,
    rule_uses: Mutex<HashMap<usize, u32>>,
    connections: AtomicUsize,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    /// Moves on each connection accepted, request arrived and answer ready, so a test waits
    /// for the server's next step instead of looking again and again.
    activity: watch::Sender<u64>,
}

/// One request being handled; dropping it (the answer is ready, or the client went away)
/// takes it off the in-flight gauge.
pub struct InFlight<'a> {
    counters: &'a Counters,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.counters.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.counters.moved();
    }
}

impl Counters {
    /// A TCP connection was accepted.
    pub fn count_connection(&self) {
        self.connections.fetch_add(1, Ordering::SeqCst);
        self.moved();
    }

    /// Says something happened to whoever follows [`Counters::activity`].
    fn moved(&self) {
        self.activity
            .send_modify(|steps| *steps = steps.wrapping_add(1));
    }

    /// A receiver that sees a change each time a connection is accepted, a request arrives or
    /// its answer is ready (stored, or the client went away).
    pub fn activity(&self) -> watch::Receiver<u64> {
        self.activity.subscribe()
    }

    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// A request starts being handled; the gauge goes down when the guard drops.
    pub fn start_request(&self) -> InFlight<'_> {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.max_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight { counters: self }
    }

    /// The most requests handled at the same time since the start (or the last reset).
    pub fn max_in_flight(&self) -> usize {
        self.max_in_flight.load(Ordering::SeqCst)
    }

    /// Starts the connection count and the in-flight high-water mark again from now.
    pub fn reset_load(&self) {
        self.connections.store(0, Ordering::SeqCst);
        self.max_in_flight
            .store(self.in_flight.load(Ordering::SeqCst), Ordering::SeqCst);
    }

    pub fn count_request(&self, method: &Method, path: &str) {
        if let Ok(mut requests) = self.requests.lock() {
            *requests
                .entry(format!("{method} {}", api_path(path)))
                .or_default() += 1;
        }
        self.moved();
    }

    /// Every request seen so far, counted per `"METHOD /path"`.
    pub fn request_counts(&self) -> HashMap<String, usize> {
        self.requests
            .lock()
            .map(|requests| requests.clone())
            .unwrap_or_default()
    }

    /// How many requests with `method` had a path matching `pattern` (same syntax as rules).
    pub fn requests_matching(&self, method: &str, pattern: &str) -> usize {
        let Ok(requests) = self.requests.lock() else {
            return 0;
        };
        requests
            .iter()
            .filter_map(|(key, count)| {
                let (seen_method, path) = key.split_once(' ')?;
                (seen_method.eq_ignore_ascii_case(method) && path_matches(pattern, path))
                    .then_some(*count)
            })
            .sum()
    }

    /// New rules start with fresh `times` budgets.
    pub fn forget_rule_uses(&self) {
        if let Ok(mut uses) = self.rule_uses.lock() {
            uses.clear();
        }
    }

    /// The fault of the first matching rule that still has uses left, using one of them.
    pub fn take_fault(&self, rules: &[FaultRule], method: &Method, path: &str) -> Option<Fault> {
        let mut uses = self.rule_uses.lock().ok()?;
        rules.iter().enumerate().find_map(|(index, rule)| {
            if !rule.matches(method, path) {
                return None;
            }
            let used = uses.entry(index).or_default();
            if rule.times.is_some_and(|times| *used >= times) {
                return None;
            }
            *used += 1;
            Some(rule.fault.clone())
        })
    }
}

/// The answer for a fault that replaces the normal one; `None` for faults applied around it.
pub(crate) fn answer_instead(fault: &Fault) -> Option<Response> {
    match fault {
        Fault::Status(code) => Some(ApiError::injected(*code).into_response()),
        Fault::TooManyRequests {
            retry_after_seconds,
        } => {
            let mut response = ApiError::injected(429).into_response();
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(*retry_after_seconds));
            Some(response)
        }
        Fault::Reset => Some(reset_connection()),
        Fault::Html => Some(
            (
                StatusCode::OK,
                [(CONTENT_TYPE, "text/html; charset=utf-8")],
                "<!doctype html><html><body><h1>Please sign in to the network</h1></body></html>",
            )
                .into_response(),
        ),
        Fault::Truncated | Fault::Latency(_) | Fault::StoreThenFail => None,
    }
}

/// A body that fails before its first byte: hyper drops the connection without an answer.
fn reset_connection() -> Response {
    let failing = futures::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "injected reset",
        ))
    });
    Response::new(Body::from_stream(failing))
}

/// The normal answer with half its body and the full `Content-Length`, then the connection
/// drops.
pub(crate) async fn truncate(response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return reset_connection();
    };
    let half = bytes.slice(..bytes.len() / 2);
    parts
        .headers
        .insert(CONTENT_LENGTH, HeaderValue::from(bytes.len().max(1)));
    // The pause lets hyper send the head and the half before the failure drops the connection.
    let failure = futures::stream::once(async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "injected truncation",
        ))
    });
    let chunks = futures::StreamExt::chain(futures::stream::iter([Ok(half)]), failure);
    Response::from_parts(parts, Body::from_stream(chunks))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_syntax() {
        assert_eq!(
            FaultRule::parse("GET /spaces/*=503x2"),
            Ok(FaultRule::new("/spaces/*", Fault::Status(503))
                .method("GET")
                .times(2))
        );
        assert_eq!(
            FaultRule::parse("/orgs=429:2"),
            Ok(FaultRule::new(
                "/orgs",
                Fault::TooManyRequests {
                    retry_after_seconds: 2
                }
            ))
        );
        assert_eq!(
            FaultRule::parse("POST /comments=store-fail").map(|rule| rule.fault),
            Ok(Fault::StoreThenFail)
        );
        assert_eq!(
            FaultRule::parse("/x=latency:250").map(|rule| rule.fault),
            Ok(Fault::Latency(Duration::from_millis(250)))
        );
        assert!(FaultRule::parse("/orgs").is_err());
        assert!(FaultRule::parse("/orgs=sometimes").is_err());
        assert!(FaultRule::parse("/orgs=200").is_err());
    }

    #[test]
    fn globs_and_substrings_match_paths_after_v1() {
        let rule = FaultRule::new("/spaces/*/content", Fault::Reset);
        assert!(rule.matches(&Method::GET, "/v1/spaces/abc/content"));
        assert!(!rule.matches(&Method::GET, "/v1/spaces/abc/content/pages"));
        let substring = FaultRule::new("comments", Fault::Reset).method("post");
        assert!(substring.matches(&Method::POST, "/v1/spaces/a/change-requests/b/comments"));
        assert!(!substring.matches(&Method::GET, "/v1/spaces/a/change-requests/b/comments"));
    }

    #[test]
    fn each_connection_request_and_answer_moves_the_activity() {
        let counters = Counters::default();
        let mut activity = counters.activity();
        assert!(!activity.has_changed().unwrap());
        counters.count_connection();
        assert!(activity.has_changed().unwrap());
        activity.borrow_and_update();
        counters.count_request(&Method::GET, "/v1/orgs");
        assert!(activity.has_changed().unwrap());
        activity.borrow_and_update();
        drop(counters.start_request());
        assert!(activity.has_changed().unwrap());
    }

    #[test]
    fn times_limits_how_often_a_rule_fires() {
        let counters = Counters::default();
        let rules = [FaultRule::new("/orgs", Fault::Status(502)).times(2)];
        let take = || counters.take_fault(&rules, &Method::GET, "/v1/orgs");
        assert_eq!(take(), Some(Fault::Status(502)));
        assert_eq!(take(), Some(Fault::Status(502)));
        assert_eq!(take(), None);
    }
}

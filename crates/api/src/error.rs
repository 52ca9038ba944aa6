//! Errors as plain values: cloneable, comparable, and free of secrets, so the app can carry them
//! in messages, show them, and assert on them in tests.

use serde::Deserialize;

/// Why a paging loop was stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PagingLoopReason {
    /// The server sent a `next.page` that was already requested.
    RepeatedPage(String),
    /// More pages than the cap: a server that never stops is treated as broken.
    TooManyPages(usize),
}

impl std::fmt::Display for PagingLoopReason {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PagingLoopReason::RepeatedPage(page) => {
                write!(formatter, "the server repeated page `{page}`")
            }
            PagingLoopReason::TooManyPages(limit) => {
                write!(formatter, "the list did not end after {limit} pages")
            }
        }
    }
}

/// Everything that can go wrong talking to the API. Each variant names the endpoint as
/// `"GET /spaces/abc/content"`: method and path, never the host, query or headers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The request did not get an answer: DNS, refused connection, TLS, reset.
    #[error("{endpoint}: network error: {message}")]
    Network {
        endpoint: String,
        message: String,
        /// No connection was made (refused, no DNS, TLS failed): the request never left, so
        /// a write surely did not land.
        never_sent: bool,
    },
    /// Connecting or the whole request took longer than the configured timeout.
    #[error("{endpoint}: timed out")]
    Timeout { endpoint: String },
    /// The server answered with a non-success status. `message` is the server's
    /// `error.message` when the body had one, else the status text.
    #[error("{endpoint}: HTTP {status}: {message}")]
    Status {
        endpoint: String,
        status: u16,
        code: Option<i64>,
        message: String,
    },
    /// The body was not the JSON we expected; `path` is the field path (`items[3].visibility`,
    /// `.` for the whole body).
    #[error("{endpoint}: unexpected response at `{path}`: {message}")]
    Decode {
        endpoint: String,
        path: String,
        message: String,
    },
    /// The answer stopped early: a body shorter than its `Content-Length`, or JSON that ends
    /// in the middle. Nothing is wrong with the API; the connection or a proxy cut it.
    #[error("{endpoint}: the answer was cut off")]
    CutOff { endpoint: String },
    /// A success status with a body that is not JSON at all (an HTML page from a proxy or a
    /// network sign-in page).
    #[error("{endpoint}: the answer was not JSON")]
    NotJson { endpoint: String },
    /// Paging stopped because the server kept handing out pages.
    #[error("{endpoint}: paging stopped: {reason}")]
    PagingLoop {
        endpoint: String,
        reason: PagingLoopReason,
    },
    /// The server does not offer the operation at all (the API reference defines it; this
    /// server answered 404 or 405 while the resource it hangs off exists). Not worth retrying.
    #[error("{endpoint}: the server does not offer {what} (HTTP {status})")]
    Unsupported {
        endpoint: String,
        what: String,
        status: u16,
    },
    /// A write got no usable answer (`first` says what happened) and reading the resource back
    /// showed it was not saved: sending it again cannot make a duplicate.
    #[error("{endpoint}: not saved ({first})")]
    NotSaved { endpoint: String, first: String },
    /// A write got no usable answer and reading back found one with the same text, but
    /// whether it is this write or an older one cannot be told: the user chooses between
    /// sending it again and dropping it.
    #[error("{endpoint}: outcome unknown ({first})")]
    MaybeSaved { endpoint: String, first: String },
    /// The client cannot be built or a request cannot be formed from what it was given.
    #[error("{endpoint}: invalid configuration: {message}")]
    InvalidConfig { endpoint: String, message: String },
    /// Not sent: quire is offline (or reads its cache alone), and a read was not in the cache
    /// or a write cannot go out. `by_flag`: started with `--offline`, so nothing will load or
    /// go out by itself in this run.
    #[error("{endpoint}: offline")]
    Offline { endpoint: String, by_flag: bool },
}

/// The server's own words for a refused request, else our sentence: what the screens of every
/// area show when a write is refused.
pub fn server_message(error: &ApiError) -> String {
    match error {
        ApiError::Status { message, .. } => message.clone(),
        other => other.user_message(),
    }
}

/// Endpoint text used for errors raised while building the client, before any request.
pub const SETUP_ENDPOINT: &str = "client setup";

impl ApiError {
    /// The `"METHOD /path"` this error is about.
    pub fn endpoint(&self) -> &str {
        match self {
            ApiError::Network { endpoint, .. }
            | ApiError::Timeout { endpoint }
            | ApiError::Status { endpoint, .. }
            | ApiError::Decode { endpoint, .. }
            | ApiError::CutOff { endpoint }
            | ApiError::NotJson { endpoint }
            | ApiError::PagingLoop { endpoint, .. }
            | ApiError::Unsupported { endpoint, .. }
            | ApiError::NotSaved { endpoint, .. }
            | ApiError::MaybeSaved { endpoint, .. }
            | ApiError::InvalidConfig { endpoint, .. }
            | ApiError::Offline { endpoint, .. } => endpoint,
        }
    }

    /// The HTTP status when the server answered with an error status.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// True for 401: the token is missing, wrong or expired; retrying will not help.
    pub fn is_unauthorized(&self) -> bool {
        self.status() == Some(401)
    }

    /// True for 404: the resource is gone or the caller may not see it.
    pub fn is_not_found(&self) -> bool {
        self.status() == Some(404)
    }

    /// True unless no retry can help: the server does not offer the operation, the request
    /// cannot be formed, or quire is offline (the screen reads again itself when the server is
    /// back). Screens offer `r` only then.
    pub fn is_retryable_by_hand(&self) -> bool {
        !matches!(
            self,
            ApiError::Unsupported { .. }
                | ApiError::InvalidConfig { .. }
                | ApiError::Offline { .. }
        )
    }

    /// True when a write may have landed although no answer said so: no answer, a cut or
    /// unreadable one, or a server failure (the server may fail after storing). Such a write is
    /// read back before anyone sends it again.
    pub fn outcome_unknown(&self) -> bool {
        match self {
            ApiError::Network { never_sent, .. } => !never_sent,
            // A success whose body could not be read: the write was stored, or may have been.
            ApiError::Timeout { .. }
            | ApiError::CutOff { .. }
            | ApiError::NotJson { .. }
            | ApiError::Decode { .. } => true,
            ApiError::Status { status, .. } => *status >= 500,
            _ => false,
        }
    }

    /// The write read back and found missing after `self`, an unknown outcome.
    pub fn not_saved(&self) -> ApiError {
        ApiError::NotSaved {
            endpoint: self.endpoint().to_owned(),
            first: self.what_became_of_the_answer(),
        }
    }

    /// The same write's outcome cannot be told: something like it is there, maybe older.
    pub fn maybe_saved(&self) -> ApiError {
        ApiError::MaybeSaved {
            endpoint: self.endpoint().to_owned(),
            first: self.what_became_of_the_answer(),
        }
    }

    fn what_became_of_the_answer(&self) -> String {
        match self {
            ApiError::Status { status, .. } => format!("HTTP {status}"),
            ApiError::Timeout { .. } => "timed out".to_owned(),
            ApiError::CutOff { .. } => "the answer was cut off".to_owned(),
            _ => "no answer".to_owned(),
        }
    }

    /// True when the server could not be reached at all (refused, no DNS, no answer in time):
    /// a screen then shows what it read before. A server that answers, even 503, was reached:
    /// its error is shown as it is.
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            ApiError::Network { .. } | ApiError::Timeout { .. } | ApiError::Offline { .. }
        )
    }

    /// Why the server could not be reached, in a few words ("connection refused", "no such
    /// host", "no answer in time"); None for an error that says nothing of reaching it.
    pub fn unreachable_cause(&self) -> Option<String> {
        match self {
            ApiError::Network { message, .. } => Some(network_cause(message)),
            ApiError::Timeout { .. } => Some("no answer in time".to_owned()),
            _ => None,
        }
    }

    /// True when the server does not offer the operation at all: no key will make it work.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, ApiError::Unsupported { .. })
    }

    /// True when pressing retry may plausibly succeed (transient network or server trouble).
    pub fn is_retryable(&self) -> bool {
        match self {
            ApiError::Network { .. }
            | ApiError::Timeout { .. }
            | ApiError::CutOff { .. }
            | ApiError::NotSaved { .. }
            | ApiError::NotJson { .. } => true,
            ApiError::Status { status, .. } => *status == 408 || *status == 429 || *status >= 500,
            ApiError::Decode { .. }
            | ApiError::PagingLoop { .. }
            | ApiError::Unsupported { .. }
            | ApiError::MaybeSaved { .. }
            | ApiError::InvalidConfig { .. }
            | ApiError::Offline { .. } => false,
        }
    }

    /// One short sentence for the status line: what failed and what the user can do.
    /// It contains server text (the error message), which the UI must sanitize like any other.
    pub fn user_message(&self) -> String {
        self.message_with(&ON_SCREEN)
    }

    /// The same sentence for a command line, which has no `r` key: "run it again" instead.
    pub fn command_line_message(&self) -> String {
        self.message_with(&ON_COMMAND_LINE)
    }

    /// The command-line sentence, naming `server` (the API root) when it could not be reached:
    /// a script's log then says which address failed, a mistyped one included. A refused token
    /// may come from a flag, GITBOOK_TOKEN, the config file or `quire auth login`: `quire auth
    /// status` says which one was sent.
    pub fn command_line_message_at(&self, server: &str) -> String {
        match self {
            ApiError::Status {
                endpoint,
                status: 401,
                message,
                ..
            } => format!(
                "The token was refused ({endpoint}): {message}. `quire auth status` says which \
                 token was sent."
            ),
            ApiError::Network {
                endpoint, message, ..
            } => format!(
                "Could not reach {server}: {} ({endpoint}). Check the connection and the \
                 address; run the command again.",
                network_cause(message)
            ),
            ApiError::Timeout { endpoint } => {
                format!("{server} did not answer in time ({endpoint}); run the command again.")
            }
            _ => self.command_line_message(),
        }
    }

    /// The sentence for a screen whose retry key is not `r`: a search field takes `r` as a
    /// letter, so there `enter` retries ("enter to retry").
    pub fn user_message_with_retry_key(&self, key: &str) -> String {
        let again = format!("{key} to retry");
        let token_again = format!("{key} to try again");
        self.message_with(&RetryWords {
            again: &again,
            token_again: &token_again,
        })
    }

    fn message_with(&self, retry: &RetryWords) -> String {
        let again = retry.again;
        match self {
            ApiError::Network {
                endpoint,
                message,
                never_sent: true,
            } if crate::outbox::unqueued_kind(endpoint).is_some() => {
                unqueued_refusal(endpoint, &network_cause(message))
            }
            ApiError::Network {
                endpoint, message, ..
            } => format!(
                "Could not reach the server: {} ({endpoint}). Check the connection; {again}.",
                network_cause(message)
            ),
            ApiError::Timeout { endpoint } => {
                format!("The server did not answer in time ({endpoint}); {again}.")
            }
            ApiError::Status {
                endpoint,
                status,
                message,
                ..
            } => status_user_message(endpoint, *status, message, retry),
            ApiError::Decode { endpoint, path, .. } => format!(
                "Could not read the server's answer ({endpoint}, field `{path}`); \
                 the API may have changed."
            ),
            ApiError::CutOff { endpoint } => {
                format!("The answer was cut off ({endpoint}); {again}.")
            }
            ApiError::NotJson { endpoint } => format!(
                "The answer was a web page, not the API's JSON ({endpoint}): a proxy or network \
                 sign-in may be in the way; {again}."
            ),
            ApiError::PagingLoop { endpoint, reason } => {
                format!("Stopped loading {endpoint}: {reason}.")
            }
            ApiError::Unsupported {
                endpoint,
                what,
                status,
            } => format!("This server does not offer {what} ({endpoint} answered {status})."),
            ApiError::NotSaved { endpoint, first } => format!(
                "It was not saved: the answer was lost ({first}), and reading it back found \
                 nothing. Send it again ({endpoint})."
            ),
            ApiError::MaybeSaved { endpoint, first } => format!(
                "Outcome unknown: the answer was lost ({first}), and one with the same text is                  there that may be older. Send it again only if it is not yours, or drop it                  ({endpoint})."
            ),
            ApiError::InvalidConfig { message, .. } => format!("Invalid configuration: {message}."),
            ApiError::Offline { endpoint, by_flag } => offline_message(endpoint, *by_flag),
        }
    }
}

/// Why a read or write did not go out while offline. Started with `--offline`, nothing
/// loads by itself in this run, so that is said rather than "when the server is back".
fn offline_message(endpoint: &str, by_flag: bool) -> String {
    let read = endpoint.starts_with("GET ");
    if let (false, Some(kind)) = (read, crate::outbox::unqueued_kind(endpoint)) {
        return format!("{} ({endpoint}).", crate::outbox::refusal(kind));
    }
    match (read, by_flag) {
        (true, true) => format!(
            "Offline by --offline: not read before; start quire without --offline to load it \
             ({endpoint})."
        ),
        (true, false) => {
            format!("Offline: not read before; it will load when the server is back ({endpoint}).")
        }
        (false, true) => format!(
            "Offline by --offline: not sent; start quire without --offline to send it \
             ({endpoint})."
        ),
        (false, false) => {
            format!("Offline: not sent; the server cannot be reached ({endpoint}).")
        }
    }
}

/// A merge, delete, setting or administration whose connection was refused: it never left,
/// and is not queued either, as it would be refused offline.
fn unqueued_refusal(endpoint: &str, cause: &str) -> String {
    match crate::outbox::unqueued_kind(endpoint) {
        Some(kind) => format!("{} ({endpoint}: {cause}).", crate::outbox::refusal(kind)),
        None => format!("Could not reach the server: {cause} ({endpoint})."),
    }
}

/// The few words that say why a connection failed, from the error's chain of causes ("error
/// sending request: client error (Connect): tcp connect error: Connection refused (os error
/// 111)"): the usual causes by name, any other as its innermost cause.
fn network_cause(message: &str) -> String {
    let lower = message.to_lowercase();
    let known = [
        ("connection refused", "connection refused"),
        ("name or service not known", "no such host"),
        ("nodename nor servname", "no such host"),
        ("no address associated", "no such host"),
        (
            "temporary failure in name resolution",
            "the host name could not be looked up",
        ),
        ("dns error", "the host name could not be looked up"),
        ("connection reset", "connection reset"),
        ("network is unreachable", "network unreachable"),
        ("no route to host", "no route to host"),
        ("certificate", "the certificate was not accepted"),
    ];
    if let Some((_, cause)) = known.iter().find(|(needle, _)| lower.contains(needle)) {
        return (*cause).to_owned();
    }
    let innermost = message.rsplit(": ").next().unwrap_or(message);
    let without_code = innermost.split(" (os error").next().unwrap_or(innermost);
    match without_code.trim() {
        "" => "no answer".to_owned(),
        cause => cause.to_owned(),
    }
}

/// How a message tells the user to try again where they read it.
struct RetryWords<'a> {
    /// After a passing failure: "r to retry".
    again: &'a str,
    /// After a refused token, which may pass (a proxy, a rotation).
    token_again: &'a str,
}

const ON_SCREEN: RetryWords<'static> = RetryWords {
    again: "r to retry",
    token_again: "r to try again",
};

const ON_COMMAND_LINE: RetryWords<'static> = RetryWords {
    again: "run the command again",
    token_again: "Run the command again",
};

fn status_user_message(endpoint: &str, status: u16, message: &str, retry: &RetryWords) -> String {
    let again = retry.again;
    let token_again = retry.token_again;
    match status {
        // Mid-session a refused token is often passing (a proxy, a rotation): r may fix it.
        401 => format!(
            "The token was refused ({endpoint}): {message}. {token_again}; if it keeps \
             failing, check GITBOOK_TOKEN."
        ),
        403 => format!("Not allowed ({endpoint}): {message}."),
        404 => format!("Not found ({endpoint}): {message}."),
        408 | 429 => format!("The server is busy ({status} on {endpoint}); wait, then {again}."),
        500..=599 => {
            format!("The server failed ({status} {message} on {endpoint}); {again}.")
        }
        _ => format!("The request was refused ({status} on {endpoint}): {message}."),
    }
}

/// The documented error body: `{"error": {"code": 404, "message": "..."}}`.
#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

/// Tolerates both the documented object and a bare string in `error`.
#[derive(Deserialize)]
#[serde(untagged)]
enum ErrorDetail {
    Object {
        #[serde(default)]
        code: Option<i64>,
        #[serde(default)]
        message: Option<String>,
    },
    Text(String),
}

/// Extracts `(code, message)` from an error response body. Falls back to the status text
/// (`"Bad Gateway"`) when the body is not the documented JSON, such as a proxy's HTML page.
pub fn parse_error_body(status: u16, body: &[u8]) -> (Option<i64>, String) {
    let parsed = serde_json::from_slice::<ErrorBody>(body).ok();
    let (code, message) = match parsed.map(|body| body.error) {
        Some(ErrorDetail::Object { code, message }) => (code, message),
        Some(ErrorDetail::Text(message)) => (None, Some(message)),
        None => (None, None),
    };
    let message = message
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty())
        .unwrap_or_else(|| status_text(status));
    (code, message)
}

/// The canonical reason phrase for a status, or a generic phrase for unknown codes.
pub fn status_text(status: u16) -> String {
    reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|code| code.canonical_reason())
        .unwrap_or("Unknown status")
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status_error(status: u16, message: &str) -> ApiError {
        ApiError::Status {
            endpoint: "GET /orgs".into(),
            status,
            code: Some(i64::from(status)),
            message: message.into(),
        }
    }

    #[test]
    fn a_network_failure_says_its_cause_in_a_few_words() {
        let cause = |message: &str| {
            ApiError::Network {
                endpoint: "GET /orgs".into(),
                message: message.into(),
                never_sent: true,
            }
            .unreachable_cause()
        };
        let refused = "error sending request: client error (Connect): tcp connect error: \
                       Connection refused (os error 111)";
        assert_eq!(cause(refused).as_deref(), Some("connection refused"));
        let unknown_host = "error sending request: client error (Connect): dns error: failed \
                            to lookup address information: Name or service not known";
        assert_eq!(cause(unknown_host).as_deref(), Some("no such host"));
        assert_eq!(
            cause("error sending request: something new (os error 7)").as_deref(),
            Some("something new")
        );
        assert_eq!(
            ApiError::Timeout {
                endpoint: "GET /orgs".into()
            }
            .unreachable_cause()
            .as_deref(),
            Some("no answer in time")
        );
    }

    #[test]
    fn parses_the_documented_error_body() {
        let body = br#"{"error":{"code":404,"message":"Space not found"}}"#;
        assert_eq!(
            parse_error_body(404, body),
            (Some(404), "Space not found".to_owned())
        );
    }

    #[test]
    fn non_json_body_falls_back_to_status_text() {
        let body = b"<html><body><h1>502 Bad Gateway</h1></body></html>";
        assert_eq!(
            parse_error_body(502, body),
            (None, "Bad Gateway".to_owned())
        );
        assert_eq!(
            parse_error_body(503, b""),
            (None, "Service Unavailable".to_owned())
        );
    }

    #[test]
    fn odd_error_shapes_are_tolerated() {
        assert_eq!(
            parse_error_body(400, br#"{"error":"bad input"}"#),
            (None, "bad input".to_owned())
        );
        assert_eq!(
            parse_error_body(400, br#"{"error":{"code":400,"message":"  "}}"#),
            (Some(400), "Bad Request".to_owned())
        );
        assert_eq!(
            parse_error_body(418, br#"{"unexpected":true}"#),
            (None, "I'm a teapot".to_owned())
        );
        assert_eq!(parse_error_body(599, b"").1, "Unknown status");
    }

    #[test]
    fn helpers_classify_statuses() {
        assert!(status_error(401, "Unauthorized").is_unauthorized());
        assert!(status_error(404, "Not Found").is_not_found());
        assert_eq!(status_error(500, "x").status(), Some(500));
        assert!(status_error(503, "x").is_retryable());
        assert!(!status_error(404, "x").is_retryable());
        let timeout = ApiError::Timeout {
            endpoint: "GET /user".into(),
        };
        assert_eq!(timeout.status(), None);
        assert!(!timeout.is_not_found());
        assert!(timeout.is_retryable());
        assert_eq!(timeout.endpoint(), "GET /user");
    }

    #[test]
    fn command_line_messages_never_offer_a_key() {
        for status in [401, 429, 502] {
            let message = status_error(status, "Nope").command_line_message();
            assert!(!message.contains("r to "), "{message}");
            assert!(
                message.to_lowercase().contains("run the command again"),
                "{message}"
            );
        }
        let network = ApiError::Network {
            endpoint: "GET /user".into(),
            message: "refused".into(),
            never_sent: true,
        };
        assert!(
            network
                .command_line_message()
                .ends_with("run the command again.")
        );
    }

    #[test]
    fn user_messages_name_the_failure_and_offer_retry_when_useful() {
        let server = status_error(502, "Bad Gateway").user_message();
        assert!(
            server.contains("502") && server.contains("r to retry"),
            "{server}"
        );
        let unauthorized = status_error(401, "Unauthorized").user_message();
        assert!(unauthorized.contains("r to try again"), "{unauthorized}");
        assert!(unauthorized.contains("GITBOOK_TOKEN"), "{unauthorized}");
        let decode = ApiError::Decode {
            endpoint: "GET /orgs".into(),
            path: "items[0].id".into(),
            message: "invalid type".into(),
        };
        assert!(decode.user_message().contains("items[0].id"));
        let looping = ApiError::PagingLoop {
            endpoint: "GET /orgs".into(),
            reason: PagingLoopReason::RepeatedPage("p2".into()),
        };
        assert!(looping.user_message().contains("repeated page `p2`"));
    }

    #[test]
    fn cut_off_and_web_page_answers_say_what_happened() {
        let cut = ApiError::CutOff {
            endpoint: "GET /orgs".into(),
        }
        .user_message();
        assert!(
            cut.contains("cut off") && cut.contains("r to retry"),
            "{cut}"
        );
        assert!(!cut.contains("Could not reach") && !cut.contains("API may have changed"));
        let page = ApiError::NotJson {
            endpoint: "GET /orgs".into(),
        }
        .user_message();
        assert!(
            page.contains("web page") && page.contains("r to retry"),
            "{page}"
        );
    }

    #[test]
    fn display_includes_endpoint() {
        assert_eq!(
            status_error(404, "Space not found").to_string(),
            "GET /orgs: HTTP 404: Space not found"
        );
    }
}

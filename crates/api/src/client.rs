//! The HTTP client: one `reqwest::Client` with auth and timeouts, retries, and small generic
//! helpers (`get`, `post`, `post_without_body`, `put`, `patch`, `delete`, `get_list_page`,
//! `list_up_to`) so a new endpoint is a few lines. The endpoints themselves live in their
//! area's file (`organizations`, `collections`, `spaces`, `pages`, `members`…).

use std::fmt;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant, SystemTime};

use reqwest::Method;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::address;
use super::capabilities::{self, Capabilities};
use super::decode::read_body;
pub use super::decode::{decode_body, decode_body_with};
use super::error::{ApiError, SETUP_ENDPOINT, parse_error_body};
use super::limits::{HostLimits, Priority};
use super::operations;
use super::paging::{
    DEFAULT_PAGE_LIMIT, ListPage, MAX_PAGE_LIMIT, PageCursor, WholeList, page_query,
    requested_limit,
};
use super::retry::{self, RetryNotice, RetryObserver};
use super::token::Token;

/// How long to wait for a TCP/TLS connection before giving up.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a whole request (including reading the body) may take.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Sent as `User-Agent` so the service can tell quire's traffic apart.
pub const USER_AGENT: &str = concat!("quire/", env!("CARGO_PKG_VERSION"));

/// Everything needed to talk to one API server.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientConfig {
    /// Server address with or without a trailing `/` or `/v1`, e.g. `https://api.gitbook.com`.
    pub base_url: String,
    pub token: Token,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
}

impl ClientConfig {
    /// A configuration with the default timeouts.
    pub fn new(base_url: impl Into<String>, token: Token) -> ClientConfig {
        ClientConfig {
            base_url: base_url.into(),
            token,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
        }
    }
}

/// The API client. Cloning is cheap (a reference-counted connection pool and configuration),
/// so every spawned request task can own one. Build one per server and clone it: the clones
/// share the connection pool (kept-alive connections are reused, HTTP/2 where the server
/// offers it) and the limit of requests in flight per host ([`super::limits`]).
#[derive(Clone)]
pub struct Client {
    pub(super) http: reqwest::Client,
    pub(super) shared: Arc<Shared>,
    pub(super) reading: super::offline::Reading,
    /// Reads are sent once, never retried: a look just before a write must not hold it up
    /// for seconds when the server cannot be reached (the write is queued at once instead).
    pub(super) single_try: bool,
    /// Whether this clone's requests take a free slot before others ([`Client::with_priority`]).
    pub(super) priority: Priority,
}

pub(super) struct Shared {
    /// Base URL normalized to end in `/v1`, without a trailing slash.
    api_root: String,
    /// Kept only to scrub it out of any text that reaches an error.
    token: Token,
    /// Told when a read waits to be retried (the footer shows it).
    retry_observer: RwLock<Option<RetryObserver>>,
    /// Cuts every retry wait short ("r" while "retrying in 2 s…" is shown).
    retry_now: tokio::sync::Notify,
    /// At most 16 requests in flight per host, whatever the screens ask for at once.
    host_limits: HostLimits,
    /// The operations this server turned out not to offer.
    pub(super) capabilities: Capabilities,
    /// The answers kept on disk, and whether quire is offline.
    pub(super) store: super::offline::Store,
}

/// A failed try: the error, and how long the server asked us to wait (`Retry-After`).
pub(super) struct Failure {
    pub(super) error: ApiError,
    retry_after: Option<Duration>,
}

impl From<ApiError> for Failure {
    fn from(error: ApiError) -> Failure {
        Failure {
            error,
            retry_after: None,
        }
    }
}

impl fmt::Debug for Client {
    /// Only the API root: the inner `reqwest::Client` would list default headers.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Client")
            .field("api_root", &self.shared.api_root)
            .finish_non_exhaustive()
    }
}

/// A request body already serialized, so the send path is not generic over body types.
pub(super) struct JsonBody(pub(super) Vec<u8>);

/// True when the table says the operation takes no body: a caller's body is dropped (and the
/// slip logged), since the public service refuses any body there with 415.
fn takes_no_body(operation: Option<&operations::Operation>, method: &Method, path: &str) -> bool {
    let none = operation.is_some_and(|operation| operation.body == operations::BodyRule::None);
    if none {
        tracing::debug!(%method, path, "not sending a body to an operation that takes none");
    }
    none
}

impl Client {
    /// Builds a client. Fails with `ApiError::InvalidConfig` for an unusable base URL, an empty
    /// token or one that cannot be an HTTP header, or a zero timeout.
    pub fn new(config: ClientConfig) -> Result<Client, ApiError> {
        let invalid = |message: String| ApiError::InvalidConfig {
            endpoint: SETUP_ENDPOINT.to_owned(),
            message,
        };
        let api_root = address::api_root(&config.base_url).map_err(invalid)?;
        if config.token.is_empty() {
            return Err(invalid("the API token is empty".to_owned()));
        }
        if config.connect_timeout.is_zero() || config.request_timeout.is_zero() {
            return Err(invalid("timeouts must be longer than zero".to_owned()));
        }
        let mut authorization = HeaderValue::from_str(&format!("Bearer {}", config.token.reveal()))
            .map_err(|_| {
                invalid("the API token contains characters not allowed in a header".to_owned())
            })?;
        // Marked sensitive so reqwest/hyper never print it in their own debug output.
        authorization.set_sensitive(true);
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, authorization);
        // What the API reference says clients send; the service picks JSON itself.
        headers.insert(ACCEPT, HeaderValue::from_static("*/*"));
        // reqwest keeps idle connections per host (90 s) and, built with `http2`, offers `h2`
        // by ALPN over TLS, so requests share connections as long as one client is used.
        let http = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .default_headers(headers)
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .build()
            .map_err(|error| invalid(format!("cannot start the HTTP client: {error}")))?;
        Ok(Client {
            http,
            shared: Arc::new(Shared {
                api_root,
                token: config.token,
                retry_observer: RwLock::new(None),
                retry_now: tokio::sync::Notify::new(),
                host_limits: HostLimits::default(),
                capabilities: Capabilities::default(),
                store: super::offline::Store::default(),
            }),
            reading: super::offline::Reading::default(),
            single_try: false,
            priority: Priority::FirstScreen,
        })
    }

    /// Calls `observer` whenever a read starts or ends waiting to be retried (every clone of
    /// this client shares it).
    pub fn on_retry(&self, observer: impl Fn(RetryNotice) + Send + Sync + 'static) {
        if let Ok(mut slot) = self.shared.retry_observer.write() {
            *slot = Some(Arc::new(observer));
        }
    }

    /// A clone whose requests take a free slot of the host in `priority`'s turn
    /// ([`super::limits`]): a review's reply lists wait behind what draws the screen, so they
    /// never hold it up.
    pub fn with_priority(&self, priority: Priority) -> Client {
        Client {
            priority,
            ..self.clone()
        }
    }

    /// Requests of this client (every clone) waiting for a free slot to their host.
    pub fn requests_waiting_for_a_slot(&self) -> usize {
        self.shared.host_limits.waiting()
    }

    /// What this server was found not to offer; `on_lack` tells as each is learned.
    pub fn capabilities(&self) -> &Capabilities {
        &self.shared.capabilities
    }

    /// Ends every retry wait under way: those reads are tried again at once.
    pub fn retry_now(&self) {
        self.shared.retry_now.notify_waiters();
    }

    /// Done when [`Client::retry_now`] is called next (`r` pressed): a wait may end early.
    /// Counts from when it is enabled (`Notified::enable`) or first polled.
    pub fn retry_asked(&self) -> tokio::sync::futures::Notified<'_> {
        self.shared.retry_now.notified()
    }

    /// Whether the server answers at all: `GET /user` sent once, without retries, any answer
    /// (an error status too) counting; else the error that found it unreachable. A request
    /// that could not reach its path while this answers met a failure of that path alone, not
    /// an unreachable server. What [`Client::seems_offline`] says follows the answer.
    pub async fn reach_server(&self) -> Result<(), ApiError> {
        let path = "/user";
        let result = self
            .send_once(&Method::GET, path, &[], None)
            .await
            .map_err(|failure| failure.error);
        let result = self.remember(&Method::GET, path, &[], result).await;
        match result {
            Err(error) if error.is_unreachable() => Err(error),
            _ => Ok(()),
        }
    }

    /// The normalized API root (`https://host/v1`), for display and diagnostics.
    pub fn api_root(&self) -> &str {
        &self.shared.api_root
    }

    // ----- Generic helpers -----

    /// `GET path?query` decoded as `T`. `path` starts with `/`, is relative to `/v1`, and has
    /// its ids encoded with [`address::encode_segment`].
    pub async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<T, ApiError> {
        let query: Vec<(String, String)> = query
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect();
        let (endpoint, bytes) = self.send(Method::GET, path, &query, None).await?;
        self.decode(&endpoint, &bytes)
    }

    /// One page of a list endpoint. Sends `limit` (the caller's, else
    /// [`DEFAULT_PAGE_LIMIT`]; never above 1000) and `page` when given.
    pub async fn get_list_page<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, &str)],
        page: Option<&str>,
    ) -> Result<ListPage<T>, ApiError> {
        let limit = requested_limit(query).unwrap_or(DEFAULT_PAGE_LIMIT);
        let query = page_query(query, page, limit);
        let (endpoint, bytes) = self.send(Method::GET, path, &query, None).await?;
        self.decode_list_page(&endpoint, &bytes)
    }

    /// Every item of a list: follows `next.page` for at most `max_pages` pages with the
    /// largest page size. When the server repeats a page id or the cap is reached, what was
    /// fetched is kept and `stopped` says why, so a screen can show it with a "stopped after
    /// N pages" note instead of nothing. Each caller picks a cap that fits its list: a few
    /// pages for a handful of identity providers, twenty for an audit or a picker, so that an
    /// endless list costs a second rather than a minute.
    pub async fn list_up_to<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, &str)],
        max_pages: usize,
    ) -> Result<WholeList<T>, ApiError> {
        let limit = requested_limit(query).unwrap_or(MAX_PAGE_LIMIT);
        let mut cursor = PageCursor::with_max_pages(max_pages);
        let mut listed = WholeList::default();
        let mut page: Option<String> = None;
        loop {
            if let Err(reason) = cursor.begin(page.as_deref()) {
                tracing::warn!(path, %reason, "paging stopped; keeping what was fetched");
                listed.stopped = Some(reason);
                return Ok(listed);
            }
            let query = page_query(query, page.as_deref(), limit);
            let (endpoint, bytes) = self.send(Method::GET, path, &query, None).await?;
            let list: ListPage<T> = self.decode_list_page(&endpoint, &bytes)?;
            listed.pages = cursor.pages_requested();
            listed.items.extend(list.items);
            listed.unreadable.extend(list.unreadable);
            match list.next_page {
                Some(next) => page = Some(next),
                None => return Ok(listed),
            }
        }
    }

    /// `POST path` with a JSON body, decoding the answer as `T`.
    pub async fn post<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        self.send_json(Method::POST, path, body).await
    }

    /// `POST path` without any body or `Content-Type`, decoding the answer as `T`: for
    /// operations that take no body (merge, update from main, publish, unpublish), which the
    /// service refuses with 415 when a body (even `{}`) is sent.
    pub async fn post_without_body<T: DeserializeOwned>(&self, path: &str) -> Result<T, ApiError> {
        let (endpoint, bytes) = self.send(Method::POST, path, &[], None).await?;
        self.decode(&endpoint, &bytes)
    }

    /// `POST path` without any body or `Content-Type`, for operations answering 204 or a body
    /// we do not need (a translation's run).
    pub async fn post_empty(&self, path: &str) -> Result<(), ApiError> {
        self.send(Method::POST, path, &[], None).await?;
        Ok(())
    }

    /// `POST path` with a JSON body, for operations answering 204 or a body we do not need.
    pub async fn post_no_content<B: Serialize + ?Sized>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<(), ApiError> {
        let body = self.encode_body(&Method::POST, path, body)?;
        self.send(Method::POST, path, &[], Some(body)).await?;
        Ok(())
    }

    /// `PUT path` with a JSON body, for operations answering 204 (team members).
    pub async fn put_no_content<B: Serialize + ?Sized>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<(), ApiError> {
        let body = self.encode_body(&Method::PUT, path, body)?;
        self.send(Method::PUT, path, &[], Some(body)).await?;
        Ok(())
    }

    /// `PUT path` with a JSON body, decoding the answer as `T`.
    pub async fn put<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        self.send_json(Method::PUT, path, body).await
    }

    /// `PATCH path` with a JSON body, decoding the answer as `T`.
    pub async fn patch<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        self.send_json(Method::PATCH, path, body).await
    }

    /// `DELETE path`. Any success status counts: the service answers 205 (deleted), 204 (was not
    /// there) or 202 (member removal requested), the seed answers 204.
    pub async fn delete(&self, path: &str) -> Result<(), ApiError> {
        self.send(Method::DELETE, path, &[], None).await?;
        Ok(())
    }

    // ----- Plumbing -----

    async fn send_json<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        let body = self.encode_body(&method, path, body)?;
        let (endpoint, bytes) = self.send(method, path, &[], Some(body)).await?;
        self.decode(&endpoint, &bytes)
    }

    fn encode_body<B: Serialize + ?Sized>(
        &self,
        method: &Method,
        path: &str,
        body: &B,
    ) -> Result<JsonBody, ApiError> {
        serde_json::to_vec(body)
            .map(JsonBody)
            .map_err(|error| ApiError::InvalidConfig {
                endpoint: format!("{method} {path}"),
                message: format!("cannot encode the request body: {error}"),
            })
    }

    /// Sends a request by the [`operations`] table and returns the endpoint text and the body
    /// of a success answer; any other answer becomes an `ApiError`. An operation that takes no
    /// body is sent none, whatever the caller gave. An operation this server was found to lack
    /// is not sent again; a seed-only operation answered 404/405 is checked with one probe
    /// (see [`capabilities`]).
    pub(super) async fn send(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<JsonBody>,
    ) -> Result<(String, Vec<u8>), ApiError> {
        let operation = operations::find(&method, path);
        let body = body.filter(|_| !takes_no_body(operation, &method, path));
        let capabilities = &self.shared.capabilities;
        if let Some(lack) = operation.and_then(|operation| capabilities.lacking(operation)) {
            return Err(lack.error_for(&format!("{method} {path}")));
        }
        if let Some(answer) = self.answer_offline(&method, path, query).await {
            return answer;
        }
        let result = self
            .send_with_retries(method.clone(), path, query, body)
            .await;
        let result = self.remember(&method, path, query, result).await;
        if let (Ok(_), Some(operation)) = (&result, operation)
            && operation.is_seed_only()
        {
            capabilities.learn_offered(operation);
        }
        match (result, operation) {
            (Err(error), Some(operation))
                if operation.is_seed_only() && capabilities::may_be_missing_operation(&error) =>
            {
                Err(self.check_missing_operation(operation, path, error).await)
            }
            (result, _) => result,
        }
    }

    /// A GET that fails in a passing way is tried again (see [`retry`]), unless this clone
    /// tries once ([`Client::trying_once`]); any other method is sent exactly once.
    async fn send_with_retries(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<JsonBody>,
    ) -> Result<(String, Vec<u8>), ApiError> {
        if method != Method::GET || self.single_try {
            return self
                .send_once(&method, path, query, body)
                .await
                .map_err(|failure| failure.error);
        }
        let started = Instant::now();
        let mut failures = 0;
        loop {
            let failure = match self.send_once(&method, path, query, None).await {
                Ok(answer) => return Ok(answer),
                Err(failure) => failure,
            };
            failures += 1;
            let delay = retry::is_transient(&failure.error)
                .then(|| {
                    retry::delay_before_next_try(failures, started.elapsed(), failure.retry_after)
                })
                .flatten();
            let Some(delay) = delay else {
                return Err(failure.error);
            };
            self.wait_to_retry(failure.error.endpoint(), delay).await;
        }
    }

    /// Sleeps `delay` (or until [`Client::retry_now`]), telling the observer before and after.
    async fn wait_to_retry(&self, endpoint: &str, delay: Duration) {
        tracing::info!(
            endpoint,
            delay_ms = delay.as_millis() as u64,
            "retrying a read"
        );
        let endpoint = endpoint.to_owned();
        self.notify(RetryNotice::Waiting {
            endpoint: endpoint.clone(),
            delay,
        });
        tokio::select! {
            _ = tokio::time::sleep(delay) => {}
            _ = self.shared.retry_now.notified() => {}
        }
        self.notify(RetryNotice::Resumed { endpoint });
    }

    fn notify(&self, notice: RetryNotice) {
        let observer = self
            .shared
            .retry_observer
            .read()
            .ok()
            .and_then(|slot| slot.clone());
        if let Some(observer) = observer {
            observer(notice);
        }
    }

    /// One request, one answer. Logs method, path, status and time, nothing else. Holds one of
    /// the host's slots from sending until the body is read; a retry's wait holds none, so
    /// a read waiting to be retried never keeps others from going out.
    pub(super) async fn send_once(
        &self,
        method: &Method,
        path: &str,
        query: &[(String, String)],
        body: Option<JsonBody>,
    ) -> Result<(String, Vec<u8>), Failure> {
        let endpoint = format!("{method} {path}");
        let url = address::join(&self.shared.api_root, path).map_err(|message| {
            ApiError::InvalidConfig {
                endpoint: endpoint.clone(),
                message,
            }
        })?;
        let _slot = self.shared.host_limits.admit(&url, self.priority).await;
        let mut request = self.http.request(method.clone(), url);
        if !query.is_empty() {
            request = request.query(query);
        }
        if let Some(JsonBody(bytes)) = body {
            request = request
                .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
                .body(bytes);
        }
        let started = Instant::now();
        let response = match request.send().await {
            Ok(response) => response,
            Err(error) => {
                tracing::debug!(%method, path, elapsed_ms = elapsed_ms(started), "request failed");
                return Err(self.transport_error(endpoint, error).into());
            }
        };
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| retry::parse_retry_after(value, SystemTime::now()));
        let bytes = read_body(response).await;
        tracing::debug!(
            %method,
            path,
            status = status.as_u16(),
            elapsed_ms = elapsed_ms(started),
            "api request"
        );
        if !status.is_success() {
            let body = bytes.unwrap_or_default();
            let (code, message) = parse_error_body(status.as_u16(), &body);
            return Err(Failure {
                error: ApiError::Status {
                    endpoint,
                    status: status.as_u16(),
                    code,
                    message: self.shared.token.scrub(&message),
                },
                retry_after,
            });
        }
        match bytes {
            Ok(bytes) => Ok((endpoint, bytes)),
            // The head arrived, the body did not in full: a timeout, or the answer was cut.
            Err(error) if error.is_timeout() => Err(ApiError::Timeout { endpoint }.into()),
            Err(_) => Err(ApiError::CutOff { endpoint }.into()),
        }
    }

    fn transport_error(&self, endpoint: String, error: reqwest::Error) -> ApiError {
        if error.is_timeout() {
            return ApiError::Timeout { endpoint };
        }
        ApiError::Network {
            endpoint,
            never_sent: error.is_connect(),
            message: self.shared.token.scrub(&error_chain(&error.without_url())),
        }
    }

    /// Decodes a success answer. A failure is logged (endpoint and field path, never the
    /// token) as well as returned: the screen shows it, `quire.log` keeps it.
    fn decode<T: DeserializeOwned>(&self, endpoint: &str, bytes: &[u8]) -> Result<T, ApiError> {
        decode_body(endpoint, bytes).map_err(|error| self.logged_decode_error(error))
    }

    /// A decode failure is logged (endpoint and field path) with the token scrubbed from its
    /// message; any other error passes unchanged.
    pub(super) fn logged_decode_error(&self, error: ApiError) -> ApiError {
        match error {
            ApiError::Decode {
                endpoint,
                path,
                message,
            } => {
                let message = self.shared.token.scrub(&message);
                tracing::warn!(%endpoint, %path, %message, "could not decode the answer");
                ApiError::Decode {
                    endpoint,
                    path,
                    message,
                }
            }
            other => other,
        }
    }

    /// Decodes one page of a list; each item that could not be read is logged and kept as an
    /// `UnreadableItem` (message scrubbed) for the screen to mark.
    fn decode_list_page<T: DeserializeOwned>(
        &self,
        endpoint: &str,
        bytes: &[u8],
    ) -> Result<ListPage<T>, ApiError> {
        let mut page: ListPage<T> = self.decode(endpoint, bytes)?;
        for item in &mut page.unreadable {
            item.message = self.shared.token.scrub(&item.message);
            tracing::warn!(
                %endpoint,
                path = %item.path,
                message = %item.message,
                "could not decode a list item; the rest of the list is kept"
            );
        }
        Ok(page)
    }
}

/// The error and its causes on one line: reqwest's own message ("error sending request") says
/// little without the cause ("connection refused").
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

//! The client against a tiny scripted HTTP server on loopback: what goes on the wire and how
//! every kind of answer becomes a value. The full sandbox is exercised in tests/client_sandbox.rs.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::*;

const SECRET: &str = "gb_api_TOP_SECRET_abc123";

/// What the server saw of one request.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    query: Vec<(String, String)>,
    headers: HeaderMap,
    body: String,
}

impl Seen {
    fn query_value(&self, key: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_str())
    }

    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
    }
}

/// The scripted answer: status, body, and an optional delay before answering.
struct Reply {
    status: u16,
    body: String,
    delay: Duration,
}

fn reply(status: u16, body: impl Into<String>) -> Reply {
    Reply {
        status,
        body: body.into(),
        delay: Duration::ZERO,
    }
}

type Responder = dyn Fn(&Seen) -> Reply + Send + Sync;

#[derive(Clone)]
struct ServerState {
    seen: Arc<Mutex<Vec<Seen>>>,
    responder: Arc<Responder>,
}

async fn handle(
    State(state): State<ServerState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let seen = Seen {
        method: method.to_string(),
        path: uri.path().to_owned(),
        query: url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
            .map(|(key, value)| (key.into_owned(), value.into_owned()))
            .collect(),
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let answer = (state.responder)(&seen);
    if let Ok(mut log) = state.seen.lock() {
        log.push(seen);
    }
    if !answer.delay.is_zero() {
        tokio::time::sleep(answer.delay).await;
    }
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, answer.body).into_response()
}

struct TestServer {
    base_url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl TestServer {
    async fn start(responder: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> TestServer {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let state = ServerState {
            seen: Arc::clone(&seen),
            responder: Arc::new(responder),
        };
        let app = Router::new().fallback(handle).with_state(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        TestServer {
            base_url: format!("http://{address}"),
            seen,
        }
    }

    fn client(&self) -> Client {
        Client::new(ClientConfig::new(self.base_url.clone(), Token::new(SECRET))).unwrap()
    }

    fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn organization(id: &str) -> serde_json::Value {
    json!({"object": "organization", "id": id, "title": format!("Org {id}")})
}

fn assert_no_secret(error: &ApiError) {
    for text in [
        format!("{error}"),
        format!("{error:?}"),
        error.user_message(),
    ] {
        assert!(!text.contains(SECRET), "token leaked: {text}");
    }
}

#[tokio::test]
async fn sends_auth_user_agent_and_v1_prefix() {
    let server = TestServer::start(|_| {
        reply(
            200,
            json!({"object": "user", "id": "u1", "displayName": "Ada"}).to_string(),
        )
    })
    .await;
    let user = server.client().current_user().await.unwrap();
    assert_eq!(user.display_name, "Ada");
    let seen = &server.requests()[0];
    assert_eq!(seen.method, "GET");
    assert_eq!(seen.path, "/v1/user");
    assert_eq!(seen.header("authorization"), format!("Bearer {SECRET}"));
    assert_eq!(seen.header("user-agent"), USER_AGENT);
    assert!(USER_AGENT.starts_with("quire/"));
    assert_eq!(
        seen.header("accept"),
        "*/*",
        "as the API reference says clients send"
    );
}

#[tokio::test]
async fn base_url_with_v1_and_slash_is_not_doubled() {
    let server = TestServer::start(|_| reply(200, r#"{"id":"u"}"#)).await;
    let config = ClientConfig::new(format!("{}/v1/", server.base_url), Token::new(SECRET));
    let client = Client::new(config).unwrap();
    client.current_user().await.unwrap();
    assert_eq!(server.requests()[0].path, "/v1/user");
    assert_eq!(client.api_root(), format!("{}/v1", server.base_url));
}

#[tokio::test]
async fn ids_are_percent_encoded_as_one_segment() {
    let server = TestServer::start(|_| reply(200, r##"{"id":"p","markdown":"# Hi"}"##)).await;
    let page = server
        .client()
        .get_page_markdown("space/../x", "page id?#")
        .await
        .unwrap();
    assert_eq!(page.markdown.as_deref(), Some("# Hi"));
    let seen = &server.requests()[0];
    assert_eq!(
        seen.path,
        "/v1/spaces/space%2F..%2Fx/content/page/page%20id%3F%23"
    );
    assert_eq!(seen.query_value("format"), Some("markdown"));
}

#[tokio::test]
async fn lazy_pages_send_page_and_a_bounded_limit() {
    let server = TestServer::start(|seen| {
        let body = match seen.query_value("page") {
            None => json!({"next": {"page": "p2"}, "count": 3,
                           "items": [organization("a"), organization("b")]}),
            Some(_) => json!({"count": 3, "items": [organization("c")]}),
        };
        reply(200, body.to_string())
    })
    .await;
    let client = server.client();
    let first = client.list_organizations(None).await.unwrap();
    assert_eq!(first.items.len(), 2);
    assert_eq!(first.next_page.as_deref(), Some("p2"));
    assert_eq!(first.count, Some(3));
    let second = client
        .list_organizations(first.next_page.as_deref())
        .await
        .unwrap();
    assert_eq!(second.items[0].id, "c");
    assert_eq!(second.next_page, None);
    let requests = server.requests();
    assert_eq!(requests[0].query_value("page"), None);
    assert_eq!(requests[1].query_value("page"), Some("p2"));
    for seen in &requests {
        assert_eq!(seen.query_value("limit"), Some("100"));
    }
}

#[tokio::test]
async fn collections_are_listed_nested() {
    let server = TestServer::start(|_| reply(200, r#"{"items":[]}"#)).await;
    server
        .client()
        .list_collections("org 1", None)
        .await
        .unwrap();
    let seen = &server.requests()[0];
    assert_eq!(seen.path, "/v1/orgs/org%201/collections");
    assert_eq!(seen.query_value("nested"), Some("true"));
}

#[tokio::test]
async fn list_up_to_follows_every_page_with_the_maximum_limit() {
    let server = TestServer::start(|seen| {
        let (items, next) = match seen.query_value("page") {
            None => (vec![organization("a")], Some("2")),
            Some("2") => (vec![organization("b"), organization("c")], Some("3")),
            _ => (vec![organization("d")], None),
        };
        let mut body = json!({"items": items});
        if let Some(next) = next {
            body["next"] = json!({"page": next});
        }
        reply(200, body.to_string())
    })
    .await;
    let all = server
        .client()
        .list_up_to::<Organization>("/orgs", &[("limit", "5000"), ("page", "ignored")], 20)
        .await
        .unwrap();
    assert_eq!(all.stopped, None);
    let ids: Vec<&str> = all.items.iter().map(|org| org.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "d"]);
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    for seen in &requests {
        assert_eq!(seen.query_value("limit"), Some("1000"));
    }
}

#[tokio::test]
async fn list_up_to_stops_when_the_server_repeats_a_page_and_keeps_what_it_read() {
    let server = TestServer::start(|seen| {
        let next = if seen.query_value("page") == Some("B") {
            "A"
        } else {
            "B"
        };
        let next = if seen.query_value("page").is_none() {
            "A"
        } else {
            next
        };
        let item = organization(seen.query_value("page").unwrap_or("first"));
        reply(
            200,
            json!({"next": {"page": next}, "items": [item]}).to_string(),
        )
    })
    .await;
    let listed = server
        .client()
        .list_up_to::<Organization>("/orgs", &[], 20)
        .await
        .unwrap();
    assert_eq!(
        listed.stopped,
        Some(PagingLoopReason::RepeatedPage("A".into()))
    );
    let ids: Vec<&str> = listed.items.iter().map(|org| org.id.as_str()).collect();
    assert_eq!(ids, ["first", "A", "B"]);
    assert_eq!(listed.stopped_after_pages(), Some(3));
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn list_up_to_stops_at_the_page_cap_and_keeps_what_was_fetched() {
    let counter = Arc::new(Mutex::new(0_u32));
    let server = TestServer::start(move |_| {
        let mut count = counter.lock().unwrap();
        *count += 1;
        let item = organization(&format!("o{count}"));
        reply(
            200,
            json!({"next": {"page": format!("p{count}")}, "items": [item]}).to_string(),
        )
    })
    .await;
    let listed = server
        .client()
        .list_up_to::<Organization>("/orgs", &[], 5)
        .await
        .unwrap();
    assert_eq!(listed.stopped, Some(PagingLoopReason::TooManyPages(5)));
    assert_eq!(listed.pages, 5);
    let ids: Vec<&str> = listed.items.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["o1", "o2", "o3", "o4", "o5"]);
    assert_eq!(server.requests().len(), 5);
}

#[tokio::test]
async fn unauthorized_is_a_value_without_the_token() {
    let server = TestServer::start(|_| {
        let message = format!("Invalid token {SECRET}");
        reply(
            401,
            json!({"error": {"code": 401, "message": message}}).to_string(),
        )
    })
    .await;
    let error = server.client().current_user().await.unwrap_err();
    assert!(error.is_unauthorized());
    assert_eq!(error.status(), Some(401));
    assert_eq!(
        error,
        ApiError::Status {
            endpoint: "GET /user".into(),
            status: 401,
            code: Some(401),
            message: "Invalid token ***".into(),
        }
    );
    assert_no_secret(&error);
}

#[tokio::test]
async fn not_found_carries_the_server_message() {
    let server =
        TestServer::start(|_| reply(404, r#"{"error":{"code":404,"message":"Space not found"}}"#))
            .await;
    let error = server.client().get_space("nope").await.unwrap_err();
    assert!(error.is_not_found());
    assert_eq!(error.endpoint(), "GET /spaces/nope");
    assert_eq!(
        error.to_string(),
        "GET /spaces/nope: HTTP 404: Space not found"
    );
}

#[tokio::test]
async fn a_proxy_error_page_becomes_the_status_text() {
    let server = TestServer::start(|_| reply(502, "<html>Bad gateway, sorry</html>")).await;
    let error = server.client().list_organizations(None).await.unwrap_err();
    assert_eq!(error.status(), Some(502));
    assert!(
        error.to_string().ends_with("HTTP 502: Bad Gateway"),
        "{error}"
    );
    assert!(error.user_message().contains("r to retry"));
}

#[tokio::test]
async fn decode_errors_name_endpoint_and_field_path() {
    let server = TestServer::start(|_| reply(200, json!({"id": 42}).to_string())).await;
    let error = server.client().current_user().await.unwrap_err();
    match &error {
        ApiError::Decode { endpoint, path, .. } => {
            assert_eq!(endpoint, "GET /user");
            assert_eq!(path, "id");
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
    assert!(error.to_string().contains("`id`"));
}

#[tokio::test]
async fn an_unreadable_list_item_is_marked_and_the_rest_is_kept() {
    let server = TestServer::start(|_| {
        reply(
            200,
            json!({"items": [organization("a"), {"id": 42, "title": "x"}, organization("c")]})
                .to_string(),
        )
    })
    .await;
    let page = server.client().list_organizations(None).await.unwrap();
    let ids: Vec<&str> = page.items.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["a", "c"]);
    assert_eq!(page.unreadable.len(), 1);
    assert_eq!(page.unreadable[0].path, "items[1].id");
}

#[tokio::test]
async fn non_json_success_is_a_decode_error() {
    let server = TestServer::start(|_| reply(200, "<html>login</html>")).await;
    let error = server.client().current_user().await.unwrap_err();
    // A web page (a sign-in portal, a proxy) is named as such, not as a changed API.
    assert!(matches!(&error, ApiError::NotJson { .. }), "{error:?}");
    let server = TestServer::start(|_| reply(200, "not json")).await;
    let error = server.client().current_user().await.unwrap_err();
    assert!(
        matches!(&error, ApiError::Decode { path, .. } if path == "."),
        "{error:?}"
    );
}

#[tokio::test]
async fn delete_accepts_the_documented_success_codes() {
    for status in [202_u16, 204, 205] {
        let server = TestServer::start(move |_| reply(status, "")).await;
        server
            .client()
            .delete("/orgs/o/members/u")
            .await
            .unwrap_or_else(|error| panic!("{status}: {error}"));
        assert_eq!(server.requests()[0].method, "DELETE");
    }
    let server = TestServer::start(|_| reply(403, "")).await;
    let error = server.client().delete("/spaces/s").await.unwrap_err();
    assert_eq!(error.status(), Some(403));
    assert_eq!(error.endpoint(), "DELETE /spaces/s");
}

#[tokio::test]
async fn write_helpers_send_json_bodies() {
    let server =
        TestServer::start(|seen| reply(200, format!(r#"{{"id":"x","echo":{}}}"#, seen.body))).await;
    let client = server.client();
    let body = json!({"title": "New"});
    let _: User = client.post("/things", &body).await.unwrap();
    let _: User = client.patch("/things/x", &body).await.unwrap();
    let _: User = client.put("/things/x", &body).await.unwrap();
    client
        .post_no_content("/things/x/run", &json!({}))
        .await
        .unwrap();
    let requests = server.requests();
    let methods: Vec<&str> = requests.iter().map(|seen| seen.method.as_str()).collect();
    assert_eq!(methods, ["POST", "PATCH", "PUT", "POST"]);
    assert_eq!(requests[0].header("content-type"), "application/json");
    assert_eq!(requests[0].body, r#"{"title":"New"}"#);
}

#[tokio::test]
async fn bad_paths_are_refused_before_sending() {
    let server = TestServer::start(|_| reply(200, "{}")).await;
    let client = server.client();
    let error = client.delete("/spaces//x").await.unwrap_err();
    assert!(matches!(error, ApiError::InvalidConfig { .. }), "{error:?}");
    let error = client.get::<User>("user", &[]).await.unwrap_err();
    assert_eq!(error.endpoint(), "GET user");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn slow_answers_time_out() {
    let server = TestServer::start(|_| Reply {
        status: 200,
        body: "{}".into(),
        delay: Duration::from_secs(5),
    })
    .await;
    let mut config = ClientConfig::new(server.base_url.clone(), Token::new(SECRET));
    config.request_timeout = Duration::from_millis(200);
    let error = Client::new(config)
        .unwrap()
        .current_user()
        .await
        .unwrap_err();
    assert_eq!(
        error,
        ApiError::Timeout {
            endpoint: "GET /user".into()
        }
    );
    assert!(error.user_message().contains("r to retry"));
}

#[tokio::test]
async fn refused_connections_are_network_errors() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    let config = ClientConfig::new(format!("http://{address}"), Token::new(SECRET));
    let error = Client::new(config)
        .unwrap()
        .current_user()
        .await
        .unwrap_err();
    assert!(matches!(error, ApiError::Network { .. }), "{error:?}");
    assert!(error.is_retryable());
    assert!(!error.to_string().contains(&address.to_string()), "{error}");
    assert_no_secret(&error);
}

#[test]
fn invalid_configuration_is_refused_without_the_token() {
    let cases = [
        ClientConfig::new("not a url", Token::new(SECRET)),
        ClientConfig::new("https://api.gitbook.com", Token::new("")),
        ClientConfig::new(
            "https://api.gitbook.com",
            Token::new(format!("{SECRET}\nX: y")),
        ),
        ClientConfig {
            request_timeout: Duration::ZERO,
            ..ClientConfig::new("https://api.gitbook.com", Token::new(SECRET))
        },
    ];
    for config in cases {
        let error = Client::new(config).unwrap_err();
        assert!(matches!(error, ApiError::InvalidConfig { .. }), "{error:?}");
        assert_no_secret(&error);
    }
}

#[test]
fn debug_output_never_shows_the_token() {
    let config = ClientConfig::new("https://api.gitbook.com", Token::new(SECRET));
    assert!(!format!("{config:?}").contains(SECRET));
    let client = Client::new(config).unwrap();
    let text = format!("{client:?}");
    assert!(!text.contains(SECRET), "{text}");
    assert!(text.contains("https://api.gitbook.com/v1"));
}

#[test]
fn decode_body_reports_nested_paths() {
    let body = br#"{"id":"r","pages":[{"id":"p","pages":[{"id":"c","hidden":"yes"}]}]}"#;
    let error = decode_body::<Revision>("GET /spaces/s/content", body).unwrap_err();
    assert!(
        matches!(&error, ApiError::Decode { path, .. } if path == "pages[0].pages[0].hidden"),
        "{error:?}"
    );
    let error = decode_body::<User>("GET /user", br#"{"id":"u"} trailing"#).unwrap_err();
    assert!(matches!(error, ApiError::Decode { .. }));
}

/// A `tracing` writer into memory, to read what would reach `quire.log`.
#[derive(Clone, Default)]
struct LogBuffer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuffer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

#[tokio::test]
async fn decode_errors_are_logged_with_endpoint_and_field_path() {
    let server = TestServer::start(|seen| {
        if seen.path == "/v1/user" {
            return reply(200, json!({"id": 42}).to_string());
        }
        reply(
            200,
            json!({"items": [organization("a"), {"id": ["no"]}]}).to_string(),
        )
    })
    .await;
    let log = LogBuffer::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    // Other tests run in parallel without a subscriber, and tracing caches per call site
    // whether anyone listens. A call site another thread meets for the first time while this
    // one sets up can be cached as unheard, so every call site is met once, the cache is
    // rebuilt now that all of them are registered, and only the second round is read.
    let client = server.client();
    assert!(client.current_user().await.is_err());
    assert!(client.list_organizations(None).await.is_ok());
    tracing::callsite::rebuild_interest_cache();
    log.0.lock().unwrap().clear();
    assert!(client.current_user().await.is_err());
    assert!(client.list_organizations(None).await.is_ok());
    let text = log.text();
    assert!(
        text.contains("endpoint=GET /user") && text.contains("path=id"),
        "{text}"
    );
    assert!(
        text.contains("endpoint=GET /orgs") && text.contains("path=items[1].id"),
        "{text}"
    );
    assert!(!text.contains(SECRET), "{text}");
}

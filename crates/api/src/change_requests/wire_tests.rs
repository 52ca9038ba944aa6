//! Change-request and site methods against a tiny scripted server on loopback, for the real
//! service's behaviours the sandbox does not have: 204 after a PATCH (then a re-read), 205 on
//! delete, 201 on create, a publish checkout, and the revision page route.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::*;

/// What the server saw of one request: method, path, raw query and body.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    query: Vec<(String, String)>,
    body: String,
}

type Responder = dyn Fn(&Seen) -> (u16, String) + Send + Sync;

#[derive(Clone)]
struct Script {
    seen: Arc<Mutex<Vec<Seen>>>,
    responder: Arc<Responder>,
}

async fn handle(State(script): State<Script>, method: Method, uri: Uri, body: Bytes) -> Response {
    let seen = Seen {
        method: method.to_string(),
        path: uri.path().to_owned(),
        query: url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
            .into_owned()
            .collect(),
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let (status, text) = (script.responder)(&seen);
    if let Ok(mut log) = script.seen.lock() {
        log.push(seen);
    }
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, text).into_response()
}

/// Starts the scripted server; returns a client for it and the request log.
async fn serve(
    responder: impl Fn(&Seen) -> (u16, String) + Send + Sync + 'static,
) -> (Client, Arc<Mutex<Vec<Seen>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let script = Script {
        seen: seen.clone(),
        responder: Arc::new(responder),
    };
    let app = Router::new().fallback(handle).with_state(script);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let client = Client::new(ClientConfig::new(
        format!("http://{address}"),
        Token::new("test-token"),
    ))
    .unwrap();
    (client, seen)
}

fn log(seen: &Arc<Mutex<Vec<Seen>>>) -> Vec<Seen> {
    seen.lock().map(|log| log.clone()).unwrap_or_default()
}

const CHANGE_REQUEST: &str = r#"{"object":"change-request","id":"cr1","number":1,
    "status":"archived","subject":"S","outdated":false}"#;

#[tokio::test]
async fn status_patch_answered_204_is_followed_by_a_read() {
    let (client, seen) = serve(|request| match request.method.as_str() {
        "PATCH" => (204, String::new()),
        _ => (200, CHANGE_REQUEST.to_owned()),
    })
    .await;
    let change_request = client
        .update_change_request_status("s/1", "cr1", &ChangeRequestStatus::Archived)
        .await
        .unwrap();
    assert_eq!(change_request.status, Some(ChangeRequestStatus::Archived));
    let log = log(&seen);
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].method, "PATCH");
    assert_eq!(log[0].path, "/v1/spaces/s%2F1/change-requests/cr1");
    assert_eq!(log[0].body, r#"{"status":"archived"}"#);
    assert_eq!(log[1].method, "GET");
    assert_eq!(log[1].path, "/v1/spaces/s%2F1/change-requests/cr1");
}

#[tokio::test]
async fn status_patch_answered_200_is_not_read_again() {
    let (client, seen) = serve(|_| (200, CHANGE_REQUEST.to_owned())).await;
    client
        .update_change_request_status("s1", "cr1", &ChangeRequestStatus::Archived)
        .await
        .unwrap();
    assert_eq!(log(&seen).len(), 1);
}

#[tokio::test]
async fn a_body_that_never_fits_is_still_a_decode_error() {
    let (client, _) = serve(|_| (200, r#"{"unexpected":true}"#.to_owned())).await;
    let error = client
        .update_change_request_status("s1", "cr1", &ChangeRequestStatus::Open)
        .await
        .unwrap_err();
    assert!(matches!(error, ApiError::Decode { .. }), "{error:?}");
}

#[tokio::test]
async fn organization_list_repeats_status_on_the_wire() {
    let (client, seen) = serve(|_| (200, r#"{"items":[]}"#.to_owned())).await;
    let filter = ChangeRequestFilter {
        statuses: vec![ChangeRequestStatus::Open, ChangeRequestStatus::Merged],
        ..ChangeRequestFilter::default()
    };
    client
        .list_organization_change_requests("org", &filter, Some("p2"))
        .await
        .unwrap();
    client
        .list_space_change_requests("s1", &filter, None)
        .await
        .unwrap();
    let log = log(&seen);
    let statuses = |request: &Seen| -> Vec<String> {
        request
            .query
            .iter()
            .filter(|(key, _)| key == "status")
            .map(|(_, value)| value.clone())
            .collect()
    };
    assert_eq!(statuses(&log[0]), vec!["open", "merged"]);
    assert!(log[0].query.contains(&("page".into(), "p2".into())));
    assert_eq!(statuses(&log[1]), vec!["open"]);
}

#[tokio::test]
async fn revision_pages_are_read_as_markdown() {
    let (client, seen) = serve(|_| {
        (
            200,
            r##"{"id":"p1","title":"A","type":"document","markdown":"# A"}"##.to_owned(),
        )
    })
    .await;
    let page = client
        .get_revision_page_markdown("s1", "rev 1", "p1")
        .await
        .unwrap();
    assert_eq!(page.markdown.as_deref(), Some("# A"));
    let log = log(&seen);
    assert_eq!(log[0].path, "/v1/spaces/s1/revisions/rev%201/page/p1");
    assert_eq!(log[0].query, vec![("format".into(), "markdown".into())]);
}

#[tokio::test]
async fn deletes_accept_205_and_creates_accept_201() {
    let (client, seen) = serve(|request| match request.method.as_str() {
        "DELETE" => (205, String::new()),
        _ => (
            201,
            r#"{"id":"rv1","status":"approved","outdated":false}"#.to_owned(),
        ),
    })
    .await;
    client.delete_comment("s1", "cr1", "c1").await.unwrap();
    client
        .remove_requested_reviewer("s1", "cr1", "u1")
        .await
        .unwrap();
    client
        .delete_share_link("org", "site", "link")
        .await
        .unwrap();
    let review = client
        .submit_review("s1", "cr1", ReviewVerdict::Approved, Some("ok"))
        .await
        .unwrap();
    assert_eq!(review.status, Some(ReviewStatus::Approved));
    let log = log(&seen);
    assert_eq!(log[0].path, "/v1/spaces/s1/change-requests/cr1/comments/c1");
    assert_eq!(
        log[1].path,
        "/v1/spaces/s1/change-requests/cr1/requested-reviewers/u1"
    );
    assert_eq!(
        log[3].body,
        r#"{"status":"approved","comment":{"markdown":"ok"}}"#
    );
}

#[tokio::test]
async fn comment_reads_ask_for_markdown_and_writes_send_markdown() {
    let (client, seen) = serve(|request| match request.method.as_str() {
        "GET" => (200, r#"{"items":[]}"#.to_owned()),
        _ => (
            200,
            r#"{"id":"c1","body":{"document":{"object":"document","nodes":[]}}}"#.to_owned(),
        ),
    })
    .await;
    let filter = CommentFilter {
        authors: vec!["u1".into(), "u2".into()],
        ..CommentFilter::default()
    };
    client
        .list_comments("s1", "cr1", &filter, None)
        .await
        .unwrap();
    let posted = client
        .post_comment("s1", "cr1", "hi", Some("p1"))
        .await
        .unwrap();
    assert_eq!(posted.body.markdown(), None);
    client
        .update_comment("s1", "cr1", "c1", &CommentUpdate::resolve(true))
        .await
        .unwrap();
    let log = log(&seen);
    assert!(log[0].query.contains(&("format".into(), "markdown".into())));
    let authors: Vec<&str> = log[0]
        .query
        .iter()
        .filter(|(key, _)| key == "authors")
        .map(|(_, value)| value.as_str())
        .collect();
    assert_eq!(authors, vec!["u1", "u2"]);
    assert_eq!(log[1].body, r#"{"body":{"markdown":"hi"},"page":"p1"}"#);
    assert_eq!(log[2].method, "PUT");
    assert_eq!(log[2].body, r#"{"resolved":true}"#);
}

#[tokio::test]
async fn publish_can_ask_for_a_checkout() {
    let (client, _) = serve(|_| {
        (
            200,
            r#"{"type":"checkout","sessionId":"cs_123"}"#.to_owned(),
        )
    })
    .await;
    let outcome = client.publish_site("org", "site").await.unwrap();
    assert_eq!(
        outcome,
        PublishOutcome::Checkout {
            session_id: "cs_123".into()
        }
    );
}

#[tokio::test]
async fn section_group_patch_answered_204_is_found_in_the_list() {
    let (client, seen) = serve(|request| match request.method.as_str() {
        "PATCH" => (204, String::new()),
        _ => (
            200,
            r#"{"items":[{"id":"g0","title":"Other"},{"id":"g1","title":"Renamed"}]}"#.to_owned(),
        ),
    })
    .await;
    let group = client
        .update_section_group("org", "site", "g1", Some("Renamed"), Some(None))
        .await
        .unwrap();
    assert_eq!(group.title, "Renamed");
    let log = log(&seen);
    assert_eq!(log[0].body, r#"{"title":"Renamed","icon":null}"#);
    assert_eq!(log[1].path, "/v1/orgs/org/sites/site/section-groups");

    let missing = client
        .update_section_group("org", "site", "g9", None, None)
        .await
        .unwrap_err();
    assert!(matches!(missing, ApiError::Decode { .. }), "{missing:?}");
}

#[tokio::test]
async fn site_patch_sends_only_set_fields_and_null_proxy() {
    let (client, seen) = serve(|_| (200, r#"{"id":"site"}"#.to_owned())).await;
    let update = SiteUpdate {
        proxy: Some(None),
        ..SiteUpdate::default()
    };
    client.update_site("org", "site", &update).await.unwrap();
    // The answer does not fit a published site; only the request matters here.
    let answer = client
        .get_published_site("org", "site", Some("key 1"))
        .await;
    assert!(answer.is_err());
    let log = log(&seen);
    assert_eq!(log[0].body, r#"{"proxy":null}"#);
    assert_eq!(log[1].query, vec![("shareKey".into(), "key 1".into())]);
}

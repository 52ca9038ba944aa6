//! The sandbox's integrations endpoints against the seed: the catalogue's search,
//! filters and paging, publish with its validation, and the error cases (unknown integration →
//! 404; unknown organization on publish). Plain HTTP and JSON.

use crate::conversations::{ACME, items};
use crate::http::{HttpSandbox, assert_error};
use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::{Value, json};

#[tokio::test]
async fn the_catalogue_searches_filters_and_pages() {
    let sandbox = HttpSandbox::start().await;
    let all = sandbox.get("/integrations").await;
    assert_eq!(all["count"], 12);
    let slack = items(&all)
        .iter()
        .find(|item| item["name"] == "slack")
        .expect("slack");
    assert_eq!(slack["object"], "integration");
    assert_eq!(slack["verified"], true);
    assert!(slack["owner"]["id"].is_string() && slack["urls"]["app"].is_string());
    let names = |list: &Value| -> Vec<String> {
        items(list)
            .iter()
            .filter_map(|item| item["name"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(
        names(&sandbox.get("/integrations?search=GIT").await),
        ["github-sync"]
    );
    let analytics = sandbox.get("/integrations?category=analytics").await;
    assert_eq!(names(&analytics), ["google-analytics", "plausible"]);
    let blocks = sandbox.get("/integrations?blocks=true").await;
    assert_eq!(names(&blocks), ["figma", "slack"]);
    let sources = sandbox.get("/integrations?contentSources=true").await;
    assert_eq!(names(&sources), ["github-sync", "openapi-importer"]);
    let scope = sandbox
        .get("/integrations?scope=conversations:ingest")
        .await;
    assert_eq!(names(&scope), ["intercom"]);
    let lumen = sandbox
        .get(&format!("/integrations?owner={}", demo_ids::LUMEN))
        .await;
    assert!(
        items(&lumen)
            .iter()
            .all(|item| item["owner"]["id"] == demo_ids::LUMEN)
    );
    let organization = sandbox.get("/integrations?target=organization").await;
    assert!(names(&organization).contains(&"intercom".to_string()));
    assert!(!names(&organization).contains(&"slack".to_string()));
    let domain = sandbox.get("/integrations?blockDomain=figma.com").await;
    assert_eq!(names(&domain), ["figma"]);
    let page = sandbox.get("/integrations?limit=5").await;
    assert_eq!(items(&page).len(), 5);
    assert!(page["next"]["page"].is_string());
    for query in [
        "category=games",
        "target=moon",
        "blocks=maybe",
        "blockDomain=a/b",
    ] {
        let reply = sandbox
            .admin(Method::GET, &format!("/integrations?{query}"), None)
            .await;
        assert_eq!(reply.status, 400, "{query}: {}", reply.body);
    }
}

#[tokio::test]
async fn one_integration_by_name_or_a_404() {
    let sandbox = HttpSandbox::start().await;
    let slack = sandbox.get("/integrations/slack").await;
    assert_eq!(slack["title"], "Slack");
    assert_eq!(
        slack["blocks"][0]["urlUnfurl"][0],
        "https://slack.com/archives/"
    );
    assert_eq!(slack["configurations"]["space"]["required"][0], "channel");
    let missing = sandbox.admin(Method::GET, "/integrations/nope", None).await;
    assert_error(&missing, 404, "nope");
    let bad = sandbox
        .admin(Method::GET, "/integrations/bad%20name", None)
        .await;
    assert_error(&bad, 400, "integrationName");
}

fn manifest(organization: &str) -> Value {
    json!({
        "title": "Acme status",
        "description": "Shows the status of the fleet",
        "summary": "# Acme status\n\nA block with the fleet's status.",
        "scopes": ["space:content:read"],
        "categories": ["content"],
        "target": "space",
        "script": "export default {}",
        "organization": organization,
        "secrets": {"API_KEY": "sk-live-123"},
        "externalLinks": [{"url": "https://acme.example/status", "label": "Status"}],
    })
}

#[tokio::test]
async fn publish_creates_or_bumps_an_integration_and_keeps_secrets_out() {
    let sandbox = HttpSandbox::start().await;
    let reply = sandbox
        .admin(Method::POST, "/integrations/acme-status", manifest(ACME))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["name"], "acme-status");
    assert_eq!(reply.body["version"], 1);
    assert_eq!(reply.body["owner"]["id"], ACME);
    assert!(!reply.body.to_string().contains("sk-live-123"));
    assert!(reply.body.get("script").is_none() && reply.body.get("secrets").is_none());
    let again = sandbox
        .admin(
            Method::POST,
            "/integrations/acme-status",
            manifest("acme-robotics"),
        )
        .await;
    assert_eq!(again.status, 200, "by hostname: {}", again.body);
    assert_eq!(again.body["version"], 2);
    let read = sandbox.get("/integrations/acme-status").await;
    assert_eq!(read["title"], "Acme status");
    assert!(!read.to_string().contains("sk-live-123"));
}

#[tokio::test]
async fn publish_refuses_an_unknown_organization_a_non_admin_and_bad_fields() {
    let sandbox = HttpSandbox::start().await;
    let reply = sandbox
        .admin(Method::POST, "/integrations/x-1", manifest("org-nowhere"))
        .await;
    assert_error(&reply, 404, "org-nowhere");
    let reply = sandbox
        .send(
            Method::POST,
            tokens::EDITOR,
            "/integrations/x-1",
            Some(manifest(ACME)),
        )
        .await;
    assert_error(&reply, 403, "admin");
    let mut bad = manifest(ACME);
    bad["title"] = json!("A");
    let reply = sandbox.admin(Method::POST, "/integrations/x-1", bad).await;
    assert_error(&reply, 400, "title");
    let mut bad = manifest(ACME);
    bad["scopes"] = json!(["moon:walk"]);
    let reply = sandbox.admin(Method::POST, "/integrations/x-1", bad).await;
    assert_error(&reply, 400, "scopes");
    let reply = sandbox
        .admin(Method::POST, "/integrations/bad%20name", manifest(ACME))
        .await;
    assert_error(&reply, 400, "integrationName");
    let missing = sandbox.admin(Method::GET, "/integrations/x-1", None).await;
    assert_eq!(missing.status, 404, "nothing was published");
}

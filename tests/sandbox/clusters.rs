//! The sandbox's conversations (§4.16) and integrations (§4.18) endpoints against the seed:
//! fields, paging, filters, ingest and publish with their validation, and the error cases
//! (unknown conversation, issue, cluster, integration → 404; unknown organization on publish).
//! Plain HTTP and JSON.

use crate::common::http::{HttpSandbox, assert_error};
use quire::sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::{Value, json};

const ACME: &str = demo_ids::ACME;

fn items(list: &Value) -> &Vec<Value> {
    list["items"].as_array().expect("items")
}

#[tokio::test]
async fn conversations_list_pages_and_filters_by_source() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("/orgs/{ACME}/conversations");
    let all = sandbox.get(&path).await;
    assert_eq!(items(&all).len(), 8);
    let first = &items(&all)[0];
    assert_eq!(first["object"], "conversation");
    for field in ["id", "subject", "createdAt", "processedAt", "source"] {
        assert!(first[field].is_string(), "{field}: {first}");
    }
    assert!(first["urls"]["location"].is_string() && first["urls"]["source"].is_string());
    let slack = sandbox.get(&format!("{path}?source=slack")).await;
    assert!(!items(&slack).is_empty());
    assert!(items(&slack).iter().all(|item| item["source"] == "slack"));
    let page = sandbox.get(&format!("{path}?limit=5")).await;
    assert_eq!(items(&page).len(), 5);
    let next = page["next"]["page"].as_str().expect("a next page");
    let rest = sandbox.get(&format!("{path}?limit=5&page={next}")).await;
    assert_eq!(items(&rest).len(), 3);
    let unknown = sandbox
        .admin(Method::GET, "/orgs/org-nowhere/conversations", None)
        .await;
    assert_error(&unknown, 404, "org-nowhere");
}

#[tokio::test]
async fn a_conversation_has_its_messages_and_metadata_or_is_a_404() {
    let sandbox = HttpSandbox::start().await;
    let id = demo_ids::CONVERSATION_TOKEN_403;
    let detail = sandbox
        .get(&format!("/orgs/{ACME}/conversations/{id}"))
        .await;
    assert_eq!(detail["conversation"]["id"], id);
    let parts = detail["parts"].as_array().expect("parts");
    assert_eq!(parts.len(), 4);
    assert!(parts.iter().all(|part| part["type"] == "message"));
    assert_eq!(parts[0]["role"], "user");
    assert!(detail["metadata"]["url"].is_string());
    assert_eq!(detail["metadata"]["attributes"]["plan"], "pro");
    let missing = sandbox
        .admin(
            Method::GET,
            &format!("/orgs/{ACME}/conversations/conv-nope"),
            None,
        )
        .await;
    assert_error(&missing, 404, "conv-nope");
}

#[tokio::test]
async fn issues_filter_by_cluster_and_conversation_and_unknown_ones_are_404() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("/orgs/{ACME}/conversations-issues");
    let all = sandbox.get(&path).await;
    assert_eq!(items(&all).len(), 8);
    let item = &items(&all)[0];
    assert_eq!(item["issue"]["object"], "conversation-issue");
    assert_eq!(item["issue"]["conversation"], item["conversation"]["id"]);
    for field in ["id", "title", "summary", "createdAt", "ingestedAt"] {
        assert!(item["issue"][field].is_string(), "{field}: {item}");
    }
    // A new issue may not be in a cluster yet.
    assert!(
        items(&all)
            .iter()
            .any(|item| item["issue"]["cluster"].is_null())
    );
    assert!(
        items(&all)
            .iter()
            .any(|item| item["issue"]["cluster"].is_string())
    );
    let cluster = demo_ids::CLUSTER_TOKEN_ERRORS;
    let of_cluster = sandbox.get(&format!("{path}?cluster={cluster}")).await;
    assert_eq!(items(&of_cluster).len(), 2);
    assert!(
        items(&of_cluster)
            .iter()
            .all(|item| item["issue"]["cluster"] == cluster)
    );
    let conversation = demo_ids::CONVERSATION_TOKEN_403;
    let of_conversation = sandbox
        .get(&format!("{path}?conversation={conversation}"))
        .await;
    assert_eq!(items(&of_conversation).len(), 1);
    let one = sandbox
        .get(&format!("{path}/{}", demo_ids::ISSUE_TOKEN_403))
        .await;
    assert_eq!(one["issue"]["id"], demo_ids::ISSUE_TOKEN_403);
    assert_eq!(one["conversation"]["id"], conversation);
    for (query, needle) in [
        ("?cluster=clu-nope", "clu-nope"),
        ("?conversation=conv-nope", "conv-nope"),
        ("/iss-nope", "iss-nope"),
    ] {
        let reply = sandbox
            .admin(Method::GET, &format!("{path}{query}"), None)
            .await;
        assert_error(&reply, 404, needle);
    }
}

#[tokio::test]
async fn clusters_carry_stats_tasks_and_a_twelve_week_pulse() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("/orgs/{ACME}/conversations-clusters");
    let by_created = sandbox
        .get(&format!("{path}?sort=createdAt&order=asc"))
        .await;
    let created: Vec<&str> = items(&by_created)
        .iter()
        .filter_map(|item| item["createdAt"].as_str())
        .collect();
    let mut sorted = created.clone();
    sorted.sort();
    assert_eq!(created, sorted);
    let cluster = items(&by_created)
        .iter()
        .find(|item| item["id"] == demo_ids::CLUSTER_TOKEN_ERRORS)
        .expect("the token cluster");
    assert_eq!(cluster["weeklyPulse"].as_array().map(Vec::len), Some(12));
    let stats = &cluster["stats"];
    let total = stats["tasksTotal"].as_u64().expect("total");
    let states: u64 = [
        "tasksBacklog",
        "tasksStarted",
        "tasksCompleted",
        "tasksCancelled",
    ]
    .iter()
    .filter_map(|key| stats[*key].as_u64())
    .sum();
    assert_eq!(total, states);
    assert_eq!(cluster["sources"]["intercom"], 14);
}

fn conversation(id: &str) -> Value {
    json!({
        "id": id,
        "subject": "Exporting to PDF",
        "parts": [
            {"type": "message", "role": "user", "body": "How do I export a space to PDF?"},
            {"type": "message", "role": "assistant", "body": "Press **P** on the space."},
        ],
        "metadata": {
            "url": "https://support.example.com/t/9",
            "attributes": {"plan": "free"},
            "createdAt": "2024-06-01T10:00:00Z",
        },
    })
}

#[tokio::test]
async fn ingest_stores_the_conversation_and_checks_each_field() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("/orgs/{ACME}/conversations");
    let reply = sandbox
        .admin(Method::POST, &path, conversation("conv-pdf"))
        .await;
    assert_eq!(reply.status, 204, "{}", reply.body);
    let stored = sandbox.get(&format!("{path}/conv-pdf")).await;
    assert_eq!(stored["conversation"]["subject"], "Exporting to PDF");
    assert_eq!(stored["parts"][1]["body"], "Press **P** on the space.");
    assert_eq!(stored["metadata"]["createdAt"], "2024-06-01T10:00:00Z");
    let mut bad = conversation("conv-bad");
    bad["parts"][1]["type"] = json!("note");
    let reply = sandbox.admin(Method::POST, &path, bad).await;
    assert_error(&reply, 400, "parts[1].type");
    let mut bad = conversation("conv-bad");
    bad["metadata"]["createdAt"] = json!("last week");
    let reply = sandbox.admin(Method::POST, &path, bad).await;
    assert_error(&reply, 400, "metadata.createdAt");
    let mut bad = conversation("conv-bad");
    bad.as_object_mut().expect("object").remove("subject");
    let reply = sandbox.admin(Method::POST, &path, bad).await;
    assert_error(&reply, 400, "subject");
    let reply = sandbox
        .send(
            Method::POST,
            tokens::EDITOR,
            &path,
            Some(conversation("conv-x")),
        )
        .await;
    assert_error(&reply, 403, "admin");
    let reply = sandbox
        .admin(
            Method::POST,
            "/orgs/org-nowhere/conversations",
            conversation("conv-x"),
        )
        .await;
    assert_error(&reply, 404, "org-nowhere");
}

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

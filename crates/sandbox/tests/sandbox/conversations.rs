//! The sandbox's conversations endpoints against the seed: fields, paging, filters,
//! ingest with its validation, and the error cases (unknown conversation, issue, cluster →
//! 404). Plain HTTP and JSON.

use crate::http::{HttpSandbox, assert_error};
use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::{Value, json};

pub(crate) const ACME: &str = demo_ids::ACME;

pub(crate) fn items(list: &Value) -> &Vec<Value> {
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

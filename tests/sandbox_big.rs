//! The big demo (`quire sandbox --big`) over plain HTTP: "Big Co" lists, its space has 10,000
//! pages, its big page is over a megabyte of markdown, its change request pages through 2,000
//! threads; without the option none of it exists.

use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use serde_json::Value;

async fn start(big: bool) -> Sandbox {
    let address = "127.0.0.1:0".parse().expect("literal address");
    Sandbox::start(
        address,
        SandboxOptions {
            big,
            ..SandboxOptions::default()
        },
    )
    .await
    .expect("sandbox starts")
}

async fn get(sandbox: &Sandbox, path: &str) -> Value {
    let url = format!("{}/v1{path}", sandbox.base_url());
    let response = reqwest::Client::new()
        .get(&url)
        .bearer_auth(tokens::ADMIN)
        .send()
        .await
        .expect("request is answered");
    assert_eq!(response.status().as_u16(), 200, "{path}");
    response.json().await.expect("body is JSON")
}

fn organization_ids(body: &Value) -> Vec<String> {
    body["items"]
        .as_array()
        .expect("items array")
        .iter()
        .filter_map(|item| item["id"].as_str().map(str::to_string))
        .collect()
}

fn count_pages(pages: &Value) -> usize {
    pages.as_array().map_or(0, |pages| {
        pages
            .iter()
            .map(|page| 1 + count_pages(&page["pages"]))
            .sum()
    })
}

#[tokio::test]
async fn big_demo_serves_a_large_organization() {
    let sandbox = start(true).await;
    let organizations = organization_ids(&get(&sandbox, "/orgs").await);
    assert!(organizations.contains(&demo_ids::BIG_CO.to_string()));

    let space = demo_ids::SPACE_BIG;
    let tree = get(&sandbox, &format!("/spaces/{space}/content/pages")).await;
    assert_eq!(count_pages(&tree["pages"]), demo_ids::BIG_PAGE_COUNT);
    assert_eq!(demo_ids::BIG_PAGE_COUNT, 10_000);

    let page = demo_ids::PAGE_BIG_HUGE;
    let huge = get(
        &sandbox,
        &format!("/spaces/{space}/content/page/{page}?format=markdown"),
    )
    .await;
    let markdown = huge["markdown"].as_str().expect("markdown string");
    assert!(markdown.len() >= 1_000_000, "only {} bytes", markdown.len());

    let threads = all_threads(&sandbox, space, demo_ids::CR_BIG).await;
    assert_eq!(threads.len(), 2_000);
    let with_replies = threads
        .iter()
        .filter(|thread| thread["replies"].as_u64().unwrap_or(0) > 0)
        .count();
    assert_eq!(with_replies, 500);
    sandbox.shutdown().await;
}

/// Follows `next.page` through the change request's comments, 100 at a time.
async fn all_threads(sandbox: &Sandbox, space: &str, change_request: &str) -> Vec<Value> {
    let base = format!("/spaces/{space}/change-requests/{change_request}/comments?limit=100");
    let mut threads = Vec::new();
    let mut path = base.clone();
    for _ in 0..100 {
        let body = get(sandbox, &path).await;
        threads.extend(body["items"].as_array().expect("items array").clone());
        match body["next"]["page"].as_str() {
            Some(cursor) => path = format!("{base}&page={cursor}"),
            None => return threads,
        }
    }
    panic!("paging did not end");
}

#[tokio::test]
async fn without_the_option_there_is_no_big_organization() {
    let sandbox = start(false).await;
    let organizations = organization_ids(&get(&sandbox, "/orgs").await);
    assert!(!organizations.contains(&demo_ids::BIG_CO.to_string()));
    assert_eq!(organizations.len(), 2);
    sandbox.shutdown().await;
}

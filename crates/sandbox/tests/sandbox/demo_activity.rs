//! The demo's other people at work: each act the sandbox takes is one a client can read back
//! through the API, by someone other than the change request's author.

use quire_sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use serde_json::Value;

/// What every open change request of the demo's organizations shows: its author, revision,
/// and the people behind its comments, replies and reviews.
#[derive(Debug, PartialEq)]
struct Seen {
    id: String,
    creator: String,
    revision: String,
    commenters: Vec<(String, String)>,
    repliers: Vec<(String, String)>,
    reviewers: Vec<(String, String)>,
}

async fn get(http: &reqwest::Client, sandbox: &Sandbox, path: &str) -> Value {
    let url = format!("{}/v1{path}", sandbox.base_url());
    let answer = http
        .get(url)
        .bearer_auth(tokens::ADMIN)
        .send()
        .await
        .expect("request is answered");
    assert_eq!(answer.status(), 200, "GET {path}");
    answer.json().await.expect("JSON body")
}

/// Each item of a list as (its id, the id of the user in `field`).
fn user_ids(list: &Value, field: &str) -> Vec<(String, String)> {
    let text = |value: &Value| value.as_str().unwrap_or_default().to_string();
    list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| (text(&item["id"]), text(&item[field]["id"])))
        .collect()
}

async fn seen(http: &reqwest::Client, sandbox: &Sandbox) -> Vec<Seen> {
    let mut seen = Vec::new();
    for organization in [demo_ids::ACME, demo_ids::LUMEN] {
        let path = format!("/orgs/{organization}/change-requests?status=open&limit=100");
        let list = get(http, sandbox, &path).await;
        for change_request in list["items"].as_array().into_iter().flatten() {
            let space = change_request["space"]["id"]
                .as_str()
                .or_else(|| change_request["space"].as_str())
                .unwrap_or_default();
            let id = change_request["id"].as_str().unwrap_or_default();
            let base = format!("/spaces/{space}/change-requests/{id}");
            let comments = get(http, sandbox, &format!("{base}/comments?limit=100")).await;
            let mut repliers = Vec::new();
            for comment in comments["items"].as_array().into_iter().flatten() {
                let thread = comment["id"].as_str().unwrap_or_default();
                let path = format!("{base}/comments/{thread}/replies?limit=100");
                repliers.extend(user_ids(&get(http, sandbox, &path).await, "postedBy"));
            }
            let reviews = get(http, sandbox, &format!("{base}/reviews?limit=100")).await;
            let full = get(http, sandbox, &base).await;
            seen.push(Seen {
                id: id.to_string(),
                creator: full["createdBy"]["id"].as_str().unwrap_or_default().into(),
                revision: full["revision"].as_str().unwrap_or_default().into(),
                commenters: user_ids(&comments, "postedBy"),
                repliers,
                reviewers: user_ids(&reviews, "reviewer"),
            });
        }
    }
    seen
}

/// Everything a change request gained between two readings, by whom.
fn gained(before: &Seen, after: &Seen) -> Vec<String> {
    let new = |old: &[(String, String)], now: &[(String, String)]| {
        now.iter()
            .filter(|item| !old.contains(item))
            .map(|(_, person)| person.clone())
            .collect::<Vec<_>>()
    };
    let mut people = new(&before.commenters, &after.commenters);
    people.extend(new(&before.repliers, &after.repliers));
    people.extend(new(&before.reviewers, &after.reviewers));
    if before.revision != after.revision {
        people.push(format!("revision by someone other than {}", after.creator));
    }
    people
}

#[tokio::test]
async fn each_act_of_the_demo_people_is_read_back_and_never_by_the_author() {
    let address = "127.0.0.1:0".parse().expect("literal address");
    let sandbox = Sandbox::start(address, SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let http = reqwest::Client::new();
    let before = seen(&http, &sandbox).await;
    assert!(!before.is_empty(), "the demo has open change requests");

    let mut said = Vec::new();
    for _ in 0..8 {
        said.push(sandbox.act_now().await.expect("an act is possible"));
    }

    let after = seen(&http, &sandbox).await;
    assert_eq!(
        before.len(),
        after.len(),
        "no change request opened or closed"
    );
    let mut acts = 0;
    for after in &after {
        let before = before
            .iter()
            .find(|before| before.id == after.id)
            .expect("the same change requests are open");
        for person in gained(before, after) {
            assert_ne!(
                person, after.creator,
                "an author acted on their own: {said:?}"
            );
            acts += 1;
        }
    }
    // A review replaces the reviewer's earlier one when they had reviewed before, so fewer new
    // entries than acts can show; none more, and most of them must.
    assert!(
        (4..=8).contains(&acts),
        "{acts} changes seen after {said:?}"
    );
    assert!(
        said.iter().any(|line| line.contains("commented on")),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|line| line.contains("approved") || line.contains("requested changes")),
        "{said:?}"
    );
}

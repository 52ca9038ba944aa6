//! Holds the sandbox's finding-things endpoints against the seed reference in plain HTTP: space
//! and organization search (envelope, validation), the links report with `stats` and its status
//! filter, a page's links, backlinks of a page and of a file, files by id, and the same reads
//! for a change request's content.

use quire_sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use serde_json::Value;

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;
const FAQ: &str = "pg-gs-faq";
const QUICKSTART: &str = demo_ids::PAGE_QUICKSTART;
const SAFETY_PDF: &str = "file-safety-pdf";

struct Harness {
    sandbox: Sandbox,
    http: reqwest::Client,
}

impl Harness {
    async fn start() -> Harness {
        let address = "127.0.0.1:0".parse().expect("literal address");
        let sandbox = Sandbox::start(address, SandboxOptions::default())
            .await
            .expect("sandbox starts");
        Harness {
            sandbox,
            http: reqwest::Client::new(),
        }
    }

    async fn get_status(&self, path: &str) -> (u16, Value) {
        let response = self
            .http
            .get(format!("{}/v1{path}", self.sandbox.base_url()))
            .bearer_auth(tokens::READER)
            .send()
            .await
            .expect("answered");
        let status = response.status().as_u16();
        let body = response.json().await.unwrap_or(Value::Null);
        (status, body)
    }

    async fn get(&self, path: &str) -> Value {
        let (status, body) = self.get_status(path).await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    /// Asserts a 4xx answer with the contract's error body naming `field`.
    async fn refused(&self, path: &str, status: u16, field: &str) {
        let (got, body) = self.get_status(path).await;
        assert_eq!(got, status, "{path}: {body}");
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(field), "{path}: {message}");
    }
}

fn items(body: &Value) -> &Vec<Value> {
    body["items"].as_array().expect("items array")
}

#[tokio::test]
async fn organization_search_groups_pages_by_space() {
    let harness = Harness::start().await;
    let body = harness
        .get(&format!("/orgs/{}/search?query=TOKEN", demo_ids::ACME))
        .await;
    let spaces = items(&body);
    assert!(spaces.len() >= 2, "several spaces mention tokens: {body}");
    assert_eq!(body["count"].as_u64(), Some(spaces.len() as u64));
    for space in spaces {
        assert_eq!(space["type"], "space");
        assert!(space["id"].is_string() && space["title"].is_string());
        let pages = space["pages"].as_array().expect("pages");
        assert!(!pages.is_empty(), "a space without a hit is left out");
        for page in pages {
            for key in ["id", "title", "path", "sections", "ancestors", "urls"] {
                assert!(page.get(key).is_some(), "{key} in {page}");
            }
        }
    }
    let getting_started = spaces
        .iter()
        .find(|space| space["id"] == SPACE)
        .expect("Getting Started matches");
    let faq = getting_started["pages"]
        .as_array()
        .and_then(|pages| pages.iter().find(|page| page["id"] == FAQ))
        .expect("the FAQ says token, in any case");
    assert_eq!(faq["ancestors"][0]["title"], "Reference");
    let section = &faq["sections"][0];
    assert_eq!(section["title"], "How do I reset a token?");
    assert!(
        section["body"]
            .as_str()
            .is_some_and(|body| body.to_lowercase().contains("token"))
    );
    // Lumen's spaces belong to another organization.
    assert!(
        spaces
            .iter()
            .all(|space| space["id"] != demo_ids::SPACE_LUMEN_DOCS)
    );
}

#[tokio::test]
async fn organization_search_pages_and_validates() {
    let harness = Harness::start().await;
    let path = format!("/orgs/{}/search", demo_ids::ACME);
    let first = harness.get(&format!("{path}?query=the&limit=2")).await;
    assert_eq!(items(&first).len(), 2);
    let next = first["next"]["page"].as_str().expect("a second page");
    let second = harness
        .get(&format!("{path}?query=the&limit=2&page={next}"))
        .await;
    assert_ne!(items(&first)[0]["id"], items(&second)[0]["id"]);

    harness.refused(&path, 400, "query").await;
    harness
        .refused(&format!("{path}?query=%20"), 400, "query")
        .await;
    let long = "a".repeat(513);
    harness
        .refused(&format!("{path}?query={long}"), 400, "query")
        .await;
    let longest = "a".repeat(512);
    harness.get(&format!("{path}?query={longest}")).await;
    harness
        .refused("/orgs/nope/search?query=x", 404, "nope")
        .await;
    let space_search = format!("/spaces/{SPACE}/search?query={long}");
    harness.refused(&space_search, 400, "query").await;
}

#[tokio::test]
async fn links_report_has_stats_broken_first_and_a_status_filter() {
    let harness = Harness::start().await;
    let path = format!("/spaces/{SPACE}/links");
    let body = harness.get(&path).await;
    let links = items(&body);
    let statuses: Vec<&str> = links
        .iter()
        .map(|link| link["status"].as_str().unwrap_or_default())
        .collect();
    let first_other = statuses.iter().position(|status| *status != "broken");
    let last_broken = statuses.iter().rposition(|status| *status == "broken");
    assert!(last_broken.is_some(), "the demo has broken links");
    assert!(last_broken < first_other, "broken first: {statuses:?}");
    assert!(statuses.contains(&"in-app") && statuses.contains(&"ok"));

    let stats = &body["stats"];
    assert_eq!(stats["total"].as_u64(), Some(links.len() as u64));
    let broken = statuses
        .iter()
        .filter(|status| **status == "broken")
        .count();
    assert_eq!(stats["broken"]["total"].as_u64(), Some(broken as u64));
    assert!(stats["broken"]["changeRequest"].is_u64());

    let upgrade = links
        .iter()
        .find(|link| link["targetReference"]["url"] == "upgrading.md")
        .expect("the FAQ's link to a page that does not exist");
    assert_eq!(upgrade["status"], "broken");
    let location = &upgrade["locationReferences"][0];
    assert_eq!(location["kind"], "page");
    assert_eq!(location["page"], FAQ);
    assert_eq!(location["space"], SPACE);
    assert_eq!(location["versionContext"]["type"], "revision");

    let only_in_app = harness.get(&format!("{path}?status=in-app")).await;
    assert!(
        items(&only_in_app)
            .iter()
            .all(|link| link["status"] == "in-app")
    );
    assert!(!items(&only_in_app).is_empty());
    assert_eq!(
        only_in_app["stats"], body["stats"],
        "totals ignore the filter"
    );
    harness
        .refused(&format!("{path}?status=fine"), 400, "status")
        .await;
    harness.refused("/spaces/nope/links", 404, "nope").await;
}

#[tokio::test]
async fn a_pages_links_and_backlinks() {
    let harness = Harness::start().await;
    let links = harness
        .get(&format!("/spaces/{SPACE}/content/page/{FAQ}/links"))
        .await;
    assert_eq!(items(&links).len(), 4, "{links}");
    for link in items(&links) {
        let locations = link["locationReferences"].as_array().expect("locations");
        assert!(locations.iter().all(|location| location["page"] == FAQ));
    }

    let backlinks = harness
        .get(&format!(
            "/spaces/{SPACE}/content/page/{QUICKSTART}/backlinks"
        ))
        .await;
    let pages: Vec<&str> = items(&backlinks)
        .iter()
        .map(|location| location["page"].as_str().unwrap_or_default())
        .collect();
    assert!(
        pages.contains(&FAQ) && pages.contains(&"pg-gs-welcome"),
        "{pages:?}"
    );
    assert_eq!(items(&backlinks)[0]["kind"], "page");

    let file = harness
        .get(&format!(
            "/spaces/{SPACE}/content/files/{SAFETY_PDF}/backlinks"
        ))
        .await;
    assert_eq!(items(&file).len(), 1);
    assert_eq!(items(&file)[0]["page"], FAQ);

    harness
        .refused(
            &format!("/spaces/{SPACE}/content/page/nope/links"),
            404,
            "nope",
        )
        .await;
    harness
        .refused(
            &format!("/spaces/{SPACE}/content/page/nope/backlinks"),
            404,
            "nope",
        )
        .await;
    harness
        .refused(
            &format!("/spaces/{SPACE}/content/files/nope/backlinks"),
            404,
            "nope",
        )
        .await;
}

#[tokio::test]
async fn files_by_id_with_size_and_dimensions() {
    let harness = Harness::start().await;
    let file = harness
        .get(&format!("/spaces/{SPACE}/content/files/file-dashboard"))
        .await;
    assert_eq!(file["name"], "dashboard.png");
    assert_eq!(file["contentType"], "image/png");
    assert_eq!(file["size"], 482_113);
    assert_eq!(file["dimensions"]["width"], 2400);
    assert!(file["downloadURL"].is_string());
    harness
        .refused(&format!("/spaces/{SPACE}/content/files/nope"), 404, "nope")
        .await;
}

#[tokio::test]
async fn change_request_content_has_files_links_and_backlinks() {
    let harness = Harness::start().await;
    let (space, change_request) = (SPACE, "1");
    let prefix = format!("/spaces/{space}/change-requests/{change_request}/content");
    let files = harness.get(&format!("{prefix}/files")).await;
    assert!(items(&files).iter().any(|file| file["id"] == SAFETY_PDF));
    let file = harness.get(&format!("{prefix}/files/{SAFETY_PDF}")).await;
    assert_eq!(file["id"], SAFETY_PDF);
    let backlinks = harness
        .get(&format!("{prefix}/files/{SAFETY_PDF}/backlinks"))
        .await;
    assert!(items(&backlinks)[0]["versionContext"]["revision"].is_string());
    harness
        .get(&format!("{prefix}/page/{QUICKSTART}/backlinks"))
        .await;
    harness.get(&format!("{prefix}/page/{FAQ}/links")).await;
    harness
        .refused(
            &format!("/spaces/{space}/change-requests/nope/content/files"),
            404,
            "nope",
        )
        .await;
}

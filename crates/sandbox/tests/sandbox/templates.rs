//! `POST /spaces/{space}/content/template` against the seed: a template's pages land in main,
//! or in a change request's content only (main untouched) with `changeRequestId`; an unknown
//! template is 404, a bad body 400 naming the field, a reader 403, a merged change request 409.

use crate::http::{HttpSandbox, assert_error};
use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::{Value, json};

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;

fn apply_path() -> String {
    format!("/spaces/{SPACE}/content/template")
}

/// Titles of the top-level pages of a `{pages}` answer.
fn top_titles(pages: &Value) -> Vec<String> {
    pages["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .filter_map(|page| page["title"].as_str().map(str::to_string))
        .collect()
}

async fn page_id(sandbox: &HttpSandbox, title: &str) -> String {
    let pages = sandbox.get(&format!("/spaces/{SPACE}/content/pages")).await;
    pages["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .find(|page| page["title"] == title)
        .and_then(|page| page["id"].as_str())
        .expect("the page")
        .to_string()
}

async fn page_markdown(sandbox: &HttpSandbox, title: &str) -> String {
    let id = page_id(sandbox, title).await;
    let page = sandbox
        .get(&format!(
            "/spaces/{SPACE}/content/page/{id}?format=markdown"
        ))
        .await;
    page["markdown"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn a_template_adds_its_pages_to_main_and_answers_204() {
    let sandbox = HttpSandbox::start().await;
    let before = sandbox.get(&format!("/spaces/{SPACE}")).await["revision"].clone();
    let reply = sandbox
        .admin(
            Method::POST,
            &apply_path(),
            json!({
                "id": demo_ids::TEMPLATE_RELEASE_NOTES,
                "params": {"contentRefs": {"screenshot": {"kind": "file", "file": "file-dashboard"}}}
            }),
        )
        .await;
    assert_eq!(reply.status, 204, "{}", reply.body);
    let pages = sandbox.get(&format!("/spaces/{SPACE}/content/pages")).await;
    assert_eq!(
        top_titles(&pages).last().map(String::as_str),
        Some("Release notes")
    );
    let markdown = page_markdown(&sandbox, "Release notes").await;
    let image =
        format!("![Screenshot](https://files.docs.example/{SPACE}/file-dashboard/dashboard.png)");
    assert!(markdown.contains(&image), "{markdown}");
    let id = page_id(&sandbox, "Release notes").await;
    let links = sandbox
        .get(&format!("/spaces/{SPACE}/content/page/{id}/links"))
        .await;
    assert_eq!(links["stats"]["broken"]["total"], 0, "{links}");
    assert_eq!(
        links["items"][0]["targetReference"],
        json!({ "kind": "file", "file": "file-dashboard", "space": SPACE }),
        "{links}"
    );
    let after = sandbox.get(&format!("/spaces/{SPACE}")).await["revision"].clone();
    assert_ne!(before, after, "main has a new revision");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn with_a_change_request_the_pages_land_there_not_in_main() {
    let sandbox = HttpSandbox::start().await;
    let main_before = top_titles(&sandbox.get(&format!("/spaces/{SPACE}/content/pages")).await);
    let reply = sandbox
        .send(
            Method::POST,
            tokens::EDITOR,
            &apply_path(),
            Some(json!({
                "id": demo_ids::TEMPLATE_HOW_TO,
                "changeRequestId": demo_ids::CR_REVIEW
            })),
        )
        .await;
    assert_eq!(reply.status, 204, "{}", reply.body);
    let in_change_request = sandbox
        .get(&format!(
            "/spaces/{SPACE}/change-requests/{}/content/pages",
            demo_ids::CR_REVIEW
        ))
        .await;
    assert!(top_titles(&in_change_request).contains(&"How-to guide".to_string()));
    let main_after = top_titles(&sandbox.get(&format!("/spaces/{SPACE}/content/pages")).await);
    assert_eq!(main_before, main_after, "main is untouched");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn refusals_name_what_is_wrong() {
    let sandbox = HttpSandbox::start().await;
    let post = |token: &'static str, body: Value| {
        let sandbox = &sandbox;
        async move {
            sandbox
                .send(Method::POST, token, &apply_path(), Some(body))
                .await
        }
    };
    let unknown = post(tokens::ADMIN, json!({"id": "tpl-nope"})).await;
    assert_error(&unknown, 404, "tpl-nope");
    let no_id = post(
        tokens::ADMIN,
        json!({"changeRequestId": demo_ids::CR_REVIEW}),
    )
    .await;
    assert_error(&no_id, 400, "\"id\" is required");
    let bad_ref = post(
        tokens::ADMIN,
        json!({"id": demo_ids::TEMPLATE_RELEASE_NOTES,
               "params": {"contentRefs": {"screenshot": {"kind": "file", "file": "file-nope"}}}}),
    )
    .await;
    assert_error(&bad_ref, 400, "params.contentRefs.screenshot.file");
    let reader = post(tokens::READER, json!({"id": demo_ids::TEMPLATE_HOW_TO})).await;
    assert_error(&reader, 403, "edit");
    let merged = post(
        tokens::ADMIN,
        json!({"id": demo_ids::TEMPLATE_HOW_TO, "changeRequestId": demo_ids::CR_MERGED}),
    )
    .await;
    assert_error(&merged, 409, "merged");
    let missing_space = sandbox
        .admin(
            Method::POST,
            "/spaces/spc-nope/content/template",
            json!({"id": demo_ids::TEMPLATE_HOW_TO}),
        )
        .await;
    assert_error(&missing_space, 404, "spc-nope");
    sandbox.sandbox.shutdown().await;
}

//! The sandbox's change-request endpoints against the seed reference with
//! the service contract's parameter names and status codes: lists and filters, status changes,
//! merge and update, semantic changes, the change request's content next to main's, comments,
//! replies, reactions, reviews, requested reviewers and the role checks of every demo token.
//! Plain HTTP (reqwest + serde_json); nothing of the client's models.

use quire_sandbox::{Faults, Sandbox, SandboxOptions, demo_ids, tokens};
use reqwest::Method;
use serde_json::{Value, json};

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;

struct Harness {
    sandbox: Sandbox,
    http: reqwest::Client,
}

/// A status, the `Location` header if any, and the JSON body (`Null` when there is none).
struct Answer {
    status: u16,
    location: Option<String>,
    body: Value,
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

    fn url(&self, path: &str) -> String {
        format!("{}/v1{path}", self.sandbox.base_url())
    }

    async fn send(
        &self,
        method: Method,
        token: &str,
        path: impl Into<String>,
        body: Option<Value>,
    ) -> Answer {
        let path: String = path.into();
        let url = if path.starts_with("http") {
            path.to_string()
        } else {
            self.url(&path)
        };
        let mut request = self.http.request(method, url).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request is answered");
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get("location")
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        let text = response.text().await.expect("body is readable");
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text)
                .unwrap_or_else(|error| panic!("{path}: body is not JSON ({error}): {text}"))
        };
        Answer {
            status,
            location,
            body,
        }
    }

    /// GET as the admin, expecting 200.
    async fn get(&self, path: impl Into<String>) -> Value {
        self.get_as(tokens::ADMIN, path).await
    }

    async fn get_as(&self, token: &str, path: impl Into<String>) -> Value {
        let path: String = path.into();
        let answer = self.send(Method::GET, token, path.as_str(), None).await;
        assert_eq!(answer.status, 200, "GET {path}: {}", answer.body);
        answer.body
    }

    async fn status_of(
        &self,
        method: Method,
        token: &str,
        path: impl Into<String>,
        body: Option<Value>,
    ) -> u16 {
        self.send(method, token, path, body).await.status
    }
}

fn cr(id_or_number: impl std::fmt::Display) -> String {
    format!("/spaces/{SPACE}/change-requests/{id_or_number}")
}

fn review_cr(suffix: &str) -> String {
    format!("{}{suffix}", cr(demo_ids::CR_REVIEW))
}

fn ids_of(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn assert_error(answer: &Answer, expected: u16) {
    assert_eq!(answer.status, expected, "{}", answer.body);
    assert_eq!(answer.body["error"]["code"], expected, "{}", answer.body);
    assert!(
        answer.body["error"]["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty())
    );
}

fn find_page<'a>(pages: &'a Value, id: &str) -> Option<&'a Value> {
    pages.as_array()?.iter().find_map(|page| {
        if page["id"] == id {
            Some(page)
        } else {
            find_page(&page["pages"], id)
        }
    })
}

fn comment_json(text: &str) -> Value {
    json!({ "body": { "markdown": text } })
}

#[tokio::test]
async fn space_list_filters_and_order() {
    let harness = Harness::start().await;
    let list = |query: &str| harness.get(format!("/spaces/{SPACE}/change-requests{query}"));
    let open = list("").await;
    assert_eq!(
        ids_of(&open),
        [
            demo_ids::CR_REVIEW,
            demo_ids::CR_CONFLICTS,
            demo_ids::CR_OUTDATED
        ],
        "default status is open, newest update first"
    );
    assert_eq!(open["count"], 3);
    let first = &open["items"][0];
    assert_eq!(first["object"], "change-request");
    for key in [
        "id",
        "number",
        "status",
        "subject",
        "description",
        "createdBy",
        "createdAt",
        "updatedAt",
        "space",
        "revision",
        "revisionInitial",
        "comments",
        "outdated",
        "urls",
        "permissions",
    ] {
        assert!(first.get(key).is_some(), "missing {key} in {first}");
    }
    assert_eq!(first["description"]["object"], "document");
    assert_eq!(first["createdBy"]["object"], "user");
    for (status, expected) in [
        ("draft", demo_ids::CR_DRAFT),
        ("merged", demo_ids::CR_MERGED),
        ("archived", demo_ids::CR_ARCHIVED),
    ] {
        assert_eq!(
            ids_of(&list(&format!("?status={status}")).await),
            [expected]
        );
    }
    let by_creator = list(&format!("?creator={}", demo_ids::USER_HANNAH)).await;
    assert_eq!(ids_of(&by_creator), [demo_ids::CR_CONFLICTS]);
    let requested = list(&format!("?requestedReviewer={}", demo_ids::USER_REVIEWER)).await;
    assert_eq!(
        ids_of(&requested),
        [demo_ids::CR_REVIEW, demo_ids::CR_OUTDATED]
    );
    let contributed = list(&format!("?contributor={}", demo_ids::USER_COMMENTER)).await;
    assert_eq!(
        ids_of(&contributed),
        [demo_ids::CR_REVIEW, demo_ids::CR_OUTDATED]
    );
    let by_created = list("?orderBy=createdAt").await;
    let created: Vec<&str> = by_created["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["createdAt"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert!(
        created.windows(2).all(|pair| pair[0] >= pair[1]),
        "{created:?}"
    );
    let paged = list("?limit=2").await;
    assert_eq!(ids_of(&paged).len(), 2);
    assert!(paged["next"]["page"].is_string());
    for bad in ["?status=closed", "?orderBy=title", "?limit=0"] {
        let answer = harness
            .send(
                Method::GET,
                tokens::ADMIN,
                &format!("/spaces/{SPACE}/change-requests{bad}"),
                None,
            )
            .await;
        assert_error(&answer, 400);
    }
}

#[tokio::test]
async fn organization_list_takes_repeated_status_and_space() {
    let harness = Harness::start().await;
    let acme = |query: &str| {
        harness.get_as(
            tokens::READER,
            format!("/orgs/{}/change-requests{query}", demo_ids::ACME),
        )
    };
    let open = acme("").await;
    assert_eq!(open["count"], 4, "{open}");
    assert!(ids_of(&open).contains(&demo_ids::CR_RUNBOOK.to_string()));
    let open_and_draft = acme("?status=open&status=draft").await;
    assert_eq!(open_and_draft["count"], 5);
    assert!(ids_of(&open_and_draft).contains(&demo_ids::CR_DRAFT.to_string()));
    let runbooks = acme("?status=open&space=spc-platform-runbooks").await;
    assert_eq!(ids_of(&runbooks), [demo_ids::CR_RUNBOOK]);
    let all = acme("?status=open&status=draft&status=merged&status=archived").await;
    assert_eq!(all["count"], 7);
    let lumen = harness
        .get(&format!(
            "/orgs/{}/change-requests?status=open&status=draft",
            demo_ids::LUMEN
        ))
        .await;
    assert_eq!(
        ids_of(&lumen),
        [demo_ids::CR_LUMEN_DRAFT, demo_ids::CR_LUMEN_OPEN]
    );
    let bad = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            &format!(
                "/orgs/{}/change-requests?status=open&status=nope",
                demo_ids::ACME
            ),
            None,
        )
        .await;
    assert_error(&bad, 400);
    let unknown = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            "/orgs/org-nope/change-requests",
            None,
        )
        .await;
    assert_error(&unknown, 404);
}

#[tokio::test]
async fn get_by_id_or_number_and_permissions_follow_the_space() {
    let harness = Harness::start().await;
    let by_id = harness.get(&cr(demo_ids::CR_REVIEW)).await;
    let by_number = harness.get(&cr(demo_ids::CR_REVIEW_NUMBER)).await;
    assert_eq!(by_id, by_number);
    assert_eq!(by_id["number"], demo_ids::CR_REVIEW_NUMBER);
    assert_eq!(by_id["subject"], "Clarify token scopes in Quickstart");
    assert_eq!(by_id["outdated"], false);
    assert!(
        by_id["urls"]["location"]
            .as_str()
            .is_some_and(|url| url.ends_with(&cr(demo_ids::CR_REVIEW)))
    );
    let merged = harness.get(&cr(demo_ids::CR_MERGED_NUMBER)).await;
    assert_eq!(merged["status"], "merged");
    assert_eq!(merged["mergedBy"]["id"], demo_ids::USER_ADMIN);
    assert!(merged["mergedAt"].is_string() && merged["revisionMerged"].is_string());
    assert_eq!(
        harness.get(&cr(demo_ids::CR_OUTDATED)).await["outdated"],
        true
    );
    for missing in [cr("cr-nope"), cr(99), cr(demo_ids::CR_RUNBOOK)] {
        let answer = harness
            .send(Method::GET, tokens::ADMIN, &missing, None)
            .await;
        assert_error(&answer, 404);
    }
    let unknown_space = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            "/spaces/spc-nope/change-requests/1",
            None,
        )
        .await;
    assert_error(&unknown_space, 404);
    // (token, edit, comment, review, merge)
    let expected = [
        (tokens::ADMIN, true, true, true, true),
        (tokens::EDITOR, true, true, true, true),
        (tokens::REVIEWER, false, true, true, false),
        (tokens::COMMENTER, false, true, false, false),
        (tokens::READER, false, false, false, false),
    ];
    for (token, edit, comment, review, merge) in expected {
        let permissions = harness.get_as(token, &cr(1)).await["permissions"].clone();
        assert_eq!(permissions["view"], true, "{token}");
        assert_eq!(permissions["edit"], edit, "{token}");
        assert_eq!(permissions["comment"], comment, "{token}");
        assert_eq!(permissions["review"], review, "{token}");
        assert_eq!(permissions["merge"], merge, "{token}");
        let space = harness.get_as(token, &format!("/spaces/{SPACE}")).await;
        assert_eq!(space["permissions"]["merge"], merge, "{token}: space merge");
        assert_eq!(
            space["permissions"]["review"], review,
            "{token}: space review"
        );
    }
}

#[tokio::test]
async fn patch_changes_status_and_subject() {
    let harness = Harness::start().await;
    let space_before = harness.get(&format!("/spaces/{SPACE}")).await;
    assert_eq!(space_before["changeRequestsOpen"], 3);
    assert_eq!(space_before["changeRequestsDraft"], 1);
    let answer = harness
        .send(
            Method::PATCH,
            tokens::EDITOR,
            &cr(demo_ids::CR_REVIEW_NUMBER),
            Some(json!({ "status": "draft", "subject": "Clarify token scopes (v2)" })),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["object"], "change-request");
    assert_eq!(answer.body["status"], "draft");
    assert_eq!(answer.body["subject"], "Clarify token scopes (v2)");
    let open = harness
        .get(&format!("/spaces/{SPACE}/change-requests"))
        .await;
    assert!(!ids_of(&open).contains(&demo_ids::CR_REVIEW.to_string()));
    let space_after = harness.get(&format!("/spaces/{SPACE}")).await;
    assert_eq!(space_after["changeRequestsOpen"], 2);
    assert_eq!(space_after["changeRequestsDraft"], 2);
    let description = json!({ "object": "document", "data": {}, "nodes": [] });
    let answer = harness
        .send(
            Method::PATCH,
            tokens::EDITOR,
            &cr(demo_ids::CR_REVIEW),
            Some(json!({ "status": "open", "description": description })),
        )
        .await;
    assert_eq!(answer.body["status"], "open");
    assert_eq!(answer.body["description"], description);
    for bad in [
        json!({ "status": "merged" }),
        json!({ "status": "closed" }),
        json!({ "subject": "x".repeat(101) }),
        json!({ "status": 3 }),
    ] {
        let answer = harness
            .send(Method::PATCH, tokens::EDITOR, &cr(1), Some(bad.clone()))
            .await;
        assert_error(&answer, 400);
    }
    let minimal = harness
        .http
        .patch(harness.url(&cr(demo_ids::CR_DRAFT)))
        .bearer_auth(tokens::EDITOR)
        .header("prefer", "return=minimal")
        .json(&json!({ "status": "open" }))
        .send()
        .await
        .expect("answered");
    assert_eq!(minimal.status().as_u16(), 204);
    assert_eq!(
        minimal
            .headers()
            .get("preference-applied")
            .and_then(|value| value.to_str().ok()),
        Some("return=minimal")
    );
    assert_eq!(harness.get(&cr(demo_ids::CR_DRAFT)).await["status"], "open");
    let reviewer = harness
        .send(
            Method::PATCH,
            tokens::REVIEWER,
            &cr(1),
            Some(json!({ "status": "archived" })),
        )
        .await;
    assert_error(&reviewer, 403);
    let merged = harness
        .send(
            Method::PATCH,
            tokens::ADMIN,
            &cr(demo_ids::CR_MERGED),
            Some(json!({ "status": "open" })),
        )
        .await;
    assert_error(&merged, 409);
}

/// The space's `permissions.merge` is the whole rule: the merge route refuses exactly the
/// tokens it says no to, and the change request's own permissions agree. Editors may merge, as
/// in the public service; reviewers, commenters and readers may not.
#[tokio::test]
async fn merge_is_refused_exactly_when_the_space_says_no() {
    let harness = Harness::start().await;
    for token in tokens::ALL {
        let space = harness.get_as(token, format!("/spaces/{SPACE}")).await;
        let may = space["permissions"]["merge"].as_bool().expect("a boolean");
        let change_request = harness.get_as(token, cr(demo_ids::CR_CONFLICTS)).await;
        assert_eq!(change_request["permissions"]["merge"], may, "{token}");
        // The conflicting change request: an allowed merge answers `conflicts`, changing nothing.
        let merged = harness
            .send(
                Method::POST,
                token,
                format!("{}/merge", cr(demo_ids::CR_CONFLICTS)),
                None,
            )
            .await;
        assert_eq!(merged.status == 403, !may, "{token}: {}", merged.body);
    }
    let editor = harness
        .get_as(tokens::EDITOR, format!("/spaces/{SPACE}"))
        .await;
    assert_eq!(editor["permissions"]["merge"], true);
    let reviewer = harness
        .get_as(tokens::REVIEWER, format!("/spaces/{SPACE}"))
        .await;
    assert_eq!(reviewer["permissions"]["merge"], false);
}

#[tokio::test]
async fn merge_applies_the_change_request_to_main() {
    let harness = Harness::start().await;
    let merge =
        |token, id: &str| harness.send(Method::POST, token, format!("{}/merge", cr(id)), None);
    assert_error(&merge(tokens::REVIEWER, demo_ids::CR_REVIEW).await, 403);
    assert_error(&merge(tokens::COMMENTER, demo_ids::CR_REVIEW).await, 403);
    let conflicts = merge(tokens::ADMIN, demo_ids::CR_CONFLICTS).await;
    assert_eq!(conflicts.status, 200);
    assert_eq!(conflicts.body["result"], "conflicts");
    assert!(conflicts.body["revision"].is_string());
    let still = harness.get(&cr(demo_ids::CR_CONFLICTS)).await;
    assert_eq!(still["status"], "open");
    assert!(still.get("mergedBy").is_none());

    let main_revision = harness.get(&format!("/spaces/{SPACE}")).await["revision"].clone();
    let merged = merge(tokens::ADMIN, demo_ids::CR_REVIEW).await;
    assert_eq!(merged.status, 200, "{}", merged.body);
    assert_eq!(merged.body["result"], "merge");
    let revision = merged.body["revision"].clone();
    assert_ne!(revision, main_revision);
    let after = harness.get(&cr(demo_ids::CR_REVIEW)).await;
    assert_eq!(after["status"], "merged");
    assert_eq!(after["mergedBy"]["id"], demo_ids::USER_ADMIN);
    assert!(after["mergedAt"].is_string());
    assert_eq!(after["revisionMerged"], revision);
    assert_eq!(after["outdated"], false);
    let space = harness.get(&format!("/spaces/{SPACE}")).await;
    assert_eq!(space["revision"], revision);
    assert_eq!(space["changeRequestsOpen"], 2);
    // Main now has the created page and lost the deleted one.
    let pages = harness.get(&format!("/spaces/{SPACE}/content/pages")).await;
    assert!(find_page(&pages["pages"], demo_ids::PAGE_TOKEN_SCOPES).is_some());
    assert!(find_page(&pages["pages"], demo_ids::PAGE_HIDDEN).is_none());
    // Change requests based on the old main are now outdated.
    assert_eq!(harness.get(&cr(demo_ids::CR_DRAFT)).await["outdated"], true);
    // Only open change requests merge.
    assert_error(&merge(tokens::ADMIN, demo_ids::CR_REVIEW).await, 409);
    assert_error(&merge(tokens::ADMIN, demo_ids::CR_DRAFT).await, 409);
}

#[tokio::test]
async fn update_brings_main_in_and_clears_outdated() {
    let harness = Harness::start().await;
    let update =
        |token, id: &str| harness.send(Method::POST, token, format!("{}/update", cr(id)), None);
    assert_error(&update(tokens::REVIEWER, demo_ids::CR_OUTDATED).await, 403);
    let before = harness.get(&cr(demo_ids::CR_OUTDATED)).await;
    assert_eq!(before["outdated"], true);
    let updated = update(tokens::EDITOR, demo_ids::CR_OUTDATED).await;
    assert_eq!(updated.status, 200, "{}", updated.body);
    assert_eq!(updated.body["result"], "update");
    let after = harness.get(&cr(demo_ids::CR_OUTDATED)).await;
    assert_eq!(after["outdated"], false);
    assert_eq!(after["revision"], updated.body["revision"]);
    assert_ne!(after["revision"], before["revision"]);
    let space = harness.get(&format!("/spaces/{SPACE}")).await;
    assert_eq!(after["revisionMergedAncestor"], space["revision"]);
    // The FAQ now matches main inside the change request too.
    let harness = &harness;
    let faq = |path: String| async move { harness.get(&path).await["markdown"].clone() };
    assert_eq!(
        faq(format!(
            "{}/content/page/{}?format=markdown",
            cr(demo_ids::CR_OUTDATED),
            demo_ids::PAGE_FAQ
        ))
        .await,
        faq(format!(
            "/spaces/{SPACE}/content/page/{}?format=markdown",
            demo_ids::PAGE_FAQ
        ))
        .await
    );
    let conflicting = update(tokens::EDITOR, demo_ids::CR_CONFLICTS).await;
    assert_eq!(conflicting.body["result"], "conflicts");
    assert_eq!(
        harness.get(&cr(demo_ids::CR_CONFLICTS)).await["outdated"],
        true
    );
    assert_error(&update(tokens::EDITOR, demo_ids::CR_MERGED).await, 409);
}

#[tokio::test]
async fn changes_list_every_kind_and_count_the_rest() {
    let harness = Harness::start().await;
    let changes = harness.get(&review_cr("/changes")).await;
    let list = changes["changes"].as_array().cloned().unwrap_or_default();
    let has = |kind: &str, page: &str| {
        list.iter()
            .any(|change| change["type"] == kind && change["page"]["id"] == page)
    };
    assert!(
        has("page_created", demo_ids::PAGE_TOKEN_SCOPES),
        "{changes}"
    );
    assert!(has("page_edited", demo_ids::PAGE_QUICKSTART));
    assert!(has("page_edited", demo_ids::PAGE_REST_API));
    assert!(has("page_moved", demo_ids::PAGE_REST_API));
    assert!(has("page_deleted", demo_ids::PAGE_HIDDEN));
    assert!(changes.get("more").is_none());
    let edited = list
        .iter()
        .find(|change| change["type"] == "page_edited")
        .cloned()
        .unwrap_or_default();
    assert_eq!(edited["page"]["type"], "document");
    assert!(edited["page"]["title"].is_string() && edited["page"]["path"].is_string());
    assert!(edited["attributes"]["document"]["before"].is_string());
    assert_ne!(
        edited["attributes"]["document"]["before"],
        edited["attributes"]["document"]["after"]
    );
    let moved = list
        .iter()
        .find(|change| change["type"] == "page_moved")
        .cloned()
        .unwrap_or_default();
    assert_eq!(moved["parent"]["before"]["id"], "pg-gs-guides");
    assert_eq!(moved["parent"]["after"]["id"], demo_ids::PAGE_BASICS_GROUP);
    let total = list.len();
    let limited = harness.get(&review_cr("/changes?limit=2")).await;
    assert_eq!(limited["changes"].as_array().map(Vec::len), Some(2));
    assert_eq!(limited["more"], total - 2);
    let merged = harness
        .get(&format!("{}/changes", cr(demo_ids::CR_MERGED)))
        .await;
    assert_eq!(merged["changes"][0]["type"], "page_edited");
    assert_eq!(merged["changes"][0]["page"]["id"], demo_ids::PAGE_WELCOME);
    let bad = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            &review_cr("/changes?limit=x"),
            None,
        )
        .await;
    assert_error(&bad, 400);
}

#[tokio::test]
async fn change_request_content_differs_from_main() {
    let harness = Harness::start().await;
    let cr_pages = harness.get(&review_cr("/content/pages")).await;
    let main_pages = harness.get(&format!("/spaces/{SPACE}/content/pages")).await;
    assert!(find_page(&cr_pages["pages"], demo_ids::PAGE_TOKEN_SCOPES).is_some());
    assert!(find_page(&main_pages["pages"], demo_ids::PAGE_TOKEN_SCOPES).is_none());
    assert!(find_page(&cr_pages["pages"], demo_ids::PAGE_HIDDEN).is_none());
    assert!(find_page(&main_pages["pages"], demo_ids::PAGE_HIDDEN).is_some());
    let basics = find_page(&cr_pages["pages"], demo_ids::PAGE_BASICS_GROUP).cloned();
    assert!(
        basics.is_some_and(|group| find_page(&group["pages"], demo_ids::PAGE_REST_API).is_some())
    );

    let harness = &harness;
    let markdown = |path: String| async move {
        let page = harness.get(&path).await;
        page["markdown"].as_str().unwrap_or_default().to_string()
    };
    let quickstart = demo_ids::PAGE_QUICKSTART;
    let cr_text = markdown(review_cr(&format!(
        "/content/page/{quickstart}?format=markdown"
    )))
    .await;
    let main_text = markdown(format!(
        "/spaces/{SPACE}/content/page/{quickstart}?format=markdown"
    ))
    .await;
    assert_ne!(cr_text, main_text);
    assert!(cr_text.contains("## Check your token"));
    assert!(!main_text.contains("## Check your token"));

    let created = harness
        .send(
            Method::GET,
            tokens::READER,
            &review_cr(&format!(
                "/content/page/{}?format=markdown",
                demo_ids::PAGE_TOKEN_SCOPES
            )),
            None,
        )
        .await;
    assert_eq!(created.status, 200);
    assert!(
        created.body["markdown"]
            .as_str()
            .is_some_and(|text| text.starts_with("# Token scopes"))
    );
    let in_main = harness
        .send(
            Method::GET,
            tokens::READER,
            &format!(
                "/spaces/{SPACE}/content/page/{}",
                demo_ids::PAGE_TOKEN_SCOPES
            ),
            None,
        )
        .await;
    assert_error(&in_main, 404);
    let deleted = harness
        .send(
            Method::GET,
            tokens::READER,
            &review_cr(&format!("/content/page/{}", demo_ids::PAGE_HIDDEN)),
            None,
        )
        .await;
    assert_error(&deleted, 404);
    let document = harness
        .get(&review_cr(&format!(
            "/content/page/{quickstart}?format=document"
        )))
        .await;
    assert_eq!(document["document"]["object"], "document");
    let revision = harness.get(&review_cr("/content")).await;
    assert_eq!(revision["object"], "revision");
    let cr_revision = harness.get(&cr(1)).await["revision"].clone();
    assert_eq!(revision["id"], cr_revision);
}

#[tokio::test]
async fn comment_lists_filter_and_order() {
    let harness = Harness::start().await;
    let list =
        |query: &str| harness.get_as(tokens::READER, review_cr(&format!("/comments{query}")));
    let all = list("?limit=100&format=markdown").await;
    let count = all["count"].as_u64().unwrap_or(0);
    assert!(count >= 25, "{count}");
    let items = all["items"].as_array().cloned().unwrap_or_default();
    let posted: Vec<&str> = items
        .iter()
        .filter_map(|item| item["postedAt"].as_str())
        .collect();
    assert!(
        posted.windows(2).all(|pair| pair[0] >= pair[1]),
        "default order is desc"
    );
    let first = &items[0];
    assert_eq!(first["object"], "comment");
    for key in [
        "id",
        "postedBy",
        "postedAt",
        "reactions",
        "replies",
        "repliers",
        "body",
        "target",
        "urls",
        "permissions",
        "status",
    ] {
        assert!(first.get(key).is_some(), "missing {key} in {first}");
    }
    assert!(first["body"]["markdown"].is_string());
    assert_eq!(first["target"]["changeRequest"], demo_ids::CR_REVIEW);
    assert_eq!(first["target"]["space"], SPACE);
    let ascending = list("?limit=100&order=asc").await;
    let mut reversed = ids_of(&ascending);
    reversed.reverse();
    assert_eq!(reversed, ids_of(&all));
    let resolved = list("?status=resolved&limit=100").await;
    let open = list("?status=open&limit=100").await;
    assert!(resolved["count"].as_u64().unwrap_or(0) >= 5);
    assert_eq!(
        resolved["count"].as_u64().unwrap_or(0) + open["count"].as_u64().unwrap_or(0),
        count
    );
    assert!(
        resolved["items"]
            .as_array()
            .is_some_and(|items| items.iter().all(|item| {
                item["status"] == "resolved"
                    && item["resolvedAt"].is_string()
                    && item["resolvedBy"]["object"] == "user"
            }))
    );
    assert!(
        open["items"]
            .as_array()
            .is_some_and(|items| items.iter().all(|item| item["status"] == "open"))
    );
    assert_eq!(
        harness.get(&cr(1)).await["comments"],
        open["count"],
        "CR counts open comments"
    );
    let on_page = list(&format!(
        "?targetPage={}&limit=100",
        demo_ids::PAGE_TOKEN_SCOPES
    ))
    .await;
    assert!(on_page["count"].as_u64().unwrap_or(0) >= 5);
    assert!(on_page["items"].as_array().is_some_and(|items| {
        items
            .iter()
            .all(|item| item["target"]["page"]["id"] == demo_ids::PAGE_TOKEN_SCOPES)
    }));
    let by_authors = list(&format!(
        "?authors={}&authors={}&limit=100",
        demo_ids::USER_COMMENTER,
        demo_ids::USER_REVIEWER
    ))
    .await;
    assert!(by_authors["count"].as_u64().unwrap_or(0) >= 4);
    assert!(
        by_authors["items"]
            .as_array()
            .is_some_and(|items| items.iter().all(|item| {
                item["postedBy"]["id"] == demo_ids::USER_COMMENTER
                    || item["postedBy"]["id"] == demo_ids::USER_REVIEWER
            }))
    );
    let paged = list("").await;
    assert!(
        paged["next"]["page"].is_string(),
        "25+ threads need a second page"
    );
    for bad in ["?status=closed", "?order=up", "?format=html"] {
        let answer = harness
            .send(
                Method::GET,
                tokens::READER,
                &review_cr(&format!("/comments{bad}")),
                None,
            )
            .await;
        assert_error(&answer, 400);
    }
    let commenters = harness.get(&review_cr("/commenters?limit=100")).await;
    let members = commenters["items"].as_array().cloned().unwrap_or_default();
    assert!(members.len() >= 6);
    assert!(members.iter().all(|member| member["object"] == "member"));
    assert!(
        members
            .iter()
            .any(|member| member["id"] == demo_ids::USER_COMMENTER)
    );
    assert!(
        !members
            .iter()
            .any(|member| member["id"] == demo_ids::USER_READER)
    );
}

#[tokio::test]
async fn comments_post_edit_and_delete() {
    let harness = Harness::start().await;
    let posted = harness
        .send(
            Method::POST,
            tokens::COMMENTER,
            &review_cr("/comments"),
            Some(json!({
                "body": { "markdown": "Does this cover **OAuth** apps too?" },
                "page": demo_ids::PAGE_QUICKSTART,
                "node": "blk-intro",
            })),
        )
        .await;
    assert_eq!(posted.status, 200, "{}", posted.body);
    let comment = posted.body;
    assert_eq!(comment["object"], "comment");
    assert_eq!(comment["status"], "open");
    assert_eq!(comment["postedBy"]["id"], demo_ids::USER_COMMENTER);
    assert_eq!(comment["replies"], 0);
    assert_eq!(
        comment["body"]["markdown"],
        "Does this cover **OAuth** apps too?"
    );
    assert_eq!(comment["target"]["page"]["id"], demo_ids::PAGE_QUICKSTART);
    assert_eq!(comment["target"]["node"]["id"], "blk-intro");
    assert_eq!(
        comment["permissions"],
        json!({ "view": true, "edit": true, "reply": true, "delete": true })
    );
    let id = comment["id"].as_str().unwrap_or_default().to_string();
    let path = review_cr(&format!("/comments/{id}"));
    let seen_by_reviewer = harness.get_as(tokens::REVIEWER, &path).await;
    assert_eq!(
        seen_by_reviewer["permissions"],
        json!({ "view": true, "edit": false, "reply": true, "delete": false })
    );
    let seen_by_admin = harness.get(&path).await;
    assert_eq!(seen_by_admin["permissions"]["delete"], true);
    assert_eq!(seen_by_admin["permissions"]["edit"], false);
    let newest = harness.get(&review_cr("/comments?limit=1")).await;
    assert_eq!(ids_of(&newest), [id.as_str()]);

    let edited = harness
        .send(
            Method::PUT,
            tokens::COMMENTER,
            &path,
            Some(comment_json("Does this cover OAuth apps?")),
        )
        .await;
    assert_eq!(edited.status, 200);
    assert_eq!(
        edited.body["body"]["markdown"],
        "Does this cover OAuth apps?"
    );
    assert!(edited.body["editedAt"].is_string());
    let not_author = harness
        .send(
            Method::PUT,
            tokens::ADMIN,
            &path,
            Some(comment_json("hijacked")),
        )
        .await;
    assert_error(&not_author, 403);

    for bad in [
        json!({}),
        json!({ "body": { "markdown": "  " } }),
        json!({ "body": "text" }),
    ] {
        let answer = harness
            .send(
                Method::POST,
                tokens::COMMENTER,
                &review_cr("/comments"),
                Some(bad),
            )
            .await;
        assert_error(&answer, 400);
    }
    let unknown_page = harness
        .send(
            Method::POST,
            tokens::COMMENTER,
            &review_cr("/comments"),
            Some(json!({ "body": { "markdown": "hi" }, "page": "pg-nope" })),
        )
        .await;
    assert_error(&unknown_page, 400);
    // A page that exists only in the change request can be commented on.
    let on_created = harness
        .send(
            Method::POST,
            tokens::COMMENTER,
            &review_cr("/comments"),
            Some(json!({ "body": { "markdown": "hi" }, "page": demo_ids::PAGE_TOKEN_SCOPES })),
        )
        .await;
    assert_eq!(on_created.status, 200);

    let by_reviewer = harness
        .send(Method::DELETE, tokens::REVIEWER, &path, None)
        .await;
    assert_error(&by_reviewer, 403);
    assert_eq!(
        harness
            .status_of(Method::DELETE, tokens::COMMENTER, &path, None)
            .await,
        204
    );
    assert_eq!(
        harness
            .status_of(Method::DELETE, tokens::COMMENTER, &path, None)
            .await,
        204
    );
    assert_error(
        &harness.send(Method::GET, tokens::ADMIN, &path, None).await,
        404,
    );
    // The admin may delete anyone's comment.
    let others = review_cr("/comments/cmt-gs1-01");
    assert_eq!(
        harness
            .status_of(Method::DELETE, tokens::ADMIN, &others, None)
            .await,
        204
    );
    assert_error(
        &harness
            .send(Method::GET, tokens::ADMIN, &others, None)
            .await,
        404,
    );
}

#[tokio::test]
async fn reactions_add_remove_and_ignore_repeats() {
    let harness = Harness::start().await;
    let path = review_cr("/comments/cmt-gs1-01");
    let react = |token, added: &[&str], removed: &[&str]| {
        harness.send(
            Method::PUT,
            token,
            &path,
            Some(json!({ "addedReactions": added, "removedReactions": removed })),
        )
    };
    let reaction = |comment: &Value, emoji: &str| -> Option<Value> {
        comment["reactions"]
            .as_array()?
            .iter()
            .find(|reaction| reaction["emoji"] == emoji)
            .cloned()
    };
    let before = harness.get(&path).await;
    let thumbs = reaction(&before, "👍").unwrap_or_default();
    assert_eq!(thumbs["count"], 3);
    assert_eq!(thumbs["users"].as_array().map(Vec::len), Some(3));
    assert!(
        thumbs["users"][0]["user"]["object"] == "user"
            && thumbs["users"][0]["reactedAt"].is_string()
    );
    // The commenter already gave 👍: adding it again changes nothing.
    let again = react(tokens::COMMENTER, &["👍"], &[]).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(reaction(&again.body, "👍").unwrap_or_default()["count"], 3);
    let rocket = react(tokens::COMMENTER, &["🚀"], &[]).await;
    assert_eq!(reaction(&rocket.body, "🚀").unwrap_or_default()["count"], 1);
    let second = react(tokens::REVIEWER, &["🚀"], &[]).await;
    assert_eq!(reaction(&second.body, "🚀").unwrap_or_default()["count"], 2);
    // Removing a reaction one did not give changes nothing.
    let not_given = react(tokens::COMMENTER, &[], &["🎉"]).await;
    assert_eq!(
        reaction(&not_given.body, "🎉").unwrap_or_default()["count"],
        1
    );
    let removed = react(tokens::COMMENTER, &[], &["🚀", "👍"]).await;
    assert_eq!(
        reaction(&removed.body, "🚀").unwrap_or_default()["count"],
        1
    );
    assert_eq!(
        reaction(&removed.body, "👍").unwrap_or_default()["count"],
        2
    );
    let gone = react(tokens::REVIEWER, &[], &["🚀"]).await;
    assert!(
        reaction(&gone.body, "🚀").is_none(),
        "an emoji nobody gives disappears"
    );
    assert_error(&react(tokens::READER, &["👍"], &[]).await, 403);
    // Replies take reactions too.
    let reply_path = review_cr("/comments/cmt-gs1-01/replies/rpl-gs1-01-1");
    let on_reply = harness
        .send(
            Method::PUT,
            tokens::COMMENTER,
            &reply_path,
            Some(json!({ "addedReactions": ["👀"] })),
        )
        .await;
    assert_eq!(on_reply.status, 200);
    assert_eq!(on_reply.body["object"], "comment-reply");
    assert_eq!(on_reply.body["reactions"][0]["emoji"], "👀");
}

#[tokio::test]
async fn resolve_and_unresolve() {
    let harness = Harness::start().await;
    let open_before = harness.get(&cr(1)).await["comments"].as_u64().unwrap_or(0);
    let path = review_cr("/comments/cmt-gs1-04");
    assert_eq!(harness.get(&path).await["status"], "open");
    let resolved = harness
        .send(
            Method::PUT,
            tokens::COMMENTER,
            &path,
            Some(json!({ "resolved": true })),
        )
        .await;
    assert_eq!(resolved.status, 200, "{}", resolved.body);
    assert_eq!(resolved.body["status"], "resolved");
    assert_eq!(resolved.body["resolvedBy"]["id"], demo_ids::USER_COMMENTER);
    assert!(resolved.body["resolvedAt"].is_string());
    assert_eq!(harness.get(&cr(1)).await["comments"], open_before - 1);
    let reopened = harness
        .send(
            Method::PUT,
            tokens::REVIEWER,
            &path,
            Some(json!({ "resolved": false })),
        )
        .await;
    assert_eq!(reopened.body["status"], "open");
    assert!(reopened.body.get("resolvedAt").is_none());
    assert!(reopened.body.get("resolvedBy").is_none());
    assert_eq!(harness.get(&cr(1)).await["comments"], open_before);
    let reader = harness
        .send(
            Method::PUT,
            tokens::READER,
            &path,
            Some(json!({ "resolved": true })),
        )
        .await;
    assert_error(&reader, 403);
}

#[tokio::test]
async fn replies_keep_counts_right() {
    let harness = Harness::start().await;
    let comment_path = review_cr("/comments/cmt-gs1-01");
    let replies_path = format!("{comment_path}/replies");
    let replies = harness.get(&replies_path).await;
    assert_eq!(replies["count"], 2);
    assert_eq!(replies["items"][0]["object"], "comment-reply");
    for key in [
        "id",
        "postedBy",
        "postedAt",
        "reactions",
        "body",
        "urls",
        "permissions",
    ] {
        assert!(replies["items"][0].get(key).is_some(), "missing {key}");
    }
    let comment = harness.get(&comment_path).await;
    assert_eq!(comment["replies"], 2);
    assert_eq!(comment["repliers"].as_array().map(Vec::len), Some(2));

    let mut posted_ids = Vec::new();
    for text in ["First from me", "Second from me"] {
        let posted = harness
            .send(
                Method::POST,
                tokens::REVIEWER,
                &format!("{replies_path}?format=markdown"),
                Some(comment_json(text)),
            )
            .await;
        assert_eq!(posted.status, 200, "{}", posted.body);
        assert_eq!(posted.body["object"], "comment-reply");
        assert_eq!(posted.body["body"]["markdown"], text);
        posted_ids.push(posted.body["id"].as_str().unwrap_or_default().to_string());
    }
    let comment = harness.get(&comment_path).await;
    assert_eq!(comment["replies"], 4);
    let repliers = comment["repliers"].as_array().cloned().unwrap_or_default();
    let mine = repliers
        .iter()
        .find(|replier| replier["user"]["id"] == demo_ids::USER_REVIEWER)
        .cloned()
        .unwrap_or_default();
    assert_eq!(mine["count"], 2);
    assert!(mine["updatedAt"].is_string());

    let reply_path = format!("{replies_path}/{}", posted_ids[0]);
    let fetched = harness.get_as(tokens::READER, &reply_path).await;
    assert_eq!(fetched["id"], posted_ids[0].as_str());
    assert_eq!(fetched["permissions"]["reply"], false);
    let edited = harness
        .send(
            Method::PUT,
            tokens::REVIEWER,
            &reply_path,
            Some(comment_json("First, edited")),
        )
        .await;
    assert_eq!(edited.body["body"]["markdown"], "First, edited");
    assert!(edited.body["editedAt"].is_string());
    let not_author = harness
        .send(
            Method::PUT,
            tokens::COMMENTER,
            &reply_path,
            Some(comment_json("mine now")),
        )
        .await;
    assert_error(&not_author, 403);
    assert_error(
        &harness
            .send(Method::DELETE, tokens::COMMENTER, &reply_path, None)
            .await,
        403,
    );
    assert_eq!(
        harness
            .status_of(Method::DELETE, tokens::REVIEWER, &reply_path, None)
            .await,
        204
    );
    assert_eq!(
        harness
            .status_of(Method::DELETE, tokens::REVIEWER, &reply_path, None)
            .await,
        204
    );
    let comment = harness.get(&comment_path).await;
    assert_eq!(comment["replies"], 3);
    let mine = comment["repliers"]
        .as_array()
        .and_then(|repliers| {
            repliers
                .iter()
                .find(|replier| replier["user"]["id"] == demo_ids::USER_REVIEWER)
                .cloned()
        })
        .unwrap_or_default();
    assert_eq!(mine["count"], 1);
    let reader = harness
        .send(
            Method::POST,
            tokens::READER,
            &replies_path,
            Some(comment_json("can I?")),
        )
        .await;
    assert_error(&reader, 403);
    let missing = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            &review_cr("/comments/cmt-nope/replies"),
            None,
        )
        .await;
    assert_error(&missing, 404);
}

#[tokio::test]
async fn reviews_are_created_with_location_and_outdate_earlier_ones() {
    let harness = Harness::start().await;
    let reviews = harness.get(&review_cr("/reviews")).await;
    assert_eq!(reviews["count"], 2);
    let first = &reviews["items"][0];
    assert_eq!(first["object"], "change-request-review");
    assert_eq!(first["status"], "changes-requested");
    assert_eq!(first["outdated"], true);
    assert_eq!(first["comment"]["object"], "comment");
    assert_eq!(reviews["items"][1]["status"], "approved");
    assert_eq!(reviews["items"][1]["outdated"], false);
    let current = harness.get(&review_cr("/reviews?outdated=false")).await;
    assert_eq!(current["count"], 1);

    let requested = harness.get(&review_cr("/requested-reviewers")).await;
    assert!(ids_of_users(&requested).contains(&demo_ids::USER_REVIEWER.to_string()));
    let submitted = harness
        .send(
            Method::POST,
            tokens::REVIEWER,
            &review_cr("/reviews"),
            Some(json!({ "status": "approved" })),
        )
        .await;
    assert_eq!(submitted.status, 201, "{}", submitted.body);
    let review = submitted.body;
    assert_eq!(review["object"], "change-request-review");
    assert_eq!(review["reviewer"]["id"], demo_ids::USER_REVIEWER);
    assert_eq!(review["status"], "approved");
    assert_eq!(review["outdated"], false);
    assert_eq!(review["requestedBy"]["id"], demo_ids::USER_FATIMA);
    let location = submitted.location.unwrap_or_default();
    assert_eq!(review["urls"]["location"], location.as_str());
    let fetched = harness.get(&location).await;
    assert_eq!(fetched["id"], review["id"]);
    let requested = harness.get(&review_cr("/requested-reviewers")).await;
    assert!(!ids_of_users(&requested).contains(&demo_ids::USER_REVIEWER.to_string()));

    let again = harness
        .send(
            Method::POST,
            tokens::REVIEWER,
            &review_cr("/reviews"),
            Some(json!({ "status": "changes-requested", "comment": { "markdown": "One more thing about jq." } })),
        )
        .await;
    assert_eq!(again.status, 201);
    assert_eq!(
        again.body["comment"]["body"]["markdown"],
        "One more thing about jq."
    );
    assert_eq!(again.body["comment"]["target"]["review"], again.body["id"]);
    let earlier = harness.get(&location).await;
    assert_eq!(earlier["outdated"], true);
    let reviews = harness.get(&review_cr("/reviews")).await;
    assert_eq!(reviews["count"], 4);

    assert_error(
        &harness
            .send(
                Method::POST,
                tokens::COMMENTER,
                &review_cr("/reviews"),
                Some(json!({ "status": "approved" })),
            )
            .await,
        403,
    );
    for bad in [json!({}), json!({ "status": "lgtm" })] {
        let answer = harness
            .send(
                Method::POST,
                tokens::REVIEWER,
                &review_cr("/reviews"),
                Some(bad),
            )
            .await;
        assert_error(&answer, 400);
    }
    let merged = harness
        .send(
            Method::POST,
            tokens::REVIEWER,
            &format!("{}/reviews", cr(demo_ids::CR_MERGED)),
            Some(json!({ "status": "approved" })),
        )
        .await;
    assert_error(&merged, 409);
    let missing = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            &review_cr("/reviews/rvw-nope"),
            None,
        )
        .await;
    assert_error(&missing, 404);
}

fn ids_of_users(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["user"]["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn requested_reviewers_add_and_remove() {
    let harness = Harness::start().await;
    let path = review_cr("/requested-reviewers");
    let list = harness.get_as(tokens::READER, &path).await;
    assert_eq!(list["count"], 2);
    let first = &list["items"][0];
    assert_eq!(first["object"], "change-request-requested-reviewer");
    assert_eq!(first["kind"], "user");
    assert_eq!(first["requestedBy"]["id"], demo_ids::USER_FATIMA);
    assert!(first["createdAt"].is_string());
    assert_eq!(
        ids_of_users(&list),
        [demo_ids::USER_REVIEWER, demo_ids::USER_SOFIA]
    );

    let added = harness
        .send(
            Method::POST,
            tokens::EDITOR,
            &path,
            Some(json!({ "users": [demo_ids::USER_LARS, demo_ids::USER_REVIEWER] })),
        )
        .await;
    assert_eq!(added.status, 200, "{}", added.body);
    let users = added.body["users"].as_array().cloned().unwrap_or_default();
    assert_eq!(users.len(), 2);
    assert!(
        users
            .iter()
            .any(|user| user["user"]["id"] == demo_ids::USER_LARS
                && user["requestedBy"]["id"] == demo_ids::USER_EDITOR)
    );
    let list = harness.get(&path).await;
    assert_eq!(
        list["count"], 3,
        "no duplicate for an already requested reviewer"
    );
    let by_filter = harness
        .get(&format!(
            "/spaces/{SPACE}/change-requests?requestedReviewer={}",
            demo_ids::USER_LARS
        ))
        .await;
    assert_eq!(ids_of(&by_filter), [demo_ids::CR_REVIEW]);

    let user_path = format!("{path}/{}", demo_ids::USER_LARS);
    assert_eq!(
        harness
            .status_of(Method::DELETE, tokens::EDITOR, &user_path, None)
            .await,
        205
    );
    assert_eq!(
        harness
            .status_of(Method::DELETE, tokens::EDITOR, &user_path, None)
            .await,
        204
    );
    assert_eq!(harness.get(&path).await["count"], 2);

    let not_a_reviewer = harness
        .send(
            Method::POST,
            tokens::EDITOR,
            &path,
            Some(json!({ "users": [demo_ids::USER_READER] })),
        )
        .await;
    assert_error(&not_a_reviewer, 400);
    let missing_users = harness
        .send(Method::POST, tokens::EDITOR, &path, Some(json!({})))
        .await;
    assert_error(&missing_users, 400);
    let commenter = harness
        .send(
            Method::POST,
            tokens::COMMENTER,
            &path,
            Some(json!({ "users": [demo_ids::USER_LARS] })),
        )
        .await;
    assert_error(&commenter, 403);
    let commenter_delete = harness
        .send(
            Method::DELETE,
            tokens::COMMENTER,
            &format!("{path}/{}", demo_ids::USER_SOFIA),
            None,
        )
        .await;
    assert_error(&commenter_delete, 403);
    // A requested reviewer may step down themselves.
    let own = format!("{path}/{}", demo_ids::USER_REVIEWER);
    assert_eq!(
        harness
            .status_of(Method::DELETE, tokens::REVIEWER, &own, None)
            .await,
        205
    );
}

/// One table of what each demo token may do; every denial is a 403 with the error body whose
/// message names the role needed.
#[tokio::test]
async fn role_checks_for_every_demo_token() {
    let harness = Harness::start().await;
    // (token, comment, reply, react, resolve, review, patch, update, merge)
    let table = [
        (
            tokens::READER,
            false,
            false,
            false,
            false,
            false,
            false,
            false,
            false,
        ),
        (
            tokens::COMMENTER,
            true,
            true,
            true,
            true,
            false,
            false,
            false,
            false,
        ),
        (
            tokens::REVIEWER,
            true,
            true,
            true,
            true,
            true,
            false,
            false,
            false,
        ),
        (
            tokens::EDITOR,
            true,
            true,
            true,
            true,
            true,
            true,
            true,
            true,
        ),
        (
            tokens::ADMIN,
            true,
            true,
            true,
            true,
            true,
            true,
            true,
            true,
        ),
    ];
    for (token, comment, reply, react, resolve, review, patch, update, merge) in table {
        // Every token can read.
        harness.get_as(token, &cr(1)).await;
        harness.get_as(token, &review_cr("/comments")).await;
        harness.get_as(token, &review_cr("/reviews")).await;
        let checks = [
            (
                "comment",
                comment,
                harness
                    .send(
                        Method::POST,
                        token,
                        &review_cr("/comments"),
                        Some(comment_json("hello")),
                    )
                    .await,
            ),
            (
                "reply",
                reply,
                harness
                    .send(
                        Method::POST,
                        token,
                        &review_cr("/comments/cmt-gs1-05/replies"),
                        Some(comment_json("hello")),
                    )
                    .await,
            ),
            (
                "react",
                react,
                harness
                    .send(
                        Method::PUT,
                        token,
                        &review_cr("/comments/cmt-gs1-05"),
                        Some(json!({ "addedReactions": ["👍"] })),
                    )
                    .await,
            ),
            (
                "resolve",
                resolve,
                harness
                    .send(
                        Method::PUT,
                        token,
                        &review_cr("/comments/cmt-gs1-06"),
                        Some(json!({ "resolved": false })),
                    )
                    .await,
            ),
            (
                "review",
                review,
                harness
                    .send(
                        Method::POST,
                        token,
                        &format!("{}/reviews", cr(demo_ids::CR_OUTDATED)),
                        Some(json!({ "status": "approved" })),
                    )
                    .await,
            ),
            (
                "patch",
                patch,
                harness
                    .send(
                        Method::PATCH,
                        token,
                        &cr(demo_ids::CR_CONFLICTS),
                        Some(json!({ "status": "open" })),
                    )
                    .await,
            ),
            (
                "update",
                update,
                harness
                    .send(
                        Method::POST,
                        token,
                        &format!("{}/update", cr(demo_ids::CR_CONFLICTS)),
                        None,
                    )
                    .await,
            ),
        ];
        for (action, allowed, answer) in checks {
            if allowed {
                assert!(
                    (200..300).contains(&answer.status),
                    "{token} {action}: {}",
                    answer.body
                );
            } else {
                assert_error(&answer, 403);
                let message = answer.body["error"]["message"].as_str().unwrap_or_default();
                assert!(message.contains("role"), "{token} {action}: {message}");
            }
        }
        // Merge last: the first allowed merge changes the world (conflicting CR, so it does not).
        let merged = harness
            .send(
                Method::POST,
                token,
                &format!("{}/merge", cr(demo_ids::CR_CONFLICTS)),
                None,
            )
            .await;
        if merge {
            assert_eq!(merged.status, 200, "{token} merge: {}", merged.body);
        } else {
            assert_error(&merged, 403);
            let message = merged.body["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains("merge permission"), "{message}");
        }
    }
}

#[tokio::test]
async fn faults_apply_to_change_request_routes() {
    let harness = Harness::start().await;
    harness.sandbox.set_faults(Faults {
        fail_with: Some(503),
        ..Faults::default()
    });
    let answer = harness
        .send(Method::GET, tokens::ADMIN, &review_cr("/comments"), None)
        .await;
    assert_error(&answer, 503);
    harness.sandbox.set_faults(Faults {
        endless_next: true,
        ..Faults::default()
    });
    let first = harness.get(&review_cr("/comments?limit=5")).await;
    let cursor = first["next"]["page"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let later = harness
        .get(&review_cr(&format!("/comments?limit=5&page={cursor}")))
        .await;
    assert_eq!(later["next"]["page"], cursor.as_str());
    harness.sandbox.set_faults(Faults::default());
    let unauthorized = harness
        .http
        .get(harness.url(&review_cr("/comments")))
        .send()
        .await
        .expect("answered");
    assert_eq!(unauthorized.status().as_u16(), 401);
}

// ---------------------------------------------------------------------------------------------
// Change requests: create, description, PDF, the cluster filter and the clusters list

#[tokio::test]
async fn create_answers_201_with_location_and_numbers_after_the_last() {
    let harness = Harness::start().await;
    let path = format!("/spaces/{SPACE}/change-requests");
    let created = harness
        .send(
            Method::POST,
            tokens::EDITOR,
            path.as_str(),
            Some(json!({"subject": "Explain scopes"})),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let body = &created.body;
    assert_eq!(body["object"], "change-request");
    assert_eq!(body["subject"], "Explain scopes");
    assert_eq!(body["status"], "open");
    assert_eq!(body["createdBy"]["id"], demo_ids::USER_EDITOR);
    let id = body["id"].as_str().expect("an id").to_string();
    assert_eq!(body["number"], 7, "six demo change requests before it");
    let location = created.location.expect("a Location header");
    assert!(location.ends_with(&format!("/spaces/{SPACE}/change-requests/{id}")));
    // Stored: readable over HTTP, with the space's content as its own.
    let read = harness.get(location).await;
    assert_eq!(read["subject"], "Explain scopes");
    let pages = harness.get(format!("{}/content/pages", cr(&id))).await;
    let main = harness.get(format!("/spaces/{SPACE}/content/pages")).await;
    assert_eq!(ids_of_pages(&pages["pages"]), ids_of_pages(&main["pages"]));
    let listed = harness.get(format!("{path}?status=open&limit=100")).await;
    assert!(ids_of(&listed).contains(&id));
}

fn ids_of_pages(pages: &Value) -> Vec<String> {
    pages
        .as_array()
        .map(|pages| {
            pages
                .iter()
                .filter_map(|page| page["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn create_refuses_long_or_odd_subjects_readers_and_unknown_spaces() {
    let harness = Harness::start().await;
    let path = format!("/spaces/{SPACE}/change-requests");
    let long = harness
        .send(
            Method::POST,
            tokens::ADMIN,
            path.as_str(),
            Some(json!({"subject": "x".repeat(101)})),
        )
        .await;
    assert_error(&long, 400);
    assert!(
        long.body["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("subject")
    );
    let odd = harness
        .send(
            Method::POST,
            tokens::ADMIN,
            path.as_str(),
            Some(json!({"subject": 7})),
        )
        .await;
    assert_error(&odd, 400);
    let reader = harness
        .send(
            Method::POST,
            tokens::READER,
            path.as_str(),
            Some(json!({"subject": "Hi"})),
        )
        .await;
    assert_error(&reader, 403);
    let missing = harness
        .send(
            Method::POST,
            tokens::ADMIN,
            "/spaces/spc-nowhere/change-requests",
            Some(json!({"subject": "Hi"})),
        )
        .await;
    assert_error(&missing, 404);
}

#[tokio::test]
async fn description_is_stored_as_sent_and_must_be_an_object() {
    let harness = Harness::start().await;
    let document = json!({"object": "document", "data": {}, "nodes": [
        {"object": "block", "type": "heading-1", "data": {}, "nodes": [
            {"object": "text", "leaves": [{"object": "leaf", "text": "Why", "marks": []}]}]}
    ]});
    let answer = harness
        .send(
            Method::PATCH,
            tokens::EDITOR,
            cr(demo_ids::CR_REVIEW),
            Some(json!({"description": document})),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let read = harness.get(cr(demo_ids::CR_REVIEW)).await;
    assert_eq!(read["description"], document);
    assert_eq!(read["subject"], "Clarify token scopes in Quickstart");
    let refused = harness
        .send(
            Method::PATCH,
            tokens::EDITOR,
            cr(demo_ids::CR_REVIEW),
            Some(json!({"description": "text"})),
        )
        .await;
    assert_error(&refused, 400);
}

#[tokio::test]
async fn pdf_of_a_change_request_and_of_one_of_its_pages() {
    let harness = Harness::start().await;
    let whole = harness.get_as(tokens::READER, review_cr("/pdf")).await;
    let url = whole["url"].as_str().expect("a url");
    assert!(
        url.starts_with("https://") && url.ends_with(".pdf"),
        "{url}"
    );
    let page = harness
        .get(review_cr(&format!(
            "/pdf?page={}&only=true",
            demo_ids::PAGE_TOKEN_SCOPES
        )))
        .await;
    assert!(
        page["url"]
            .as_str()
            .is_some_and(|url| url.contains(demo_ids::PAGE_TOKEN_SCOPES))
    );
    let missing_page = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            review_cr("/pdf?page=pg-nowhere"),
            None,
        )
        .await;
    assert_error(&missing_page, 404);
    let odd_only = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            review_cr("/pdf?only=maybe"),
            None,
        )
        .await;
    assert_error(&odd_only, 400);
    let missing = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            format!("{}/pdf", cr("cr-nowhere")),
            None,
        )
        .await;
    assert_error(&missing, 404);
}

#[tokio::test]
async fn lists_filter_by_issues_cluster() {
    let harness = Harness::start().await;
    let space = harness
        .get(format!(
            "/spaces/{SPACE}/change-requests?conversationsIssuesCluster={}",
            demo_ids::CLUSTER_TOKEN_ERRORS
        ))
        .await;
    assert_eq!(ids_of(&space), vec![demo_ids::CR_REVIEW.to_string()]);
    assert_eq!(
        space["items"][0]["conversationsIssuesCluster"],
        demo_ids::CLUSTER_TOKEN_ERRORS
    );
    let organization = harness
        .get(format!(
            "/orgs/{}/change-requests?conversationsIssuesCluster={}",
            demo_ids::ACME,
            demo_ids::CLUSTER_FAILOVER
        ))
        .await;
    assert_eq!(
        ids_of(&organization),
        vec![demo_ids::CR_RUNBOOK.to_string()]
    );
    let none = harness
        .get(format!(
            "/orgs/{}/change-requests?conversationsIssuesCluster={}",
            demo_ids::ACME,
            demo_ids::CLUSTER_BILLING
        ))
        .await;
    assert!(ids_of(&none).is_empty());
}

#[tokio::test]
async fn clusters_list_is_paged_ordered_and_per_organization() {
    let harness = Harness::start().await;
    let path = format!("/orgs/{}/conversations-clusters", demo_ids::ACME);
    let all = harness.get_as(tokens::READER, path.as_str()).await;
    assert_eq!(all["items"].as_array().map(Vec::len), Some(4));
    let first = &all["items"][0];
    assert_eq!(first["object"], "issues-cluster");
    for field in ["id", "label", "createdAt", "updatedAt", "icon", "summary"] {
        assert!(first[field].is_string(), "{field}: {first}");
    }
    assert!(first["weeklyPulse"].is_array() && first["sources"].is_object());
    assert!(first["stats"]["issues"].is_number() && first["urls"]["app"].is_string());
    // Default order: most recently updated first; asc reverses it.
    let updated: Vec<String> = all["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["updatedAt"].as_str().map(str::to_string))
        .collect();
    let mut sorted = updated.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(updated, sorted);
    let ascending = harness.get(format!("{path}?order=asc")).await;
    assert_eq!(
        ascending["items"][0]["id"], all["items"][3]["id"],
        "asc starts with the oldest"
    );
    let paged = harness.get(format!("{path}?limit=3")).await;
    assert_eq!(paged["items"].as_array().map(Vec::len), Some(3));
    let next = paged["next"]["page"].as_str().expect("a next page");
    let rest = harness.get(format!("{path}?limit=3&page={next}")).await;
    assert_eq!(rest["items"].as_array().map(Vec::len), Some(1));
    let lumen = harness
        .get(format!("/orgs/{}/conversations-clusters", demo_ids::LUMEN))
        .await;
    assert_eq!(lumen["items"], json!([]));
    let bad_order = harness
        .send(Method::GET, tokens::ADMIN, format!("{path}?order=up"), None)
        .await;
    assert_error(&bad_order, 400);
    let bad_sort = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            format!("{path}?sort=label"),
            None,
        )
        .await;
    assert_error(&bad_sort, 400);
    let missing = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            "/orgs/org-nowhere/conversations-clusters",
            None,
        )
        .await;
    assert_error(&missing, 404);
}

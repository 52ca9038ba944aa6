//! Holds the sandbox's JSON against the seed API reference: field names and `object` values,
//! the list envelope and paging, error bodies and status codes, filters, faults and latency.
//! These tests speak plain HTTP (reqwest + serde_json) and use nothing of the client's models.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use quire_sandbox::{Faults, Sandbox, SandboxOptions, demo_ids, tokens};
use serde_json::Value;

struct Harness {
    sandbox: Sandbox,
    http: reqwest::Client,
}

impl Harness {
    async fn start() -> Harness {
        Harness::with_options(SandboxOptions::default()).await
    }

    async fn with_options(options: SandboxOptions) -> Harness {
        let address = "127.0.0.1:0".parse().expect("literal address");
        let sandbox = Sandbox::start(address, options)
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

    /// GET with a token (or none); returns the status and the parsed JSON body.
    async fn get_as(&self, token: Option<&str>, path: &str) -> (u16, Value) {
        let mut request = self.http.get(self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("request is answered");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body is readable");
        let body = serde_json::from_str(&text)
            .unwrap_or_else(|error| panic!("{path}: body is not JSON ({error}): {text}"));
        (status, body)
    }

    async fn get(&self, path: &str) -> Value {
        let (status, body) = self.get_as(Some(tokens::ADMIN), path).await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    /// Follows `next.page` to the end, checking the envelope on every page.
    async fn all_items(&self, path: &str, limit: usize) -> Vec<Value> {
        let separator = if path.contains('?') { '&' } else { '?' };
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..1000 {
            let mut url = format!("{path}{separator}limit={limit}");
            if let Some(cursor) = &cursor {
                url.push_str(&format!("&page={cursor}"));
            }
            let body = self.get(&url).await;
            let page = body["items"].as_array().expect("items array").clone();
            assert!(page.len() <= limit, "{url}: page larger than limit");
            let count = body["count"].as_u64().expect("count number") as usize;
            items.extend(page);
            match body.get("next") {
                Some(next) => {
                    let next = next["page"].as_str().expect("next.page string");
                    assert!(items.len() < count, "{url}: next after all {count} items");
                    cursor = Some(next.to_string());
                }
                None => {
                    assert_eq!(items.len(), count, "{url}: count is the total");
                    return items;
                }
            }
        }
        panic!("{path}: paging never ended");
    }
}

fn assert_error(status: u16, body: &Value, expected: u16) {
    assert_eq!(status, expected, "{body}");
    assert_eq!(body["error"]["code"], expected, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{body}"
    );
}

fn keys(value: &Value) -> HashSet<&str> {
    value
        .as_object()
        .map(|object| object.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

fn assert_has_keys(value: &Value, expected: &[&str]) {
    let present = keys(value);
    let missing: Vec<_> = expected
        .iter()
        .filter(|key| !present.contains(**key))
        .collect();
    assert!(missing.is_empty(), "missing {missing:?} in {value}");
}

fn is_iso_timestamp(value: &Value) -> bool {
    value.as_str().is_some_and(|text| {
        text.len() >= 20 && text.as_bytes()[4] == b'-' && text.contains('T') && text.ends_with('Z')
    })
}

fn count_pages(pages: &Value) -> usize {
    pages.as_array().map_or(0, |pages| {
        pages
            .iter()
            .map(|page| 1 + count_pages(&page["pages"]))
            .sum()
    })
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

#[tokio::test]
async fn api_information_and_current_user() {
    let harness = Harness::start().await;
    for path in ["/", ""] {
        let info = harness.get(path).await;
        assert!(
            info["version"].is_string() && info["build"].is_string(),
            "{info}"
        );
    }
    let user = harness.get("/user").await;
    assert_eq!(user["object"], "user");
    assert_eq!(user["id"], demo_ids::USER_ADMIN);
    assert_has_keys(&user, &["id", "displayName", "email", "photoURL", "urls"]);
    assert!(user["urls"]["location"].is_string());

    let mut ids = HashSet::new();
    for token in [
        tokens::ADMIN,
        tokens::EDITOR,
        tokens::REVIEWER,
        tokens::COMMENTER,
        tokens::READER,
    ] {
        let (status, user) = harness.get_as(Some(token), "/user").await;
        assert_eq!(status, 200);
        ids.insert(user["id"].as_str().unwrap_or_default().to_string());
    }
    assert_eq!(ids.len(), 5, "each token is a distinct user");
}

#[tokio::test]
async fn organizations_match_the_reference() {
    let harness = Harness::start().await;
    let list = harness.get("/orgs").await;
    assert_eq!(list["count"], 2);
    assert!(list.get("next").is_none());
    let items = list["items"].as_array().expect("items");
    assert_eq!(items[0]["id"], demo_ids::ACME);
    for organization in items {
        assert_eq!(organization["object"], "organization");
        assert_has_keys(
            organization,
            &[
                "id",
                "title",
                "createdAt",
                "emailDomains",
                "hostname",
                "type",
                "inviteLinks",
                "plan",
                "billing",
                "mergeRules",
                "urls",
                "trial",
                "permissions",
            ],
        );
        assert!(is_iso_timestamp(&organization["createdAt"]));
        assert_has_keys(&organization["urls"], &["location", "app"]);
        assert_has_keys(
            &organization["permissions"],
            &[
                "view",
                "admin",
                "ownTeam",
                "createContent",
                "createOpenAPISpec",
                "viewBilling",
                "listMembers",
                "listTeams",
                "listIntegrations",
                "listInstallations",
                "installIntegration",
            ],
        );
    }
    let types: HashSet<_> = items.iter().map(|o| o["type"].clone()).collect();
    assert!(types.contains(&Value::from("business")) && types.contains(&Value::from("community")));
    let plans: HashSet<_> = items.iter().map(|o| o["plan"].clone()).collect();
    assert!(plans.contains(&Value::from("pro_2024")));
    assert!(plans.contains(&Value::from("community_2024")));

    let acme = harness.get(&format!("/orgs/{}", demo_ids::ACME)).await;
    assert_eq!(acme["title"], "Acme Robotics");
    assert_eq!(acme["permissions"]["admin"], true);
    let (_, as_reader) = harness
        .get_as(Some(tokens::READER), &format!("/orgs/{}", demo_ids::ACME))
        .await;
    assert_eq!(as_reader["permissions"]["admin"], false);
}

#[tokio::test]
async fn collections_nest_three_levels_and_filter_top_level() {
    let harness = Harness::start().await;
    let path = format!("/orgs/{}/collections", demo_ids::ACME);
    let nested = harness.get(&path).await;
    let all = nested["items"].as_array().expect("items");
    assert_eq!(all.len(), 4);
    for collection in all {
        assert_eq!(collection["object"], "collection");
        assert_has_keys(
            collection,
            &[
                "id",
                "title",
                "organization",
                "defaultLevel",
                "urls",
                "permissions",
            ],
        );
        assert_has_keys(&collection["urls"], &["location", "app"]);
        assert_has_keys(
            &collection["permissions"],
            &["view", "admin", "viewInviteLinks", "create"],
        );
    }
    let top = harness.get(&format!("{path}?nested=false")).await;
    let top = top["items"].as_array().expect("items");
    assert_eq!(top.len(), 2);
    assert!(
        top.iter()
            .all(|collection| collection.get("parent").is_none())
    );
    assert_eq!(
        harness.get(&format!("{path}?nested=true")).await["count"],
        4
    );

    let third = harness
        .get(&format!(
            "/collections/{}",
            demo_ids::COLLECTION_ROBOTICS_SDK
        ))
        .await;
    assert_eq!(third["parent"], demo_ids::COLLECTION_PLATFORM);
    let second = harness
        .get(&format!("/collections/{}", demo_ids::COLLECTION_PLATFORM))
        .await;
    assert_eq!(second["parent"], demo_ids::COLLECTION_ENGINEERING);

    let spaces = harness
        .get(&format!(
            "/collections/{}/spaces",
            demo_ids::COLLECTION_ROBOTICS_SDK
        ))
        .await;
    let spaces = spaces["items"].as_array().expect("items");
    assert!(
        spaces
            .iter()
            .any(|space| space["id"] == demo_ids::SPACE_API_REFERENCE)
    );
    assert!(
        spaces
            .iter()
            .all(|space| space["parent"] == demo_ids::COLLECTION_ROBOTICS_SDK)
    );
}

#[tokio::test]
async fn spaces_page_completely_and_carry_the_reference_fields() {
    let harness = Harness::start().await;
    let mut spaces = Vec::new();
    for organization in [demo_ids::ACME, demo_ids::LUMEN] {
        spaces.extend(
            harness
                .all_items(&format!("/orgs/{organization}/spaces"), 3)
                .await,
        );
    }
    assert!(spaces.len() >= 10, "{} spaces", spaces.len());
    let ids: HashSet<_> = spaces.iter().map(|space| space["id"].clone()).collect();
    assert_eq!(ids.len(), spaces.len(), "no duplicates across pages");
    for space in &spaces {
        assert_eq!(space["object"], "space");
        assert_has_keys(
            space,
            &[
                "id",
                "title",
                "emoji",
                "visibility",
                "createdAt",
                "updatedAt",
                "editMode",
                "mergeRules",
                "urls",
                "organization",
                "revision",
                "defaultLevel",
                "comments",
                "changeRequests",
                "changeRequestsOpen",
                "changeRequestsDraft",
                "permissions",
            ],
        );
        assert!(is_iso_timestamp(&space["updatedAt"]));
        assert_has_keys(&space["urls"], &["location", "app"]);
        assert_has_keys(
            &space["permissions"],
            &[
                "view",
                "access",
                "admin",
                "viewInviteLinks",
                "edit",
                "triggerGitSync",
                "comment",
                "merge",
                "review",
                "installIntegration",
            ],
        );
    }
    let visibilities: HashSet<_> = spaces
        .iter()
        .filter_map(|space| space["visibility"].as_str())
        .collect();
    for visibility in [
        "public",
        "unlisted",
        "share-link",
        "visitor-auth",
        "in-collection",
        "private",
    ] {
        assert!(visibilities.contains(visibility), "no {visibility} space");
    }
    let modes: HashSet<_> = spaces
        .iter()
        .filter_map(|s| s["editMode"].as_str())
        .collect();
    assert!(modes.contains("live") && modes.contains("locked"));
    assert!(spaces.iter().any(|space| space.get("parent").is_none()));

    let one = harness
        .get(&format!("/spaces/{}", demo_ids::SPACE_GETTING_STARTED))
        .await;
    assert_eq!(one["title"], "Getting Started");
}

#[tokio::test]
async fn space_permissions_follow_the_role() {
    let harness = Harness::start().await;
    let path = format!("/spaces/{}", demo_ids::SPACE_GETTING_STARTED);
    // (token, edit, comment, review, merge, admin)
    let expectations = [
        (tokens::ADMIN, true, true, true, true, true),
        (tokens::EDITOR, true, true, true, true, false),
        (tokens::REVIEWER, false, true, true, false, false),
        (tokens::COMMENTER, false, true, false, false, false),
        (tokens::READER, false, false, false, false, false),
    ];
    for (token, edit, comment, review, merge, admin) in expectations {
        let (status, space) = harness.get_as(Some(token), &path).await;
        assert_eq!(status, 200);
        let permissions = &space["permissions"];
        assert_eq!(permissions["view"], true, "{token}");
        assert_eq!(permissions["edit"], edit, "{token}");
        assert_eq!(permissions["comment"], comment, "{token}");
        assert_eq!(permissions["review"], review, "{token}");
        assert_eq!(permissions["merge"], merge, "{token}");
        assert_eq!(permissions["admin"], admin, "{token}");
    }
    let (_, locked) = harness
        .get_as(
            Some(tokens::EDITOR),
            &format!("/spaces/{}", demo_ids::SPACE_API_REFERENCE),
        )
        .await;
    assert_eq!(locked["editMode"], "locked");
    assert_eq!(
        locked["permissions"]["edit"], false,
        "locked spaces are not editable"
    );
}

#[tokio::test]
async fn revision_and_page_tree() {
    let harness = Harness::start().await;
    let space = demo_ids::SPACE_GETTING_STARTED;
    let revision = harness.get(&format!("/spaces/{space}/content")).await;
    assert_eq!(revision["object"], "revision");
    assert_has_keys(
        &revision,
        &[
            "id",
            "parents",
            "pages",
            "files",
            "reusableContents",
            "variables",
            "createdAt",
            "urls",
            "type",
        ],
    );
    assert!(revision["variables"].is_object());
    let pages = &revision["pages"];
    assert!(
        pages
            .as_array()
            .expect("pages")
            .iter()
            .all(|page| page["type"] == "group"),
        "top level of this space is groups"
    );
    let listed = harness.get(&format!("/spaces/{space}/content/pages")).await;
    assert_eq!(
        &listed["pages"], pages,
        "listPages returns the revision's tree"
    );

    let quickstart = find_page(pages, demo_ids::PAGE_QUICKSTART).expect("quickstart");
    assert_eq!(quickstart["type"], "document");
    assert_has_keys(
        quickstart,
        &[
            "id",
            "title",
            "emoji",
            "createdAt",
            "updatedAt",
            "type",
            "urls",
            "slug",
            "path",
            "pages",
            "layout",
        ],
    );
    assert!(
        quickstart.get("markdown").is_none(),
        "trees carry no bodies"
    );
    let installation = find_page(pages, demo_ids::PAGE_INSTALLATION).expect("installation");
    let windows = &installation["pages"].as_array().expect("children")[2];
    assert_eq!(
        windows["pages"].as_array().map(Vec::len),
        Some(1),
        "nested two levels"
    );
    assert!(
        windows["path"]
            .as_str()
            .is_some_and(|path| path.contains('/'))
    );
    let link = find_page(pages, demo_ids::PAGE_STATUS_LINK).expect("link page");
    assert_eq!(link["type"], "link");
    assert!(link["target"]["url"].is_string());
    let hidden = find_page(pages, demo_ids::PAGE_HIDDEN).expect("hidden page");
    assert_eq!(hidden["hidden"], true);

    let big = harness
        .get(&format!(
            "/spaces/{}/content/pages",
            demo_ids::SPACE_API_REFERENCE
        ))
        .await;
    assert!(count_pages(&big["pages"]) >= 300);

    let changelog = harness
        .get(&format!(
            "/spaces/{}/content/pages",
            demo_ids::SPACE_CHANGELOG
        ))
        .await;
    let hostile = find_page(&changelog["pages"], demo_ids::PAGE_HOSTILE).expect("hostile page");
    let title = hostile["title"].as_str().expect("title");
    assert!(title.contains('\u{1b}') && title.contains('\u{202e}'));
}

#[tokio::test]
async fn page_formats() {
    let harness = Harness::start().await;
    let path = format!(
        "/spaces/{}/content/page/{}",
        demo_ids::SPACE_GETTING_STARTED,
        demo_ids::PAGE_QUICKSTART
    );
    let markdown = harness.get(&format!("{path}?format=markdown")).await;
    let text = markdown["markdown"].as_str().expect("markdown string");
    assert!(markdown.get("document").is_none());
    for needle in [
        "```rust",
        "```python",
        "```typescript",
        "```bash",
        "```json",
        "```yaml",
        "```go",
        "```sql",
        "{% hint style=\"info\"",
        "{% hint style=\"warning\"",
        "{% hint style=\"danger\"",
        "{% hint style=\"success\"",
        "{% tabs %}",
        "{% code title=",
        "{% embed url=",
        "{% content-ref url=",
        "- [x]",
        "[^limits]",
        "| :--",
        "> ",
        "###### ",
    ] {
        assert!(text.contains(needle), "quickstart lacks {needle}");
    }
    for document in [
        harness.get(&path).await,
        harness.get(&format!("{path}?format=document")).await,
    ] {
        assert!(document.get("markdown").is_none());
        assert_eq!(document["document"]["object"], "document");
        assert!(
            document["document"]["nodes"]
                .as_array()
                .is_some_and(|n| !n.is_empty())
        );
        assert_eq!(document["id"], demo_ids::PAGE_QUICKSTART);
    }
    let (status, body) = harness
        .get_as(Some(tokens::ADMIN), &format!("{path}?format=html"))
        .await;
    assert_error(status, &body, 400);
}

#[tokio::test]
async fn files_are_paged() {
    let harness = Harness::start().await;
    let path = format!("/spaces/{}/content/files", demo_ids::SPACE_API_REFERENCE);
    let first = harness.get(&path).await;
    let count = first["count"].as_u64().expect("count") as usize;
    assert!(count > 20, "enough files to need a second page");
    assert_eq!(
        first["items"].as_array().map(Vec::len),
        Some(20),
        "default limit"
    );
    assert!(first["next"]["page"].is_string());
    let files = harness.all_items(&path, 7).await;
    let ids: HashSet<_> = files.iter().map(|file| file["id"].clone()).collect();
    assert_eq!(ids.len(), count);
    for file in &files {
        assert_has_keys(file, &["id", "name", "contentType", "downloadURL", "size"]);
    }
}

#[tokio::test]
async fn search_finds_pages() {
    let harness = Harness::start().await;
    let path = format!("/spaces/{}/search", demo_ids::SPACE_GETTING_STARTED);
    let results = harness.get(&format!("{path}?query=webhook")).await;
    let items = results["items"].as_array().expect("items");
    assert!(!items.is_empty());
    let hit = items
        .iter()
        .find(|item| item["id"] == "pg-gs-rest-api")
        .expect("the REST API guide mentions webhooks");
    assert_has_keys(
        hit,
        &["id", "title", "path", "sections", "ancestors", "urls"],
    );
    assert_eq!(hit["ancestors"][0]["title"], "Guides");
    let section = &hit["sections"][0];
    assert_has_keys(section, &["id", "title", "path", "body", "urls"]);
    assert!(section["urls"]["app"].is_string());

    let none = harness.get(&format!("{path}?query=zzzxqy")).await;
    assert_eq!(none["count"], 0);
    let (status, body) = harness.get_as(Some(tokens::ADMIN), &path).await;
    assert_error(status, &body, 400);

    let big = harness
        .all_items(
            &format!(
                "/spaces/{}/search?query=robot",
                demo_ids::SPACE_API_REFERENCE
            ),
            50,
        )
        .await;
    assert!(big.len() > 50, "search results page too");
}

#[tokio::test]
async fn members_filter_and_page() {
    let harness = Harness::start().await;
    let path = format!("/orgs/{}/members", demo_ids::ACME);
    let members = harness.all_items(&path, 5).await;
    assert!(members.len() >= 12, "{} members", members.len());
    let ids: HashSet<_> = members.iter().map(|member| member["id"].clone()).collect();
    assert_eq!(ids.len(), members.len());
    for member in &members {
        assert_eq!(member["object"], "member");
        assert_has_keys(
            member,
            &[
                "id", "role", "user", "disabled", "joinedAt", "sso", "spaces", "teams",
            ],
        );
        assert_eq!(member["user"]["object"], "user");
        assert_has_keys(&member["user"], &["id", "displayName", "email", "urls"]);
    }
    let joined: Vec<_> = members
        .iter()
        .filter_map(|member| member["joinedAt"].as_str())
        .collect();
    assert!(
        joined.windows(2).all(|pair| pair[0] >= pair[1]),
        "desc by joinedAt"
    );

    let editors = harness.get(&format!("{path}?role=edit")).await;
    let editors = editors["items"].as_array().expect("items");
    assert!(editors.len() >= 2);
    assert!(editors.iter().all(|member| member["role"] == "edit"));

    let found = harness.get(&format!("{path}?search=PRIYA")).await;
    assert_eq!(found["count"], 1);
    assert_eq!(found["items"][0]["id"], demo_ids::USER_REVIEWER);
    let by_email = harness.get(&format!("{path}?search=okafor%40acme")).await;
    assert_eq!(by_email["items"][0]["id"], demo_ids::USER_ADMIN);

    let (status, body) = harness
        .get_as(Some(tokens::ADMIN), &format!("{path}?role=overlord"))
        .await;
    assert_error(status, &body, 400);
}

#[tokio::test]
async fn authentication_failures() {
    let harness = Harness::start().await;
    let (status, body) = harness.get_as(None, "/user").await;
    assert_error(status, &body, 401);
    let (status, body) = harness.get_as(Some("sk-secret-guess"), "/orgs").await;
    assert_error(status, &body, 401);
    assert!(
        !body.to_string().contains("sk-secret-guess"),
        "the token is never echoed"
    );
    let response = harness
        .http
        .get(harness.url("/user"))
        .header("Authorization", format!("Basic {}", tokens::ADMIN))
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status().as_u16(), 401);
}

#[tokio::test]
async fn unknown_things_are_404_with_the_error_body() {
    let harness = Harness::start().await;
    let cases = [
        ("/spaces/spc-nope", "spc-nope"),
        ("/orgs/org-nope", "org-nope"),
        ("/orgs/org-nope/members", "org-nope"),
        ("/collections/col-nope", "col-nope"),
        ("/spaces/spc-nope/content/pages", "spc-nope"),
    ];
    for (path, id) in cases {
        let (status, body) = harness.get_as(Some(tokens::ADMIN), path).await;
        assert_error(status, &body, 404);
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(id), "{path}: {message}");
    }
    let page = format!(
        "/spaces/{}/content/page/pg-nope",
        demo_ids::SPACE_GETTING_STARTED
    );
    let (status, body) = harness.get_as(Some(tokens::ADMIN), &page).await;
    assert_error(status, &body, 404);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("page")
    );
    let (status, body) = harness.get_as(Some(tokens::ADMIN), "/no/such/route").await;
    assert_error(status, &body, 404);
}

#[tokio::test]
async fn bad_limits_are_400() {
    let harness = Harness::start().await;
    for limit in ["abc", "-1", "1001", "0", "2.5"] {
        let (status, body) = harness
            .get_as(Some(tokens::ADMIN), &format!("/orgs?limit={limit}"))
            .await;
        assert_error(status, &body, 400);
    }
    assert_eq!(harness.get("/orgs?limit=1000").await["count"], 2);
    let (status, body) = harness
        .get_as(Some(tokens::ADMIN), "/orgs?page=not-a-cursor")
        .await;
    assert_error(status, &body, 400);
}

#[tokio::test]
async fn faults_can_be_switched_at_run_time() {
    let harness = Harness::start().await;
    harness.sandbox.set_faults(Faults {
        endless_next: true,
        fail_with: None,
        ..Faults::default()
    });
    let first = harness.get("/orgs?limit=1").await;
    let cursor = first["next"]["page"].as_str().expect("next").to_string();
    let second = harness.get(&format!("/orgs?limit=1&page={cursor}")).await;
    assert_eq!(
        second["next"]["page"],
        cursor.as_str(),
        "the same cursor forever"
    );
    let last = harness.get("/orgs?limit=1000").await;
    assert!(
        last["next"]["page"].is_string(),
        "even a complete page has next"
    );

    harness.sandbox.set_faults(Faults {
        endless_next: false,
        fail_with: Some(503),
        ..Faults::default()
    });
    let (status, body) = harness.get_as(Some(tokens::ADMIN), "/user").await;
    assert_error(status, &body, 503);
    let (status, body) = harness.get_as(None, "/user").await;
    assert_error(status, &body, 503);

    harness.sandbox.set_faults(Faults::default());
    let healthy = harness.get("/orgs?limit=1000").await;
    assert!(healthy.get("next").is_none());
    harness.sandbox.shutdown().await;
}

#[tokio::test]
async fn faults_given_at_start_apply() {
    let harness = Harness::with_options(SandboxOptions {
        latency: Duration::ZERO,
        faults: Faults {
            endless_next: false,
            fail_with: Some(500),
            ..Faults::default()
        },
        ..SandboxOptions::default()
    })
    .await;
    let (status, body) = harness.get_as(Some(tokens::ADMIN), "/orgs").await;
    assert_error(status, &body, 500);
}

#[tokio::test]
async fn latency_is_applied_per_request() {
    let latency = Duration::from_millis(150);
    let harness = Harness::with_options(SandboxOptions {
        latency,
        faults: Faults::default(),
        ..SandboxOptions::default()
    })
    .await;
    for path in ["/user", "/orgs"] {
        let started = Instant::now();
        let (status, _) = harness.get_as(Some(tokens::ADMIN), path).await;
        assert_eq!(status, 200);
        assert!(started.elapsed() >= latency, "{path} answered too early");
    }
}

#[tokio::test]
async fn base_url_has_no_version_suffix() {
    let harness = Harness::start().await;
    let base = harness.sandbox.base_url();
    assert!(base.starts_with("http://127.0.0.1:"));
    assert!(!base.ends_with("/v1"));
    assert_eq!(
        harness.sandbox.addr().port(),
        base.rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or(0)
    );
    harness.sandbox.shutdown().await;
}

/// Under `strict_bodies`, operations without a defined body answer 415 to any body, as the
/// public service does; a body-less request still works. Without the knob `{}` is accepted.
#[tokio::test]
async fn strict_bodies_refuse_a_body_where_none_is_defined() {
    let harness = Harness::with_options(SandboxOptions {
        faults: Faults {
            strict_bodies: true,
            ..Faults::default()
        },
        ..SandboxOptions::default()
    })
    .await;
    let publish = harness.url(&format!(
        "/orgs/{}/sites/{}/publish",
        demo_ids::ACME,
        demo_ids::SITE_DRAFT
    ));
    let post = |body: Option<&'static str>| {
        let mut request = harness.http.post(&publish).bearer_auth(tokens::ADMIN);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body);
        }
        request.send()
    };
    let refused = post(Some("{}")).await.expect("answered");
    let status = refused.status().as_u16();
    let body: Value = refused.json().await.expect("error body is JSON");
    assert_error(status, &body, 415);
    let accepted = post(None).await.expect("answered");
    assert_eq!(accepted.status().as_u16(), 200);

    harness.sandbox.set_faults(Faults::default());
    let lenient = post(Some("{}")).await.expect("answered");
    assert_eq!(lenient.status().as_u16(), 200);
    harness.sandbox.shutdown().await;
}

/// Under `odd_counts` the sandbox sends what a client must survive from the service: float and
/// negative counts, and one item per page that no client can read.
#[tokio::test]
async fn odd_counts_serve_floats_negatives_and_one_broken_item() {
    let harness = Harness::with_options(SandboxOptions {
        faults: Faults {
            odd_counts: true,
            ..Faults::default()
        },
        ..SandboxOptions::default()
    })
    .await;
    let spaces = harness
        .get(&format!("/orgs/{}/spaces", demo_ids::ACME))
        .await;
    assert!(spaces["count"].is_f64(), "{}", spaces["count"]);
    let items = spaces["items"].as_array().cloned().unwrap_or_default();
    let comments: Vec<&Value> = items.iter().map(|space| &space["comments"]).collect();
    assert!(comments.iter().any(|count| count.is_f64()), "{comments:?}");
    assert!(
        comments
            .iter()
            .any(|count| count.as_i64().is_some_and(|n| n < 0)),
        "{comments:?}"
    );
    let broken = items.iter().filter(|item| !item["id"].is_string()).count();
    assert_eq!(broken, 1);
    harness.sandbox.shutdown().await;
}

#[tokio::test]
async fn the_sandbox_only_knob_replaces_a_pages_markdown() {
    let harness = Harness::start().await;
    let knob = |page: &str| {
        format!(
            "{}/_sandbox/spaces/{}/pages/{page}/markdown",
            harness.sandbox.base_url(),
            demo_ids::SPACE_GETTING_STARTED
        )
    };
    let planted = "# Planted\n\nbytes \u{1b}]0;title\u{7} kept as sent";
    let response = harness
        .http
        .put(knob(demo_ids::PAGE_QUICKSTART))
        .bearer_auth(tokens::ADMIN)
        .body(planted)
        .send()
        .await
        .expect("knob answers");
    assert_eq!(response.status().as_u16(), 204);
    let page = harness
        .get(&format!(
            "/spaces/{}/content/page/{}?format=markdown",
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::PAGE_QUICKSTART
        ))
        .await;
    assert_eq!(page["markdown"], planted);

    // A group page has no markdown; an unknown page is 404; no token is 401, as for the API.
    for (page, token, expected) in [
        (demo_ids::PAGE_BASICS_GROUP, Some(tokens::ADMIN), 400),
        ("pg-none", Some(tokens::ADMIN), 404),
        (demo_ids::PAGE_QUICKSTART, None, 401),
    ] {
        let mut request = harness.http.put(knob(page)).body("x");
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("knob answers");
        assert_eq!(response.status().as_u16(), expected, "{page}");
    }
}

// ---------------------------------------------------------------------------------------------
// The big demo (`quire sandbox --big`)

async fn big_harness(big: bool) -> Harness {
    Harness::with_options(SandboxOptions {
        big,
        ..SandboxOptions::default()
    })
    .await
}

fn listed_ids(items: &[Value]) -> Vec<&str> {
    items
        .iter()
        .filter_map(|item| item["id"].as_str())
        .collect()
}

#[tokio::test]
async fn big_demo_serves_a_large_organization() {
    let harness = big_harness(true).await;
    let organizations = harness.all_items("/orgs", 20).await;
    assert!(listed_ids(&organizations).contains(&demo_ids::BIG_CO));

    let space = demo_ids::SPACE_BIG;
    let tree = harness.get(&format!("/spaces/{space}/content/pages")).await;
    assert_eq!(count_pages(&tree["pages"]), 10_000);

    let page = demo_ids::PAGE_BIG_HUGE;
    let huge = harness
        .get(&format!(
            "/spaces/{space}/content/page/{page}?format=markdown"
        ))
        .await;
    let markdown = huge["markdown"].as_str().expect("markdown string");
    assert!(markdown.len() >= 1_000_000, "only {} bytes", markdown.len());

    let change_request = demo_ids::CR_BIG;
    let threads = harness
        .all_items(
            &format!("/spaces/{space}/change-requests/{change_request}/comments"),
            100,
        )
        .await;
    assert_eq!(threads.len(), 2_000);
    let with_replies = threads
        .iter()
        .filter(|thread| thread["replies"].as_u64().unwrap_or(0) > 0)
        .count();
    assert_eq!(with_replies, 500);
}

#[tokio::test]
async fn without_the_big_option_there_is_no_big_organization() {
    let harness = big_harness(false).await;
    let organizations = harness.all_items("/orgs", 20).await;
    assert_eq!(
        listed_ids(&organizations),
        [demo_ids::ACME, demo_ids::LUMEN]
    );
}

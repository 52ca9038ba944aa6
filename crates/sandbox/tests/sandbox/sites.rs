//! The sandbox's sites endpoints against the seed reference: list filters,
//! settings with validation, publishing, the published structure, adaptive content, share links
//! and section groups, permissions, and faults. Plain HTTP and JSON, none of the client's types.

use quire_sandbox::{Faults, demo_ids, tokens};

use crate::http::{Harness, Reply, assert_error};
use reqwest::Method;
use serde_json::{Value, json};

/// A change to a site's settings, as the demo admin.
async fn patch_site(harness: &Harness, site: &str, body: Value) -> Reply {
    harness
        .admin(Method::PATCH, &site_path(site, ""), body)
        .await
}

fn site_path(site: &str, suffix: &str) -> String {
    let organization = if site == demo_ids::SITE_LUMEN {
        demo_ids::LUMEN
    } else {
        demo_ids::ACME
    };
    format!("/orgs/{organization}/sites/{site}{suffix}")
}

fn ids(items: &Value) -> Vec<String> {
    items
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn assert_has_keys(value: &Value, expected: &[&str]) {
    for key in expected {
        assert!(value.get(key).is_some(), "missing {key} in {value}");
    }
}

#[tokio::test]
async fn list_sites_with_filters_and_paging() {
    let harness = Harness::start().await;
    let acme = format!("/orgs/{}/sites", demo_ids::ACME);
    let all = harness.get(&acme).await;
    assert_eq!(all["count"], 4);
    for site in all["items"].as_array().expect("items") {
        assert_eq!(site["object"], "site");
    }
    let lumen = harness
        .get(&format!("/orgs/{}/sites", demo_ids::LUMEN))
        .await;
    assert_eq!(ids(&lumen["items"]), [demo_ids::SITE_LUMEN]);

    let cases: [(&str, &[&str]); 8] = [
        ("published=false", &[demo_ids::SITE_DRAFT]),
        (
            "published=true",
            &[
                demo_ids::SITE_DOCS,
                demo_ids::SITE_PARTNERS,
                demo_ids::SITE_CUSTOMERS,
            ],
        ),
        (
            "title=PORTAL",
            &[demo_ids::SITE_PARTNERS, demo_ids::SITE_CUSTOMERS],
        ),
        ("space=spc-handbook", &[demo_ids::SITE_DRAFT]),
        (
            "space=spc-getting-started",
            &[demo_ids::SITE_DOCS, demo_ids::SITE_CUSTOMERS],
        ),
        ("type=ultimate", &[demo_ids::SITE_CUSTOMERS]),
        (
            "type=basic&type=ultimate",
            &[demo_ids::SITE_DRAFT, demo_ids::SITE_CUSTOMERS],
        ),
        ("title=portal&published=false", &[]),
    ];
    for (query, expected) in cases {
        let list = harness.get(&format!("{acme}?{query}")).await;
        assert_eq!(ids(&list["items"]), expected, "{query}");
        assert_eq!(list["count"], expected.len(), "{query}");
    }

    let first = harness.get(&format!("{acme}?limit=3")).await;
    assert_eq!(first["items"].as_array().map(Vec::len), Some(3));
    let cursor = first["next"]["page"].as_str().expect("next page");
    let second = harness.get(&format!("{acme}?limit=3&page={cursor}")).await;
    assert_eq!(second["items"].as_array().map(Vec::len), Some(1));
    assert!(second.get("next").is_none());

    for (query, field) in [
        ("published=maybe", "\"published\""),
        ("type=gold", "\"type\""),
        ("limit=0", "\"limit\""),
    ] {
        let reply = harness
            .send(
                Method::GET,
                tokens::READER,
                &format!("{acme}?{query}"),
                None,
            )
            .await;
        assert_error(&reply, 400, field);
    }
    let unknown = harness
        .send(Method::GET, tokens::ADMIN, "/orgs/org-nope/sites", None)
        .await;
    assert_error(&unknown, 404, "org-nope");
}

#[tokio::test]
async fn site_shape_and_caller_permissions() {
    let harness = Harness::start().await;
    let docs = harness.get(&site_path(demo_ids::SITE_DOCS, "")).await;
    assert_has_keys(
        &docs,
        &[
            "object",
            "id",
            "type",
            "appliedType",
            "title",
            "hostname",
            "basename",
            "visibility",
            "published",
            "siteSpaces",
            "createdAt",
            "adaptiveContent",
            "agentsContext",
            "defaultLevel",
            "features",
            "urls",
            "permissions",
        ],
    );
    assert_eq!(docs["type"], "premium");
    assert_eq!(docs["visibility"], "public");
    assert_eq!(docs["published"], true);
    assert_eq!(docs["siteSpaces"], 6);
    assert_eq!(docs["adaptiveContent"], json!({ "enabled": false }));
    assert_eq!(docs["permissions"]["admin"], true);
    assert_has_keys(&docs["urls"], &["location", "app", "published"]);
    assert_eq!(
        docs["urls"]["published"],
        "https://docs.acme-robotics.example"
    );
    let feature = &docs["features"][0];
    assert_has_keys(feature, &["id", "plan", "frozen", "customizations"]);
    assert!(docs.get("proxy").is_none());

    let as_reader = harness
        .send(
            Method::GET,
            tokens::READER,
            &site_path(demo_ids::SITE_DOCS, ""),
            None,
        )
        .await;
    assert_eq!(as_reader.status, 200);
    assert_eq!(as_reader.body["permissions"]["admin"], false);
    assert_eq!(as_reader.body["permissions"]["view"], true);

    let draft = harness.get(&site_path(demo_ids::SITE_DRAFT, "")).await;
    assert_eq!(draft["published"], false);
    assert!(draft["urls"].get("published").is_none(), "{draft}");

    let customers = harness.get(&site_path(demo_ids::SITE_CUSTOMERS, "")).await;
    assert_eq!(customers["type"], "ultimate");
    assert_eq!(customers["visibility"], "visitor-auth");
    assert_eq!(customers["adaptiveContent"]["enabled"], true);
    assert_eq!(
        customers["proxy"]["origin"],
        "acme-robotics.example/customers"
    );
    assert!(customers["proxy"]["target"].is_string());
    assert_eq!(
        customers["urls"]["published"],
        "https://acme-robotics.example/customers"
    );

    let unknown = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            &site_path("site-nope", ""),
            None,
        )
        .await;
    assert_error(&unknown, 404, "site-nope");
    // A site is only found under its own organization.
    let elsewhere = format!("/orgs/{}/sites/{}", demo_ids::ACME, demo_ids::SITE_LUMEN);
    let reply = harness
        .send(Method::GET, tokens::ADMIN, &elsewhere, None)
        .await;
    assert_eq!(reply.status, 404);
}

#[tokio::test]
async fn patch_applies_each_field() {
    let harness = Harness::start().await;
    let site = demo_ids::SITE_DOCS;
    let changes = [
        (
            json!({ "title": "Fleet Docs" }),
            "title",
            json!("Fleet Docs"),
        ),
        (
            json!({ "visibility": "unlisted" }),
            "visibility",
            json!("unlisted"),
        ),
        (json!({ "basename": "fleet" }), "basename", json!("fleet")),
        (
            json!({ "adaptiveContent": { "enabled": true } }),
            "adaptiveContent",
            json!({ "enabled": true }),
        ),
        (
            json!({ "agentsContext": "excluded" }),
            "agentsContext",
            json!("excluded"),
        ),
        (
            json!({ "defaultLevel": "read" }),
            "defaultLevel",
            json!("read"),
        ),
        (json!({ "defaultLevel": null }), "defaultLevel", Value::Null),
    ];
    for (body, field, expected) in changes {
        let reply = patch_site(&harness, site, body.clone()).await;
        assert_eq!(reply.status, 200, "{body}: {}", reply.body);
        assert_eq!(reply.body[field], expected, "{body}");
        let stored = harness.get(&site_path(site, "")).await;
        assert_eq!(stored[field], expected, "{body} persisted");
    }

    // Proxy: set, then null removes it.
    let reply = patch_site(
        &harness,
        site,
        json!({ "proxy": "acme-robotics.example/developers/docs" }),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        reply.body["proxy"]["origin"],
        "acme-robotics.example/developers/docs"
    );
    assert_eq!(
        reply.body["urls"]["published"],
        "https://acme-robotics.example/developers/docs"
    );
    let reply = patch_site(&harness, site, json!({ "proxy": null })).await;
    assert_eq!(reply.status, 200);
    assert!(reply.body.get("proxy").is_none(), "{}", reply.body);

    // Default site space: Changelog becomes the default of Guides.
    let reply = patch_site(
        &harness,
        site,
        json!({ "defaultSiteSpace": demo_ids::SITE_SPACE_CHANGELOG }),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let published = harness.get(&site_path(site, "/published")).await;
    let guides = &published["structure"]["structure"][0];
    assert_eq!(guides["id"], demo_ids::SECTION_GUIDES);
    assert_eq!(guides["siteSpaces"][0]["default"], false);
    assert_eq!(
        guides["siteSpaces"][1]["id"],
        demo_ids::SITE_SPACE_CHANGELOG
    );
    assert_eq!(guides["siteSpaces"][1]["default"], true);

    // Default section: API Reference; Guides stops being the default.
    let reply = patch_site(
        &harness,
        site,
        json!({ "defaultSiteSection": demo_ids::SECTION_API }),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let published = harness.get(&site_path(site, "/published")).await;
    let top = &published["structure"]["structure"];
    assert_eq!(top[0]["default"], false);
    assert_eq!(top[1]["children"][0]["id"], demo_ids::SECTION_API);
    assert_eq!(top[1]["children"][0]["default"], true);

    // A default site space in another section moves the default section with it.
    let reply = patch_site(
        &harness,
        site,
        json!({ "defaultSiteSpace": demo_ids::SITE_SPACE_GETTING_STARTED }),
    )
    .await;
    assert_eq!(reply.status, 200);
    let published = harness.get(&site_path(site, "/published")).await;
    let top = &published["structure"]["structure"];
    assert_eq!(top[0]["default"], true);
    assert_eq!(top[0]["siteSpaces"][0]["default"], true);
    assert_eq!(top[0]["siteSpaces"][1]["default"], false);

    // An empty body changes nothing.
    let reply = patch_site(&harness, site, json!({})).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["title"], "Fleet Docs");
}

#[tokio::test]
async fn patch_rejects_invalid_fields_by_name_and_changes_nothing() {
    let harness = Harness::start().await;
    let site = demo_ids::SITE_DOCS;
    let long = "x".repeat(129);
    let cases = [
        (json!({ "title": "A" }), "\"title\""),
        (json!({ "title": long }), "\"title\""),
        (json!({ "title": 42 }), "\"title\""),
        (json!({ "visibility": "private" }), "\"visibility\""),
        (json!({ "basename": "" }), "\"basename\""),
        (json!({ "basename": "b".repeat(101) }), "\"basename\""),
        (json!({ "basename": "Bad Name!" }), "\"basename\""),
        (json!({ "basename": "Docs" }), "\"basename\""),
        (json!({ "adaptiveContent": true }), "\"adaptiveContent\""),
        (
            json!({ "adaptiveContent": { "enabled": "yes" } }),
            "\"adaptiveContent\"",
        ),
        (json!({ "adaptiveContent": {} }), "\"adaptiveContent\""),
        (json!({ "agentsContext": "maybe" }), "\"agentsContext\""),
        (json!({ "defaultLevel": "owner" }), "\"defaultLevel\""),
        (
            json!({ "defaultSiteSpace": "ss-lumen-docs" }),
            "\"defaultSiteSpace\"",
        ),
        (
            json!({ "defaultSiteSection": "sec-cust-beta" }),
            "\"defaultSiteSection\"",
        ),
        (
            json!({
                "defaultSiteSpace": demo_ids::SITE_SPACE_CHANGELOG,
                "defaultSiteSection": demo_ids::SECTION_API,
            }),
            "\"defaultSiteSpace\"",
        ),
        (json!({ "proxy": "example.com" }), "\"proxy\""),
        (json!({ "proxy": "https://example.com/docs" }), "\"proxy\""),
        (json!({ "proxy": "example.com/docs/" }), "\"proxy\""),
        (
            json!({ "proxy": format!("example.com/{}", "p".repeat(510)) }),
            "\"proxy\"",
        ),
        (json!({ "proxy": 7 }), "\"proxy\""),
        (json!({ "published": false }), "\"published\""),
        (json!({ "colour": "red" }), "\"colour\""),
        (json!(["title"]), "JSON object"),
        // One good field and one bad: nothing may change.
        (
            json!({ "title": "Changed", "visibility": "nope" }),
            "\"visibility\"",
        ),
    ];
    for (body, needle) in cases {
        let reply = patch_site(&harness, site, body.clone()).await;
        assert_error(&reply, 400, needle);
    }
    let stored = harness.get(&site_path(site, "")).await;
    assert_eq!(stored["title"], "Acme Developer Docs");

    let url = format!("{}/v1{}", harness.sandbox.base_url(), site_path(site, ""));
    let response = harness
        .http
        .patch(url)
        .bearer_auth(tokens::ADMIN)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status().as_u16(), 400);
    let body: Value = response.json().await.expect("json error body");
    assert_eq!(body["error"]["code"], 400);
}

#[tokio::test]
async fn only_admins_change_sites_and_everyone_reads() {
    let harness = Harness::start().await;
    let docs = demo_ids::SITE_DOCS;
    let writes: Vec<(Method, String, Value)> = vec![
        (
            Method::PATCH,
            site_path(docs, ""),
            json!({ "title": "Nope" }),
        ),
        (Method::POST, site_path(docs, "/publish"), Value::Null),
        (Method::POST, site_path(docs, "/unpublish"), Value::Null),
        (
            Method::POST,
            format!("/orgs/{}/sites", demo_ids::ACME),
            json!({}),
        ),
        (Method::DELETE, site_path(docs, ""), Value::Null),
        (
            Method::PUT,
            site_path(docs, "/adaptive-schema"),
            json!({ "jsonSchema": {} }),
        ),
        (
            Method::POST,
            site_path(demo_ids::SITE_PARTNERS, "/share-links"),
            json!({ "name": "x" }),
        ),
        (
            Method::PATCH,
            site_path(
                demo_ids::SITE_PARTNERS,
                &format!("/share-links/{}", demo_ids::SHARE_LINK_EMEA),
            ),
            json!({ "active": false }),
        ),
        (
            Method::DELETE,
            site_path(
                demo_ids::SITE_PARTNERS,
                &format!("/share-links/{}", demo_ids::SHARE_LINK_EMEA),
            ),
            Value::Null,
        ),
        (
            Method::POST,
            site_path(docs, "/section-groups"),
            json!({ "title": "x" }),
        ),
        (
            Method::PATCH,
            site_path(docs, &format!("/section-groups/{}", demo_ids::GROUP_SDKS)),
            json!({ "title": "x" }),
        ),
        (
            Method::DELETE,
            site_path(docs, &format!("/section-groups/{}", demo_ids::GROUP_SDKS)),
            Value::Null,
        ),
        (
            Method::POST,
            site_path(
                docs,
                &format!("/section-groups/{}/sections", demo_ids::GROUP_SDKS),
            ),
            json!({ "sectionId": demo_ids::SECTION_API }),
        ),
        (
            Method::DELETE,
            site_path(
                docs,
                &format!(
                    "/section-groups/{}/sections/{}",
                    demo_ids::GROUP_SDKS,
                    demo_ids::SECTION_RUST_SDK
                ),
            ),
            Value::Null,
        ),
    ];
    for token in [tokens::EDITOR, tokens::READER] {
        for (method, path, body) in &writes {
            let body = (!body.is_null()).then(|| body.clone());
            let reply = harness.send(method.clone(), token, path, body).await;
            assert_error(&reply, 403, "admin");
        }
    }
    // Nothing changed.
    let site = harness.get(&site_path(docs, "")).await;
    assert_eq!(site["title"], "Acme Developer Docs");
    let links = harness
        .get(&site_path(demo_ids::SITE_PARTNERS, "/share-links"))
        .await;
    assert_eq!(links["count"], 3);

    let reads = [
        format!("/orgs/{}/sites", demo_ids::ACME),
        site_path(docs, ""),
        site_path(docs, "/published"),
        site_path(docs, "/structure"),
        site_path(docs, "/section-groups"),
        site_path(demo_ids::SITE_CUSTOMERS, "/adaptive-schema"),
        site_path(
            demo_ids::SITE_CUSTOMERS,
            "/adaptive-schema/template-conditions",
        ),
        site_path(demo_ids::SITE_PARTNERS, "/share-links"),
    ];
    for token in tokens::ALL {
        for path in &reads {
            let reply = harness.send(Method::GET, token, path, None).await;
            assert_eq!(reply.status, 200, "{token} {path}: {}", reply.body);
        }
    }
}

#[tokio::test]
async fn publish_and_unpublish() {
    let harness = Harness::start().await;
    let draft = demo_ids::SITE_DRAFT;
    let reply = harness
        .send(
            Method::POST,
            tokens::ADMIN,
            &site_path(draft, "/publish"),
            None,
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["object"], "site");
    assert_eq!(reply.body["published"], true);
    assert!(reply.body["urls"]["published"].is_string());
    let unpublished = harness
        .get(&format!("/orgs/{}/sites?published=false", demo_ids::ACME))
        .await;
    assert_eq!(unpublished["count"], 0);

    let reply = harness
        .send(
            Method::POST,
            tokens::ADMIN,
            &site_path(draft, "/unpublish"),
            None,
        )
        .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["published"], false);
    // Unpublishing twice is fine.
    let again = harness
        .send(
            Method::POST,
            tokens::ADMIN,
            &site_path(draft, "/unpublish"),
            None,
        )
        .await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["published"], false);
    let missing = harness
        .send(
            Method::POST,
            tokens::ADMIN,
            &site_path("site-nope", "/publish"),
            None,
        )
        .await;
    assert_eq!(missing.status, 404);
}

#[tokio::test]
async fn published_structure_has_sections_nested_groups_and_defaults() {
    let harness = Harness::start().await;
    let published = harness
        .get(&site_path(demo_ids::SITE_DOCS, "/published"))
        .await;
    assert_eq!(published["object"], "published-content-site");
    assert_eq!(published["site"]["id"], demo_ids::SITE_DOCS);
    assert_eq!(
        published["customizations"],
        json!({ "site": {}, "siteSpaces": {} })
    );
    assert_eq!(published["scripts"], json!([]));
    let structure = &published["structure"];
    assert_eq!(structure["type"], "sections");
    let top = &structure["structure"];
    assert_eq!(
        ids(top),
        [
            demo_ids::SECTION_GUIDES,
            demo_ids::GROUP_REFERENCE,
            demo_ids::GROUP_INTERNALS
        ]
    );

    let guides = &top[0];
    assert_eq!(guides["object"], "site-section");
    assert_eq!(guides["default"], true);
    assert_has_keys(guides, &["id", "title", "path", "siteSpaces", "urls"]);
    let site_spaces = &guides["siteSpaces"];
    assert_eq!(
        ids(site_spaces),
        [
            demo_ids::SITE_SPACE_GETTING_STARTED,
            demo_ids::SITE_SPACE_CHANGELOG
        ]
    );
    let first = &site_spaces[0];
    assert_eq!(first["object"], "site-space");
    assert_eq!(first["default"], true);
    assert_eq!(first["section"], demo_ids::SECTION_GUIDES);
    assert_eq!(first["space"]["object"], "space");
    assert_eq!(first["space"]["id"], demo_ids::SPACE_GETTING_STARTED);
    assert_has_keys(first, &["path", "title", "urls"]);
    assert!(first["urls"]["published"].is_string());
    assert_eq!(site_spaces[1]["default"], false);

    let reference = &top[1];
    assert_eq!(reference["object"], "site-section-group");
    assert!(reference.get("sectionGroup").is_none());
    assert_eq!(
        ids(&reference["children"]),
        [demo_ids::SECTION_API, demo_ids::GROUP_SDKS]
    );
    assert_eq!(
        reference["children"][0]["sectionGroup"],
        demo_ids::GROUP_REFERENCE
    );
    assert_eq!(reference["children"][0]["default"], false);
    let sdks = &reference["children"][1];
    assert_eq!(sdks["object"], "site-section-group");
    assert_eq!(sdks["sectionGroup"], demo_ids::GROUP_REFERENCE);
    assert_eq!(ids(&sdks["children"]), [demo_ids::SECTION_RUST_SDK]);
    assert_eq!(
        ids(&top[2]["children"]),
        [demo_ids::SECTION_RUNBOOKS, demo_ids::SECTION_ARCHITECTURE]
    );

    let structure_only = harness
        .get(&site_path(demo_ids::SITE_DOCS, "/structure"))
        .await;
    assert_eq!(&structure_only, structure);

    // A site without sections publishes its site spaces directly.
    let lumen = harness
        .get(&site_path(demo_ids::SITE_LUMEN, "/published"))
        .await;
    assert_eq!(lumen["structure"]["type"], "siteSpaces");
    assert_eq!(lumen["structure"]["structure"][0]["default"], true);
    assert_eq!(
        lumen["structure"]["structure"][0]["space"]["id"],
        demo_ids::SPACE_LUMEN_DOCS
    );

    // shareKey must belong to an active share link.
    let links = harness
        .get(&site_path(demo_ids::SITE_PARTNERS, "/share-links"))
        .await;
    let key_of = |index: usize| {
        let url = links["items"][index]["urls"]["published"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        url.split("shareKey=")
            .nth(1)
            .unwrap_or_default()
            .to_string()
    };
    let active = links["items"]
        .as_array()
        .and_then(|items| items.iter().position(|link| link["active"] == true))
        .expect("an active link");
    let inactive = links["items"]
        .as_array()
        .and_then(|items| items.iter().position(|link| link["active"] == false))
        .expect("an inactive link");
    let path = site_path(demo_ids::SITE_PARTNERS, "/published");
    harness
        .get(&format!("{path}?shareKey={}", key_of(active)))
        .await;
    for key in [key_of(inactive), "wrong".to_string()] {
        let reply = harness
            .send(
                Method::GET,
                tokens::ADMIN,
                &format!("{path}?shareKey={key}"),
                None,
            )
            .await;
        assert_eq!(reply.status, 404, "{key}");
    }
}

fn valid_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "isAdmin": { "type": "boolean", "description": "Administers the account" },
            "unsigned": {
                "type": "object",
                "description": "Unsigned claims of the site visitor.",
                "properties": { "darkMode": { "type": "boolean", "description": "Prefers dark mode" } },
                "additionalProperties": false,
            },
        },
        "additionalProperties": false,
    })
}

/// `valid_schema()` with `change` applied to it.
fn schema_with(change: impl FnOnce(&mut Value)) -> Value {
    let mut schema = valid_schema();
    change(&mut schema);
    schema
}

/// Schemas the public service accepts (`None`) or refuses with a reason naming the part
/// (`Some(needle)`): the sandbox must agree with it (the client's check is held against the
/// sandbox's in the client tests).
fn schema_cases() -> Vec<(&'static str, Value, Option<&'static str>)> {
    vec![
        (
            "a boolean claim and an unsigned group",
            valid_schema(),
            None,
        ),
        (
            "a string claim with an enum",
            schema_with(|schema| {
                schema["properties"]["plan"] = json!({
                    "type": "string", "description": "Plan", "enum": ["starter", "team"],
                });
            }),
            None,
        ),
        (
            "a number claim",
            schema_with(|schema| {
                schema["properties"]["seats"] = json!({ "type": "number", "description": "Seats" });
            }),
            None,
        ),
        (
            "an array of strings and a closed object claim",
            schema_with(|schema| {
                schema["properties"]["teams"] = json!({
                    "type": "array", "description": "Teams",
                    "items": { "type": "string", "description": "A team" },
                });
                schema["properties"]["company"] = json!({
                    "type": "object", "description": "Company", "additionalProperties": false,
                    "properties": { "size": { "type": "number", "description": "Headcount" } },
                });
            }),
            None,
        ),
        (
            "the draft-07 $schema",
            schema_with(|schema| {
                schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
            }),
            None,
        ),
        (
            "an unsigned group with another description",
            schema_with(|schema| {
                schema["properties"]["unsigned"]["description"] =
                    json!("Claims the visitor's browser may set itself");
            }),
            Some(
                "properties.unsigned.description must be exactly \"Unsigned claims of the site visitor.\"",
            ),
        ),
        (
            "an unsigned group with a title",
            schema_with(|schema| {
                schema["properties"]["unsigned"]["title"] = json!("Browser settings");
            }),
            None,
        ),
        (
            "an unsigned group without additionalProperties",
            schema_with(|schema| {
                if let Some(group) = schema["properties"]["unsigned"].as_object_mut() {
                    group.remove("additionalProperties");
                }
            }),
            Some("properties.unsigned.additionalProperties must be false"),
        ),
        (
            "an array claim without items",
            schema_with(|schema| {
                schema["properties"]["plan"] = json!({ "type": "array", "description": "Plans" });
            }),
            Some("claim \"plan\" (array) needs items"),
        ),
        (
            "an object claim without additionalProperties",
            schema_with(|schema| {
                schema["properties"]["company"] = json!({
                    "type": "object", "description": "Company",
                    "properties": { "size": { "type": "number", "description": "Headcount" } },
                });
            }),
            Some("claim \"company\" (object) needs additionalProperties: false"),
        ),
        (
            "a claim with a title",
            schema_with(|schema| {
                schema["properties"]["isAdmin"]["title"] = json!("Admin");
            }),
            Some("claim \"isAdmin\" has title, which the server does not accept"),
        ),
        (
            "an unsigned claim with a default",
            schema_with(|schema| {
                schema["properties"]["unsigned"]["properties"]["darkMode"]["default"] =
                    json!(false);
            }),
            Some("claim \"unsigned.darkMode\" has default, which the server does not accept"),
        ),
        (
            "an array of objects",
            schema_with(|schema| {
                schema["properties"]["teams"] = json!({
                    "type": "array", "description": "Teams",
                    "items": { "type": "object", "description": "A team" },
                });
            }),
            Some("claim \"teams[]\" needs a type: one of boolean, string, number"),
        ),
        (
            "a claim without a description",
            schema_with(|schema| {
                schema["properties"]["seats"] = json!({ "type": "number" });
            }),
            Some("claim \"seats\" (number) needs a description"),
        ),
        (
            "another top-level keyword",
            schema_with(|schema| schema["title"] = json!("Visitors")),
            Some("the schema has \"title\" at the top"),
        ),
    ]
}

#[tokio::test]
async fn the_adaptive_schema_is_held_to_the_services_exact_shape() {
    let harness = Harness::start().await;
    let path = site_path(demo_ids::SITE_DOCS, "/adaptive-schema");
    for (case, schema, refusal) in schema_cases() {
        let reply = harness
            .admin(Method::PUT, &path, json!({ "jsonSchema": schema }))
            .await;
        match refusal {
            None => {
                assert_eq!(reply.status, 200, "{case}: {}", reply.body);
            }
            Some(needle) => {
                assert_error(&reply, 400, needle);
            }
        }
    }
    // Only a boolean claim makes a ready-made `=== true` condition.
    let string_claim = schema_with(|schema| {
        schema["properties"]["plan"] = json!({ "type": "string", "description": "Plan" });
    });
    let reply = harness
        .admin(Method::PUT, &path, json!({ "jsonSchema": string_claim }))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let conditions = harness
        .get(&site_path(
            demo_ids::SITE_DOCS,
            "/adaptive-schema/template-conditions",
        ))
        .await;
    let claims: Vec<&str> = conditions["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["condition"].as_str())
        .collect();
    assert_eq!(
        claims,
        [
            "visitor.claims.isAdmin === true",
            "visitor.claims.unsigned.darkMode === true"
        ]
    );
}

#[tokio::test]
async fn adaptive_schema_and_template_conditions() {
    let harness = Harness::start().await;
    let customers = demo_ids::SITE_CUSTOMERS;
    let schema = harness.get(&site_path(customers, "/adaptive-schema")).await;
    assert_eq!(schema["object"], "site-adaptive-schema");
    assert!(schema["updatedAt"].is_string());
    let properties = &schema["jsonSchema"]["properties"];
    assert_eq!(properties["isBetaUser"]["type"], "boolean");
    assert_eq!(properties["isEnterprise"]["type"], "boolean");
    assert_eq!(properties["unsigned"]["type"], "object");
    assert_eq!(schema["jsonSchema"]["additionalProperties"], false);

    let conditions = harness
        .get(&site_path(
            customers,
            "/adaptive-schema/template-conditions",
        ))
        .await;
    let items = conditions["items"].as_array().expect("items");
    assert_eq!(items.len(), 4, "{conditions}");
    for item in items {
        assert!(item["description"].is_string() && item["condition"].is_string());
    }
    let texts: Vec<&str> = items
        .iter()
        .filter_map(|item| item["condition"].as_str())
        .collect();
    assert!(
        texts.contains(&"visitor.claims.isBetaUser === true"),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"visitor.claims.unsigned.planTeam === true"),
        "{texts:?}"
    );

    // The docs site has none yet: 404, and no conditions.
    let docs = demo_ids::SITE_DOCS;
    let reply = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            &site_path(docs, "/adaptive-schema"),
            None,
        )
        .await;
    assert_error(&reply, 404, "adaptive schema");
    let none = harness
        .get(&site_path(docs, "/adaptive-schema/template-conditions"))
        .await;
    assert_eq!(none, json!({ "items": [] }));

    let reply = harness
        .admin(
            Method::PUT,
            &site_path(docs, "/adaptive-schema"),
            json!({ "jsonSchema": valid_schema() }),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["object"], "site-adaptive-schema");
    assert_eq!(reply.body["jsonSchema"], valid_schema());
    let stored = harness.get(&site_path(docs, "/adaptive-schema")).await;
    assert_eq!(stored["jsonSchema"], valid_schema());
    let conditions = harness
        .get(&site_path(docs, "/adaptive-schema/template-conditions"))
        .await;
    assert_eq!(
        conditions["items"],
        json!([
            { "description": "Administers the account", "condition": "visitor.claims.isAdmin === true" },
            { "description": "Prefers dark mode", "condition": "visitor.claims.unsigned.darkMode === true" },
        ])
    );

    let mut not_object = valid_schema();
    not_object["type"] = json!("array");
    let mut open = valid_schema();
    open["additionalProperties"] = json!(true);
    let mut no_properties = valid_schema();
    no_properties["properties"] = json!([]);
    let mut string_property = valid_schema();
    string_property["properties"]["isAdmin"] = json!({ "type": "date", "description": "x" });
    let mut flat_unsigned = valid_schema();
    flat_unsigned["properties"]["unsigned"] = json!({ "type": "boolean", "description": "x" });
    let mut unsigned_number = valid_schema();
    unsigned_number["properties"]["unsigned"]["properties"]["darkMode"] =
        json!({ "type": "null", "description": "x" });
    let cases = [
        (json!({}), "\"jsonSchema\""),
        (json!({ "jsonSchema": "x" }), "\"jsonSchema\""),
        (
            json!({ "jsonSchema": not_object }),
            "\"jsonSchema\": \"type\" must be \"object\"",
        ),
        (
            json!({ "jsonSchema": open }),
            "\"additionalProperties\" must be false",
        ),
        (json!({ "jsonSchema": no_properties }), "\"properties\""),
        (
            json!({ "jsonSchema": string_property }),
            "claim \"isAdmin\" needs a type",
        ),
        (
            json!({ "jsonSchema": flat_unsigned }),
            "properties.unsigned.type",
        ),
        (
            json!({ "jsonSchema": unsigned_number }),
            "claim \"unsigned.darkMode\" needs a type",
        ),
        (
            json!({ "jsonSchema": valid_schema(), "extra": 1 }),
            "\"extra\"",
        ),
    ];
    for (body, needle) in cases {
        let reply = harness
            .admin(Method::PUT, &site_path(docs, "/adaptive-schema"), body)
            .await;
        assert_error(&reply, 400, needle);
    }
    // The rejected schemas did not replace the stored one.
    let stored = harness.get(&site_path(docs, "/adaptive-schema")).await;
    assert_eq!(stored["jsonSchema"], valid_schema());
}

#[tokio::test]
async fn share_links_crud() {
    let harness = Harness::start().await;
    let links_path = site_path(demo_ids::SITE_PARTNERS, "/share-links");
    let list = harness.get(&links_path).await;
    assert_eq!(list["count"], 3);
    let items = list["items"].as_array().expect("items");
    assert_eq!(
        items.iter().filter(|link| link["active"] == true).count(),
        2
    );
    for link in items {
        assert_eq!(link["object"], "share-link");
        assert_has_keys(link, &["id", "createdAt", "name", "active", "urls"]);
        let url = link["urls"]["published"].as_str().unwrap_or_default();
        assert!(url.contains("shareKey=sk"), "{url}");
    }
    let page = harness.get(&format!("{links_path}?limit=2")).await;
    assert_eq!(page["items"].as_array().map(Vec::len), Some(2));
    assert!(page["next"]["page"].is_string());
    let found = harness.get(&format!("{links_path}?search=emea")).await;
    assert_eq!(ids(&found["items"]), [demo_ids::SHARE_LINK_EMEA]);

    let reply = harness
        .admin(
            Method::POST,
            &links_path,
            json!({ "name": "APAC distributors" }),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let created = reply.body;
    let id = created["id"].as_str().expect("id").to_string();
    assert_eq!(created["name"], "APAC distributors");
    assert_eq!(created["active"], true);
    assert!(created["createdAt"].is_string());
    assert!(
        reply
            .location
            .as_deref()
            .is_some_and(|location| location.ends_with(&format!("/share-links/{id}"))),
        "{:?}",
        reply.location
    );
    let secret = created["urls"]["published"].as_str().unwrap_or_default();
    assert!(secret.contains("shareKey="), "{secret}");
    assert_eq!(harness.get(&links_path).await["count"], 4);

    for body in [
        json!({}),
        json!({ "name": "" }),
        json!({ "name": "n".repeat(51) }),
        json!({ "name": 3 }),
    ] {
        let reply = harness.admin(Method::POST, &links_path, body).await;
        assert_error(&reply, 400, "\"name\"");
    }

    let link_path = format!("{links_path}/{id}");
    let reply = harness
        .admin(Method::PATCH, &link_path, json!({ "active": false }))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["active"], false);
    assert_eq!(reply.body["name"], "APAC distributors");
    let reply = harness
        .admin(
            Method::PATCH,
            &link_path,
            json!({ "name": "APAC", "active": true }),
        )
        .await;
    assert_eq!(reply.body["name"], "APAC");
    assert_eq!(reply.body["active"], true);
    let reply = harness
        .admin(Method::PATCH, &link_path, json!({ "active": "no" }))
        .await;
    assert_error(&reply, 400, "\"active\"");
    let reply = harness
        .admin(Method::PATCH, &link_path, json!({ "name": "" }))
        .await;
    assert_error(&reply, 400, "\"name\"");
    let reply = harness
        .admin(
            Method::PATCH,
            &format!("{links_path}/shl-nope"),
            json!({ "active": true }),
        )
        .await;
    assert_error(&reply, 404, "shl-nope");

    for _ in 0..2 {
        let reply = harness
            .send(Method::DELETE, tokens::ADMIN, &link_path, None)
            .await;
        assert_eq!(reply.status, 204);
        assert!(reply.body.is_null());
    }
    assert_eq!(harness.get(&links_path).await["count"], 3);
}

#[tokio::test]
async fn section_groups_crud_and_nesting() {
    let harness = Harness::start().await;
    let docs = demo_ids::SITE_DOCS;
    let groups_path = site_path(docs, "/section-groups");
    let list = harness.get(&groups_path).await;
    assert_eq!(
        ids(&list["items"]),
        [
            demo_ids::GROUP_REFERENCE,
            demo_ids::GROUP_SDKS,
            demo_ids::GROUP_INTERNALS
        ]
    );
    let sdks = &list["items"][1];
    assert_eq!(sdks["object"], "site-section-group");
    assert_eq!(sdks["sectionGroup"], demo_ids::GROUP_REFERENCE);
    assert_eq!(sdks["icon"], "boxes");
    assert_eq!(ids(&sdks["children"]), [demo_ids::SECTION_RUST_SDK]);
    let paged = harness.get(&format!("{groups_path}?limit=1")).await;
    assert_eq!(paged["count"], 3);
    assert!(paged["next"]["page"].is_string());

    // Create a root group taking Runbooks out of Internals.
    let reply = harness
        .admin(
            Method::POST,
            &groups_path,
            json!({ "title": "Operations", "icon": "wrench", "sections": [demo_ids::SECTION_RUNBOOKS] }),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert!(reply.location.is_some());
    let operations = reply.body["id"].as_str().expect("id").to_string();
    assert_eq!(reply.body["title"], "Operations");
    assert_eq!(reply.body["icon"], "wrench");
    assert!(reply.body.get("sectionGroup").is_none());
    assert_eq!(ids(&reply.body["children"]), [demo_ids::SECTION_RUNBOOKS]);
    let internals = harness.get(&groups_path).await;
    let internals = internals["items"]
        .as_array()
        .and_then(|items| {
            items
                .iter()
                .find(|group| group["id"] == demo_ids::GROUP_INTERNALS)
                .cloned()
        })
        .expect("internals");
    assert_eq!(
        ids(&internals["children"]),
        [demo_ids::SECTION_ARCHITECTURE]
    );

    // A nested group under Operations, shown nested in the published structure.
    let reply = harness
        .admin(
            Method::POST,
            &groups_path,
            json!({ "title": "On call", "icon": null, "parent": operations }),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let on_call = reply.body["id"].as_str().expect("id").to_string();
    assert_eq!(reply.body["sectionGroup"], operations.as_str());
    assert!(reply.body.get("icon").is_none());
    let published = harness.get(&site_path(docs, "/published")).await;
    let top = &published["structure"]["structure"];
    let operations_node = top
        .as_array()
        .and_then(|items| items.iter().find(|item| item["id"] == operations.as_str()))
        .expect("operations at the root");
    assert_eq!(
        ids(&operations_node["children"]),
        [demo_ids::SECTION_RUNBOOKS.to_string(), on_call.clone()]
    );

    for (body, needle) in [
        (json!({}), "\"title\""),
        (json!({ "title": "" }), "\"title\""),
        (json!({ "title": "t".repeat(101) }), "\"title\""),
        (json!({ "title": "x", "icon": "i".repeat(51) }), "\"icon\""),
        (json!({ "title": "x", "parent": "grp-nope" }), "\"parent\""),
        (
            json!({ "title": "x", "sections": ["sec-nope"] }),
            "\"sections[0]\"",
        ),
        (json!({ "title": "x", "sections": "sec" }), "\"sections\""),
    ] {
        let reply = harness.admin(Method::POST, &groups_path, body).await;
        assert_error(&reply, 400, needle);
    }

    // Patch title and icon; null removes the icon.
    let operations_path = format!("{groups_path}/{operations}");
    let reply = harness
        .admin(
            Method::PATCH,
            &operations_path,
            json!({ "title": "Ops", "icon": "gear" }),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["title"], "Ops");
    assert_eq!(reply.body["icon"], "gear");
    let reply = harness
        .admin(Method::PATCH, &operations_path, json!({ "icon": null }))
        .await;
    assert!(reply.body.get("icon").is_none());
    let reply = harness
        .admin(Method::PATCH, &operations_path, json!({ "title": "" }))
        .await;
    assert_error(&reply, 400, "\"title\"");
    let reply = harness
        .admin(
            Method::PATCH,
            &operations_path,
            json!({ "parentSectionGroupId": on_call }),
        )
        .await;
    assert_error(&reply, 400, "\"parentSectionGroupId\"");
    let reply = harness
        .admin(
            Method::PATCH,
            &format!("{groups_path}/grp-nope"),
            json!({ "title": "x" }),
        )
        .await;
    assert_error(&reply, 404, "grp-nope");

    // Adding a section moves it out of its former group.
    let reply = harness
        .admin(
            Method::POST,
            &format!("{groups_path}/{on_call}/sections"),
            json!({ "sectionId": demo_ids::SECTION_API }),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(ids(&reply.body["children"]), [demo_ids::SECTION_API]);
    let reference = harness.get(&groups_path).await;
    let reference = &reference["items"][0];
    assert_eq!(reference["id"], demo_ids::GROUP_REFERENCE);
    assert_eq!(ids(&reference["children"]), [demo_ids::GROUP_SDKS]);
    for (body, needle) in [
        (json!({}), "\"sectionId\""),
        (json!({ "sectionId": "sec-nope" }), "\"sectionId\""),
    ] {
        let reply = harness
            .admin(
                Method::POST,
                &format!("{groups_path}/{on_call}/sections"),
                body,
            )
            .await;
        assert_error(&reply, 400, needle);
    }
    let reply = harness
        .admin(
            Method::POST,
            &format!("{groups_path}/grp-nope/sections"),
            json!({ "sectionId": demo_ids::SECTION_API }),
        )
        .await;
    assert_error(&reply, 404, "grp-nope");

    // Removing it puts it beside the group (in Operations); removing again is still 204.
    let remove = format!("{groups_path}/{on_call}/sections/{}", demo_ids::SECTION_API);
    for _ in 0..2 {
        let reply = harness
            .send(Method::DELETE, tokens::ADMIN, &remove, None)
            .await;
        assert_eq!(reply.status, 204);
    }
    let section = find_in_structure(&harness, docs, demo_ids::SECTION_API).await;
    assert_eq!(section["sectionGroup"], operations.as_str());

    // Deleting Operations moves its contents to the root; deleting again is 204.
    for _ in 0..2 {
        let reply = harness
            .send(Method::DELETE, tokens::ADMIN, &operations_path, None)
            .await;
        assert_eq!(reply.status, 204);
    }
    let runbooks = find_in_structure(&harness, docs, demo_ids::SECTION_RUNBOOKS).await;
    assert!(runbooks.get("sectionGroup").is_none(), "{runbooks}");
    let on_call_node = find_in_structure(&harness, docs, &on_call).await;
    assert!(on_call_node.get("sectionGroup").is_none(), "{on_call_node}");
    let remaining = harness.get(&groups_path).await;
    assert!(!ids(&remaining["items"]).contains(&operations));
}

/// Finds an item (section or group) anywhere in a site's published structure.
async fn find_in_structure(harness: &Harness, site: &str, id: &str) -> Value {
    fn search(items: &Value, id: &str) -> Option<Value> {
        items.as_array()?.iter().find_map(|item| {
            if item["id"] == id {
                Some(item.clone())
            } else {
                search(&item["children"], id)
            }
        })
    }
    let published = harness.get(&site_path(site, "/published")).await;
    search(&published["structure"]["structure"], id)
        .unwrap_or_else(|| panic!("{id} not in {published}"))
}

#[tokio::test]
async fn create_and_delete_sites() {
    let harness = Harness::start().await;
    let sites = format!("/orgs/{}/sites", demo_ids::ACME);
    let reply = harness
        .admin(
            Method::POST,
            &sites,
            json!({ "title": "Robotics Academy", "visibility": "unlisted", "spaces": [demo_ids::SPACE_GETTING_STARTED] }),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let created = reply.body;
    let id = created["id"].as_str().expect("id").to_string();
    assert_eq!(created["type"], "basic");
    assert_eq!(created["visibility"], "unlisted");
    assert_eq!(created["published"], false);
    assert_eq!(created["siteSpaces"], 1);
    assert!(
        reply
            .location
            .as_deref()
            .is_some_and(|location| location.ends_with(&format!("/sites/{id}")))
    );
    assert_eq!(harness.get(&sites).await["count"], 5);

    let empty = harness
        .send(Method::POST, tokens::ADMIN, &sites, None)
        .await;
    assert_eq!(empty.status, 201, "{}", empty.body);
    assert_eq!(empty.body["title"], "Untitled site");

    for (body, needle) in [
        (json!({ "type": "gold" }), "\"type\""),
        (json!({ "title": "x" }), "\"title\""),
        (json!({ "spaces": ["spc-lumen-docs"] }), "\"spaces[0]\""),
    ] {
        let reply = harness.admin(Method::POST, &sites, body).await;
        assert_error(&reply, 400, needle);
    }

    let path = format!("{sites}/{id}");
    for _ in 0..2 {
        let reply = harness
            .send(Method::DELETE, tokens::ADMIN, &path, None)
            .await;
        assert_eq!(reply.status, 204);
    }
    let gone = harness.send(Method::GET, tokens::ADMIN, &path, None).await;
    assert_eq!(gone.status, 404);
}

#[tokio::test]
async fn faults_and_unknown_methods_use_the_error_body() {
    let harness = Harness::start().await;
    harness.sandbox.set_faults(Faults {
        fail_with: Some(503),
        ..Faults::default()
    });
    let reply = harness
        .send(
            Method::GET,
            tokens::ADMIN,
            &format!("/orgs/{}/sites", demo_ids::ACME),
            None,
        )
        .await;
    assert_error(&reply, 503, "503");
    let reply = harness
        .admin(
            Method::PATCH,
            &site_path(demo_ids::SITE_DOCS, ""),
            json!({ "title": "Faulty" }),
        )
        .await;
    assert_eq!(reply.status, 503);
    harness.sandbox.set_faults(Faults::default());
    assert_eq!(
        harness.get(&site_path(demo_ids::SITE_DOCS, "")).await["title"],
        "Acme Developer Docs"
    );

    let reply = harness
        .admin(Method::PUT, &site_path(demo_ids::SITE_DOCS, ""), json!({}))
        .await;
    assert_eq!(reply.status, 405);
    assert_eq!(reply.body["error"]["code"], 405);
    let unauthenticated = harness
        .http
        .get(format!(
            "{}/v1{}",
            harness.sandbox.base_url(),
            site_path(demo_ids::SITE_DOCS, "")
        ))
        .send()
        .await
        .expect("answered");
    assert_eq!(unauthenticated.status().as_u16(), 401);
}

//! The sandbox's space operations against the seed: settings with
//! validation, delete (204 even for a missing space), the trash in listings, restore within 7
//! days and refused after, duplicate, and who may do what. Plain HTTP and JSON.

use crate::http::{HttpSandbox, assert_error};
use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::{Value, json};

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;

fn space_path(space: &str) -> String {
    format!("/spaces/{space}")
}

async fn org_space_ids(sandbox: &HttpSandbox) -> Vec<(String, Option<String>)> {
    let list = sandbox
        .get(&format!("/orgs/{}/spaces?limit=1000", demo_ids::ACME))
        .await;
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|space| {
            (
                space["id"].as_str().unwrap().to_string(),
                space["deletedAt"].as_str().map(str::to_string),
            )
        })
        .collect()
}

#[tokio::test]
async fn patch_changes_each_setting_and_reads_back() {
    let sandbox = HttpSandbox::start().await;
    let reply = sandbox
        .admin(
            Method::PATCH,
            &space_path(SPACE),
            Some(json!({
                "editMode": "locked",
                "title": "Start here",
                "emoji": "🚀",
                "defaultLevel": "comment",
                "language": "pt-br",
                "mergeRules": {"type": "rules", "rules": [
                    {"rule": "require_specific_reviewers", "users": [demo_ids::USER_REVIEWER]}]}
            })),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let space = sandbox.get(&space_path(SPACE)).await;
    assert_eq!(space["editMode"], "locked");
    assert_eq!(space["title"], "Start here");
    assert_eq!(space["emoji"], "🚀");
    assert_eq!(space["defaultLevel"], "comment");
    assert_eq!(space["language"], "pt-br");
    assert_eq!(
        space["mergeRules"],
        json!({"type": "rules", "rules": [
            {"rule": "require_specific_reviewers", "users": [demo_ids::USER_REVIEWER]}]})
    );
    // Unlock again, back to inherited rules, no default access: only those fields change.
    let reply = sandbox
        .admin(
            Method::PATCH,
            &space_path(SPACE),
            Some(
                json!({"editMode": "live", "mergeRules": {"type": "inherit"},
                        "defaultLevel": null}),
            ),
        )
        .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["editMode"], "live");
    assert_eq!(reply.body["mergeRules"], json!({"type": "inherit"}));
    assert_eq!(reply.body["defaultLevel"], Value::Null);
    assert_eq!(reply.body["title"], "Start here");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn patch_refuses_bad_fields_by_name_and_changes_nothing() {
    let sandbox = HttpSandbox::start().await;
    let cases = [
        (json!({"editMode": "frozen"}), "editMode"),
        (json!({"title": "x".repeat(51)}), "title"),
        (json!({"title": ""}), "title"),
        (json!({"language": "klingon"}), "language"),
        (json!({"defaultLevel": "owner"}), "defaultLevel"),
        (json!({"emoji": 5}), "emoji"),
        (json!({"mergeRules": {"type": "maybe"}}), "mergeRules"),
        (
            json!({"mergeRules": {"type": "rules", "rules": [
                {"rule": "require_specific_reviewers", "users": ["usr-nobody"]}]}}),
            "mergeRules.rules[0].users[0]",
        ),
        (
            json!({"mergeRules": {"type": "rules", "rules": [
                {"rule": "require_specific_reviewers", "users": []}]}}),
            "mergeRules.rules[0].users",
        ),
        (json!({"color": "red"}), "color"),
    ];
    for (body, field) in cases {
        let reply = sandbox
            .admin(Method::PATCH, &space_path(SPACE), Some(body.clone()))
            .await;
        assert_error(&reply, 400, field);
    }
    let space = sandbox.get(&space_path(SPACE)).await;
    assert_eq!(space["title"], "Getting Started");
    assert_eq!(space["editMode"], "live");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn only_admins_change_spaces_and_unknown_ones_are_404() {
    let sandbox = HttpSandbox::start().await;
    let path = space_path(SPACE);
    let reply = sandbox
        .send(
            Method::PATCH,
            tokens::EDITOR,
            &path,
            Some(json!({"editMode": "locked"})),
        )
        .await;
    assert_error(&reply, 403, "your role is edit");
    for (method, suffix) in [
        (Method::DELETE, ""),
        (Method::POST, "/duplicate"),
        (Method::POST, "/restore"),
    ] {
        let reply = sandbox
            .send(method, tokens::READER, &format!("{path}{suffix}"), None)
            .await;
        assert_error(&reply, 403, "admin");
    }
    let reply = sandbox
        .admin(
            Method::PATCH,
            "/spaces/spc-nope",
            Some(json!({"title": "x"})),
        )
        .await;
    assert_error(&reply, 404, "spc-nope");
    let reply = sandbox
        .admin(Method::POST, "/spaces/spc-nope/duplicate", None)
        .await;
    assert_error(&reply, 404, "spc-nope");
    assert_eq!(sandbox.get(&space_path(SPACE)).await["editMode"], "live");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn delete_keeps_the_space_in_the_trash_and_restore_brings_it_back() {
    let sandbox = HttpSandbox::start().await;
    let reply = sandbox
        .admin(Method::DELETE, &space_path(SPACE), None)
        .await;
    assert_eq!(reply.status, 204);
    assert_eq!(reply.body, Value::Null);
    // Still readable, with `deletedAt`; listed in the organization with it, not in its
    // collection.
    let space = sandbox.get(&space_path(SPACE)).await;
    let deleted_at = space["deletedAt"].as_str().expect("deletedAt is set");
    assert!(chrono::DateTime::parse_from_rfc3339(deleted_at).is_ok());
    let listed = org_space_ids(&sandbox).await;
    assert!(
        listed
            .iter()
            .any(|(id, deleted)| id == SPACE && deleted.is_some())
    );
    let collection = sandbox
        .get(&format!(
            "/collections/{}/spaces",
            demo_ids::COLLECTION_PRODUCT
        ))
        .await;
    assert!(!collection.to_string().contains(SPACE));
    // Deleting again, or a space that never was: 204 all the same.
    for id in [SPACE, "spc-never-was"] {
        let reply = sandbox.admin(Method::DELETE, &space_path(id), None).await;
        assert_eq!(reply.status, 204, "{id}");
    }
    let reply = sandbox
        .admin(
            Method::POST,
            &format!("{}/restore", space_path(SPACE)),
            None,
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["id"], SPACE);
    assert!(reply.body.get("deletedAt").is_none());
    let space = sandbox.get(&space_path(SPACE)).await;
    assert!(space.get("deletedAt").is_none(), "{space}");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn restore_is_refused_after_seven_days() {
    let sandbox = HttpSandbox::start().await;
    sandbox
        .admin(Method::DELETE, &space_path(SPACE), None)
        .await;
    // Six days later it can still come back.
    let reply = sandbox
        .knob(
            Method::POST,
            "/_sandbox/clock",
            Some(json!({"shiftDays": 6})),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(sandbox.get(&space_path(SPACE)).await["id"], SPACE);
    // Eight days later it is purged: gone from reads and listings, restore refused.
    sandbox
        .knob(
            Method::POST,
            "/_sandbox/clock",
            Some(json!({"shiftDays": 8})),
        )
        .await;
    let reply = sandbox.admin(Method::GET, &space_path(SPACE), None).await;
    assert_error(&reply, 404, SPACE);
    assert!(
        !org_space_ids(&sandbox)
            .await
            .iter()
            .any(|(id, _)| id == SPACE)
    );
    let reply = sandbox
        .admin(
            Method::POST,
            &format!("{}/restore", space_path(SPACE)),
            None,
        )
        .await;
    assert_error(&reply, 404, "more than 7 days ago");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn the_demo_trash_holds_two_recently_deleted_spaces() {
    let sandbox = HttpSandbox::start().await;
    let listed = org_space_ids(&sandbox).await;
    let deleted: Vec<&str> = listed
        .iter()
        .filter(|(_, deleted)| deleted.is_some())
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(
        deleted,
        [
            demo_ids::SPACE_DELETED_ONBOARDING,
            demo_ids::SPACE_DELETED_PLANNING
        ]
    );
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn duplicate_answers_201_with_the_copy_placed_after_the_original() {
    let sandbox = HttpSandbox::start().await;
    let reply = sandbox
        .admin(
            Method::POST,
            &format!("{}/duplicate", space_path(SPACE)),
            None,
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let copy_id = reply.body["id"].as_str().unwrap().to_string();
    assert_ne!(copy_id, SPACE);
    assert_eq!(reply.body["title"], "Getting Started (copy)");
    assert_eq!(reply.body["parent"], demo_ids::COLLECTION_PRODUCT);
    let location = reply.location.expect("Location header");
    assert!(
        location.ends_with(&format!("/v1/spaces/{copy_id}")),
        "{location}"
    );
    let listed = org_space_ids(&sandbox).await;
    let at = listed.iter().position(|(id, _)| id == SPACE).unwrap();
    assert_eq!(listed[at + 1].0, copy_id);
    let pages = sandbox
        .get(&format!("/spaces/{copy_id}/content/pages"))
        .await;
    assert!(!pages["pages"].as_array().unwrap().is_empty());
    sandbox.sandbox.shutdown().await;
}

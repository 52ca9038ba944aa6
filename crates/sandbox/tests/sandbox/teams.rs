//! The sandbox's teams endpoints against the seed: only admins write; a team's
//! owner manages its members, validation 400s naming the field, and the bulk rule "added and
//! removed ends up removed". Plain HTTP and JSON.

use crate::http::{HttpSandbox, assert_error};
use crate::members::{ACME, MAYA, all_items, members};
use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::json;

pub(crate) fn teams(rest: &str) -> String {
    format!("/orgs/{ACME}/teams{rest}")
}

async fn team_member_ids(sandbox: &HttpSandbox, team: &str) -> Vec<String> {
    all_items(sandbox, &teams(&format!("/{team}/members")))
        .await
        .iter()
        .filter_map(|entry| entry["organization"]["id"].as_str().map(str::to_string))
        .collect()
}

#[tokio::test]
async fn teams_are_created_renamed_filtered_and_deleted_by_admins() {
    let sandbox = HttpSandbox::start().await;
    let maya_teams = || async { sandbox.get(&members(&format!("/{MAYA}"))).await["teams"].clone() };
    let teams_before = maya_teams().await.as_u64().unwrap_or_default();
    let reply = sandbox
        .admin(
            Method::PUT,
            &teams(""),
            json!({"title": "Field Ops", "members": [MAYA, "jonas.berg@acme-robotics.example"]}),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.body["members"], 2);
    let id = reply.body["id"].as_str().unwrap_or_default().to_string();
    let mut seated = team_member_ids(&sandbox, &id).await;
    seated.sort();
    assert_eq!(seated, [MAYA, demo_ids::USER_EDITOR]);
    assert_eq!(maya_teams().await, teams_before + 1);

    for (body, needle) in [
        (json!({"title": ""}), "\"title\""),
        (json!({"title": "x".repeat(65)}), "\"title\""),
        (json!({}), "\"title\" is required"),
        (
            json!({"title": "Ok", "members": ["usr-nobody"]}),
            "\"members\"",
        ),
        (json!({"title": "Ok", "colour": "red"}), "colour"),
    ] {
        let reply = sandbox.admin(Method::PUT, &teams(""), body).await;
        assert_error(&reply, 400, needle);
    }
    let reply = sandbox
        .send(
            Method::PUT,
            tokens::EDITOR,
            &teams(""),
            Some(json!({"title": "Mine"})),
        )
        .await;
    assert_error(&reply, 403, "admin role");

    let path = teams(&format!("/{id}"));
    let reply = sandbox
        .admin(Method::PATCH, &path, json!({"title": "Field Operations"}))
        .await;
    assert_eq!(reply.body["title"], "Field Operations", "{}", reply.body);
    let reply = sandbox
        .admin(Method::PATCH, &path, json!({"title": ""}))
        .await;
    assert_error(&reply, 400, "\"title\"");
    let found = all_items(&sandbox, &teams("?title=field%20OP")).await;
    assert_eq!(found.len(), 1);

    // "Teams I can manage": an owner's own teams; an admin manages all.
    let owned = all_items(
        &sandbox,
        &teams(&format!("?owner={}", demo_ids::USER_EDITOR)),
    )
    .await;
    let titles: Vec<_> = owned.iter().map(|team| team["title"].clone()).collect();
    assert_eq!(titles, [json!("Robotics SDK")]);
    let managed = all_items(
        &sandbox,
        &teams(&format!("?owner={}", demo_ids::USER_ADMIN)),
    )
    .await;
    assert_eq!(managed.len(), 7);

    for _ in 0..2 {
        let reply = sandbox.admin(Method::DELETE, &path, None).await;
        assert_eq!(reply.status, 204);
    }
    assert_error(&sandbox.admin(Method::GET, &path, None).await, 404, &id);
    assert_eq!(maya_teams().await, teams_before);
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn bulk_edit_adds_changes_roles_and_removal_wins() {
    let sandbox = HttpSandbox::start().await;
    let team = "team-design";
    let before = team_member_ids(&sandbox, team).await;
    let leaving = before[0].clone();
    let path = teams(&format!("/{team}/members"));
    let reply = sandbox
        .admin(
            Method::PUT,
            &path,
            json!({
                "add": [MAYA, demo_ids::USER_READER],
                "remove": [leaving, demo_ids::USER_READER],
                "memberships": {MAYA: {"role": "owner"}}
            }),
        )
        .await;
    assert_eq!(reply.status, 204, "{}", reply.body);
    let after = all_items(&sandbox, &path).await;
    let role_of = |id: &str| {
        after
            .iter()
            .find(|entry| entry["organization"]["id"] == id)
            .map(|entry| entry["team"]["role"].clone())
    };
    assert_eq!(role_of(MAYA), Some(json!("owner")));
    assert_eq!(
        role_of(demo_ids::USER_READER),
        None,
        "added and removed: removed"
    );
    assert_eq!(role_of(&leaving), None);
    for body in [
        json!({"add": ["usr-nobody"]}),
        json!({"memberships": {MAYA: {"role": "boss"}}}),
        json!({"add": "u1"}),
    ] {
        let reply = sandbox.admin(Method::PUT, &path, body).await;
        assert_eq!(reply.status, 400, "{}", reply.body);
    }
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn one_member_is_added_changed_and_removed_and_owners_manage_their_team() {
    let sandbox = HttpSandbox::start().await;
    // Jonas (editor) owns Robotics SDK: he may manage its members, not Platform's.
    let own = teams(&format!("/team-robotics-sdk/members/{MAYA}"));
    let reply = sandbox
        .send(
            Method::PUT,
            tokens::EDITOR,
            &own,
            Some(json!({"role": "member"})),
        )
        .await;
    assert_eq!(reply.status, 204, "{}", reply.body);
    let reply = sandbox
        .send(
            Method::PUT,
            tokens::EDITOR,
            &own,
            Some(json!({"role": "owner"})),
        )
        .await;
    assert_eq!(reply.status, 204);
    let entries = all_items(&sandbox, &teams("/team-robotics-sdk/members")).await;
    assert!(
        entries
            .iter()
            .any(|entry| entry["organization"]["id"] == MAYA && entry["team"]["role"] == "owner")
    );
    let other = teams(&format!("/team-platform/members/{MAYA}"));
    let reply = sandbox
        .send(Method::PUT, tokens::EDITOR, &other, None)
        .await;
    assert_error(&reply, 403, "owner role");
    let reply = sandbox
        .admin(Method::PUT, &other, json!({"role": "chief"}))
        .await;
    assert_error(&reply, 400, "\"role\"");
    let reply = sandbox
        .admin(
            Method::PUT,
            &teams("/team-platform/members/usr-nobody"),
            None,
        )
        .await;
    assert_error(&reply, 404, "usr-nobody");
    for _ in 0..2 {
        let reply = sandbox
            .send(Method::DELETE, tokens::EDITOR, &own, None)
            .await;
        assert_eq!(reply.status, 204, "{}", reply.body);
    }
    let reply = sandbox
        .admin(Method::DELETE, &teams("/team-nope/members/u1"), None)
        .await;
    assert_eq!(reply.status, 204, "a missing team answers 204 too");
    assert!(
        !team_member_ids(&sandbox, "team-robotics-sdk")
            .await
            .contains(&MAYA.to_string())
    );
    sandbox.sandbox.shutdown().await;
}

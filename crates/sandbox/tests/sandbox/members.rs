//! The sandbox's members endpoints against the seed: roles (only admins write;
//! the last admin stays), 204 deletes also of missing things, validation 400s naming the field,
//! paging, the demo's people, and a member's spaces and teams. Plain HTTP and JSON.

use crate::http::{HttpSandbox, assert_error};
use crate::teams::teams;
use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::{Value, json};

pub(crate) const ACME: &str = demo_ids::ACME;

/// A generated Acme member with role `read`.
pub(crate) const MAYA: &str = "usr-acme-13";

pub(crate) fn members(rest: &str) -> String {
    format!("/orgs/{ACME}/members{rest}")
}

pub(crate) async fn all_items(sandbox: &HttpSandbox, path: &str) -> Vec<Value> {
    let separator = if path.contains('?') { '&' } else { '?' };
    let body = sandbox.get(&format!("{path}{separator}limit=1000")).await;
    body["items"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn the_demo_has_enough_people_and_teams_to_page_search_and_sort() {
    let sandbox = HttpSandbox::start().await;
    let everyone = all_items(&sandbox, &members("")).await;
    assert!(everyone.len() >= 60, "{} members", everyone.len());
    for role in ["admin", "create", "edit", "review", "comment", "read"] {
        assert!(
            everyone.iter().any(|member| member["role"] == role),
            "{role}"
        );
    }
    assert!(everyone.iter().any(|member| member["role"].is_null()));
    assert!(everyone.iter().any(|member| member["disabled"] == true));
    assert!(everyone.iter().any(|member| member["sso"] == true));
    assert!(everyone.iter().any(|member| member["sso"] == false));
    let first_page = sandbox.get(&members("")).await;
    assert!(first_page["next"]["page"].is_string(), "the list pages");
    let active = all_items(&sandbox, &members("?sort=lastSeenAt")).await;
    assert!(
        active.len() < everyone.len(),
        "last seen lists active members only"
    );
    let found = all_items(&sandbox, &members("?search=MAYA")).await;
    assert!(!found.is_empty());
    assert!(found.iter().all(|member| {
        let text = format!(
            "{} {}",
            member["user"]["displayName"], member["user"]["email"]
        );
        text.to_lowercase().contains("maya")
    }));
    let listed = all_items(&sandbox, &teams("")).await;
    assert_eq!(listed.len(), 6, "six teams in Acme");
    for team in &listed {
        assert_eq!(team["object"], "team");
        assert!(team["members"].as_u64().is_some() && team["spaces"].as_u64().is_some());
        assert!(team["createdAt"].is_string() && team["permissions"]["admin"] == true);
    }
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn an_admin_changes_a_role_makes_an_sso_member_and_removes_a_member() {
    let sandbox = HttpSandbox::start().await;
    let path = members(&format!("/{MAYA}"));
    let reply = sandbox
        .admin(Method::PATCH, &path, json!({"role": "edit"}))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["role"], "edit");
    let reply = sandbox
        .admin(Method::PATCH, &path, json!({"role": null}))
        .await;
    assert!(reply.body["role"].is_null(), "null makes a guest");
    let reply = sandbox
        .admin(Method::PATCH, &path, json!({"role": "owner"}))
        .await;
    assert_error(&reply, 400, "\"role\"");
    let reply = sandbox
        .admin(
            Method::PATCH,
            &members("/usr-nobody"),
            json!({"role": "read"}),
        )
        .await;
    assert_error(&reply, 404, "usr-nobody");

    let guest = "usr-oleksandr-kovalenko";
    assert_eq!(
        sandbox.get(&members(&format!("/{guest}"))).await["sso"],
        false
    );
    let reply = sandbox
        .admin(Method::POST, &members(&format!("/{guest}/sso")), None)
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["sso"], true);

    // Removing answers 204, also for someone who is not (or no longer) a member.
    for _ in 0..2 {
        let reply = sandbox.admin(Method::DELETE, &path, None).await;
        assert_eq!(reply.status, 204, "{}", reply.body);
    }
    let reply = sandbox.admin(Method::GET, &path, None).await;
    assert_error(&reply, 404, MAYA);
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn only_admins_change_members_and_the_last_admin_stays() {
    let sandbox = HttpSandbox::start().await;
    let path = members(&format!("/{MAYA}"));
    for token in [tokens::EDITOR, tokens::READER] {
        let reply = sandbox
            .send(Method::PATCH, token, &path, Some(json!({"role": "admin"})))
            .await;
        assert_error(&reply, 403, "admin role");
        let reply = sandbox.send(Method::DELETE, token, &path, None).await;
        assert_error(&reply, 403, "admin role");
        let reply = sandbox
            .send(Method::POST, token, &format!("{path}/sso"), None)
            .await;
        assert_error(&reply, 403, "admin role");
    }
    // Demote every other admin, then the demo admin may not demote or remove themselves.
    for member in all_items(&sandbox, &members("?role=admin")).await {
        let id = member["id"].as_str().unwrap_or_default();
        if id != demo_ids::USER_ADMIN {
            let reply = sandbox
                .admin(
                    Method::PATCH,
                    &members(&format!("/{id}")),
                    json!({"role": "read"}),
                )
                .await;
            assert_eq!(reply.status, 200, "{}", reply.body);
        }
    }
    let me = members(&format!("/{}", demo_ids::USER_ADMIN));
    let reply = sandbox
        .admin(Method::PATCH, &me, json!({"role": "edit"}))
        .await;
    assert_error(&reply, 400, "last admin");
    let reply = sandbox.admin(Method::DELETE, &me, None).await;
    assert_error(&reply, 400, "last admin");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn a_members_spaces_and_teams_page_with_permission_and_role() {
    let sandbox = HttpSandbox::start().await;
    let spaces = all_items(
        &sandbox,
        &members(&format!("/{}/spaces", demo_ids::USER_EDITOR)),
    )
    .await;
    assert!(!spaces.is_empty());
    for entry in &spaces {
        assert_eq!(entry["permission"], "edit");
        assert_eq!(entry["space"]["object"], "space");
    }
    let member = sandbox
        .get(&members(&format!("/{}", demo_ids::USER_EDITOR)))
        .await;
    let listed = all_items(
        &sandbox,
        &members(&format!("/{}/teams", demo_ids::USER_EDITOR)),
    )
    .await;
    assert_eq!(member["teams"].as_u64(), Some(listed.len() as u64));
    let roles: Vec<_> = listed
        .iter()
        .map(|entry| {
            (
                entry["team"]["title"].clone(),
                entry["member"]["role"].clone(),
            )
        })
        .collect();
    assert!(
        roles.contains(&(json!("Robotics SDK"), json!("owner"))),
        "{roles:?}"
    );
    assert!(
        roles.contains(&(json!("Platform"), json!("member"))),
        "{roles:?}"
    );
    let filtered = all_items(
        &sandbox,
        &members(&format!("/{}/teams?title=robot", demo_ids::USER_EDITOR)),
    )
    .await;
    assert_eq!(filtered.len(), 1);
    let reply = sandbox
        .admin(Method::GET, &members("/usr-nobody/spaces"), None)
        .await;
    assert_error(&reply, 404, "usr-nobody");
    sandbox.sandbox.shutdown().await;
}

//! The sandbox's organization-settings endpoints against the seed: the
//! organization PATCH with 400s naming the field, 204 deletes of invite links also of missing
//! ones, joining by email domain, and the agent instructions. Plain HTTP and JSON.

use crate::http::{HttpSandbox, assert_error};
use quire_sandbox::{NEWCOMER_TOKEN, OUTSIDER_TOKEN, demo_ids, tokens};
use reqwest::Method;
use serde_json::json;

pub(crate) const ACME: &str = demo_ids::ACME;

#[tokio::test]
async fn patch_organization_checks_fields_and_stores_them() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("/orgs/{ACME}");
    let cases = [
        (json!({"title": "A"}), "title"),
        (json!({"title": " Padded "}), "title"),
        (json!({"emailDomains": ["not a domain"]}), "emailDomains"),
        (json!({"hostname": "ab"}), "hostname"),
        (json!({"hostname": "Has Caps"}), "hostname"),
        (json!({"defaultRole": "owner"}), "defaultRole"),
        (
            json!({"defaultContent": {"type": "site", "site": "site-nope"}}),
            "defaultContent.site",
        ),
        (json!({"logo": "ftp://x"}), "logo"),
        (json!({"sso": "yes"}), "sso"),
        (json!({"mergeRules": {"type": "maybe"}}), "mergeRules.type"),
        (json!({"plan": "free"}), "plan"),
    ];
    for (body, field) in cases {
        let reply = sandbox.admin(Method::PATCH, &path, body.clone()).await;
        assert_error(&reply, 400, field);
    }
    let site = sandbox.ids(&format!("/orgs/{ACME}/sites")).await[0].clone();
    let reply = sandbox
        .admin(
            Method::PATCH,
            &path,
            json!({"title": "Acme Robotics Inc", "emailDomains": ["acme.example", "acme-robotics.example"],
                   "hostname": "acme-docs", "defaultRole": null,
                   "defaultContent": {"type": "site", "site": site}, "logo": null, "sso": false,
                   "ai": false, "inviteLinks": true, "mergeRules": {"type": "none"}}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let organization = sandbox.get(&path).await;
    assert_eq!(organization["title"], "Acme Robotics Inc");
    assert_eq!(
        organization["emailDomains"],
        json!(["acme.example", "acme-robotics.example"])
    );
    assert_eq!(organization["hostname"], "acme-docs");
    assert!(organization["defaultRole"].is_null());
    assert_eq!(
        organization["defaultContent"],
        json!({"type": "site", "site": site})
    );
    assert!(organization["urls"]["logo"].is_null());
    assert_eq!(organization["sso"], false);
    assert_eq!(organization["ai"], false);
    assert_eq!(organization["inviteLinks"], true);
    assert_eq!(organization["mergeRules"], json!({"type": "none"}));
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn revoking_an_invite_link_is_204_also_when_missing() {
    let sandbox = HttpSandbox::start().await;
    let knob = format!("/_sandbox/orgs/{ACME}/link-invites");
    for _ in 0..2 {
        let reply = sandbox
            .admin(
                Method::DELETE,
                &format!("/orgs/{ACME}/link-invites/inv-acme-summit"),
                None,
            )
            .await;
        assert_eq!(reply.status, 204);
    }
    let left = sandbox.knob(Method::GET, &knob, None).await;
    assert_eq!(left.body["items"], json!(["inv-acme-contractors"]));
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn joining_works_for_an_allowed_email_domain_and_is_refused_in_words_otherwise() {
    let sandbox = HttpSandbox::start().await;
    let join = format!("/orgs/{ACME}/join");
    let reply = sandbox
        .send(Method::POST, OUTSIDER_TOKEN, &join, None)
        .await;
    assert_error(&reply, 403, "freelance.example may not join Acme Robotics");
    let reply = sandbox
        .send(Method::POST, NEWCOMER_TOKEN, &join, None)
        .await;
    assert_eq!(reply.status, 204, "{}", reply.body);
    let member = sandbox
        .send(
            Method::GET,
            NEWCOMER_TOKEN,
            &format!("/orgs/{ACME}/members/usr-noor-haddad"),
            None,
        )
        .await;
    assert_eq!(member.status, 200, "{}", member.body);
    assert_eq!(
        member.body["role"], "read",
        "the organization's default role"
    );
    // Already a member: still 204.
    let reply = sandbox
        .send(Method::POST, tokens::EDITOR, &join, None)
        .await;
    assert_eq!(reply.status, 204);
    let reply = sandbox
        .send(Method::POST, NEWCOMER_TOKEN, "/orgs/org-nope/join", None)
        .await;
    assert_error(&reply, 404, "org-nope");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn agent_instructions_read_and_replace_a_document() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("/orgs/{ACME}/agent-instructions");
    let current = sandbox.get(&path).await;
    assert_eq!(current["object"], "agent-instructions");
    assert_eq!(current["instructions"]["object"], "document");
    assert!(current["updatedAt"].is_string());
    for body in [
        json!({}),
        json!({"instructions": "text"}),
        json!({"instructions": {"nodes": 1}}),
    ] {
        let reply = sandbox.admin(Method::PUT, &path, body).await;
        assert_error(&reply, 400, "instructions");
    }
    let document = json!({"object": "document", "data": {}, "nodes": [{"object": "block",
        "type": "paragraph", "nodes": [{"object": "text", "leaves": [{"object": "leaf",
        "text": "Be brief.", "marks": []}]}]}]});
    let reply = sandbox
        .admin(Method::PUT, &path, json!({"instructions": document}))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let stored = sandbox.get(&path).await;
    assert_eq!(stored["instructions"], document);
    assert_eq!(stored["updatedBy"], demo_ids::USER_ADMIN);
    sandbox.sandbox.shutdown().await;
}

//! The sandbox's SSO endpoints against the seed: shapes, 400s naming the
//! field, only admins write (also the organization's settings, checked beside SAML), 204 deletes
//! also of missing things. Plain HTTP and JSON.

use crate::http::{HttpSandbox, assert_error};
use crate::org_settings::ACME;
use quire_sandbox::{DEMO_CERTIFICATE, tokens};
use reqwest::Method;
use serde_json::json;

fn saml() -> String {
    format!("/orgs/{ACME}/saml")
}

#[tokio::test]
async fn providers_list_with_the_service_urls_and_logins_show_the_active_ones() {
    let sandbox = HttpSandbox::start().await;
    let list = sandbox.get(&saml()).await;
    assert_eq!(list["count"], 2);
    let okta = &list["items"][0];
    assert_eq!(okta["object"], "saml-provider");
    assert_eq!(okta["label"], "Okta");
    assert_eq!(okta["status"], "active");
    assert_eq!(okta["defaultRole"], "read");
    assert_eq!(okta["defaultTeam"]["id"], "team-platform");
    for key in ["acsURL", "startURL", "entityID"] {
        assert!(okta["service"][key].is_string(), "{key}: {okta}");
    }
    assert_eq!(list["items"][1]["status"], "pending");
    let one = sandbox.get(&format!("{}/saml-acme-okta", saml())).await;
    assert_eq!(one, *okta);
    let logins = sandbox.get(&format!("/orgs/{ACME}/sso")).await;
    assert_eq!(
        logins,
        json!({"items": [{"id": "saml-acme-okta", "label": "Okta",
                          "startURL": okta["service"]["startURL"]}]})
    );
    let missing = sandbox
        .admin(Method::GET, &format!("{}/saml-nope", saml()), None)
        .await;
    assert_error(&missing, 404, "saml-nope");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn create_checks_every_field_and_answers_201_with_location() {
    let sandbox = HttpSandbox::start().await;
    let cases = [
        (json!({}), "label"),
        (json!({"label": ""}), "label"),
        (json!({"label": "x".repeat(31)}), "label"),
        (
            json!({"label": "A", "entityID": "e".repeat(1025)}),
            "entityID",
        ),
        (
            json!({"label": "A", "certificate": "not a certificate"}),
            "certificate",
        ),
        (json!({"label": "A", "ssoURL": "idp.example/sso"}), "ssoURL"),
        (json!({"label": "A", "defaultRole": "owner"}), "defaultRole"),
        (json!({"label": "A", "defaultTeam": ""}), "defaultTeam"),
        (json!({"label": "A", "colour": "red"}), "colour"),
    ];
    for (body, field) in cases {
        let reply = sandbox.admin(Method::POST, &saml(), body.clone()).await;
        assert_error(&reply, 400, field);
    }
    let body = json!({"label": "Google", "entityID": "urn:google", "certificate": DEMO_CERTIFICATE,
                      "ssoURL": "https://accounts.google.example/sso", "defaultTeam": "team-x",
                      "defaultRole": null});
    let reply = sandbox.admin(Method::POST, &saml(), body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let id = reply.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        reply.location.as_deref(),
        reply.body["urls"]["location"].as_str()
    );
    assert_eq!(reply.body["status"], "active");
    assert!(reply.body["defaultRole"].is_null());
    let stored = sandbox.get(&format!("{}/{id}", saml())).await;
    assert_eq!(stored["certificate"], DEMO_CERTIFICATE);
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn update_changes_only_what_is_sent_and_delete_is_204_also_when_missing() {
    let sandbox = HttpSandbox::start().await;
    let path = format!("{}/saml-acme-azure", saml());
    let reply = sandbox
        .admin(Method::PATCH, &path, json!({"label": ""}))
        .await;
    assert_error(&reply, 400, "label");
    let reply = sandbox
        .admin(
            Method::PATCH,
            &path,
            json!({"certificate": DEMO_CERTIFICATE, "ssoURL": "https://login.azure.example/x",
                   "defaultRole": "edit"}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["label"], "Azure AD (staging)");
    assert_eq!(reply.body["status"], "active");
    assert_eq!(reply.body["defaultRole"], "edit");
    for _ in 0..2 {
        let reply = sandbox.admin(Method::DELETE, &path, None).await;
        assert_eq!(reply.status, 204);
    }
    assert_eq!(sandbox.ids(&saml()).await, ["saml-acme-okta"]);
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn only_admins_write_sso_and_settings() {
    let sandbox = HttpSandbox::start().await;
    let writes = [
        (Method::POST, saml(), Some(json!({"label": "Nope"}))),
        (
            Method::PATCH,
            format!("{}/saml-acme-okta", saml()),
            Some(json!({"label": "N"})),
        ),
        (Method::DELETE, format!("{}/saml-acme-okta", saml()), None),
        (
            Method::PATCH,
            format!("/orgs/{ACME}"),
            Some(json!({"title": "Nope"})),
        ),
        (
            Method::DELETE,
            format!("/orgs/{ACME}/link-invites/inv-acme-summit"),
            None,
        ),
        (
            Method::PUT,
            format!("/orgs/{ACME}/agent-instructions"),
            Some(json!({"instructions": {"object": "document", "nodes": []}})),
        ),
    ];
    for (method, path, body) in writes {
        let reply = sandbox
            .send(method.clone(), tokens::EDITOR, &path, body)
            .await;
        assert_error(&reply, 403, "admins");
    }
    // Reading is fine for any member.
    let reply = sandbox
        .send(Method::GET, tokens::READER, &saml(), None)
        .await;
    assert_eq!(reply.status, 200);
    assert_eq!(sandbox.ids(&saml()).await.len(), 2, "nothing was deleted");
    sandbox.sandbox.shutdown().await;
}

//! The sandbox's git sync endpoints against the seed: info or 404 without a
//! provider, import and export with their validation, credentials sent but never stored or
//! shown back, and removing a legacy installation. Plain HTTP and JSON.

use crate::http::{HttpSandbox, assert_error};
use quire_sandbox::{demo_ids, tokens};
use reqwest::Method;
use serde_json::json;

const SYNCED: &str = demo_ids::SPACE_GETTING_STARTED;
/// Synced through a legacy GitHub installation in the demo.
const LEGACY: &str = demo_ids::SPACE_API_REFERENCE;
const UNSYNCED: &str = demo_ids::SPACE_HANDBOOK;

fn git(space: &str, what: &str) -> String {
    format!("/spaces/{space}/git/{what}")
}

#[tokio::test]
async fn info_tells_the_provider_or_that_there_is_none() {
    let sandbox = HttpSandbox::start().await;
    let info = sandbox.get(&git(SYNCED, "info")).await;
    assert_eq!(info["repoName"], "acme-robotics/fleet-docs");
    assert_eq!(info["installationProvider"], "github");
    assert_eq!(info["url"], "https://github.com/acme-robotics/fleet-docs");
    assert!(info["updatedAt"].is_string());
    let space = sandbox.get(&format!("/spaces/{SYNCED}")).await;
    assert_eq!(
        space["gitSync"], info,
        "the space's gitSync is the same object"
    );
    let reply = sandbox
        .admin(Method::GET, &git(UNSYNCED, "info"), None)
        .await;
    assert_error(&reply, 404, "No git provider");
    let reply = sandbox
        .admin(Method::GET, &git("spc-nope", "info"), None)
        .await;
    assert_error(&reply, 404, "spc-nope");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn import_sends_credentials_and_stores_the_address_without_them() {
    let sandbox = HttpSandbox::start().await;
    let url = "https://ada:s3cret@gitlab.com/acme/handbook.git";
    let reply = sandbox
        .admin(
            Method::POST,
            &git(UNSYNCED, "import"),
            Some(
                json!({"url": url, "ref": "refs/heads/release", "force": true,
                        "standalone": false}),
            ),
        )
        .await;
    assert_eq!(reply.status, 204, "{}", reply.body);
    let info = sandbox.get(&git(UNSYNCED, "info")).await;
    assert_eq!(info["installationProvider"], "gitlab");
    assert_eq!(info["repoName"], "acme/handbook");
    assert_eq!(info["url"], "https://gitlab.com/acme/handbook.git");
    assert_eq!(info["operation"]["direction"], "import");
    assert!(!info.to_string().contains("s3cret"));
    let sent = sandbox
        .knob(
            Method::GET,
            &format!("/_sandbox/spaces/{UNSYNCED}/git/last-url"),
            None,
        )
        .await;
    assert_eq!(sent.body["url"], url);
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn export_needs_a_commit_message_and_moves_the_synced_ref() {
    let sandbox = HttpSandbox::start().await;
    let path = git(SYNCED, "export");
    let base = json!({"url": "https://github.com/acme-robotics/fleet-docs",
                      "ref": "refs/heads/docs"});
    let reply = sandbox.admin(Method::POST, &path, Some(base.clone())).await;
    assert_error(&reply, 400, "commitMessage");
    let mut body = base;
    body["commitMessage"] = json!("docs: update from quire");
    let reply = sandbox.admin(Method::POST, &path, Some(body)).await;
    assert_eq!(reply.status, 204, "{}", reply.body);
    let info = sandbox.get(&git(SYNCED, "info")).await;
    assert_eq!(info["operation"]["direction"], "export");
    let revision = sandbox.get(&format!("/spaces/{SYNCED}/content")).await;
    assert_eq!(revision["git"]["ref"], "refs/heads/docs");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn import_and_export_refuse_bad_requests_by_field() {
    let sandbox = HttpSandbox::start().await;
    let good_url = "https://github.com/acme/docs";
    let cases = [
        (json!({"ref": "refs/heads/main"}), "url"),
        (json!({"url": "not a url", "ref": "refs/heads/main"}), "url"),
        (json!({"url": good_url}), "ref"),
        (json!({"url": good_url, "ref": "main"}), "ref"),
        (json!({"url": good_url, "ref": "refs/heads/"}), "ref"),
        (
            json!({"url": good_url, "ref": "refs/heads/main", "force": "yes"}),
            "force",
        ),
        (
            json!({"url": good_url, "ref": "refs/heads/main", "standalone": 1}),
            "standalone",
        ),
        (
            json!({"url": good_url, "ref": "refs/heads/main", "timestamp": "soon"}),
            "timestamp",
        ),
        (
            json!({"url": good_url, "ref": "refs/heads/main", "commitMessage": "x"}),
            "commitMessage",
        ),
    ];
    for (body, field) in cases {
        let reply = sandbox
            .admin(Method::POST, &git(UNSYNCED, "import"), Some(body.clone()))
            .await;
        assert_error(&reply, 400, field);
    }
    let reply = sandbox
        .send(
            Method::POST,
            tokens::EDITOR,
            &git(SYNCED, "import"),
            Some(json!({"url": good_url, "ref": "refs/heads/main"})),
        )
        .await;
    assert_error(&reply, 403, "admin");
    let reply = sandbox
        .admin(
            Method::POST,
            &git("spc-nope", "export"),
            Some(json!({"url": good_url, "ref": "refs/heads/main", "commitMessage": "m"})),
        )
        .await;
    assert_error(&reply, 404, "spc-nope");
    let reply = sandbox
        .admin(Method::GET, &git(UNSYNCED, "info"), None)
        .await;
    assert_eq!(reply.status, 404, "nothing was started");
    sandbox.sandbox.shutdown().await;
}

#[tokio::test]
async fn removing_a_legacy_installation_answers_204_every_time() {
    let sandbox = HttpSandbox::start().await;
    let info = sandbox.get(&git(LEGACY, "info")).await;
    assert_eq!(info["installationProvider"], "github-legacy");
    for _ in 0..2 {
        let reply = sandbox
            .admin(Method::DELETE, &git(LEGACY, "legacy-installation"), None)
            .await;
        assert_eq!(reply.status, 204, "{}", reply.body);
    }
    let reply = sandbox.admin(Method::GET, &git(LEGACY, "info"), None).await;
    assert_error(&reply, 404, "No git provider");
    // A space synced through the current GitHub app keeps it.
    let reply = sandbox
        .admin(Method::DELETE, &git(SYNCED, "legacy-installation"), None)
        .await;
    assert_eq!(reply.status, 204);
    assert_eq!(
        sandbox.get(&git(SYNCED, "info")).await["installationProvider"],
        "github"
    );
    let reply = sandbox
        .send(
            Method::DELETE,
            tokens::READER,
            &git(SYNCED, "legacy-installation"),
            None,
        )
        .await;
    assert_error(&reply, 403, "admin");
    sandbox.sandbox.shutdown().await;
}

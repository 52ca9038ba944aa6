//! `P` on the Integrations tab publishes an integration from its manifest, through the real
//! runtime against the sandbox: the file is read and checked, a question names it, and only a
//! yes sends `POST /integrations/{name}`.

use crate::common::loop_harness::Harness;
use quire::sandbox::{SandboxOptions, demo_ids, tokens};
use ratatui::crossterm::event::KeyCode;

/// Acme's Integrations tab, as its admin.
async fn integrations_tab() -> Harness {
    let harness = Harness::start(tokens::ADMIN, SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    harness.press(KeyCode::Enter);
    harness.wait_for("Engineering").await;
    // Integrations is the tenth tab.
    for _ in 0..9 {
        harness.press(KeyCode::Tab);
    }
    harness.wait_for("GitHub Sync").await;
    harness
}

async fn publish_from(harness: &Harness, path: &str) {
    harness.press(KeyCode::Char('P'));
    harness.wait_for("Publish an integration").await;
    harness.type_text(path);
    harness.press(KeyCode::Enter);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_publishes_a_manifest_after_a_yes_and_a_no_sends_nothing() {
    let folder = tempfile::tempdir().expect("a folder");
    let manifest = folder.path().join("acme-status.json");
    let text = format!(
        r#"{{"name":"acme-status","title":"Acme status","description":"Fleet status",
        "scopes":["space:content:read"],"script":"export default {{}}","organization":"{}"}}"#,
        demo_ids::ACME
    );
    std::fs::write(&manifest, text).expect("the manifest");
    let broken = folder.path().join("broken.json");
    std::fs::write(&broken, "{}").expect("a file");
    let harness = integrations_tab().await;

    publish_from(&harness, &broken.display().to_string()).await;
    harness.wait_for("Not published:").await;
    let path = manifest.display().to_string();
    publish_from(&harness, &path).await;
    harness
        .wait_for("Publish the integration acme-status?")
        .await;
    harness.press(KeyCode::Char('n'));
    harness.wait_for("Not published.").await;
    assert_eq!(harness.sandbox.requests("POST", "/integrations/*"), 0);

    publish_from(&harness, &path).await;
    harness
        .wait_for("Publish the integration acme-status?")
        .await;
    harness.press(KeyCode::Char('y'));
    harness
        .wait_for("Published acme-status (“Acme status”).")
        .await;
    assert_eq!(harness.sandbox.requests("POST", "/integrations/*"), 1);
    harness.wait_for("Acme status").await;
}

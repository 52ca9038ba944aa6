//! Translations and OpenAPI end to end: the real binary in a pseudo-terminal at 80x24
//! against a sandbox served by a second `quire sandbox` process. Create a translation and run
//! it, create an OpenAPI spec from a URL and browse its latest version down to a highlighted
//! file, reading the sandbox over HTTP after each step to check what it stored.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(30);
const ORGANIZATION: &str = "org-acme-robotics";
const CTRL_S: &str = "\u{13}";

fn translation_into(sandbox: &SandboxProcess, language: &str) -> Option<Value> {
    let list = sandbox.read(&format!("/orgs/{ORGANIZATION}/translations"));
    list["items"]
        .as_array()?
        .iter()
        .find(|translation| translation["language"] == language)
        .cloned()
}

#[test]
fn translate_a_space_then_add_an_openapi_spec_and_read_its_latest_version() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.clone();
    let mut app = PtyApp::spawn(&["--api-url", &base, "--token", "demo-admin"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);

    // The Translations tab, then a new translation of the handbook into Spanish.
    app.send("\t\t\t\t\t\t");
    app.wait_for("Rust SDK (en → fr)", WAIT);
    app.send("n");
    app.wait_for("Translate into", WAIT);
    app.send("/span\r");
    app.wait_for("Translate which space into Spanish?", WAIT);
    app.send("/Handbook\r");
    app.wait_for("The source is written in", WAIT);
    app.send("\r");
    app.wait_for("Instructions for Employee Handbook → Spanish", WAIT);
    app.send("Use usted.");
    app.send(CTRL_S);
    app.wait_for("Created Employee Handbook → Spanish.", WAIT);
    let created = translation_into(&sandbox, "es").expect("the translation was stored");
    assert_eq!(created["source"]["space"], "spc-handbook");
    assert_eq!(created["status"], "pending");
    let stored = created["instructions"].to_string();
    assert!(stored.contains("Use usted."), "{stored}");

    // Run it: started at once, completed a moment later (the tab follows it).
    app.send("x");
    app.wait_for("Run started: Employee Handbook → Spanish.", WAIT);
    app.wait_for("Runs         1", WAIT);
    let ran = translation_into(&sandbox, "es").expect("still there");
    assert_eq!(ran["status"], "completed");
    assert_eq!(ran["stats"]["runs"], 1);
    let result = ran["result"]["space"]
        .as_str()
        .expect("a result space")
        .to_string();
    assert_eq!(sandbox.read(&format!("/spaces/{result}"))["language"], "es");

    // The OpenAPI tab: a new spec from a URL, processed while the tab watches.
    app.send("\t");
    app.wait_for("fleet-api", WAIT);
    app.send("n");
    app.wait_for("New OpenAPI spec: its slug", WAIT);
    app.send("e2e-pets\r");
    app.wait_for("Source of “e2e-pets”", WAIT);
    app.send("example.com/pets.yaml\r");
    app.wait_for("Created “e2e-pets”", WAIT);
    // The new spec's own row turns complete (the demo's two specs are complete already, and
    // the selected one's details can say so too, so a count of the marks would not do).
    app.wait_for_row("e2e-pets", "● complete", WAIT);
    let spec = sandbox.read(&format!("/orgs/{ORGANIZATION}/openapi/e2e-pets"));
    assert_eq!(spec["sourceURL"], "https://example.com/pets.yaml");
    assert_eq!(spec["lastVersion"], "ver-e2e-pets-1");

    // Its versions, the latest marked; its files; the root document, highlighted.
    app.send("\r");
    app.wait_for("★ latest", WAIT);
    app.send("\r");
    app.wait_for("components", WAIT);
    app.send("jjj\r");
    app.wait_for("title: e2e pets", WAIT);
    // Narrow, the text alone shows; highlighted, a line holds the gutter's colour, the key's
    // and the value's (the highlight worker colours it a moment after it shows plain).
    app.resize(50, 24);
    crate::common::wait::wait_until(WAIT, app.events(), || {
        !app.screen().contains("parameters.yaml") && app.row_colours("title: e2e pets").len() >= 3
    });
    let colours = app.row_colours("title: e2e pets");
    assert!(
        colours.len() >= 3,
        "the YAML is highlighted (gutter, key, value): {colours:?}\n{}",
        app.screen()
    );
    let content = sandbox.read(&format!(
        "/orgs/{ORGANIZATION}/openapi/e2e-pets/versions/latest/content"
    ));
    let root = content["filesystem"]["openapi.yaml"]
        .as_str()
        .unwrap_or_default();
    assert!(root.contains("title: e2e pets"), "{root}");
    app.send("q");
}

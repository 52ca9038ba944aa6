//! Content operations and finding things end to end: the real binary in a pseudo-terminal at 80x24 against a sandbox served by
//! a second `quire sandbox` process. Create a collection, move a space into it, lock the space,
//! delete it, restore it from the trash, search the organization and read the hit, reading the
//! sandbox over HTTP after each step to check what it stored.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(30);
const ORGANIZATION: &str = "org-acme-robotics";
const HANDBOOK: &str = "spc-handbook";
const DOWN: &str = "\u{1b}[B";

fn collection_titled(sandbox: &SandboxProcess, title: &str) -> Option<Value> {
    let collections = sandbox.read(&format!("/orgs/{ORGANIZATION}/collections?limit=100"));
    collections["items"]
        .as_array()?
        .iter()
        .find(|collection| collection["title"] == title)
        .cloned()
}

#[test]
fn create_move_lock_delete_restore_and_search_from_the_keyboard() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.clone();
    let mut app = PtyApp::spawn(&["--api-url", &base, "--token", "demo-admin"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);

    // A collection inside the first row (Engineering).
    app.send("gn");
    app.wait_for("New collection inside the selected one", WAIT);
    app.send("E2E Docs\r");
    app.wait_for("Creating “E2E Docs” — done", WAIT);
    let collection = collection_titled(&sandbox, "E2E Docs").expect("the collection was stored");
    assert_eq!(collection["parent"], "col-engineering");
    let collection_id = collection["id"].as_str().expect("an id").to_string();

    // Move the Employee Handbook into it, picking the target by typing.
    app.send("/Handbook\r");
    app.send("m");
    app.wait_for("Move “Employee Handbook” to…", WAIT);
    app.send("/E2E");
    app.wait_for("Engineering / E2E Docs", WAIT);
    app.send("\r");
    app.wait_for("Moving “Employee Handbook” — done", WAIT);
    let space = sandbox.read(&format!("/spaces/{HANDBOOK}"));
    assert_eq!(space["parent"], collection_id.as_str());

    // Lock it.
    app.send("x");
    app.wait_for("“Employee Handbook” locked", WAIT);
    let space = sandbox.read(&format!("/spaces/{HANDBOOK}"));
    assert_eq!(space["editMode"], "locked");

    // Delete it: asked first, then it is in the trash.
    app.send("d");
    app.wait_for("Delete space “Employee Handbook”?", WAIT);
    app.send("y");
    app.wait_for("Deleted “Employee Handbook”", WAIT);
    let space = sandbox.read(&format!("/spaces/{HANDBOOK}"));
    assert!(space["deletedAt"].is_string(), "deleted: {space}");

    // Restore it from the Trash tab (the sixth: Spaces, Change requests, Members, Teams, Sites,
    // Trash).
    app.send("\t\t\t\t\t");
    app.wait_for("Restorable", WAIT);
    app.wait_for("7 days left", WAIT);
    app.send("u");
    app.wait_for("Restored “Employee Handbook”", WAIT);
    let space = sandbox.read(&format!("/spaces/{HANDBOOK}"));
    assert!(
        space["deletedAt"].is_null(),
        "restored (no deletedAt): {space}"
    );
    assert_eq!(space["parent"], collection_id.as_str(), "restored in place");

    // Search the organization and read the hit at its section (back five tabs to Spaces).
    app.send(&"\u{1b}[Z".repeat(5));
    app.wait_for("Engineering", WAIT);
    app.send("s");
    app.wait_for("Search the organization", WAIT);
    app.send("production allows 50");
    app.wait_for("§ Rate limits", WAIT);
    app.send(&format!("{DOWN}\r"));
    app.wait_for("Sandbox allows 10 requests per second", WAIT);
    let screen = app.screen();
    assert!(screen.contains("Rate limits"), "{screen}");
    app.send("q");
}

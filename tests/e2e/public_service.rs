//! quire against a server that answers like the public service (`quire sandbox --like-public`):
//! every screen reaching an operation that service does not have says so in words and never
//! offers a retry, and `quire conversations ingest` exits with the reason.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use crate::conversations::{ORGANIZATION, quire};
use quire::sandbox::tokens;

const WAIT: Duration = Duration::from_secs(30);

/// Waits for `sentence`, then checks the screen offers no retry.
fn said_without_retry(app: &PtyApp, sentence: &str) {
    app.wait_for(sentence, WAIT);
    let screen = app.screen();
    assert!(!screen.contains("retry"), "{screen}");
}

#[test]
fn every_screen_says_what_the_server_does_not_offer() {
    let sandbox = SandboxProcess::start_with(&["--like-public"]);
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::ADMIN],
        80,
        24,
    );
    // The reader: a page's links and backlinks.
    app.open_demo_quickstart(WAIT);
    app.send("l");
    said_without_retry(&app, "does not offer a page's links");
    app.send("\u{1b}");
    app.wait_for("Quickstart  /quickstart", WAIT);
    app.send("b");
    said_without_retry(&app, "does not offer a page's backlinks");
    // The tree: the space's links report; Files: a file's backlinks.
    app.send("\u{1b}");
    app.wait_for("Quickstart  /quickstart", WAIT);
    app.send("\u{1b}");
    app.wait_for("BASICS", WAIT);
    app.send("L");
    said_without_retry(&app, "does not offer a space's links report");
    app.send("\u{1b}");
    app.wait_for("BASICS", WAIT);
    app.send("F");
    // The Files list's own column: the tree's preview of the Welcome page shows the image's
    // address, "dashboard.png", too, so that name alone can match before Files has its list.
    app.wait_for("image/png", WAIT);
    app.send("b");
    said_without_retry(&app, "does not offer a file's backlinks");
    // The organization: the change-request list's cluster filter, then the Clusters tab.
    app.send("\u{1b}");
    app.wait_for("Dimensions", WAIT);
    app.send("\u{1b}");
    app.wait_for("BASICS", WAIT);
    app.send("\u{1b}");
    app.wait_for("Change requests", WAIT);
    app.send("\t");
    app.wait_for("Clarify token", WAIT);
    app.send("I");
    said_without_retry(&app, "does not offer conversation clust");
    // A change request's page backlinks.
    app.send("\r");
    app.wait_for("Changes (4)", WAIT);
    app.send("b");
    said_without_retry(&app, "does not offer a page's backlinks");
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());
}

/// The organization's Clusters tab is that one sentence, and `T` on a space says it after the
/// server answered the first transfer; a collection's transfer is still offered.
#[test]
fn clusters_and_space_transfer_say_what_the_server_does_not_offer() {
    let sandbox = SandboxProcess::start_with(&["--like-public"]);
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::ADMIN],
        80,
        24,
    );
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);
    app.send(&"\t".repeat(8));
    said_without_retry(&app, "does not offer conversation clusters");
    app.send(&"\u{1b}[Z".repeat(8));
    app.wait_for("Engineering", WAIT);
    app.send("/getting\r");
    app.wait_for("Getting Started", WAIT);
    app.send("T");
    app.wait_for("Lumen OSS", WAIT);
    app.send("\r");
    app.wait_for("y  transfer", WAIT);
    app.send("y");
    said_without_retry(&app, "does not offer moving a space to another");
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());
}

#[test]
fn conversation_ingest_on_the_public_service_exits_with_the_reason() {
    let sandbox = SandboxProcess::start_with(&["--like-public"]);
    let directory = tempfile::tempdir().expect("a temporary directory");
    let file = directory.path().join("conversation.json");
    let conversation = r#"{"id":"conv-e2e-public","subject":"Dark mode?",
        "metadata":{"url":"https://example.com","attributes":{},"createdAt":"2026-01-01T00:00:00Z"},
        "parts":[{"type":"message","role":"user","body":"Is there a dark mode?"}]}"#;
    std::fs::write(&file, conversation).expect("the conversation file");
    let path = file.display().to_string();
    let output = quire(
        &sandbox.base_url,
        &[
            "--token",
            tokens::ADMIN,
            "conversations",
            "ingest",
            &path,
            "--org",
            ORGANIZATION,
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("This server does not offer conversation ingest"),
        "{stderr}"
    );
    assert!(!stderr.contains("retry"), "{stderr}");
}

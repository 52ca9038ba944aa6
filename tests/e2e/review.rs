//! Reviewing end to end: the real binary in a pseudo-terminal against `quire sandbox`: open a
//! change request, reply to a thread, react, resolve it, approve, merge — then read the sandbox
//! over HTTP and check every one of those was stored.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use quire::sandbox::{demo_ids, tokens};

const WAIT: Duration = Duration::from_secs(30);
const REPLY: &str = "Agreed, follow-up ticket opened for the screenshot.";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reply_react_resolve_approve_and_merge_are_stored() {
    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::ADMIN],
        120,
        35,
    );
    app.open_demo_review_comments(WAIT);
    // The triage loop: the next unresolved thread.
    app.send("n");
    app.wait_for("unresolved 2/18", WAIT);
    app.send("R");
    app.wait_for("ctrl-s send", WAIT);
    app.send(REPLY);
    app.send("\u{13}"); // ctrl-s
    app.wait_for("Reply posted.", WAIT);
    app.send("+");
    app.wait_for("React", WAIT);
    app.send("rocket");
    app.send("\r");
    app.wait_for("🚀 1", WAIT);
    app.send("x");
    app.wait_for("Resolved.", WAIT);
    app.send("4");
    app.send("A");
    app.wait_for("Approve", WAIT);
    app.send("\u{13}");
    app.wait_for("Review submitted: approved.", WAIT);
    app.send("M");
    app.wait_for("pre-flight", WAIT);
    app.send("y");
    app.wait_for("Merged into main", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());

    let base = format!(
        "/spaces/{}/change-requests/{}",
        demo_ids::SPACE_GETTING_STARTED,
        demo_ids::CR_REVIEW
    );
    let change_request = sandbox.get(tokens::ADMIN, &base).await;
    assert_eq!(change_request["status"], "merged", "{change_request:#}");

    let me = sandbox.get(tokens::ADMIN, "/user").await;
    let my_id = me["id"].as_str().unwrap().to_string();
    let comments = sandbox
        .get(
            tokens::ADMIN,
            &format!("{base}/comments?format=markdown&limit=100"),
        )
        .await;
    let items = comments["items"].as_array().unwrap();
    let reacted: Vec<&serde_json::Value> = items
        .iter()
        .filter(|c| {
            c["reactions"].as_array().into_iter().flatten().any(|r| {
                r["emoji"] == "🚀"
                    && r["users"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|u| u["user"]["id"] == my_id.as_str())
            })
        })
        .collect();
    assert_eq!(reacted.len(), 1, "one thread got our 🚀");
    let thread = reacted[0];
    assert_eq!(thread["status"], "resolved", "{thread:#}");
    let thread_id = thread["id"].as_str().unwrap();
    let replies = sandbox
        .get(
            tokens::ADMIN,
            &format!("{base}/comments/{thread_id}/replies?format=markdown"),
        )
        .await;
    assert!(
        replies["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["body"]["markdown"] == REPLY && r["postedBy"]["id"] == my_id.as_str()),
        "{replies:#}"
    );
    let reviews = sandbox.get(tokens::ADMIN, &format!("{base}/reviews")).await;
    assert!(
        reviews["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["status"] == "approved" && r["reviewer"]["id"] == my_id.as_str()),
        "{reviews:#}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_can_read_but_not_comment() {
    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::READER],
        120,
        35,
    );
    app.open_demo_review_comments(WAIT);
    // Each refusal says what was asked, not only that commenting is refused.
    app.send("R");
    app.wait_for("Your role cannot reply here", WAIT);
    app.send("c");
    app.wait_for("Your role cannot comment here", WAIT);
    app.send("+");
    app.wait_for("Your role cannot react to comments here", WAIT);
    app.send("x");
    app.wait_for("Your role cannot resolve or reopen threads here", WAIT);
    app.send("M");
    app.wait_for("Your role cannot merge", WAIT);
    let before = sandbox
        .get(
            tokens::ADMIN,
            &format!(
                "/spaces/{}/change-requests/{}",
                demo_ids::SPACE_GETTING_STARTED,
                demo_ids::CR_REVIEW
            ),
        )
        .await;
    assert_eq!(before["status"], "open");
}

/// The demo's editor merges: the space's `permissions.merge` lets editors, so `M` opens the
/// pre-flight (warnings and all fit at 80x24), `y` merges, and the sandbox holds it merged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_editor_merges_a_change_request() {
    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::EDITOR],
        80,
        24,
    );
    app.open_demo_review(WAIT);
    app.wait_for("Checks before a merge", WAIT);
    app.send("M");
    app.wait_for("pre-flight", WAIT);
    app.wait_for("⚠ 18 unresolved threads.", WAIT);
    app.send("y");
    app.wait_for("Merged into main", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());

    let change_request = sandbox
        .get(
            tokens::EDITOR,
            &format!(
                "/spaces/{}/change-requests/{}",
                demo_ids::SPACE_GETTING_STARTED,
                demo_ids::CR_REVIEW
            ),
        )
        .await;
    let editor = sandbox.get(tokens::EDITOR, "/user").await;
    assert_eq!(change_request["status"], "merged", "{change_request:#}");
    assert_eq!(change_request["mergedBy"]["id"], editor["id"]);
}

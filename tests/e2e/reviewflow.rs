//! Review flow end to end: the real binary in a pseudo-terminal against a sandbox served
//! by a second `quire sandbox` process. React to a comment, open the action log, undo the
//! reaction with `u` and a confirm, then read the sandbox over HTTP: the reaction is gone.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use quire::sandbox::{demo_ids, tokens};

const WAIT: Duration = Duration::from_secs(30);

/// The comments of the demo review on which demo-admin has reacted 👍, read over HTTP.
fn my_thumbs_up(sandbox: &SandboxProcess) -> BTreeSet<String> {
    let me = sandbox.read("/user");
    let me = me["id"].as_str().expect("who demo-admin is").to_string();
    let comments = sandbox.read(&format!(
        "/spaces/{}/change-requests/{}/comments?limit=100",
        demo_ids::SPACE_GETTING_STARTED,
        demo_ids::CR_REVIEW
    ));
    comments["items"]
        .as_array()
        .expect("a list of comments")
        .iter()
        .filter(|comment| {
            comment["reactions"].as_array().is_some_and(|reactions| {
                reactions.iter().any(|reaction| {
                    reaction["emoji"] == "👍"
                        && reaction["users"].as_array().is_some_and(|users| {
                            users.iter().any(|entry| entry["user"]["id"] == me.as_str())
                        })
                })
            })
        })
        .filter_map(|comment| comment["id"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn react_then_undo_it_from_the_action_log() {
    let sandbox = SandboxProcess::start();
    let before = my_thumbs_up(&sandbox);
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::ADMIN],
        120,
        35,
    );
    app.open_demo_review_comments(WAIT);
    app.send("+");
    app.wait_for("React", WAIT);
    app.send("\r");
    app.wait_for("👍 1", WAIT);
    // Wait for the server's answer: the write is logged once it is accepted.
    app.wait_until_idle(WAIT);
    let reacted = my_thumbs_up(&sandbox);
    assert_eq!(reacted.len(), before.len() + 1, "the reaction was stored");

    app.send("!");
    app.wait_for("Action log", WAIT);
    app.wait_for("Reacted 👍", WAIT);
    app.send("u");
    app.wait_for("Undo: Reacted 👍", WAIT);
    app.send("y");
    app.wait_for("Undone.", WAIT);
    app.wait_for("Undid: Reacted 👍", WAIT);
    assert_eq!(my_thumbs_up(&sandbox), before, "the reaction is gone");

    // Back on the review, it shows the comment without the reaction.
    app.send("\u{1b}");
    app.wait_for("unresolved", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());
}

//! "Since my last review" end to end: the real binary in a pseudo-terminal against
//! `quire sandbox`. Open a
//! change request's comments, quit; someone comments over HTTP; open it again: the status line
//! and the comments tab say there is one new thread.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use quire::sandbox::{demo_ids, tokens};

const WAIT: Duration = Duration::from_secs(30);

fn open_review(app: &mut PtyApp) {
    app.open_demo_review(WAIT);
}

#[test]
fn a_comment_posted_since_the_last_visit_is_shown_as_new() {
    let sandbox = SandboxProcess::start();
    let data = tempfile::tempdir().unwrap();
    let data_home = data.path().to_str().unwrap().to_string();
    let args = ["--api-url", &sandbox.base_url, "--token", tokens::ADMIN];
    let env = [("XDG_DATA_HOME", data_home.as_str())];

    let mut first = PtyApp::spawn_with_env(&args, 100, 30, &env);
    open_review(&mut first);
    first.send("3");
    first.wait_for("unresolved 1/18", WAIT);
    assert!(
        !first.screen().contains("new"),
        "a first visit marks nothing"
    );
    first.send("q");
    assert!(first.wait_exit(WAIT).is_some());

    let path = format!(
        "{}/v1/spaces/{}/change-requests/{}/comments",
        sandbox.base_url,
        demo_ids::SPACE_GETTING_STARTED,
        demo_ids::CR_REVIEW
    );
    let status = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            reqwest::Client::new()
                .post(&path)
                .bearer_auth(tokens::REVIEWER)
                .json(&serde_json::json!({"body": {"markdown": "Posted while you were away"}}))
                .send()
                .await
                .unwrap()
                .status()
        });
    assert!(status.is_success(), "{status}");

    let mut second = PtyApp::spawn_with_env(&args, 100, 30, &env);
    open_review(&mut second);
    second.wait_for("1 new thread since your last visit", WAIT);
    second.send("3");
    second.wait_for("Comments (27) · 1 new", WAIT);
    second.send("L");
    second.wait_for("●new", WAIT);
    assert!(second.screen().contains("Posted while you were away"));
    second.send("q");
    assert!(second.wait_exit(WAIT).is_some());
}

//! A comment on a changed line, end to end: the real binary in a pseudo-terminal against
//! `quire sandbox`, the diff's cursor moved with `n` and `j`, `c`, text, `ctrl-s`; then the
//! sandbox is read over HTTP to find the thread anchored to the block that holds the line.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use quire::sandbox::{demo_ids, tokens};

const WAIT: Duration = Duration::from_secs(30);
const COMMENT: &str = "Say which scope the simulator needs.";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_on_an_added_line_is_stored_on_its_block_and_drawn_beside_it() {
    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::ADMIN],
        120,
        35,
    );
    app.open_demo_review(WAIT);
    app.send("2");
    app.wait_for("change 1/4 · page 1/4", WAIT);
    // `n`: the first changed line (the removed one); `j` twice: the line that replaces it.
    app.send("n");
    app.wait_for_row("›", "-an API token (see", WAIT);
    app.send("j");
    app.wait_for_row("›", "-built-in **simulator**", WAIT);
    app.send("j");
    app.wait_for_row("›", "+an API token with the `fleet:write`", WAIT);
    app.send("c");
    app.wait_for(
        "Comment on the paragraph 'This quickstart takes you f…' · Quickstart, line 3",
        WAIT,
    );
    app.send(COMMENT);
    app.send("\u{13}"); // ctrl-s
    app.wait_for("Comment posted.", WAIT);
    // The new thread's marker sits on the paragraph's first line.
    app.wait_for_row(
        "▌1",
        "This quickstart takes you from an empty account",
        WAIT,
    );
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());

    let base = format!(
        "/spaces/{}/change-requests/{}",
        demo_ids::SPACE_GETTING_STARTED,
        demo_ids::CR_REVIEW
    );
    let page = sandbox
        .get(
            tokens::ADMIN,
            &format!(
                "{base}/content/page/{}?format=document",
                demo_ids::PAGE_QUICKSTART
            ),
        )
        .await;
    // The page's blocks: the heading, then the paragraph holding lines 3 to 5.
    let paragraph = &page["document"]["nodes"][1];
    assert_eq!(paragraph["type"], "paragraph", "{paragraph:#}");
    let comments = sandbox
        .get(
            tokens::ADMIN,
            &format!("{base}/comments?format=markdown&limit=100"),
        )
        .await;
    let mine = comments["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|comment| comment["body"]["markdown"] == COMMENT)
        .expect("the comment was stored");
    assert_eq!(mine["target"]["page"]["id"], demo_ids::PAGE_QUICKSTART);
    assert_eq!(mine["target"]["node"]["id"], paragraph["key"], "{mine:#}");
}

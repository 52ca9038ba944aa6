//! Layer 4: following a link in the reader and coming back with `ctrl-o`, in the built binary
//! in a pseudo-terminal, as a user does it.

use std::time::Duration;

use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn follow_a_link_to_another_page_and_come_back_with_ctrl_o() {
    let mut app = PtyApp::spawn(&["--demo"], 100, 30);
    app.open_demo_quickstart(WAIT);
    // Down two lines: the way back must restore this position, not the top.
    app.send("jj");
    app.wait_for("line 3/", WAIT);
    let before = app.screen();
    app.send("\t");
    app.wait_for("→ rest-api-guide.md#authentication", WAIT);
    app.send("\r");
    app.wait_for("REST API guide  /rest-api-guide", WAIT);
    app.wait_for("Opened REST API guide", WAIT);
    app.wait_for("Authentication", WAIT);
    app.wait_until_idle(WAIT);
    assert!(
        !app.screen().contains("line 1/"),
        "opened at its anchor, not the top: {}",
        app.screen()
    );
    // ctrl-o is byte 0x0f.
    app.send("\u{f}");
    app.wait_for("Quickstart  /quickstart", WAIT);
    app.wait_for("line 3/", WAIT);
    let after = app.screen();
    let body = |screen: &str| -> Vec<String> {
        // The page's text, without the status and footer rows.
        let lines: Vec<String> = screen
            .lines()
            .map(|line| line.trim_end().to_string())
            .collect();
        lines[..lines.len().saturating_sub(2)].to_vec()
    };
    assert_eq!(
        body(&before),
        body(&after),
        "the first page, at the same position"
    );
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());
}

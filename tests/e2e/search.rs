//! Layer 4 for finding things: the real binary in a pseudo-terminal on the demo. Search the
//! organization as you type, read the hit, and the reader shows the matching section.

use std::time::Duration;

use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn search_the_organization_and_read_the_hit_at_its_section() {
    let mut app = PtyApp::spawn(&["--demo"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);
    app.send("s");
    app.wait_for("Search the organization", WAIT);
    app.send("production allows 50");
    // Sent once typing rests: the hit is the Quickstart's rate limits section.
    app.wait_for("§ Rate limits", WAIT);
    app.wait_for("1 page", WAIT);
    // ↓ from the page to its section, enter reads it there.
    app.send("\u{1b}[B\r");
    app.wait_for("line ", WAIT);
    app.wait_for("Sandbox allows 10 requests per second", WAIT);
    let screen = app.screen();
    assert!(screen.contains("Rate limits"), "{screen}");
    assert!(
        !screen.contains("Before you start"),
        "scrolled past the sections above:\n{screen}"
    );
}

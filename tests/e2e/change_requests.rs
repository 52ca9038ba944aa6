//! Layer 4 for the change-request work: the real binary in a pseudo-terminal against a
//! `quire sandbox` process. In a space, `N` creates a change request, which opens in review;
//! `D` writes its description; `P` shows its PDF's address. Then the sandbox is read over HTTP.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn create_a_change_request_in_a_space_describe_it_and_get_its_pdf() {
    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", "demo-admin"],
        100,
        30,
    );
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);
    app.send("/getting");
    app.wait_for("Getting Started", WAIT);
    app.send("\r");
    app.send("\r");
    app.wait_for("BASICS", WAIT);

    app.send("N");
    app.wait_for("New change request", WAIT);
    app.send("E2E token scopes\r");
    app.wait_for("#7 E2E token scopes", WAIT);

    app.send("4D");
    app.wait_for("ctrl-s send", WAIT);
    app.send("Why **this** matters");
    app.send("\u{13}"); // ctrl-s
    app.wait_for("Description saved.", WAIT);

    app.send("P");
    app.wait_for("PDF of #7", WAIT);
    app.wait_for("y copy · o open · esc close", WAIT);
    app.send("\u{1b}");
    app.send("q");

    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let stored = runtime.block_on(sandbox.get(
        "demo-admin",
        "/spaces/spc-getting-started/change-requests/7",
    ));
    assert_eq!(stored["subject"], "E2E token scopes");
    let leaves = &stored["description"]["nodes"][0]["nodes"][0]["leaves"];
    assert_eq!(leaves[0]["text"], "Why ");
    assert_eq!(leaves[1]["text"], "this");
    assert_eq!(leaves[1]["marks"][0]["type"], "bold");
    assert_eq!(leaves[2]["text"], " matters");
}

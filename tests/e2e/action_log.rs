//! The action log and the messages popup end to end: the real binary in a pseudo-terminal
//! against a `quire sandbox` process. A space deleted and restored from the Trash tab shows
//! both writes in the log, the delete's undo as gone, and `u` on it sends nothing (the sandbox
//! still has the space); a refusal cut at 40 columns is read whole with `ctrl-g`.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use quire::sandbox::tokens;

const WAIT: Duration = Duration::from_secs(30);
const HANDBOOK: &str = "spc-handbook";

#[test]
fn a_restore_is_logged_and_the_delete_it_took_back_cannot_be_undone_again() {
    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::ADMIN],
        80,
        24,
    );
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);
    app.send("/Handbook\r");
    app.send("d");
    app.wait_for("Delete space “Employee Handbook”?", WAIT);
    app.send("y");
    app.wait_for("Deleted “Employee Handbook”", WAIT);
    // The Trash tab is the sixth: Spaces, Change requests, Members, Teams, Sites, Trash.
    app.send("\t\t\t\t\t");
    app.wait_for("Restorable", WAIT);
    app.send("u");
    app.wait_for("Restored “Employee Handbook”", WAIT);
    assert!(sandbox.read(&format!("/spaces/{HANDBOOK}"))["deletedAt"].is_null());

    app.send("!");
    app.wait_for("Action log — 2 writes", WAIT);
    app.wait_for(
        "Restored the space “Employee Handbook” from the trash",
        WAIT,
    );
    app.wait_for("no undo any more: a later write took it back", WAIT);
    app.send("j");
    app.send("u");
    app.wait_for("Cannot undo: a later write took it back", WAIT);
    let screen = app.screen();
    assert!(!screen.contains("Undo:"), "nothing is asked: {screen}");
    assert!(screen.contains("Action log — 2 writes"), "{screen}");
    let space = sandbox.read(&format!("/spaces/{HANDBOOK}"));
    assert!(space["deletedAt"].is_null(), "still restored: {space}");
    app.send("q");
}

#[test]
fn a_refusal_cut_at_40_columns_is_read_whole_with_ctrl_g() {
    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", tokens::READER],
        40,
        12,
    );
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.send("/Handbook\r");
    app.wait_for("(esc clears)", WAIT);
    // An `x` before the list has come would act on no row.
    app.wait_for("Employee Handbook", WAIT);
    app.send("x");
    app.wait_for("only an admin of the space “Empl… ctrl-g", WAIT);
    app.send("\u{7}"); // ctrl-g
    app.wait_for("Messages", WAIT);
    app.wait_for("Handbook” may change it", WAIT);
    app.send("\u{1b}");
    app.wait_gone("Messages —", WAIT);
    app.wait_for("only an admin of the space “Empl… ctrl-g", WAIT);
    app.send("q");
}

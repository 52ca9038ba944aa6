//! The process that colours code (`quire highlight-worker`), seen from outside: it is started
//! only when a page has code to colour, and once it has ended quire waits for it, so no dead
//! child (`[quire] <defunct>`) is left behind.

use std::time::Duration;

use crate::common::processes::{ChildProcess, children_of, wait_for_exit};
use crate::common::pty::PtyApp;
use crate::common::wait::wait_for_text_in_file;

const WAIT: Duration = Duration::from_secs(30);

fn highlight_workers(quire: u32) -> Vec<ChildProcess> {
    children_of(quire)
        .into_iter()
        .filter(|child| child.command.contains("highlight-worker"))
        .collect()
}

/// The highlight worker quire runs, looked for each time the screen changes: quire starts it
/// to colour a page and then draws the colours it answers.
fn wait_for_worker(app: &PtyApp, quire: u32) -> Option<ChildProcess> {
    let mut worker = None;
    crate::common::wait::wait_until(WAIT, app.events(), || {
        worker = highlight_workers(quire).into_iter().next();
        worker.is_some()
    });
    worker
}

#[test]
fn no_worker_runs_until_a_page_has_code_to_colour() {
    let mut app = PtyApp::spawn(&["--demo", "--colors", "truecolor"], 100, 30);
    let quire = app.child.process_id().expect("quire's pid");
    app.wait_for("Acme Robotics", WAIT);
    app.wait_until_idle(WAIT);
    assert_eq!(
        highlight_workers(quire).len(),
        0,
        "a worker runs on the organization list: {:?}",
        children_of(quire)
    );

    app.open_demo_quickstart(WAIT);
    let worker = wait_for_worker(&app, quire);
    assert!(worker.is_some(), "the Quickstart's code started a worker");
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
}

#[test]
fn a_worker_that_ended_is_not_left_a_zombie() {
    let mut app = PtyApp::spawn(&["--demo", "--colors", "truecolor"], 100, 30);
    let quire = app.child.process_id().expect("quire's pid");
    app.open_demo_quickstart(WAIT);
    app.wait_until_idle(WAIT);
    let worker = wait_for_worker(&app, quire).expect("the Quickstart's code started a worker");

    // The worker ends between pages (as when it exits idle, or dies): nothing is being
    // coloured, so only quire noticing it ended can wait for it.
    // SAFETY: a signal to a process this test saw as quire's child a moment ago.
    unsafe {
        libc::kill(worker.pid as libc::pid_t, libc::SIGKILL);
    }
    assert!(wait_for_exit(worker.pid, WAIT), "the killed worker ended");
    // quire says in its log when it has waited for a worker.
    let log = app.home().join("data/quire/quire.log");
    let said = format!("highlight worker {} ended and was waited for", worker.pid);
    assert!(
        wait_for_text_in_file(&log, &said, WAIT),
        "quire's log never said \"{said}\""
    );
    assert!(
        !children_of(quire)
            .iter()
            .any(|child| child.pid == worker.pid),
        "the ended worker is still quire's child: {:?}",
        children_of(quire)
    );
    assert!(
        children_of(quire).iter().all(|child| child.state != 'Z'),
        "{:?}",
        children_of(quire)
    );
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
}

//! The process that colours code (`quire highlight-worker`), seen from outside: it is started
//! only when a page has code to colour, and once it has ended quire waits for it, so no dead
//! child (`[quire] <defunct>`) is left behind.

use std::time::Duration;

use crate::common::processes::{ChildProcess, children_of};
use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(30);

fn highlight_workers(quire: u32) -> Vec<ChildProcess> {
    children_of(quire)
        .into_iter()
        .filter(|child| child.command.contains("highlight-worker"))
        .collect()
}

/// Polls until `found` gives something, for at most `timeout`.
fn wait_until<T>(timeout: Duration, mut found: impl FnMut() -> Option<T>) -> Option<T> {
    let mut value = None;
    crate::common::wait::wait_until(timeout, || {
        value = found();
        value.is_some()
    });
    value
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
    let worker = wait_until(WAIT, || highlight_workers(quire).into_iter().next());
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
    let worker = wait_until(WAIT, || highlight_workers(quire).into_iter().next())
        .expect("the Quickstart's code started a worker");

    // The worker ends between pages (as when it exits idle, or dies): nothing is being
    // coloured, so only quire noticing it ended can wait for it.
    // SAFETY: a signal to a process this test saw as quire's child a moment ago.
    unsafe {
        libc::kill(worker.pid as libc::pid_t, libc::SIGKILL);
    }
    let reaped = wait_until(WAIT, || {
        (!children_of(quire)
            .iter()
            .any(|child| child.pid == worker.pid))
        .then_some(())
    });
    assert!(
        reaped.is_some(),
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

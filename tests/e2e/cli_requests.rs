//! How `quire cr list` asks the server, as a process against an in-process sandbox whose
//! requests a test counts: what does not depend on another answer is asked at once, and a
//! space's title is found among every organization's spaces read side by side.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::outage_sandbox::OutageSandbox;
use crate::common::wait::{Events, wait_until};
use quire::sandbox::{FaultRule, Faults, demo_ids};

const WAIT: Duration = Duration::from_secs(30);

/// `quire cr list ARGS` against `server`, started and left running.
fn start_listing(server: &OutageSandbox, args: &[&str], home: &std::path::Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(server.args())
        .args(["cr", "list"])
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .env_remove("QUIRE_SPACE")
        .env_remove("QUIRE_PROFILE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("quire starts")
}

/// Holds every `GET` of `pattern` for a minute: what the client asks meanwhile did not wait
/// for its answer.
fn hold(server: &OutageSandbox, pattern: &str) {
    let rule = FaultRule::parse(&format!("GET {pattern}=latency:60000")).expect("a fault rule");
    server.sandbox.set_faults(Faults {
        rules: vec![rule],
        ..Faults::default()
    });
}

/// Runs `cr list ARGS` while `held` is held, and says whether `then` arrived meanwhile.
fn asked_meanwhile(args: &[&str], held: &str, then: &str) -> bool {
    let server = OutageSandbox::start();
    hold(&server, held);
    let events = Events::new();
    events.follow(server.runtime.handle(), server.sandbox.activity());
    let home = tempfile::tempdir().expect("a home");
    let mut child = start_listing(&server, args, home.path());
    let asked = wait_until(WAIT, &events, || server.sandbox.requests("GET", then) > 0);
    let _ = child.kill();
    let _ = child.wait();
    asked
}

#[test]
fn a_space_named_by_id_and_its_list_are_asked_at_once() {
    let space = demo_ids::SPACE_GETTING_STARTED;
    assert!(asked_meanwhile(
        &["--space", space],
        &format!("*/spaces/{space}"),
        &format!("*/spaces/{space}/change-requests"),
    ));
}

#[test]
fn a_space_named_by_title_is_looked_for_in_every_organization_at_once() {
    let args = ["--space", "Getting Started"];
    let spaces_of = |org: &str| format!("*/orgs/{org}/spaces");
    for (held, then) in [
        (demo_ids::ACME, demo_ids::LUMEN),
        (demo_ids::LUMEN, demo_ids::ACME),
    ] {
        assert!(
            asked_meanwhile(&args, &spaces_of(held), &spaces_of(then)),
            "{then} asked while {held} is held"
        );
    }
}

#[test]
fn a_title_with_a_space_in_it_is_not_asked_for_as_an_id() {
    let server = OutageSandbox::start();
    let home = tempfile::tempdir().expect("a home");
    let child = start_listing(&server, &["--space", "Getting Started"], home.path());
    let output = child.wait_with_output().expect("quire ends");
    assert_eq!(output.status.code(), Some(0));
    let counts = server.sandbox.request_counts();
    let asked: Vec<&String> = counts.keys().collect();
    assert!(
        !asked.iter().any(|request| request.contains("Getting")),
        "{asked:?}"
    );
    assert_eq!(
        counts.get("GET /orgs"),
        Some(&1),
        "the organizations once: {asked:?}"
    );
}

#[test]
fn a_title_found_once_is_read_by_its_id_next_time() {
    let server = OutageSandbox::start();
    let home = tempfile::tempdir().expect("a home");
    let run = || {
        let child = start_listing(&server, &["--space", "Getting Started"], home.path());
        let output = child.wait_with_output().expect("quire ends");
        assert_eq!(output.status.code(), Some(0));
    };
    run();
    let organization_reads = || server.sandbox.request_counts().get("GET /orgs").copied();
    assert_eq!(organization_reads(), Some(1));
    run();
    assert_eq!(organization_reads(), Some(1), "not looked up again");
    assert_eq!(
        server
            .sandbox
            .requests("GET", "*/spaces/spc-getting-started/change-requests"),
        2
    );
    assert_eq!(
        server
            .sandbox
            .requests("GET", "*/spaces/spc-getting-started"),
        1,
        "the remembered id is checked"
    );
}

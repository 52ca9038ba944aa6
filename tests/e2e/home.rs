//! Home as the real binary shows it: demo-reviewer's reviews across both organizations, a
//! comment by someone else rung as an OSC 9 notification and marked new on its row, the
//! user's own comment rung never, and a Home where nothing changes writing nothing.

use quire::sandbox::{demo_ids, tokens};
use serde_json::json;

use crate::common::outage_sandbox::OutageSandbox;
use crate::common::pty::PtyApp;
use crate::common::wait::{Events, PATIENCE, wait_until};

const OSC9: &str = "\u{1b}]9;";

fn comment(sandbox: &OutageSandbox, token: &str, change_request: &str, text: &str) {
    let url = format!(
        "{}/v1/spaces/{}/change-requests/{change_request}/comments",
        sandbox.sandbox.base_url(),
        demo_ids::SPACE_GETTING_STARTED
    );
    let status = sandbox.runtime.block_on(async {
        reqwest::Client::new()
            .post(url)
            .bearer_auth(token)
            .json(&json!({ "body": { "markdown": text } }))
            .send()
            .await
            .expect("the sandbox answers")
            .status()
    });
    assert!(status.is_success(), "{status}");
}

fn osc9_count(app: &PtyApp) -> usize {
    String::from_utf8_lossy(&app.raw_output())
        .matches(OSC9)
        .count()
}

/// A config file with the values the pings are tested with: a refresh every 2 s, OSC 9 rings.
fn watching_every_two_seconds_with_osc9() -> tempfile::NamedTempFile {
    let config = tempfile::Builder::new()
        .suffix(".toml")
        .tempfile()
        .expect("a config file");
    std::fs::write(
        config.path(),
        "watch_interval_secs = 2\nnotify = \"osc9\"\n",
    )
    .expect("written");
    config
}

#[test]
fn home_rings_for_someone_elses_comment_never_for_ones_own_and_is_silent_when_idle() {
    let server = OutageSandbox::start();
    let config = watching_every_two_seconds_with_osc9();
    let base = server.sandbox.base_url();
    let config_path = config.path().to_str().expect("a path");
    let app = PtyApp::spawn(
        &[
            "--api-url",
            &base,
            "--token",
            tokens::REVIEWER,
            "--config",
            config_path,
            "--start",
            "home",
        ],
        100,
        30,
    );
    app.wait_for("Review requested from me (3)", PATIENCE);
    let screen = app.screen();
    assert!(screen.contains("Lumen OSS"), "{screen}");
    assert!(screen.contains("Clarify token scopes"), "{screen}");

    // The sandbox's requests wake the waits below, as the terminal's bytes do.
    let events = Events::new();
    events.follow(server.runtime.handle(), server.sandbox.activity());
    let asked = |pattern: &str| server.sandbox.requests("GET", pattern);
    // Home has looked at each of the three change requests it watches: what is new is
    // measured from there.
    assert!(wait_until(PATIENCE, &events, || asked("*/comments") >= 3));

    comment(
        &server,
        tokens::EDITOR,
        demo_ids::CR_REVIEW,
        "Please check the scopes table.",
    );
    // The ring is written before the frame that says it: both are waited for.
    let rung_and_said = |app: &PtyApp| {
        let screen = app.screen();
        osc9_count(app) == 1 && screen.contains("● new") && screen.contains("comment by Jonas Berg")
    };
    app.wait_for_screen(
        "an OSC 9 ring, the row marked new and the ping said",
        PATIENCE,
        rung_and_said,
    );

    // The user's own comment moves the row, is looked at, and rings nothing.
    let looks_before = asked("*/comments");
    comment(
        &server,
        tokens::REVIEWER,
        demo_ids::CR_OUTDATED,
        "Tested on a Pi 5.",
    );
    assert!(wait_until(PATIENCE, &events, || asked("*/comments") > looks_before));
    let lists = |_: ()| asked("/orgs/*/change-requests");
    // A refresh asks each of the four sections in each of the two organizations.
    let two_refreshes_later = lists(()) + 2 * 8;
    assert!(wait_until(PATIENCE, &events, || lists(()) >= two_refreshes_later));
    assert_eq!(osc9_count(&app), 1);

    // Nothing changes from here: five refreshes (ten seconds) write nothing.
    app.settle();
    let bytes = app.bytes_received();
    let five_refreshes_later = lists(()) + 5 * 8;
    assert!(wait_until(PATIENCE, &events, || lists(()) >= five_refreshes_later));
    let written = app.raw_output();
    let since = String::from_utf8_lossy(&written[bytes.min(written.len())..]).into_owned();
    assert_eq!(app.bytes_received(), bytes, "{since:?}\n{}", app.screen());
}

/// Two quire windows on one account, as two tmux windows are: both watch the same change
/// requests and both see someone else's comment, and one of them rings for it.
#[test]
fn two_quire_windows_on_one_account_ring_once_between_them() {
    let server = OutageSandbox::start();
    let config = watching_every_two_seconds_with_osc9();
    let base = server.sandbox.base_url();
    let args = [
        "--api-url",
        &base,
        "--token",
        tokens::REVIEWER,
        "--config",
        config.path().to_str().expect("a path"),
        "--start",
        "home",
    ];
    let first = PtyApp::spawn(&args, 100, 30);
    // The second window shares the first one's data directory: its cache, where told pings
    // are kept.
    let shared_data = first.home().join("data");
    let second = PtyApp::spawn_with_env(
        &args,
        100,
        30,
        &[("XDG_DATA_HOME", shared_data.to_str().expect("a path"))],
    );
    for app in [&first, &second] {
        app.wait_for("Review requested from me (3)", PATIENCE);
    }
    let events = Events::new();
    events.follow(server.runtime.handle(), server.sandbox.activity());
    let asked = |pattern: &str| server.sandbox.requests("GET", pattern);
    // Each window has looked at the three change requests it watches.
    assert!(wait_until(PATIENCE, &events, || asked("*/comments") >= 6));

    let looks_before = asked("*/comments");
    comment(
        &server,
        tokens::EDITOR,
        demo_ids::CR_REVIEW,
        "Please check the scopes table.",
    );
    // Both windows look again at the change request that moved, and mark its row.
    assert!(wait_until(PATIENCE, &events, || asked("*/comments")
        >= looks_before + 2));
    for app in [&first, &second] {
        app.wait_for("● new", PATIENCE);
    }
    // Two more refreshes of both windows: each has long taken in its look's answer.
    let lists = || asked("/orgs/*/change-requests");
    let later = lists() + 2 * 2 * 8;
    assert!(wait_until(PATIENCE, &events, || lists() >= later));
    let rings = [osc9_count(&first), osc9_count(&second)];
    // What both windows show and what they logged, to tell a failure's cause.
    let log = std::fs::read_to_string(shared_data.join("quire.log")).unwrap_or_default();
    assert_eq!(
        rings.iter().sum::<usize>(),
        1,
        "rings per window: {rings:?}\n{}\n{}\nthe windows' log:\n{log}",
        first.screen(),
        second.screen()
    );
    let telling = if rings[0] == 1 { &first } else { &second };
    assert!(
        telling.screen().contains("comment by Jonas Berg"),
        "{}",
        telling.screen()
    );
}

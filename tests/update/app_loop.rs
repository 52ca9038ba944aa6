//! Layer 3: the real loop (`runtime::run`) on a test backend, with scripted keys, against the
//! real sandbox on loopback. The test waits for text to appear on the drawn screen.

use std::time::Duration;

use crate::common::loop_harness::Harness;
use crate::common::wait::{PATIENCE, wait_until_async};
use quire::runtime::{Exit, InputEvent};
use quire::sandbox::{SandboxOptions, tokens};
use quire::ui::markdown::grammar_ready;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browse_from_organizations_to_a_rendered_page() {
    let harness = Harness::start(tokens::READER, SandboxOptions::default()).await;
    open_quickstart(&harness).await;
    harness.press(KeyCode::Char('y'));
    harness.press(KeyCode::Char('q'));
    let exit = harness.running.await.unwrap().unwrap();
    assert_eq!(exit, Exit::Quit);
    let copied = harness.host.copied.lock().unwrap().clone();
    assert_eq!(copied.len(), 1, "y copied the page's link");
    assert!(copied[0].contains("quickstart"), "{copied:?}");
}

/// Opens the demo's Quickstart (code in many languages) in the reader.
async fn open_quickstart(harness: &Harness) {
    harness.open_getting_started().await;
    // The first page is selected and previewed without a key press.
    harness.wait_for("Welcome to Acme Fleet").await;
    harness.press(KeyCode::Char('j'));
    harness.press(KeyCode::Enter);
    harness.wait_for("Quickstart  /quickstart").await;
}

/// Every regex of the common grammars takes ~80 MB: the loop no longer builds them at start,
/// and a page's code compiles only the regexes it reaches, never a whole grammar.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_grammar_is_built_in_full_at_start_or_for_a_page() {
    const COMMON: [&str; 10] = [
        "rust", "python", "ts", "js", "go", "sql", "sh", "json", "yaml", "toml",
    ];
    let harness = Harness::start(tokens::READER, SandboxOptions::default()).await;
    open_quickstart(&harness).await;
    // The page is parsed, highlighted and drawn: all a page builds is built.
    harness.settle().await;
    let built: Vec<&str> = COMMON
        .into_iter()
        .filter(|language| grammar_ready(language))
        .collect();
    assert!(built.is_empty(), "built in full: {built:?}");
    harness.press(KeyCode::Char('q'));
    assert_eq!(harness.running.await.unwrap().unwrap(), Exit::Quit);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_explains_how_to_set_one() {
    let harness = Harness::start("not-a-demo-token", SandboxOptions::default()).await;
    harness
        .wait_for("The server rejected the token (401)")
        .await;
    let screen = harness.backend.screen();
    assert!(screen.contains("GITBOOK_TOKEN"));
    assert!(
        !screen.contains("not-a-demo-token"),
        "the token is never shown"
    );
    harness.keys.send(InputEvent::Hangup).unwrap();
    assert_eq!(harness.running.await.unwrap().unwrap(), Exit::TerminalGone);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_request_says_what_failed_and_r_retries() {
    let options = SandboxOptions {
        faults: quire::sandbox::Faults {
            fail_with: Some(503),
            ..Default::default()
        },
        ..Default::default()
    };
    let harness = Harness::start(tokens::ADMIN, options).await;
    harness.wait_for("r to retry").await;
    assert!(
        harness.backend.screen().contains("503"),
        "{}",
        harness.backend.screen()
    );
    harness.sandbox.set_faults(Default::default());
    harness.press(KeyCode::Char('r'));
    harness.wait_for("Acme Robotics").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_quire_does_not_draw() {
    let harness = Harness::start(tokens::ADMIN, SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    // Idle means no spinner turns and no timer or call is under way: nothing but input can
    // wake the loop, so nothing is drawn until a key comes.
    harness.settle().await;
    let before = harness.backend.flushes();
    harness.settle().await;
    assert_eq!(harness.backend.flushes(), before, "no redraw while idle");
    harness.press(KeyCode::Char('j'));
    harness.wait_for("Lumen OSS").await;
    harness.settle().await;
    assert!(harness.backend.flushes() > before, "a key press draws");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_server_shows_loading_then_the_data() {
    let options = SandboxOptions {
        latency: Duration::from_millis(300),
        ..Default::default()
    };
    let harness = Harness::start(tokens::ADMIN, options).await;
    harness.wait_for("Loading organizations").await;
    harness.wait_for("Acme Robotics").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fg_after_ctrl_z_redraws_the_whole_screen_without_a_key() {
    let harness = Harness::start(tokens::ADMIN, SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    harness.press_with(KeyCode::Char('z'), KeyModifiers::CONTROL);
    let suspended = wait_until_async(PATIENCE, harness.host.changed.subscribe(), || {
        *harness.host.suspended.lock().unwrap() > 0
    })
    .await;
    assert!(suspended, "ctrl-z never suspended");
    // No key after `fg`: the frame comes back whole on its own, and quire is still running.
    harness.wait_for("Acme Robotics").await;
    harness.wait_for("quire").await;
    assert!(
        !harness.running.is_finished(),
        "quire kept running after fg"
    );
    harness.press(KeyCode::Char('q'));
    assert_eq!(harness.running.await.unwrap().unwrap(), Exit::Quit);
}

//! The outbox end to end: the real binary in a pseudo-terminal against an in-process sandbox
//! that goes out of reach and comes back. What is written offline waits on disk across a
//! restart (with `--offline`) and a kill -9, is sent only from the outbox after a look and a
//! yes, and reaches the server exactly once, also when the first try's answer was lost.

use std::time::Duration;

use crate::common::outage_sandbox::OutageSandbox;
use crate::common::pty::PtyApp;
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{FaultRule, Faults, Outage, demo_ids, tokens};

const WAIT: Duration = Duration::from_secs(30);

/// The threads of the demo review whose text is `text`, read over HTTP.
fn threads_saying(server: &OutageSandbox, text: &str) -> usize {
    let client = Client::new(ClientConfig::new(
        server.sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let threads = server
        .runtime
        .block_on(client.list_all_comments(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            &Default::default(),
            usize::MAX,
        ))
        .expect("threads");
    threads
        .items
        .iter()
        .filter(|thread| thread.body.markdown.as_deref() == Some(text))
        .count()
}

fn spawn(home: Option<tempfile::TempDir>, args: &[String]) -> PtyApp {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match home {
        Some(home) => PtyApp::spawn_in_home(home, &args, 80, 24, &[]),
        None => PtyApp::spawn(&args, 80, 24),
    }
}

/// On the demo review's comments tab with the server out of reach: a new comment and a 👍 on
/// the first thread, both queued.
fn write_a_comment_and_a_reaction_offline(app: &mut PtyApp, server: &OutageSandbox, text: &str) {
    app.open_demo_review_comments(WAIT);
    server.outage(Outage::Refuse);
    app.send("c");
    app.wait_for("ctrl-s send", WAIT);
    app.send(text);
    app.send("\x13");
    app.wait_for("comment queued", WAIT);
    app.wait_for(&format!("◷ comment: {text}"), WAIT);
    app.send("+");
    app.wait_for("React", WAIT);
    app.send("\r");
    app.wait_for("◷ reaction 👍", WAIT);
    // Pending beside the thread's reactions.
    app.wait_for("◷ 👍", WAIT);
    app.wait_for("◷ 2 queued", WAIT);
}

#[test]
fn written_offline_kept_across_an_offline_restart_and_sent_once_after_a_look() {
    let server = OutageSandbox::start();
    let args = server.args();
    let posts = || server.sandbox.requests("POST", "*/comments");
    let puts = || server.sandbox.requests("PUT", "*/comments/*");
    let mut app = spawn(None, &args);
    write_a_comment_and_a_reaction_offline(&mut app, &server, "Written on the plane");
    let (posts_before, puts_before) = (posts(), puts());
    let home = app.take_home();
    app.send("q");
    app.wait_exit(WAIT).expect("quire quits");

    // A second run with --offline: the outbox is still there, and nothing can leave.
    let mut offline_args = args.clone();
    offline_args.push("--offline".to_string());
    let mut app = spawn(Some(home), &offline_args);
    app.wait_for("offline", WAIT);
    app.wait_for("◷ 2 queued", WAIT);
    app.send("^");
    app.wait_for("2 writes waiting", WAIT);
    app.wait_for("◷ comment: Written on the plane", WAIT);
    // Said up front, and `S` says it again rather than asking to send what cannot go.
    let by_flag = "Offline by --offline: nothing is sent until you start quire without it";
    app.wait_for(by_flag, WAIT);
    app.send("S");
    app.wait_for_count(by_flag, 2, WAIT);
    assert!(!app.screen().contains("Send 2 writes"), "{}", app.screen());
    app.wait_for("2 writes waiting", WAIT);
    let home = app.take_home();
    app.send("q");
    app.wait_exit(WAIT).expect("quire quits");

    // Back online: the footer says what waits; nothing goes until the look and the yes.
    server.outage(Outage::None);
    let mut app = spawn(Some(home), &args);
    app.wait_for("2 writes wait in the outbox: ^ to look and send.", WAIT);
    assert_eq!((posts(), puts()), (posts_before, puts_before));
    app.send("^");
    app.wait_for("2 writes waiting", WAIT);
    app.wait_for("Clarify token scopes", WAIT);
    app.send("S");
    app.wait_for("Send 2 writes to #1", WAIT);
    app.send("y");
    app.wait_for("Sent 2 queued writes.", WAIT);
    app.wait_for("Nothing waits", WAIT);
    assert_eq!(posts() - posts_before, 1, "the comment went once");
    assert_eq!(puts() - puts_before, 1, "the reaction went once");
    assert_eq!(threads_saying(&server, "Written on the plane"), 1);
    app.send("q");
    app.wait_exit(WAIT).expect("quire quits");
}

#[test]
fn a_kill_after_queued_loses_nothing_and_a_lost_answer_is_read_back_not_resent() {
    let server = OutageSandbox::start();
    let args = server.args();
    let mut app = spawn(None, &args);
    app.open_demo_review_comments(WAIT);
    server.outage(Outage::Refuse);
    app.send("c");
    app.wait_for("ctrl-s send", WAIT);
    app.send("Survives a kill");
    app.send("\x13");
    app.wait_for("comment queued", WAIT);
    let pid = app.child.process_id().expect("quire's pid") as i32;
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    app.wait_exit(WAIT).expect("quire is killed");
    let home = app.take_home();

    // The server is back, but stores the comment and then fails to answer, once.
    server.outage(Outage::None);
    server.sandbox.set_faults(Faults {
        rules: vec![FaultRule::parse("POST */comments=store-failx1").expect("a rule")],
        ..Faults::default()
    });
    let posts_before = server.sandbox.requests("POST", "*/comments");
    let mut app = spawn(Some(home), &args);
    app.wait_for("1 write waits in the outbox", WAIT);
    app.send("^");
    app.wait_for("◷ comment: Survives a kill", WAIT);
    app.send("s");
    app.wait_for("Send 1 write", WAIT);
    app.send("y");
    app.wait_for("Sent 1 queued write.", WAIT);
    app.wait_for("Nothing waits", WAIT);
    assert_eq!(
        server.sandbox.requests("POST", "*/comments") - posts_before,
        1,
        "read back after the lost answer, not sent again"
    );
    assert_eq!(threads_saying(&server, "Survives a kill"), 1);
    app.send("q");
    app.wait_exit(WAIT).expect("quire quits");
}

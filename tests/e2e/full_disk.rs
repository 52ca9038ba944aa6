//! A disk that takes nothing more: the log's write errors never reach the terminal, and a
//! composer whose draft could not be written says so rather than promise the words are kept.

use std::time::Duration;

use crate::common::outage_sandbox::OutageSandbox;
use crate::common::pty::PtyApp;
use quire::sandbox::{FaultRule, Faults};

const WAIT: Duration = Duration::from_secs(30);
const CTRL_S: &str = "\u{13}";

#[test]
fn a_full_disk_keeps_the_screen_clean_and_the_composer_says_the_draft_was_not_saved() {
    let server = OutageSandbox::start();
    let refuse_comments = FaultRule::parse("POST *comments*=422").expect("a fault rule");
    server.sandbox.set_faults(Faults {
        rules: vec![refuse_comments],
        ..Faults::default()
    });
    let home = tempfile::tempdir().expect("a home");
    let data = home.path().join("data/quire");
    std::fs::create_dir_all(&data).unwrap();
    // Every write to the log fails, as on a full disk.
    std::os::unix::fs::symlink("/dev/full", data.join("quire.log")).unwrap();
    // A file where the drafts' folder goes: no draft can be written, even by root.
    std::fs::write(data.join("drafts"), "").unwrap();
    let args = server.args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut app = PtyApp::spawn_in_home(home, &args, 100, 30, &[]);
    app.open_demo_review_comments(WAIT);
    app.send("R");
    app.wait_for("ctrl-s send", WAIT);
    app.send("words on screen alone");
    app.wait_for("The draft could not be saved", WAIT);
    app.send(CTRL_S);
    app.wait_for("the draft could not be saved", WAIT);
    let screen = app.screen();
    assert!(!screen.contains("nothing was lost"), "{screen}");
    assert!(screen.contains("words on screen alone"), "{screen}");
    let written = String::from_utf8_lossy(&app.raw_output()).into_owned();
    assert!(!written.contains("Unable to write"), "{written}");
    server.shutdown();
}

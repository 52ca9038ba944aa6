//! `quire cr watch` as a process: it prints what others do to a change request (a comment, the
//! merge) as they do it, through the sandbox's API as other users, and ends when the change
//! request reaches the state it waits for (exit 0) or one it never can any more (exit 5). A
//! server that refuses connections for a while is waited out, said on stderr.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use quire::sandbox::Outage;
use serde_json::{Value, json};

use crate::cli_status::send;
use crate::common::outage_sandbox::OutageSandbox;
use crate::common::processes::wait_for_exit;
use crate::common::sandbox_process::SandboxProcess;
use crate::common::wait::{Events, PATIENCE, wait_until};

const SPACE: &str = "spc-getting-started";

/// A running quire whose output lines are collected as they come.
struct Watcher {
    child: Child,
    out: Arc<Mutex<Vec<String>>>,
    err: Arc<Mutex<Vec<String>>>,
    /// A line arrived on either stream.
    lines: Arc<Events>,
}

impl Watcher {
    fn start(base: &str, token: &str, args: &[&str]) -> Watcher {
        let home = std::env::temp_dir();
        let mut child = Command::new(env!("CARGO_BIN_EXE_quire"))
            .args(["--api-url", base, "--token", token])
            .args(["--config", "/nonexistent/quire-watch-test.toml"])
            .args(args)
            .env("HOME", &home)
            .env_remove("GITBOOK_TOKEN")
            .env_remove("GITBOOK_API_URL")
            .env_remove("QUIRE_SPACE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("quire starts");
        let lines = Arc::new(Events::new());
        let out = collect(child.stdout.take().expect("stdout"), lines.clone());
        let err = collect(child.stderr.take().expect("stderr"), lines.clone());
        Watcher {
            child,
            out,
            err,
            lines,
        }
    }

    /// Waits until a line of stdout (or stderr) contains `needle`.
    fn wait_for(&self, needle: &str, on_stderr: bool) {
        let lines = if on_stderr { &self.err } else { &self.out };
        let seen = wait_until(PATIENCE, &self.lines, || {
            lines
                .lock()
                .expect("lines")
                .iter()
                .any(|line| line.contains(needle))
        });
        assert!(seen, "no line with {needle:?}: {}", self.said());
    }

    /// The exit status, once it ended by itself.
    fn exit_code(&mut self) -> Option<i32> {
        let ended = wait_for_exit(self.child.id(), PATIENCE);
        assert!(ended, "the watch did not end: {}", self.said());
        self.child.wait().expect("a status").code()
    }

    fn said(&self) -> String {
        format!(
            "stdout: {:?} stderr: {:?}",
            self.out.lock().expect("lines"),
            self.err.lock().expect("lines")
        )
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn collect(stream: impl Read + Send + 'static, events: Arc<Events>) -> Arc<Mutex<Vec<String>>> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let kept = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            kept.lock().expect("lines").push(line);
            events.happened();
        }
        events.happened();
    });
    lines
}

fn change_request(number: u32, suffix: &str) -> String {
    format!("/spaces/{SPACE}/change-requests/{number}{suffix}")
}

#[test]
fn a_watch_prints_what_others_do_and_ends_when_the_change_request_is_merged() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let watch = |until: &str| {
        Watcher::start(
            base,
            "demo-reviewer",
            &[
                "cr",
                "watch",
                "2",
                "--space",
                SPACE,
                "--interval",
                "1",
                "--until",
                until,
            ],
        )
    };
    let mut until_merged = watch("merged");
    let mut until_approved = watch("approved");
    until_merged.wait_for("watching #2", false);
    until_approved.wait_for("watching #2", false);

    let commented = send(
        &sandbox,
        "demo-commenter",
        "POST",
        &change_request(2, "/comments"),
        json!({"body": {"markdown": "Tested on a Pi 5: works"}}),
    );
    assert!(commented < 300, "{commented}");
    until_merged.wait_for("comment by Diego Álvarez: Tested on a Pi 5: works", false);

    let merged = send(
        &sandbox,
        "demo-admin",
        "POST",
        &change_request(2, "/merge"),
        Value::Null,
    );
    assert!(merged < 300, "{merged}");
    until_merged.wait_for("status open → merged by Amara Okafor", false);
    assert_eq!(until_merged.exit_code(), Some(0), "{}", until_merged.said());

    // Merged while waiting for an approval: that approval can never come.
    assert_eq!(
        until_approved.exit_code(),
        Some(5),
        "{}",
        until_approved.said()
    );
    until_approved.wait_for("is merged while waiting for approved", true);
}

#[test]
fn a_watch_waits_out_a_server_that_refuses_connections() {
    let server = OutageSandbox::start();
    let base = server.sandbox.base_url();
    let mut watcher = Watcher::start(
        &base,
        "demo-reviewer",
        &["cr", "watch", "2", "--space", SPACE, "--interval", "1"],
    );
    watcher.wait_for("watching #2", false);

    server.outage(Outage::Refuse);
    watcher.wait_for("lost the server", true);
    server.outage(Outage::None);
    watcher.wait_for("the server answers again", true);
    assert_eq!(watcher.child.try_wait().expect("a status"), None);

    let approved = server.runtime.block_on(async {
        reqwest::Client::new()
            .post(format!("{base}/v1{}", change_request(2, "/reviews")))
            .bearer_auth("demo-admin")
            .json(&json!({"status": "approved"}))
            .send()
            .await
            .expect("answered")
            .status()
            .as_u16()
    });
    assert!(approved < 300, "{approved}");
    watcher.wait_for("review by Amara Okafor: approved", false);
    assert_eq!(watcher.exit_code(), Some(0), "{}", watcher.said());
}

//! The `$EDITOR` hand-off in a real pseudo-terminal: the editor's text reaches the composer and
//! the draft file every time, and when the terminal goes away around the editor quire ends at
//! once with the text already saved as a draft.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(20);
const CTRL_E: &str = "\u{5}";

/// An editor script in its own folder; `body` runs with the file to edit as `$1`.
fn editor_script(folder: &Path, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = folder.join("editor.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Every draft file's text under the app's data directory.
fn drafts(home: &Path) -> Vec<String> {
    fn walk(path: &Path, found: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    let mut found = Vec::new();
    walk(&home.join("data"), &mut found);
    found
}

/// Opens the reply composer on a thread of the demo's busiest change request.
fn open_reply_composer(app: &mut PtyApp) {
    app.open_demo_review_comments(WAIT);
    app.send("R");
    app.wait_for("ctrl-s send", WAIT);
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < WAIT, "{what} did not happen in {WAIT:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn twenty_editor_round_trips_keep_every_word() {
    let folder = tempfile::tempdir().unwrap();
    let editor = editor_script(folder.path(), r#"echo "line from the editor" >> "$1""#);
    let editor = editor.to_string_lossy().to_string();
    let mut app = PtyApp::spawn_with_env(&["--demo"], 100, 30, &[("EDITOR", &editor)]);
    open_reply_composer(&mut app);
    for round in 1..=20 {
        app.send(CTRL_E);
        wait_until(&format!("round {round}'s draft"), || {
            drafts(app.home())
                .iter()
                .any(|text| text.matches("line from the editor").count() == round)
        });
        app.wait_for("line from the editor", WAIT);
        assert!(
            app.child.try_wait().unwrap().is_none(),
            "quire is still running after round {round}"
        );
    }
    app.wait_for("ctrl-s send", WAIT);
}

/// The terminal closes while the editor runs (`sleep` keeps it open) or just after it wrote
/// and left: either way quire ends within a second and the text is in the draft file.
fn terminal_closes_around_the_editor(editor_lingers: bool) {
    let folder = tempfile::tempdir().unwrap();
    let marker = folder.path().join("written");
    let linger = if editor_lingers { "sleep 30" } else { "true" };
    let editor = editor_script(
        folder.path(),
        &format!(
            r#"echo "saved before the terminal went away" >> "$1"
touch "{}"
{linger}"#,
            marker.display()
        ),
    );
    let editor = editor.to_string_lossy().to_string();
    let mut app = PtyApp::spawn_with_env(&["--demo"], 100, 30, &[("EDITOR", &editor)]);
    open_reply_composer(&mut app);
    app.send(CTRL_E);
    wait_until("the editor writing", || marker.exists());
    app.close_terminal();
    let closed = Instant::now();
    let status = app.wait_exit(WAIT);
    let log = std::fs::read_to_string(app.home().join("data/quire/quire.log")).unwrap_or_default();
    assert!(
        status.is_some(),
        "quire ended after its terminal closed; log:\n{log}"
    );
    let took = closed.elapsed();
    let tail: Vec<&str> = log.lines().rev().take(12).collect();
    assert!(
        took < Duration::from_secs(1),
        "quire took {took:?} to end ({status:?}); log ends:\n{}",
        tail.join("\n")
    );
    assert!(
        drafts(app.home())
            .iter()
            .any(|text| text.contains("saved before the terminal went away")),
        "the editor's text is in a draft file: {:?}",
        drafts(app.home())
    );
}

#[test]
fn the_terminal_closing_while_the_editor_runs_loses_nothing() {
    terminal_closes_around_the_editor(true);
}

#[test]
fn the_terminal_closing_as_the_editor_returns_loses_nothing() {
    terminal_closes_around_the_editor(false);
}

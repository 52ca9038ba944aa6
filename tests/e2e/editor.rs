//! The `$EDITOR` hand-off in a real pseudo-terminal: the editor's text reaches the composer and
//! the draft file every time, and when the terminal goes away around the editor, or quire is
//! told to end while it runs, quire ends the editor and ends itself promptly, with the text
//! already saved as a draft and the editor's private file gone.

use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// Every draft file's text in the app's drafts folder.
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
    walk(&home.join("data/quire/drafts"), &mut found);
    found
}

/// Opens the reply composer on a thread of the demo's busiest change request.
fn open_reply_composer(app: &mut PtyApp) {
    app.open_demo_review_comments(WAIT);
    app.send("R");
    app.wait_for("ctrl-s send", WAIT);
}

/// Waits until `done` holds, looking each time the terminal shows something: what the editor
/// scripts here do on disk they say on the terminal afterwards, and quire redraws once the
/// editor has left.
fn wait_until(app: &PtyApp, what: &str, done: impl FnMut() -> bool) {
    let happened = crate::common::wait::wait_until(WAIT, app.events(), done);
    assert!(happened, "{what} did not happen in {WAIT:?}");
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
        wait_until(&app, &format!("round {round}'s draft"), || {
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
echo "the editor wrote"
{linger}"#,
            marker.display()
        ),
    );
    let editor = editor.to_string_lossy().to_string();
    let mut app = PtyApp::spawn_with_env(&["--demo"], 100, 30, &[("EDITOR", &editor)]);
    open_reply_composer(&mut app);
    app.send(CTRL_E);
    wait_until(&app, "the editor writing", || marker.exists());
    app.close_terminal();
    // A lingering editor sleeps 30 s, longer than WAIT: quire ending within WAIT did not wait
    // for it.
    let status = app.wait_exit(WAIT);
    let log = std::fs::read_to_string(app.home().join("data/quire/quire.log")).unwrap_or_default();
    assert!(
        status.is_some(),
        "quire ended after its terminal closed; log:\n{log}"
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

/// Opens the editor on a reply with a script that records the modes of the file it was given
/// and of its folders, writes a line, then stays (ignoring SIGTERM when `stubborn`) until
/// something ends it.
/// Returns quire and the folder holding the script's records and quire's temporary folder
/// (`tmp`).
fn editor_that_stays(stubborn: bool) -> (PtyApp, tempfile::TempDir) {
    let folder = tempfile::tempdir().unwrap();
    let temporary = folder.path().join("tmp");
    std::fs::create_dir(&temporary).unwrap();
    let ignore_term = if stubborn { "trap '' TERM" } else { "" };
    let editor = editor_script(
        folder.path(),
        &format!(
            r#"stat -c '%a %n' "$1" "$(dirname "$1")" "$(dirname "$(dirname "$1")")" > "{modes}"
echo "words kept through the signal" >> "$1"
{ignore_term}
echo $$ > "{pid}.new" && mv "{pid}.new" "{pid}"
echo "the editor is ready"
exec sleep 1000"#,
            modes = folder.path().join("modes").display(),
            pid = folder.path().join("editor.pid").display(),
        ),
    );
    let editor = editor.to_string_lossy().to_string();
    let temporary = temporary.to_string_lossy().to_string();
    let mut app = PtyApp::spawn_with_env(
        &["--demo"],
        100,
        30,
        &[("EDITOR", &editor), ("TMPDIR", &temporary)],
    );
    open_reply_composer(&mut app);
    app.send(CTRL_E);
    let pid_file = folder.path().join("editor.pid");
    wait_until(&app, "the editor writing", || pid_file.exists());
    (app, folder)
}

/// Sends `signal` to quire alone and checks it ends with `status` (the editor sleeps 1000 s,
/// so ending within WAIT is not waiting for it), leaving no editor running, the editor's
/// words in a draft and no file behind.
fn signal_while_the_editor_runs(signal: i32, status: u32, stubborn: bool) {
    let (mut app, folder) = editor_that_stays(stubborn);
    let record = |name: &str| folder.path().join(name);
    let pid = app.child.process_id().expect("quire's pid");
    // SAFETY: kill(2) of the quire this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, signal) }, 0);
    let exit = app.wait_exit(WAIT);
    let log = std::fs::read_to_string(app.home().join("data/quire/quire.log")).unwrap_or_default();
    let exit =
        exit.unwrap_or_else(|| panic!("quire still runs after signal {signal}; log:\n{log}"));
    assert_eq!(exit.exit_code(), status, "signal {signal}: {exit:?}");
    let editor: u32 = std::fs::read_to_string(record("editor.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        crate::common::processes::wait_for_exit(editor, WAIT),
        "the editor still runs"
    );
    assert!(!is_running(editor));
    assert!(
        drafts(app.home())
            .iter()
            .any(|text| text.contains("words kept through the signal")),
        "the editor's words are in a draft: {:?}",
        drafts(app.home())
    );
    let modes = std::fs::read_to_string(record("modes")).unwrap();
    let modes: Vec<(&str, &str)> = modes
        .lines()
        .map(|line| line.split_once(' ').unwrap())
        .collect();
    let [(file_mode, file), (folder_mode, _), (editing_mode, editing)] = modes[..] else {
        panic!("three modes recorded: {modes:?}");
    };
    assert_eq!(
        (file_mode, folder_mode, editing_mode),
        ("600", "700", "700"),
        "the file and its folders are private: {modes:?}"
    );
    assert!(
        Path::new(editing).starts_with(app.home().join("data/quire")),
        "the file lives in quire's own folder: {file}"
    );
    assert!(!Path::new(file).exists(), "the editor's file is removed");
    let left: Vec<_> = std::fs::read_dir(editing).unwrap().flatten().collect();
    assert!(left.is_empty(), "nothing left in {editing}: {left:?}");
    let left: Vec<_> = std::fs::read_dir(record("tmp"))
        .unwrap()
        .flatten()
        .collect();
    assert!(
        left.is_empty(),
        "nothing left in the temporary folder: {left:?}"
    );
}

/// Whether `pid` is a live process (a zombie is dead, only not yet waited for).
fn is_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat[stat.rfind(')')? + 1..].split_whitespace().next()?;
            Some(state != "Z")
        })
        .unwrap_or(false)
}

#[test]
fn a_hangup_while_the_editor_runs_ends_both_and_keeps_the_words() {
    signal_while_the_editor_runs(libc::SIGHUP, 129, false);
}

#[test]
fn sigterm_while_a_stubborn_editor_runs_ends_quire_without_waiting_for_it() {
    // The editor ignores SIGTERM: quire kills it after its grace period (2 s).
    signal_while_the_editor_runs(libc::SIGTERM, 143, true);
}

#[test]
fn the_text_of_an_editor_whose_quire_was_killed_is_offered_once_at_the_next_start() {
    let (mut app, folder) = editor_that_stays(false);
    let pid = app.child.process_id().expect("quire's pid");
    // SAFETY: kill(2) of the quire this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGKILL) }, 0);
    app.wait_exit(WAIT).expect("quire ends on SIGKILL");
    let editor: i32 = std::fs::read_to_string(folder.path().join("editor.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // SAFETY: kill(2) of the editor this test's quire started, left running by the kill.
    unsafe { libc::kill(editor, libc::SIGKILL) };
    let home = app.take_home();
    drop(app);

    let mut app = PtyApp::spawn_in_home(home, &["--demo"], 100, 30, &[]);
    app.wait_for("Recovered the text of an editor", WAIT);
    open_reply_composer(&mut app);
    app.wait_for("words kept through the signal", WAIT);
    let editing = app.home().join("data/quire/editing");
    let left: Vec<_> = std::fs::read_dir(&editing).unwrap().flatten().collect();
    assert!(left.is_empty(), "nothing left to offer again: {left:?}");
}

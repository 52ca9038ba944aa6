//! Moving around, in a real terminal: jumping to a change request through the
//! command palette, and the mouse (SGR sequences written into the pty: a click selects, a
//! double-click opens, the wheel scrolls the reader; `--no-mouse` asks the terminal for none).

use std::time::Duration;

use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(30);

/// A left press and release at the 0-based cell `column`, `row` (SGR numbers cells from 1).
fn click(column: usize, row: usize) -> String {
    format!(
        "\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m",
        x = column + 1,
        y = row + 1
    )
}

fn wheel_down(column: usize, row: usize) -> String {
    format!("\x1b[<65;{};{}M", column + 1, row + 1)
}

/// The 0-based row of the screen whose text contains `needle`, below the header.
fn row_of(app: &PtyApp, needle: &str) -> usize {
    let screen = app.screen();
    screen
        .lines()
        .enumerate()
        .skip(1)
        .find(|(_, line)| line.contains(needle))
        .map(|(row, _)| row)
        .unwrap_or_else(|| panic!("{needle} on screen:\n{screen}"))
}

#[test]
fn jump_via_the_palette_to_a_change_request() {
    let mut app = PtyApp::spawn(&["--demo"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Change requests", WAIT);
    // The inbox loads once its tab is shown; back on Spaces, its change requests are known.
    app.send("\t");
    app.wait_for("Clarify token", WAIT);
    app.send("[");
    app.wait_for("Engineering", WAIT);
    app.send(":");
    app.wait_for("Go to, run", WAIT);
    app.send("token scop");
    app.wait_for("#1 Clarify token scopes in Quickstart", WAIT);
    app.send("\r");
    app.wait_for("Changes (4)", WAIT);
    assert!(
        app.screen().contains("Acme Robotics › #1"),
        "{}",
        app.screen()
    );
    app.send("\x1b");
    app.wait_for("Translations", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
    // The choice is remembered for the next run, in the state directory.
    let history = app.home().join(".local/state/quire/palette-history");
    let saved = std::fs::read_to_string(&history).expect("the history is saved");
    assert!(saved.starts_with("cr:"), "{saved}");
}

#[test]
fn a_click_selects_a_row_and_a_double_click_opens_it() {
    let mut app = PtyApp::spawn(&["--demo"], 80, 24);
    app.wait_for("Lumen OSS", WAIT);
    app.wait_until_idle(WAIT);
    let lumen = row_of(&app, "Lumen OSS");
    app.send(&click(4, lumen));
    app.wait_until_idle(WAIT);
    // The click only selected it: enter opens the row selected.
    app.send("\r");
    app.wait_for("Organizations › Lumen OSS", WAIT);
    app.send("\x1b");
    app.wait_for("Acme Robotics", WAIT);
    app.wait_until_idle(WAIT);
    let acme = row_of(&app, "Acme Robotics");
    app.send(&format!("{}{}", click(4, acme), click(4, acme)));
    app.wait_for("Organizations › Acme Robotics", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());
}

#[test]
fn the_wheel_scrolls_the_reader_three_lines_for_about_the_bytes_of_three_j() {
    let mut app = PtyApp::spawn(&["--demo"], 80, 24);
    app.open_demo_quickstart(WAIT);
    app.wait_until_idle(WAIT);
    let before: Vec<String> = app.screen().lines().map(str::to_string).collect();
    let sent = app.bytes_received();
    app.send(&wheel_down(40, 12));
    // Scrolled: the footer's position moved three lines (a busy machine may take longer than
    // the idle wait's quiet moment to answer the wheel).
    app.wait_for("line 4/", WAIT);
    app.wait_until_idle(WAIT);
    let wheel_bytes = app.bytes_received() - sent;
    let after: Vec<String> = app.screen().lines().map(str::to_string).collect();
    // A line of the page well below the top moved up by three rows.
    let probe = (8..18)
        .find(|row| !before[*row].trim().is_empty())
        .expect("text in the reader");
    assert_eq!(
        after[probe - 3],
        before[probe],
        "before:\n{}\nafter:\n{}",
        before.join("\n"),
        after.join("\n")
    );
    let sent = app.bytes_received();
    app.send("jjj");
    app.wait_for("line 7/", WAIT);
    app.wait_until_idle(WAIT);
    let keys_bytes = app.bytes_received() - sent;
    eprintln!("one wheel notch wrote {wheel_bytes} bytes; jjj wrote {keys_bytes}");
    // The wheel goes through the same scroll actions, so the scroll-region output applies:
    // about what three `j` cost, never a full repaint.
    assert!(
        wheel_bytes <= keys_bytes * 2 + 64,
        "wheel wrote {wheel_bytes} bytes, jjj {keys_bytes}"
    );
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());
}

const MOUSE_ON: &[u8] = b"\x1b[?1000h";
const MOUSE_OFF: &[u8] = b"\x1b[?1000l";

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Every byte a run of `args` writes from start to quit.
fn output_of_a_run(args: &[&str]) -> Vec<u8> {
    let mut app = PtyApp::spawn(args, 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
    app.settle();
    app.raw_output()
}

#[test]
fn the_mouse_is_asked_for_by_default_and_given_back_at_exit() {
    let output = output_of_a_run(&["--demo"]);
    let on = find(&output, MOUSE_ON).expect("mouse reporting turned on");
    let off = find(&output[on..], MOUSE_OFF).expect("and off again at exit");
    assert!(off > 0);
    assert!(
        find(&output, b"\x1b[?1003h").is_none(),
        "no reports of every move"
    );
}

#[test]
fn no_mouse_asks_the_terminal_for_no_mouse_reports() {
    let output = output_of_a_run(&["--demo", "--no-mouse"]);
    assert!(find(&output, MOUSE_ON).is_none());
    assert!(find(&output, b"\x1b[?1006h").is_none());
}

fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|window| *window == needle)
        .count()
}

#[test]
fn the_mouse_is_given_to_the_editor_and_taken_back_after() {
    use std::os::unix::fs::PermissionsExt;
    let folder = tempfile::tempdir().unwrap();
    let editor = folder.path().join("editor.sh");
    std::fs::write(&editor, "#!/bin/sh\necho 'from the editor' > \"$1\"\n").unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let editor = editor.to_string_lossy().into_owned();
    let mut app = PtyApp::spawn_with_env(&["--demo"], 100, 30, &[("EDITOR", editor.as_str())]);
    app.open_demo_review_comments(WAIT);
    app.send("R");
    app.wait_for("ctrl-s send", WAIT);
    app.send("\u{5}");
    app.wait_for("from the editor", WAIT);
    let output = app.raw_output();
    assert_eq!(
        count(&output, MOUSE_ON),
        2,
        "on at start and again after the editor"
    );
    let first_on = find(&output, MOUSE_ON).unwrap();
    let off = find(&output[first_on..], MOUSE_OFF).expect("off while the editor runs");
    let second_on = first_on + 1 + find(&output[first_on + 1..], MOUSE_ON).unwrap();
    assert!(first_on + off < second_on);
}

#[test]
fn the_palette_opens_a_tab_of_the_organization() {
    let mut app = PtyApp::spawn(&["--demo"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);
    app.send(":Translations");
    app.wait_for("Translations tab", WAIT);
    app.send("\r");
    app.wait_for("Rust SDK (en → fr)", WAIT);
}

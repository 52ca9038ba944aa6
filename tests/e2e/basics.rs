//! Layer 4: the built binary in a pseudo-terminal. Start `quire --demo`, type keys, wait for text
//! to appear on the parsed screen (never a fixed sleep), and check what a user would see.

use std::time::Duration;

use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(30);

/// Starts quire with `args` at 100x30 and opens the demo's Quickstart in the reader, the way a
/// user gets there: organization, space filter, page tree.
fn open_quickstart(args: &[&str]) -> PtyApp {
    let mut app = PtyApp::spawn(args, 100, 30);
    app.open_demo_quickstart(WAIT);
    app
}

#[test]
fn browse_organization_space_and_page_in_the_demo() {
    let mut app = open_quickstart(&["--demo"]);
    // The hostile page title and GitBook blocks never reach the terminal raw.
    assert!(!app.screen().contains("{%"), "{}", app.screen());
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
    let output = app.raw_output();
    let tail = String::from_utf8_lossy(&output[output.len().saturating_sub(200)..]).to_string();
    assert!(
        tail.contains("\u{1b}[?1049l"),
        "left the alternate screen: {tail:?}"
    );
    assert!(
        tail.contains("\u{1b}[?2004l"),
        "bracketed paste off: {tail:?}"
    );
    assert!(tail.contains("\u{1b}[?25h"), "cursor shown again: {tail:?}");
    // Focus reports (watching slows down out of focus) are asked for, and turned off again.
    let head = String::from_utf8_lossy(&output[..output.len().min(400)]).to_string();
    assert!(head.contains("\u{1b}[?1004h"), "focus reports on: {head:?}");
    assert!(
        tail.contains("\u{1b}[?1004l"),
        "focus reports off: {tail:?}"
    );
}

/// Code in every language of the demo's Quickstart is coloured, with the budget a user gets:
/// rust, python, typescript and go used to stay plain because building their grammar ate the
/// block's budget.
#[test]
fn quickstart_code_is_highlighted_in_every_language() {
    let mut app = open_quickstart(&["--demo", "--colors", "truecolor"]);
    // (what to search for, a row of code it finds): the search match is drawn in the match
    // style, so each row also has code outside the match, which must carry syntax colours.
    for (search, code) in [
        ("from acme_fleet", "from acme_fleet import Fleet"),
        ("import { Fleet }", "import { Fleet } from \"@acme/fleet\";"),
        ("async fn", "async fn main() -> Result"),
        ("if err", "if err != nil {"),
        ("fmt.Println", "fmt.Println(\"mission\", mission.ID"),
        ("WHERE m.site", "WHERE m.site = 'berlin-dc'"),
        ("fleetctl maps", "fleetctl maps upload berlin-dc.yaml"),
    ] {
        app.send(&format!("/{search}\r"));
        app.wait_for(code, WAIT);
        // Plain code is drawn in the theme's named colours; only syntax colours are RGB.
        let coloured = crate::common::wait::wait_until(WAIT, app.events(), || {
            app.row_colours(code)
                .iter()
                .any(|colour| matches!(colour, vt100::Color::Rgb(..)))
        });
        assert!(
            coloured,
            "`{code}` is not highlighted: {:?}\n{}",
            app.row_colours(code),
            app.screen()
        );
    }
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
}

/// Scrolling the reader line by line and by pages, down and up, leaves on screen exactly what a
/// full redraw of the same view shows (the redraw is forced by a resize there and back). The
/// scrolls go through scroll regions: the output holds scroll-up and scroll-down sequences.
#[test]
fn scrolling_the_reader_leaves_what_a_fresh_redraw_shows() {
    let mut app = open_quickstart(&["--demo", "--colors", "truecolor"]);
    // Wait for the highlighted page (code colours arrive after the first frame).
    app.settle();
    let before = app.raw_output().len();
    let steps = [
        ("j", 40, "line 41/"),
        ("k", 15, "line 26/"),
        ("\u{6}", 2, ""),
        ("\u{2}", 1, ""),
        ("\u{4}", 1, ""),
        ("j", 7, ""),
    ];
    for (key, times, shown) in steps {
        for _ in 0..times {
            app.send(key);
        }
        if !shown.is_empty() {
            app.wait_for(shown, WAIT);
        }
        app.settle();
    }
    // A turning spinner (grammars still warming) would differ between the two captures.
    app.wait_until_idle(WAIT);
    let scrolled = app.styled_rows();
    let output = app.raw_output();
    let text = String::from_utf8_lossy(&output[before..]).to_string();
    assert!(text.contains("\u{1b}[S"), "scrolled up by the terminal");
    assert!(text.contains("\u{1b}[T"), "scrolled down by the terminal");
    app.resize(100, 31);
    app.settle();
    app.resize(100, 30);
    app.wait_until_idle(WAIT);
    let redrawn = app.styled_rows();
    for (row, (scrolled, redrawn)) in scrolled.iter().zip(&redrawn).enumerate() {
        assert_eq!(scrolled, redrawn, "row {row} differs:\n{}", app.screen());
    }
    // The scroll region stays set between frames; quitting gives the shell the whole screen.
    for _ in 0..3 {
        app.send("j");
    }
    app.settle();
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
    let output = app.raw_output();
    let text = String::from_utf8_lossy(&output).to_string();
    let last_scroll = text.rfind("\u{1b}[S").expect("scrolled after the resize");
    assert!(
        text[last_scroll..].contains("\u{1b}[r"),
        "the scroll region is reset on the way out: {:?}",
        &text[last_scroll..]
    );
}

#[test]
fn an_idle_quire_writes_nothing_to_the_terminal() {
    let app = PtyApp::spawn(&["--demo"], 80, 24);
    app.wait_for("Lumen OSS", WAIT);
    // Nothing loading any more (no spinner) and the last frame taken in …
    app.wait_until_idle(WAIT);
    // … then two seconds of idleness, not one byte. What is tested is that nothing happens
    // over time (no timer, no spinner): a byte would end this watch at once, and only its
    // length can end it otherwise.
    let before = app.bytes_received();
    let wrote = crate::common::wait::wait_until(Duration::from_secs(2), app.events(), || {
        app.bytes_received() != before
    });
    assert!(!wrote, "idle quire wrote to the terminal");
}

#[test]
fn a_hangup_ends_quire_promptly() {
    let mut app = PtyApp::spawn(&["--demo"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    let pid = app.child.process_id().expect("pid") as i32;
    // SIGHUP is what a dropped SSH connection delivers.
    signal(pid, "HUP");
    let status = app
        .wait_exit(WAIT)
        .expect("quire kept running after SIGHUP");
    assert_eq!(status.exit_code(), 129, "128 + SIGHUP: {status:?}");
}

#[test]
fn sigint_ends_quire_with_the_status_a_shell_expects() {
    let mut app = PtyApp::spawn(&["--demo"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    let pid = app.child.process_id().expect("pid") as i32;
    signal(pid, "INT");
    let status = app
        .wait_exit(WAIT)
        .expect("quire kept running after SIGINT");
    assert_eq!(status.exit_code(), 130, "128 + SIGINT: {status:?}");
}

#[test]
fn sigterm_restores_the_terminal() {
    assert_signal_restores_the_terminal("TERM", 143);
}

#[test]
fn sigquit_restores_the_terminal() {
    assert_signal_restores_the_terminal("QUIT", 131);
}

/// quire ends on `signal_name` with `status` (128 + the signal's number, as a shell reports a
/// process the signal killed) and leaves the terminal as it found it: main screen, cursor
/// shown, bracketed paste off.
fn assert_signal_restores_the_terminal(signal_name: &str, status: u32) {
    let mut app = PtyApp::spawn(&["--demo"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    let pid = app.child.process_id().expect("pid") as i32;
    signal(pid, signal_name);
    let exit = app
        .wait_exit(WAIT)
        .unwrap_or_else(|| panic!("quire kept running after SIG{signal_name}"));
    assert_eq!(exit.exit_code(), status, "SIG{signal_name}: {exit:?}");
    let output = app.raw_output();
    let tail = String::from_utf8_lossy(&output[output.len().saturating_sub(200)..]).to_string();
    assert!(
        tail.contains("\u{1b}[?1049l"),
        "SIG{signal_name}: left the alternate screen: {tail:?}"
    );
    assert!(
        tail.contains("\u{1b}[?25h"),
        "SIG{signal_name}: cursor shown again: {tail:?}"
    );
    assert!(
        tail.contains("\u{1b}[?2004l"),
        "SIG{signal_name}: bracketed paste off: {tail:?}"
    );
}

#[test]
fn without_a_token_quire_explains_both_ways_in() {
    let mut app = PtyApp::spawn(&[], 80, 24);
    app.wait_for("quire has no API token", WAIT);
    // The frame may still be arriving: wait for each part rather than read it once.
    app.wait_for("GITBOOK_TOKEN", WAIT);
    app.wait_for("quire --demo", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some());
}

#[test]
fn plain_http_to_another_host_is_refused_before_anything_is_sent() {
    let mut app = PtyApp::spawn(
        &[
            "--api-url",
            "http://docs.example.com",
            "--token",
            "secret-token-value",
        ],
        80,
        24,
    );
    let status = app.wait_exit(WAIT).expect("exits");
    assert!(!status.success());
    let output = String::from_utf8_lossy(&app.raw_output()).to_string();
    assert!(output.contains("--allow-insecure"), "{output}");
    assert!(
        !output.contains("secret-token-value"),
        "the token is never printed"
    );
}

fn signal(pid: i32, name: &str) {
    let status = std::process::Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .status()
        .expect("run kill");
    assert!(status.success());
}

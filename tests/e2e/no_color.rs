//! `NO_COLOR` (https://no-color.org) in a real terminal: with it set, quire writes no colour at
//! all (only bold, underline, reverse, dim), for its own screens and for highlighted code.

use std::time::Duration;

use crate::common::pty::PtyApp;

const WAIT: Duration = Duration::from_secs(30);

/// Runs `quire --demo` (truecolor code highlighting) with `env`, opens the Quickstart and shows
/// its Rust code, then quits; returns every byte quire wrote, and whether the screen showed
/// something reversed while at the code.
fn quickstart_output(env: &[(&str, &str)]) -> (Vec<u8>, bool) {
    let mut app = PtyApp::spawn_with_env(&["--demo", "--colors", "truecolor"], 100, 30, env);
    app.open_demo_quickstart(WAIT);
    app.send("/async fn\r");
    app.wait_for("async fn main() -> Result", WAIT);
    app.wait_until_idle(WAIT);
    let reversed = app.shows_reversed();
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");
    app.settle();
    (app.raw_output(), reversed)
}

/// The colour parameters of every SGR sequence (`ESC [ … m`) in `output`: 30–37, 38;…, 39 is
/// not a colour (default), 40–47, 48;…, 90–97, 100–107, and 58;… (underline colour).
fn colour_parameters(output: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(output);
    let mut found = Vec::new();
    for sequence in text.split("\u{1b}[").skip(1) {
        let Some(end) = sequence.find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))
        else {
            continue;
        };
        if !sequence[end..].starts_with('m') {
            continue;
        }
        let parameters = &sequence[..end];
        for part in parameters.split(';') {
            let code = part.split(':').next().unwrap_or_default();
            let Ok(number) = code.parse::<u16>() else {
                continue;
            };
            match number {
                30..=37 | 40..=47 | 90..=97 | 100..=107 => found.push(part.to_string()),
                38 | 48 | 58 => {
                    found.push(parameters.to_string());
                    // The rest of the sequence are this colour's own numbers (5;N or 2;R;G;B).
                    break;
                }
                _ => {}
            }
        }
    }
    found
}

#[test]
fn no_color_writes_no_colour_sequences() {
    let (coloured, _) = quickstart_output(&[]);
    assert!(
        !colour_parameters(&coloured).is_empty(),
        "without NO_COLOR quire writes colours (else this test proves nothing)"
    );
    let (plain, reversed) = quickstart_output(&[("NO_COLOR", "1")]);
    // The search match stood out by its background; without colours it is shown reversed.
    assert!(reversed, "nothing stands out without colours");
    let colours = colour_parameters(&plain);
    assert!(
        colours.is_empty(),
        "colours written with NO_COLOR: {:?}",
        &colours[..colours.len().min(20)]
    );
}

#[test]
fn an_empty_no_color_keeps_the_colours() {
    let (output, _) = quickstart_output(&[("NO_COLOR", "")]);
    assert!(!colour_parameters(&output).is_empty());
}

#[test]
fn colour_parameters_are_found_in_every_form() {
    assert_eq!(
        colour_parameters(b"\x1b[1;7m\x1b[39;49m\x1b[m"),
        Vec::<String>::new()
    );
    assert_eq!(colour_parameters(b"\x1b[1;31m"), ["31"]);
    assert_eq!(colour_parameters(b"\x1b[38;5;200m"), ["38;5;200"]);
    assert_eq!(colour_parameters(b"\x1b[48;2;1;2;3m"), ["48;2;1;2;3"]);
    assert_eq!(colour_parameters(b"\x1b[97;104m"), ["97", "104"]);
    // Cursor moves with numbers are not SGR.
    assert_eq!(
        colour_parameters(b"\x1b[31;40H\x1b[2J"),
        Vec::<String>::new()
    );
}

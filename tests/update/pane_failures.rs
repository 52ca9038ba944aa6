//! A pane whose refresh fails says so in full and takes the message down once a refresh works:
//! the Trash tab, the Spaces tab (at 80 columns, where the sentence is longer than the pane)
//! and the Settings tab, through the real loop against the sandbox.

use crate::common::loop_harness::Harness;
use quire::sandbox::{Faults, SandboxOptions, tokens};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

fn failing() -> Faults {
    Faults {
        fail_with: Some(500),
        ..Faults::default()
    }
}

/// The words inside the screen's bordered box, its wrapped lines joined by single spaces.
fn popup_text(screen: &str) -> String {
    let inside = screen.lines().filter_map(|line| {
        let start = line.find('│')? + '│'.len_utf8();
        let end = line.rfind('│')?;
        (start <= end).then(|| line[start..end].trim().to_string())
    });
    inside.collect::<Vec<_>>().join(" ")
}

async fn refresh_fails_then_works(harness: &Harness) {
    harness.sandbox.set_faults(failing());
    harness.type_text("r");
    harness.wait_for("Reload failed").await;
    // The sentence is read whole: wrapped on screen, or cut with `ctrl-g`, which shows it all.
    let end = "the sandbox was told to answer 500";
    if !harness.backend.screen().contains(end) {
        harness.wait_for("ctrl-g").await;
        harness.press_with(KeyCode::Char('g'), KeyModifiers::CONTROL);
        harness.wait_for("Messages").await;
        // Which of the tab's requests failed first varies, and with it where the box wraps.
        let said = popup_text(&harness.backend.screen());
        assert!(said.contains(end), "{said}");
        harness.press(KeyCode::Esc);
        harness.wait_gone("Messages").await;
    }
    harness.sandbox.set_faults(Faults::default());
    harness.type_text("r");
    harness.wait_gone("Reload failed").await;
}

#[tokio::test]
async fn trash_spaces_and_settings_say_a_failed_refresh_whole_and_clear_it() {
    let harness = Harness::start(tokens::ADMIN, SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    harness.press(KeyCode::Enter);
    harness.wait_for("Engineering").await;
    refresh_fails_then_works(&harness).await;

    for _ in 0..5 {
        harness.press(KeyCode::Tab);
    }
    harness.wait_for("Restorable").await;
    refresh_fails_then_works(&harness).await;

    harness.press(KeyCode::BackTab);
    for _ in 0..7 {
        harness.press(KeyCode::Tab);
    }
    harness.wait_for("Default role").await;
    refresh_fails_then_works(&harness).await;
}

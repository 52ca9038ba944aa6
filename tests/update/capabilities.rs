//! The real loop against the sandbox in its public-service mode: a key whose operation the
//! server does not offer says so once, in words, with no "retry"; from then on it is struck
//! through in the footer and `?` with that reason, the palette leaves it out, and pressing it
//! again sends nothing.

use crate::common::loop_harness::Harness;
use quire::sandbox::{Faults, SandboxOptions, tokens};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

fn like_public() -> SandboxOptions {
    SandboxOptions {
        faults: Faults {
            like_public: true,
            ..Faults::default()
        },
        ..SandboxOptions::default()
    }
}

#[tokio::test]
async fn the_links_report_on_a_server_without_it_is_said_once_and_struck_through() {
    let harness = Harness::start(tokens::ADMIN, like_public()).await;
    harness.open_getting_started().await;
    harness.type_text("L");
    harness
        .wait_for("This server does not offer a space's links report")
        .await;
    let screen = harness.backend.screen();
    assert!(!screen.contains("retry"), "{screen}");
    let links = "/spaces/*/links";
    assert_eq!(harness.sandbox.requests("GET", links), 1);

    // Back on the tree, `L` again: the reason in the footer, no request.
    harness.press(KeyCode::Esc);
    harness.wait_for("BASICS").await;
    harness.type_text("L");
    harness.settle().await;
    assert_eq!(harness.sandbox.requests("GET", links), 1, "not sent again");
    harness
        .wait_for("does not offer a space's links report")
        .await;

    // `?` shows the key struck through with the reason under it.
    harness.press(KeyCode::Esc);
    harness.type_text("?");
    harness.wait_for("links of the space or of a page").await;
    harness.wait_for("not offered by this server (404)").await;
    harness.press(KeyCode::Esc);

    // The palette does not offer it.
    harness.press_with(KeyCode::Char('k'), KeyModifiers::CONTROL);
    harness.type_text("links report");
    harness.settle().await;
    let palette = harness.backend.screen();
    assert!(!palette.contains("Links report"), "{palette}");
}

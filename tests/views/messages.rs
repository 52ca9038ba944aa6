//! Messages cut on screen and read whole: the footer's and a tab's notice end with the key that
//! shows them, and `ctrl-g` opens the messages popup, each message wrapped whole, newest first;
//! at 80x24 and 40x12.

use crate::common::ctrl;
use crate::common::views::{demo_scene as scene, render};
use quire::app::{Model, Msg, update};
use quire::sandbox::tokens;

/// Acme → Spaces as a reader, the Employee Handbook selected and `x` refused (the tab says
/// why), then a link the browser could not open (the footer says so, with the address).
async fn refused_then_no_browser() -> Model {
    let mut model = scene(tokens::READER, "\r/handbook\rx").await;
    update(
        &mut model,
        Msg::BrowserFailed {
            url: "https://docs.acme-robotics.example/fleet-api/authentication/rotating-tokens"
                .to_string(),
            reason: "no display to open a browser on (DISPLAY and WAYLAND_DISPLAY are unset)"
                .to_string(),
        },
    );
    model
}

#[tokio::test]
async fn cut_messages_end_with_the_key_that_shows_them_whole() {
    let mut model = refused_then_no_browser().await;
    insta::assert_snapshot!("messages_cut_80x24", render(&mut model, 80, 24));
    insta::assert_snapshot!("messages_cut_40x12", render(&mut model, 40, 12));
}

#[tokio::test]
async fn ctrl_g_shows_the_last_messages_whole() {
    let mut model = refused_then_no_browser().await;
    update(&mut model, ctrl('g'));
    let wide = render(&mut model, 80, 24);
    assert!(
        wide.contains("/fleet-api/authentication/rotating-token"),
        "the whole address is shown: {wide}"
    );
    insta::assert_snapshot!("messages_popup_80x24", wide);
    insta::assert_snapshot!("messages_popup_40x12", render(&mut model, 40, 12));
    // At 40x12 it scrolls: the end of the earlier message comes into view.
    update(
        &mut model,
        quire::app::Msg::Key(ratatui::crossterm::event::KeyEvent::from(
            ratatui::crossterm::event::KeyCode::End,
        )),
    );
    insta::assert_snapshot!("messages_popup_scrolled_40x12", render(&mut model, 40, 12));
    update(
        &mut model,
        crate::common::key(ratatui::crossterm::event::KeyCode::Esc),
    );
    assert!(model.overlay.is_none(), "esc closes it");
}

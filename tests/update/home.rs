//! Home: the sections across both demo organizations, a change moving in place without the
//! selection moving, `enter` into the review and `]c` through the section, `~` back.

use quire::api::home::default_sections;
use quire::sandbox::{SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::home::HomeScreen;
use ratatui::crossterm::event::KeyCode;

use crate::common::loop_harness::Harness;

async fn home_as(token: &str) -> Harness {
    Harness::start_on(token, SandboxOptions::default(), || {
        Screen::Home(Box::new(HomeScreen::new(default_sections())))
    })
    .await
}

/// Posts a comment as `token` on a change request of Getting Started, as another quire would.
async fn comment_as(harness: &Harness, token: &str, change_request: &str) {
    let url = format!(
        "{}/v1/spaces/{}/change-requests/{change_request}/comments",
        harness.sandbox.base_url(),
        demo_ids::SPACE_GETTING_STARTED
    );
    let answer = reqwest::Client::new()
        .post(url)
        .bearer_auth(token)
        .json(&serde_json::json!({ "body": { "markdown": "Looked again: fine by me." } }))
        .send()
        .await
        .expect("the sandbox answers");
    assert!(answer.status().is_success(), "{}", answer.status());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn home_lists_what_waits_for_the_reviewer_in_every_organization() {
    let app = home_as(tokens::REVIEWER).await;
    app.wait_for("Review requested from me (2)").await;
    let screen = app.backend.screen();
    assert!(screen.contains("Clarify token scopes"), "{screen}");
    assert!(screen.contains("Document gateway install"), "{screen}");
    assert!(screen.contains("Acme Robotics"), "{screen}");
    // Every section counts once its organizations answered.
    app.wait_for("Recently merged (").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moved_change_request_is_marked_new_in_place_and_the_selection_stays() {
    let app = home_as(tokens::REVIEWER).await;
    app.wait_for("Review requested from me (2)").await;
    // The second row is selected; the first then moves.
    app.press(KeyCode::Char('j'));
    app.settle().await;
    let selected_before = app.backend.screen();
    comment_as(&app, tokens::EDITOR, demo_ids::CR_REVIEW).await;
    app.press(KeyCode::Char('r'));
    app.wait_for("● new").await;
    app.settle().await;
    let screen = app.backend.screen();
    let new_row = screen
        .lines()
        .find(|line| line.contains("● new"))
        .unwrap_or_default();
    assert!(new_row.contains("Clarify token scopes"), "{screen}");
    // Opening the review shows the one the selection was on: it did not jump to the moved row.
    app.press(KeyCode::Enter);
    app.wait_for("Document gateway install").await;
    app.settle().await;
    assert!(
        app.backend.screen().contains("#2"),
        "{}\nbefore:\n{selected_before}",
        app.backend.screen()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_opens_the_review_and_bracket_c_walks_the_section_then_tilde_comes_home() {
    let app = home_as(tokens::REVIEWER).await;
    app.wait_for("Review requested from me (2)").await;
    app.press(KeyCode::Enter);
    app.wait_for("Home › #1").await;
    app.press(KeyCode::Char(']'));
    app.press(KeyCode::Char('c'));
    app.wait_for("Home › #2").await;
    app.press(KeyCode::Char('~'));
    app.wait_for("Review requested from me (2)").await;
    app.wait_gone("Home › #").await;
    app.press(KeyCode::Char('O'));
    app.wait_for("Home › Organizations").await;
    app.wait_for("Lumen OSS").await;
}

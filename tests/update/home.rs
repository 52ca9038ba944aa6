//! Home: the sections across both demo organizations, a change moving in place without the
//! selection moving, `enter` into the review and `]c` through the section, `~` back.

use std::time::Duration;

use quire::api::cache::Cache;
use quire::api::home::default_sections;
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::home::HomeScreen;
use quire::vocabulary::watch::Watch;
use ratatui::crossterm::event::{Event, KeyCode};
use serde_json::{Value, json};

use crate::common::loop_harness::Harness;

async fn home_as(token: &str) -> Harness {
    Harness::start_on(token, SandboxOptions::default(), || {
        Screen::Home(Box::new(HomeScreen::new(default_sections())))
    })
    .await
}

/// POSTs `body` as `token` to a change request of Getting Started (`what`: comments,
/// reviews), as another quire would.
async fn post_as(harness: &Harness, token: &str, change_request: &str, what: &str, body: Value) {
    let url = format!(
        "{}/v1/spaces/{}/change-requests/{change_request}/{what}",
        harness.sandbox.base_url(),
        demo_ids::SPACE_GETTING_STARTED
    );
    let answer = reqwest::Client::new()
        .post(url)
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("the sandbox answers");
    assert!(answer.status().is_success(), "{}", answer.status());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn home_lists_what_waits_for_the_reviewer_in_every_organization() {
    let app = home_as(tokens::REVIEWER).await;
    app.wait_for("Review requested from me (3)").await;
    let screen = app.backend.screen();
    assert!(screen.contains("Clarify token scopes"), "{screen}");
    assert!(screen.contains("Explain reranker memory"), "{screen}");
    assert!(screen.contains("Lumen"), "{screen}");
    assert!(screen.contains("Document gateway install"), "{screen}");
    assert!(screen.contains("Getting Started"), "{screen}");
    // Every section counts once its organizations answered.
    app.wait_for("Recently (1)").await;
    app.wait_for("Watching (0)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moved_change_request_is_marked_new_in_place_and_the_selection_stays() {
    let app = home_as(tokens::REVIEWER).await;
    app.wait_for("Review requested from me (3)").await;
    // The middle row is selected; the last one then moves to the top.
    app.press(KeyCode::Char('j'));
    app.settle().await;
    let middle = [
        "Explain reranker memory use",
        "Clarify token scopes in Quickstart",
    ]
    .into_iter()
    .find(|subject| {
        let screen = app.backend.screen();
        let rows: Vec<&str> = screen
            .lines()
            .filter(|line| line.contains("Acme Roboti") || line.contains("Lumen OSS"))
            .collect();
        rows.get(1).is_some_and(|row| row.contains(&subject[..20]))
    })
    .expect("the middle row is one of the two");
    post_as(
        &app,
        tokens::EDITOR,
        demo_ids::CR_OUTDATED,
        "reviews",
        json!({ "status": "approved" }),
    )
    .await;
    app.press(KeyCode::Char('r'));
    app.wait_for("● new").await;
    app.settle().await;
    let screen = app.backend.screen();
    let rows: Vec<&str> = screen
        .lines()
        .filter(|line| line.contains("Acme Roboti") || line.contains("Lumen OSS"))
        .collect();
    assert!(
        rows[0].contains("● new") && rows[0].contains("Document gateway"),
        "{screen}"
    );
    assert_eq!(
        rows.iter().filter(|row| row.contains("● new")).count(),
        1,
        "{screen}"
    );
    // A new comment moves a row too, though its update time stays.
    post_as(
        &app,
        tokens::EDITOR,
        demo_ids::CR_REVIEW,
        "comments",
        json!({ "body": { "markdown": "Looked again: fine by me." } }),
    )
    .await;
    app.press(KeyCode::Char('r'));
    app.wait_for_screen("two rows marked new", |screen| {
        screen.matches("● new").count() == 2
    })
    .await;
    // The selection stayed on the change request it was on, not on its old place.
    app.press(KeyCode::Enter);
    app.wait_for(&format!("{middle}   open")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_opens_the_review_and_bracket_c_walks_the_section_then_tilde_comes_home() {
    let app = home_as(tokens::REVIEWER).await;
    app.wait_for("Review requested from me (3)").await;
    app.press(KeyCode::Enter);
    app.wait_for("Clarify token scopes in Quickstart   open")
        .await;
    app.press(KeyCode::Char(']'));
    app.press(KeyCode::Char('c'));
    app.wait_for("Explain reranker memory use   open").await;
    app.press(KeyCode::Char('~'));
    app.wait_for("Review requested from me (3)").await;
    app.wait_gone("Home › #").await;
    app.press(KeyCode::Char('O'));
    app.wait_for("Home › Organizations").await;
    app.wait_for("Lumen OSS").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn someone_elses_comment_pings_once_and_the_users_own_never() {
    let app = home_as(tokens::REVIEWER).await;
    app.wait_for("Review requested from me (3)").await;
    // The first look at each watched change request is what later ones are measured from.
    app.settle().await;
    let comment = |text: &str| json!({ "body": { "markdown": text } });
    post_as(
        &app,
        tokens::EDITOR,
        demo_ids::CR_REVIEW,
        "comments",
        comment("One more thing."),
    )
    .await;
    app.press(KeyCode::Char('r'));
    app.wait_for("● Getting Started #1").await;
    app.settle().await;
    let notified = app.host.notified.lock().unwrap().clone();
    assert_eq!(notified.len(), 1, "{notified:?}");
    assert!(
        notified[0].contains("comment by Jonas Berg: One more thing."),
        "{notified:?}"
    );

    // Priya's own comment is not news to her; and nothing is told twice.
    post_as(
        &app,
        tokens::REVIEWER,
        demo_ids::CR_OUTDATED,
        "comments",
        comment("Mine."),
    )
    .await;
    app.press(KeyCode::Char('r'));
    app.settle().await;
    app.press(KeyCode::Char('r'));
    app.settle().await;
    let notified = app.host.notified.lock().unwrap().clone();
    assert_eq!(notified.len(), 1, "{notified:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watching_slows_down_out_of_focus_and_is_brought_forward_back_in_focus() {
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::REVIEWER),
    ))
    .expect("client");
    let app = Harness::start_configured(
        sandbox,
        client,
        || Screen::Home(Box::new(HomeScreen::new(default_sections()))),
        |model| model.watch = Watch::from_settings(Some(2), Some(3600), false),
    );
    let focused = Duration::from_secs(2);
    let unfocused = Duration::from_secs(3600);
    app.wait_for("Review requested from me (3)").await;
    app.wait_for_timers(focused, 1).await;
    // Each refresh asks the same lists again (a pending timer keeps the loop from going idle,
    // so refreshes are counted by their requests).
    let lists = || app.sandbox.requests("GET", "/orgs/*/change-requests");
    let per_refresh = lists();

    // The refresh already set goes off as it was; the next one waits the unfocused hour.
    app.send_event(Event::FocusLost);
    app.wait_for_timers(unfocused, 1).await;
    app.wait_for_requests("GET", "/orgs/*/change-requests", 2 * per_refresh)
        .await;

    // Back in focus, that hour's refresh comes after the focused interval instead.
    app.send_event(Event::FocusGained);
    app.wait_for_timers(focused, 2).await;
    app.wait_for_requests("GET", "/orgs/*/change-requests", 3 * per_refresh)
        .await;
    let timers = app.host.timers.lock().unwrap().clone();
    let after_focus_back = timers.iter().rposition(|timer| *timer == unfocused);
    assert!(
        after_focus_back.is_some_and(|at| timers[at + 1..].contains(&focused)),
        "{timers:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watched_change_request_left_behind_by_a_merge_pings_that_it_may_conflict() {
    let app = home_as(tokens::REVIEWER).await;
    app.wait_for("Review requested from me (3)").await;
    app.settle().await;
    // Another change request of the space is merged: main moves on, and the one waiting for
    // Priya's review falls behind it.
    post_as(
        &app,
        tokens::ADMIN,
        demo_ids::CR_OUTDATED,
        "merge",
        json!({}),
    )
    .await;
    app.press(KeyCode::Char('r'));
    app.wait_for_screen("the ping said", |screen| {
        screen.contains("fell behind main")
    })
    .await;
    app.settle().await;
    let notified = app.host.notified.lock().unwrap().clone();
    assert!(
        notified
            .iter()
            .any(|ping| ping.contains("Getting Started #1")
                && ping.contains("fell behind main: bring main in before merging")),
        "{notified:?}"
    );
    assert!(
        notified
            .iter()
            .any(|ping| ping.contains("merged by Amara Okafor")),
        "{notified:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn w_marks_a_change_request_to_watch_and_home_pings_when_it_moves() {
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let cache_folder = tempfile::tempdir().expect("a folder");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::REVIEWER),
    ))
    .expect("client");
    client.use_cache(Cache::open(&cache_folder.path().join("cache.sqlite"), 10 << 20).unwrap());
    let app = Harness::start_with(sandbox, client, || {
        Screen::Home(Box::new(HomeScreen::new(default_sections())))
    });
    app.wait_for("Watching (0)").await;
    // The merged typo fix is neither Priya's nor waiting for her: Home does not watch it.
    app.press(KeyCode::Char(']'));
    app.press(KeyCode::Char(']'));
    app.press(KeyCode::Char(']'));
    app.wait_for("Fix typos in Welcome").await;
    app.press(KeyCode::Char('W'));
    app.wait_for("Watching #4 “Fix typos in Welcome”").await;
    app.wait_for("Watching (1)").await;
    app.settle().await;

    post_as(
        &app,
        tokens::EDITOR,
        demo_ids::CR_MERGED,
        "comments",
        json!({ "body": { "markdown": "Shipped in 2.1." } }),
    )
    .await;
    app.press(KeyCode::Char('r'));
    app.wait_for("comment by Jonas Berg").await;
    app.settle().await;
    let notified = app.host.notified.lock().unwrap().clone();
    assert_eq!(notified.len(), 1, "{notified:?}");
    assert!(notified[0].contains("Shipped in 2.1."), "{notified:?}");

    // W again stops watching.
    app.press(KeyCode::Char('W'));
    app.wait_for("No longer watching #4").await;
    app.wait_for("Watching (0)").await;

    // Marked from its review, it is in Home's section on the way back.
    app.press(KeyCode::Enter);
    app.wait_for("Fix typos in Welcome   merged").await;
    app.press(KeyCode::Char('W'));
    app.wait_for("Watching #4").await;
    app.press(KeyCode::Char('~'));
    app.wait_for("Watching (1)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_onto_the_last_row_of_a_full_section_reads_a_page_more() {
    let app = Harness::start_on(tokens::REVIEWER, SandboxOptions::default(), || {
        let one_row = quire::api::home::SectionQuery {
            limit: 1,
            ..quire::api::home::SectionQuery::open("Open")
        };
        Screen::Home(Box::new(HomeScreen::new(vec![one_row])))
    })
    .await;
    app.wait_for("Open (1)").await;
    app.settle().await;
    app.press(KeyCode::Char('j'));
    app.wait_for("Open (2)").await;
    app.settle().await;
    // The rows read are not news; the selection stayed, so one j reaches the end again.
    assert!(
        !app.backend.screen().contains("● new"),
        "{}",
        app.backend.screen()
    );
    app.press(KeyCode::Char('j'));
    app.press(KeyCode::Char('j'));
    app.wait_for("Open (3)").await;
}

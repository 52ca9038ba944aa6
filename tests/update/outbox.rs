//! The real loop with a cache against the real sandbox out of reach: a comment written then is
//! put in the outbox on disk, the screen says it is queued and shows it pending (◷), and the
//! server gets nothing. What an earlier run queued shows pending on its change request.

use quire::api::cache::Cache;
use quire::api::outbox::{Outbox, Target, Write};
use quire::api::{Client, ClientConfig, Token};
use quire::app::review_calls::ChangeRequestRef;
use quire::sandbox::{Outage, Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::review::ReviewScreen;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use crate::common::loop_harness::Harness;

fn review_screen() -> Screen {
    Screen::Review(Box::new(ReviewScreen::new(
        ChangeRequestRef {
            space: demo_ids::SPACE_GETTING_STARTED.to_owned(),
            change_request: demo_ids::CR_REVIEW.to_owned(),
        },
        None,
    )))
}

/// A sandbox and a client for it whose cache (and outbox) is `path`.
async fn sandbox_and_client(path: &std::path::Path) -> (Sandbox, Client) {
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("client");
    client.use_cache(Cache::open(path, 10 << 20).expect("cache"));
    (sandbox, client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_queued_in_an_earlier_run_show_pending_on_their_change_request() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let outbox = Outbox::open(&path).expect("outbox");
    let target = Target::new(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    let reply = Write::Reply {
        comment: "thread".to_string(),
        markdown: "Queued yesterday".to_string(),
    };
    outbox.enqueue(&target, &reply).expect("queued");
    let elsewhere = Target::new(demo_ids::SPACE_GETTING_STARTED, "another");
    outbox
        .enqueue(
            &elsewhere,
            &Write::Comment {
                markdown: "Not here".into(),
                page: None,
            },
        )
        .expect("queued");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.press(KeyCode::Char('3'));
    app.wait_for("◷ reply: Queued yesterday").await;
    assert!(
        !app.backend.screen().contains("Not here"),
        "{}",
        app.backend.screen()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_written_with_the_server_out_of_reach_is_queued_and_shown_pending() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.press(KeyCode::Char('3'));
    app.sandbox.set_outage(Outage::Refuse);
    let posts_before = app.sandbox.requests("POST", "*/comments");
    app.press(KeyCode::Char('c'));
    app.wait_for("ctrl-s send").await;
    app.type_text("Written on the train");
    app.press_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    app.wait_for("comment queued").await;
    app.wait_for("◷ comment: Written on the train").await;

    let queued = Outbox::open(&path).expect("outbox").list().expect("listed");
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert_eq!(
        queued[0].target,
        Target::new(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW)
    );
    assert_eq!(
        queued[0].write,
        Write::Comment {
            markdown: "Written on the train".to_string(),
            page: None
        }
    );
    assert_eq!(app.sandbox.requests("POST", "*/comments"), posts_before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resolving_a_thread_with_the_server_out_of_reach_is_queued_and_shown_pending() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.press(KeyCode::Char('3'));
    app.wait_for("● open").await;
    app.sandbox.set_outage(Outage::Refuse);
    app.press(KeyCode::Char('x'));
    app.wait_for("queued: the server cannot be reached").await;
    let queued = Outbox::open(&path).expect("outbox").list().expect("listed");
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert!(
        matches!(queued[0].write, Write::Resolve { .. }),
        "{queued:?}"
    );
    let pending = format!("◷ {}", queued[0].write.describe());
    app.wait_for(&pending).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_with_the_server_out_of_reach_is_queued_and_shown_pending() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.sandbox.set_outage(Outage::Refuse);
    app.press(KeyCode::Char('A'));
    app.wait_for("ctrl-s").await;
    app.type_text("Fine from here");
    app.press_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    app.wait_for("review: approve queued").await;
    app.press(KeyCode::Char('3'));
    app.wait_for("◷ review: approve: Fine from here").await;
    let queued = Outbox::open(&path).expect("outbox").list().expect("listed");
    assert_eq!(
        queued
            .iter()
            .map(|queued| &queued.write)
            .collect::<Vec<_>>(),
        [&Write::Review {
            approve: true,
            markdown: Some("Fine from here".to_string())
        }]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_outbox_screen_lists_queued_writes_sends_the_selected_one_and_drops_another() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let outbox = Outbox::open(&path).expect("outbox");
    let target = Target::new(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    for text in ["Send me", "Drop me"] {
        let write = Write::Comment {
            markdown: text.to_string(),
            page: None,
        };
        outbox.enqueue(&target, &write).expect("queued");
    }
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    let posts_before = app.sandbox.requests("POST", "*/comments");
    app.press(KeyCode::Char('^'));
    app.wait_for("2 writes waiting").await;
    app.wait_for("◷ comment: Drop me").await;
    app.press(KeyCode::Char('s'));
    app.wait_for("Send 1 write to").await;
    assert_eq!(app.sandbox.requests("POST", "*/comments"), posts_before);
    app.press(KeyCode::Char('y'));
    app.wait_for("Sent 1 queued write.").await;
    app.wait_for("1 write waiting").await;
    app.press(KeyCode::Char('d'));
    app.wait_for("Drop this comment?").await;
    app.press(KeyCode::Char('n'));
    app.wait_for("1 write waiting").await;
    app.press(KeyCode::Char('d'));
    app.wait_for("Drop this comment?").await;
    app.press(KeyCode::Char('y'));
    app.wait_for("Nothing waits").await;
    assert_eq!(app.sandbox.requests("POST", "*/comments") - posts_before, 1);
    assert!(outbox.list().expect("listed").is_empty());
}

//! The real loop with a cache against the real sandbox out of reach: a comment written then is
//! put in the outbox on disk, the screen says it is queued and shows it pending (◷), and the
//! server gets nothing.

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_written_with_the_server_out_of_reach_is_queued_and_shown_pending() {
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("client");
    client.use_cache(Cache::open(&path, 10 << 20).expect("cache"));
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

//! In which order the review asks for what it shows: the changed page and the first thread's
//! replies in the same wave, that thread's replies alone so they show the moment they come,
//! the other threads on screen one call each, the rest in background batches.

use std::time::Duration;

use quire::api::limits::Priority;
use quire::api::{Client, CommentFilter};
use quire::app::{ApiCall, Cmd, Model, Msg, Size, update};
use quire::headless::Live;
use quire::sandbox::{Fault, FaultRule, Faults, demo_ids};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewScreen;
use quire::screens::change_requests::review::replies::BACKGROUND_BATCH;
use quire::vocabulary::change_requests::{ChangeRequestRef, ChangeRequestsCall, Thread};

use crate::common::review::screen;
use crate::common::wait::PATIENCE;

fn target() -> ChangeRequestRef {
    ChangeRequestRef {
        space: demo_ids::SPACE_GETTING_STARTED.to_string(),
        change_request: demo_ids::CR_REVIEW.to_string(),
    }
}

fn opened_review() -> Model {
    Model::new(
        Screen::Review(Box::new(ReviewScreen::new(target(), None))),
        crate::common::environment(),
        Size {
            width: 120,
            height: 40,
        },
    )
}

/// The threads with replies, in the order the review lists them (newest first), as the
/// server gives them.
async fn replied_threads(client: &Client) -> Vec<String> {
    let target = target();
    client
        .first_comments_page(
            &target.space,
            &target.change_request,
            &CommentFilter::default(),
        )
        .await
        .unwrap()
        .items
        .into_iter()
        .filter(|comment| comment.replies.unwrap_or(0) > 0)
        .map(|comment| comment.id)
        .collect()
}

fn first_replied_thread(model: &Model) -> Option<&Thread> {
    screen(model)
        .threads()
        .iter()
        .find(|thread| thread.comment.replies.unwrap_or(0) > 0)
}

fn thread_loaded(model: &Model, comment: &str) -> bool {
    screen(model)
        .threads()
        .iter()
        .any(|thread| thread.comment.id == comment && thread.replies_loaded)
}

/// The reply calls of a command, in the order it asks for them: (comments, priority).
fn reply_calls(cmd: &Cmd) -> Vec<(Vec<String>, Priority)> {
    cmd.api_calls()
        .into_iter()
        .filter_map(|(_, call)| match call {
            ApiCall::ChangeRequests(ChangeRequestsCall::LoadReplies {
                comments, priority, ..
            }) => Some((comments, priority)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_first_threads_replies_are_asked_for_alone_and_first_beside_the_changed_page() {
    let (_sandbox, client) = crate::common::admin_sandbox().await;
    let mut model = opened_review();
    let (request, call) = crate::common::review::init_asks_for_the_review(&mut model);
    let response =
        quire::runtime::call_api(&client, &quire::runtime::SendTurn::default(), call).await;
    let cmd = update(&mut model, Msg::Api { request, response });
    let asks_for_the_page = cmd.api_calls().iter().any(|(_, call)| {
        matches!(
            call,
            ApiCall::ChangeRequests(ChangeRequestsCall::LoadPageDiff { .. })
        )
    });
    assert!(asks_for_the_page, "{cmd:?}");
    let first = first_replied_thread(&model).expect("a thread with replies");
    let calls = reply_calls(&cmd);
    assert_eq!(
        calls.first(),
        Some(&(vec![first.comment.id.clone()], Priority::FirstScreen)),
        "the first thread alone, before any other, beside what draws the screen: {calls:?}"
    );
    let (on_screen, background): (Vec<_>, Vec<_>) = calls[1..]
        .iter()
        .partition(|(_, priority)| *priority == Priority::OnScreen);
    assert!(on_screen.len() > 1, "{calls:?}");
    assert!(
        on_screen.iter().all(|(comments, _)| comments.len() == 1),
        "one call per thread on screen: {calls:?}"
    );
    assert!(
        background.iter().all(|(comments, priority)| {
            *priority == Priority::Background && comments.len() <= BACKGROUND_BATCH
        }),
        "{calls:?}"
    );
}

#[tokio::test]
async fn the_first_threads_replies_show_while_another_threads_are_still_coming() {
    let (sandbox, client) = crate::common::admin_sandbox().await;
    let replied = replied_threads(&client).await;
    let [first, second, ..] = replied.as_slice() else {
        panic!("two threads with replies: {replied:?}")
    };
    // The second thread's replies are held for as long as the test can run.
    sandbox.set_faults(Faults {
        rules: vec![FaultRule::new(
            format!("*/comments/{second}/replies"),
            Fault::Latency(Duration::from_secs(3600)),
        )],
        ..Faults::default()
    });
    let mut model = opened_review();
    let mut live = Live::new(&client);
    let start = model.init();
    // Bounded: were the first thread's replies to wait for the held ones, this would wait an
    // hour.
    let shown = tokio::time::timeout(
        PATIENCE,
        live.run_until(&mut model, start, |model| {
            screen(model).bundle.value().is_some() && thread_loaded(model, first)
        }),
    )
    .await;
    assert_eq!(shown, Ok(true), "the first thread's replies show");
    assert_eq!(
        first_replied_thread(&model).map(|thread| &thread.comment.id),
        Some(first)
    );
    assert!(
        first_replied_thread(&model).is_some_and(|thread| !thread.replies.is_empty()),
        "with its replies"
    );
    assert!(!thread_loaded(&model, second), "the held thread is not in");
    let held = format!("*/comments/{second}/replies");
    assert!(sandbox.requests("GET", &held) > 0, "and was asked for");
}

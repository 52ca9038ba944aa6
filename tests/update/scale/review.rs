//! The 2,000-thread change request of the big demo, opened over a real sandbox: the first
//! thread's replies come with the review itself, the other threads on screen get theirs in the
//! wave after it, the rest follow in bounded batches, the client never has more than 16
//! requests in flight, and the screen says which replies are still coming.

use std::time::Duration;

use quire::api::change_requests::comments::FIRST_THREADS_LIMIT;
use quire::api::limits::{MAX_IN_FLIGHT_PER_HOST, Priority};
use quire::api::{Client, ClientConfig, Token};
use quire::app::view::chrome;
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, Size, update};
use quire::headless::Waves;
use quire::sandbox::{Fault, FaultRule, Faults, Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::replies::{BACKGROUND_BATCH, BACKGROUND_CALLS};
use quire::screens::change_requests::review::{ReviewScreen, ReviewTab};
use quire::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestsCall, ChangeRequestsResponse, Thread, ThreadReplies,
};
use ratatui::Terminal;

use crate::common::wait::PATIENCE;
use ratatui::backend::TestBackend;

async fn big_sandbox(latency: Duration) -> Sandbox {
    let options = SandboxOptions {
        latency,
        big: true,
        ..SandboxOptions::default()
    };
    Sandbox::start("127.0.0.1:0".parse().unwrap(), options)
        .await
        .expect("sandbox")
}

fn client_for(sandbox: &Sandbox) -> Client {
    Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap()
}

fn big_review() -> Model {
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_BIG.to_string(),
        change_request: demo_ids::CR_BIG.to_string(),
    };
    Model::new(
        Screen::Review(Box::new(ReviewScreen::new(target, None))),
        crate::common::environment(),
        Size {
            width: 80,
            height: 24,
        },
    )
}

fn draw_text(model: &Model) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

fn screen(model: &Model) -> &ReviewScreen {
    crate::common::review::screen(model)
}

/// The topmost thread with replies (threads come newest first), once the review is here.
fn first_replied_thread(model: &Model) -> Option<&Thread> {
    screen(model)
        .threads()
        .iter()
        .find(|thread| thread.comment.replies.unwrap_or(0) > 0)
}

fn first_thread_has_its_replies(model: &Model) -> bool {
    first_replied_thread(model).is_some_and(|thread| thread.replies_loaded)
}

fn every_reply_loaded(model: &Model) -> bool {
    let threads = screen(model).threads();
    !threads.is_empty() && threads.iter().all(|thread| thread.replies_loaded)
}

/// The big review on its comments tab, its review loaded, and the command that answer led to
/// (the first reply calls), not yet run.
async fn loaded_on_the_comments_tab(client: &Client) -> (Model, Cmd) {
    let mut model = big_review();
    crate::common::review::open_tab(&mut model, ReviewTab::Comments);
    let (request, call) = crate::common::review::init_asks_for_the_review(&mut model);
    let response =
        quire::runtime::call_api(client, &quire::runtime::SendTurn::default(), call).await;
    let cmd = update(&mut model, Msg::Api { request, response });
    (model, cmd)
}

/// The reply calls inside a command: (request, comment ids, priority).
fn reply_calls(cmd: &Cmd) -> Vec<(quire::app::RequestId, Vec<String>, Priority)> {
    cmd.api_calls()
        .into_iter()
        .filter_map(|(request, call)| match call {
            ApiCall::ChangeRequests(ChangeRequestsCall::LoadReplies {
                comments, priority, ..
            }) => Some((request, comments, priority)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_first_threads_replies_come_with_the_review_and_sixteen_requests_at_most_fly() {
    let sandbox = big_sandbox(Duration::from_millis(20)).await;
    let client = client_for(&sandbox);
    let mut model = big_review();
    let mut waves = Waves::new(model.init());
    let first = waves
        .until(&mut model, &client, first_thread_has_its_replies)
        .await
        .expect("the first thread's replies load");
    // Wave 1: the review, shown from its first page of threads while the second loads, and
    // the first thread's replies, which the review's own call asks for the moment that page
    // is read (not in a wave after it).
    assert_eq!(first, 1);
    assert_eq!(
        screen(&model).threads().len(),
        demo_ids::CR_BIG_THREAD_COUNT
    );
    let loaded = screen(&model)
        .threads()
        .iter()
        .filter(|thread| thread.replies_loaded && !thread.replies.is_empty())
        .count();
    assert!(
        loaded < 100,
        "only what is on screen and a batch or two came first: {loaded}"
    );
    // The rest follows, bounded.
    let all = waves.until(&mut model, &client, every_reply_loaded).await;
    assert!(all.is_some(), "every reply loads");
    let most = sandbox.max_requests_in_flight();
    assert!(most <= MAX_IN_FLIGHT_PER_HOST, "{most} requests in flight");
    let connections = sandbox.connections_accepted();
    assert!(
        connections <= MAX_IN_FLIGHT_PER_HOST,
        "{connections} connections opened"
    );
    // 500 threads have replies: one request each, and not one more.
    assert_eq!(sandbox.requests("GET", "*/replies"), 500);
}

/// What the review's call answers for the big review, in order: its opening, the first
/// thread's replies, the whole review.
async fn review_answers(client: &Client) -> (Vec<ChangeRequestsResponse>, ChangeRequestsResponse) {
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_BIG.to_string(),
        change_request: demo_ids::CR_BIG.to_string(),
    };
    let early = std::sync::Mutex::new(Vec::new());
    let whole = quire::runtime::calls::change_requests::load_review(client, &target, |answer| {
        early.lock().unwrap().push(answer);
    })
    .await;
    (
        early.into_inner().unwrap(),
        ChangeRequestsResponse::Review(whole),
    )
}

#[tokio::test]
async fn the_first_threads_replies_show_before_the_second_page_of_threads_is_in() {
    let sandbox = big_sandbox(Duration::ZERO).await;
    let client = client_for(&sandbox);
    let mut model = big_review();
    let (request, _) = crate::common::review::init_asks_for_the_review(&mut model);
    let (early, whole) = review_answers(&client).await;
    let [opening, replies] = early.as_slice() else {
        panic!("the opening, then the first thread's replies: {early:?}")
    };
    let answer = |response: &ChangeRequestsResponse| Msg::Api {
        request,
        response: ApiResponse::ChangeRequests(response.clone()),
    };
    let cmd = update(&mut model, answer(opening));
    let first = first_replied_thread(&model)
        .expect("the opening is on screen")
        .comment
        .id
        .clone();
    let asked: Vec<String> = reply_calls(&cmd)
        .into_iter()
        .flat_map(|(_, comments, _)| comments)
        .collect();
    assert!(
        !asked.contains(&first),
        "asked for by the review: {asked:?}"
    );
    assert!(
        !asked.is_empty(),
        "the other threads on screen are asked for"
    );
    update(&mut model, answer(replies));
    assert!(first_thread_has_its_replies(&model));
    assert!(
        first_replied_thread(&model).is_some_and(|thread| !thread.replies.is_empty()),
        "with its replies"
    );
    assert!(
        screen(&model).bundle.is_loading(),
        "the rest is still coming"
    );
    assert!(screen(&model).threads().len() < demo_ids::CR_BIG_THREAD_COUNT);
    // The whole review keeps them, and they were asked for once.
    update(&mut model, answer(&whole));
    assert_eq!(
        screen(&model).threads().len(),
        demo_ids::CR_BIG_THREAD_COUNT
    );
    assert!(first_thread_has_its_replies(&model));
    assert_eq!(
        sandbox.requests("GET", &format!("*/comments/{first}/replies")),
        1
    );
}

/// The review opens on a hundred threads, more than a screen shows, not on a thousand: the
/// first screen and the first thread's replies wait on a tenth of the rendering, sending and
/// decoding. The rest comes in the largest pages.
#[tokio::test]
async fn the_review_opens_on_its_first_hundred_threads_and_reads_the_rest_in_large_pages() {
    let sandbox = big_sandbox(Duration::ZERO).await;
    let client = client_for(&sandbox);
    let mut model = big_review();
    let (request, _) = crate::common::review::init_asks_for_the_review(&mut model);
    let (early, whole) = review_answers(&client).await;
    let answer = |response: &ChangeRequestsResponse| Msg::Api {
        request,
        response: ApiResponse::ChangeRequests(response.clone()),
    };
    for response in &early {
        update(&mut model, answer(response));
    }
    assert_eq!(screen(&model).threads().len(), FIRST_THREADS_LIMIT as usize);
    assert!(first_thread_has_its_replies(&model));
    update(&mut model, answer(&whole));
    assert_eq!(
        screen(&model).threads().len(),
        demo_ids::CR_BIG_THREAD_COUNT
    );
    // A hundred, then a thousand, then the last nine hundred.
    assert_eq!(sandbox.requests("GET", "*/comments"), 3);
}

/// The first thread's replies are asked for the moment the first page of threads is read, not
/// once the rest of the review's first round is in: with the changed pages (the slowest part,
/// worked out on the server) held for as long as the test can run, they are asked for all the
/// same, before the review's opening can be handed over.
#[tokio::test]
async fn the_first_threads_replies_are_asked_for_before_the_changed_pages_are_in() {
    let sandbox = big_sandbox(Duration::ZERO).await;
    sandbox.set_faults(Faults {
        rules: vec![FaultRule::new(
            "*/changes",
            Fault::Latency(Duration::from_secs(3600)),
        )],
        ..Faults::default()
    });
    let client = client_for(&sandbox);
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_BIG.to_string(),
        change_request: demo_ids::CR_BIG.to_string(),
    };
    let opened = std::sync::atomic::AtomicBool::new(false);
    let loading = quire::runtime::calls::change_requests::load_review(&client, &target, |answer| {
        if let ChangeRequestsResponse::ReviewOpening(_) = answer {
            opened.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let mut activity = sandbox.activity();
    let replies_asked = async {
        while sandbox.requests("GET", "*/replies") == 0 {
            if activity.changed().await.is_err() {
                return false;
            }
        }
        true
    };
    // Bounded: were the replies to wait for the changed pages, this would wait an hour.
    let asked = tokio::time::timeout(PATIENCE, async {
        tokio::select! {
            asked = replies_asked => asked,
            _ = loading => false,
        }
    })
    .await;
    assert_eq!(asked, Ok(true), "the first thread's replies are asked for");
    assert_eq!(
        sandbox.requests("GET", "*/replies"),
        1,
        "that thread's only"
    );
    assert!(
        !opened.load(std::sync::atomic::Ordering::SeqCst),
        "the changed pages are still held"
    );
}

/// The second page of a thousand threads would otherwise arrive with the first thread's
/// replies and hold them up while it is decoded: it is asked for once they are in. With the
/// server 50 ms away, a page asked for at the opening would be there before the replies are.
#[tokio::test]
async fn the_second_page_of_threads_is_asked_for_once_the_first_threads_replies_are_in() {
    let sandbox = big_sandbox(Duration::from_millis(50)).await;
    let client = client_for(&sandbox);
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_BIG.to_string(),
        change_request: demo_ids::CR_BIG.to_string(),
    };
    let pages_asked_when_the_replies_came = std::sync::Mutex::new(None);
    let whole = quire::runtime::calls::change_requests::load_review(&client, &target, |answer| {
        if let ChangeRequestsResponse::Replies(_) = answer {
            *pages_asked_when_the_replies_came.lock().unwrap() =
                Some(sandbox.requests("GET", "*/comments"));
        }
    })
    .await
    .expect("the whole review");
    assert_eq!(
        *pages_asked_when_the_replies_came.lock().unwrap(),
        Some(1),
        "pages of threads asked for when the first thread's replies came"
    );
    assert_eq!(whole.threads.len(), demo_ids::CR_BIG_THREAD_COUNT);
}

#[tokio::test]
async fn replies_are_asked_for_on_screen_first_then_in_small_background_batches() {
    let sandbox = big_sandbox(Duration::ZERO).await;
    let client = client_for(&sandbox);
    let (mut model, cmd) = loaded_on_the_comments_tab(&client).await;
    let calls = reply_calls(&cmd);
    let (on_screen, background): (Vec<_>, Vec<_>) = calls
        .iter()
        .cloned()
        .partition(|(_, _, priority)| *priority != Priority::Background);
    assert_eq!(background.len(), BACKGROUND_CALLS, "{calls:?}");
    // The first thread's replies came with the review: they are not asked for again.
    let first = first_replied_thread(&model)
        .expect("a thread with replies")
        .clone();
    assert!(first.replies_loaded && !first.replies.is_empty());
    let asked: Vec<&String> = calls.iter().flat_map(|(_, comments, _)| comments).collect();
    assert!(!asked.contains(&&first.comment.id), "{calls:?}");
    // What is asked for at once: the other threads in view (and the triage loop's next and
    // previous stops), one call each, the first of them beside what draws the screen.
    let next = screen(&model)
        .threads()
        .iter()
        .find(|thread| !thread.replies_loaded)
        .expect("a thread still without its replies")
        .clone();
    assert_eq!(on_screen[0].1, std::slice::from_ref(&next.comment.id));
    assert_eq!(on_screen[0].2, Priority::FirstScreen);
    assert!(on_screen.len() <= 24, "a screenful, not the review");
    assert!(
        on_screen[1..]
            .iter()
            .all(|(_, comments, priority)| comments.len() == 1 && *priority == Priority::OnScreen),
        "{on_screen:?}"
    );
    let asked_on_screen: Vec<&String> = on_screen.iter().flat_map(|(_, c, _)| c).collect();
    for (_, batch, _) in &background {
        assert!(batch.len() <= BACKGROUND_BATCH);
        assert!(batch.iter().all(|id| !asked_on_screen.contains(&id)));
    }
    assert_eq!(screen(&model).tab, ReviewTab::Comments);
    // A key while everything is asked for sends nothing more.
    let cmd = update(&mut model, crate::common::char_key('j'));
    assert!(reply_calls(&cmd).is_empty(), "{cmd:?}");
    // Each on-screen answer fills its thread at once and frees nothing in the background
    // budget.
    for (request, comments, priority) in &on_screen {
        let (_, call) = cmd_for(request, comments, *priority);
        let response =
            quire::runtime::call_api(&client, &quire::runtime::SendTurn::default(), call).await;
        let cmd = update(
            &mut model,
            Msg::Api {
                request: *request,
                response,
            },
        );
        assert!(reply_calls(&cmd).is_empty(), "background still busy");
        let replied = screen(&model)
            .threads()
            .iter()
            .find(|thread| thread.comment.id == first.comment.id)
            .is_some_and(|thread| thread.replies_loaded);
        assert!(
            replied,
            "the first thread has its replies from the first answer on"
        );
    }
    // The threads in view have their replies: none of them says it is loading.
    let text = draw_text(&model);
    assert!(!text.contains("replies…"), "{text}");
}

fn cmd_for(
    request: &quire::app::RequestId,
    comments: &[String],
    priority: Priority,
) -> (quire::app::RequestId, ApiCall) {
    (
        *request,
        ApiCall::ChangeRequests(ChangeRequestsCall::LoadReplies {
            target: ChangeRequestRef {
                space: demo_ids::SPACE_BIG.to_string(),
                change_request: demo_ids::CR_BIG.to_string(),
            },
            comments: comments.to_vec(),
            priority,
        }),
    )
}

#[tokio::test]
async fn replies_arriving_above_the_selection_do_not_move_it() {
    let sandbox = big_sandbox(Duration::ZERO).await;
    let client = client_for(&sandbox);
    let (mut model, cmd) = loaded_on_the_comments_tab(&client).await;
    // Ten rows down before the replies of a thread above come.
    for _ in 0..10 {
        update(&mut model, crate::common::char_key('j'));
    }
    let before = screen(&model).selected_row().expect("a row");
    let selected_comment = screen(&model).threads()[before.thread].comment.id.clone();
    let first = screen(&model).threads()[..before.thread]
        .iter()
        .find(|thread| !thread.replies_loaded)
        .expect("a thread above still without its replies")
        .comment
        .id
        .clone();
    let (on_screen_request, _, _) = reply_calls(&cmd)
        .into_iter()
        .find(|(_, comments, _)| comments.contains(&first))
        .expect("its replies were asked for");
    let replies = client
        .list_replies(demo_ids::SPACE_BIG, demo_ids::CR_BIG, &first, None)
        .await
        .unwrap();
    let answer = ThreadReplies {
        comment: first,
        replies: Ok(replies.items),
    };
    update(
        &mut model,
        Msg::Api {
            request: on_screen_request,
            response: ApiResponse::ChangeRequests(ChangeRequestsResponse::Replies(vec![answer])),
        },
    );
    let after = screen(&model).selected_row().expect("a row");
    assert_eq!(
        screen(&model).threads()[after.thread].comment.id,
        selected_comment
    );
    assert_eq!(after.reply, before.reply);
}

#[tokio::test]
async fn replies_that_fail_say_so_and_are_not_asked_for_again_until_a_reload() {
    let sandbox = big_sandbox(Duration::ZERO).await;
    let client = client_for(&sandbox);
    let (mut model, cmd) = loaded_on_the_comments_tab(&client).await;
    let (on_screen_request, on_screen, _) = reply_calls(&cmd)[0].clone();
    let failed: Vec<ThreadReplies> = on_screen
        .iter()
        .map(|comment| ThreadReplies {
            comment: comment.clone(),
            replies: Err(crate::common::review::forbidden()),
        })
        .collect();
    let cmd = update(
        &mut model,
        Msg::Api {
            request: on_screen_request,
            response: ApiResponse::ChangeRequests(ChangeRequestsResponse::Replies(failed)),
        },
    );
    assert!(reply_calls(&cmd).is_empty(), "not asked again at once");
    let notice = screen(&model).notice.clone().expect("a notice");
    assert!(
        notice.error && notice.text.contains("did not load"),
        "{notice:?}"
    );
    // Each such thread says so under it ("↳ 3 replies did not load (r reloads)").
    for comment in &on_screen {
        assert!(
            screen(&model).reply_loading.has_failed(comment),
            "{comment}"
        );
    }
}

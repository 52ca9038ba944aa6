//! The real loop with a cache against the real sandbox out of reach: a comment written then is
//! put in the outbox on disk, the screen says it is queued and shows it pending (◷), and the
//! server gets nothing. What an earlier run queued shows pending on its change request.

use quire::api::cache::Cache;
use quire::api::outbox::{Outbox, Target, Write};
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Outage, Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewScreen;
use quire::screens::organizations::Organizations;
use quire::vocabulary::change_requests::ChangeRequestRef;
use quire::vocabulary::outbox::SendWhenBack;
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

/// The threads of the demo's change request under review, as the server lists them.
async fn review_threads(client: &Client) -> Vec<quire::api::models::Comment> {
    let (space, change_request) = (demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    client
        .list_comments(space, change_request, &Default::default(), None)
        .await
        .expect("threads")
        .items
}

/// `^`, `S` and `y`: the Outbox lists `count` writes, asks, and says it sent them all.
async fn send_all_from_the_outbox(app: &Harness, count: usize) {
    let writes = if count == 1 {
        "1 write".to_string()
    } else {
        format!("{count} writes")
    };
    app.press(KeyCode::Char('^'));
    app.wait_for(&format!("{writes} waiting")).await;
    app.press(KeyCode::Char('S'));
    app.wait_for(&format!("Send {writes}")).await;
    app.press(KeyCode::Char('y'));
    app.wait_for(&format!("Sent {count} queued write")).await;
}

/// On the review's comments tab with the server refusing connections, writes a comment with
/// `text` and sends it: it is queued. How many comments the server had been sent before.
async fn comment_with_the_server_refusing(app: &Harness, text: &str) -> usize {
    app.wait_for("Changes (4)").await;
    app.press(KeyCode::Char('3'));
    app.sandbox.set_outage(Outage::Refuse).await;
    let posts_before = app.sandbox.requests("POST", "*/comments");
    app.press(KeyCode::Char('c'));
    app.wait_for("ctrl-s send").await;
    app.type_text(text);
    app.press_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    app.wait_for("comment queued").await;
    posts_before
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
                node: None,
                table_cell: None,
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
    let posts_before = comment_with_the_server_refusing(&app, "Written on the train").await;
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
            page: None,
            node: None,
            table_cell: None,
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
    app.sandbox.set_outage(Outage::Refuse).await;
    app.press(KeyCode::Char('x'));
    app.wait_for("queued: the server cannot be reached; ^ to send, edit or drop it.")
        .await;
    let queued = Outbox::open(&path).expect("outbox").list().expect("listed");
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert!(
        matches!(queued[0].write, Write::Resolve { .. }),
        "{queued:?}"
    );
    // Pending on the thread's own first line, in place of its state.
    app.wait_for("▌◷ resolving Diego Álvarez").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_outbox_names_the_thread_and_space_a_queued_write_belongs_to_while_out_of_reach() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.press(KeyCode::Char('3'));
    app.wait_for("● open").await;
    app.sandbox.set_outage(Outage::Refuse).await;
    app.press(KeyCode::Char('x'));
    app.wait_for("queued: the server cannot be reached").await;
    let queued = Outbox::open(&path).expect("outbox").list().expect("listed");
    assert_eq!(
        queued[0].about.space_title.as_deref(),
        Some("Getting Started")
    );
    assert_eq!(
        queued[0].about.thread_author.as_deref(),
        Some("Diego Álvarez")
    );
    app.press(KeyCode::Char('^'));
    app.wait_for("1 write waiting").await;
    app.wait_for("◷ resolve Diego Álvarez's thread '").await;
    app.wait_for(" in Getting Started").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_queued_on_a_thread_show_on_it_and_the_outbox_opened_there_selects_them() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let (space, change_request) = (demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    let threads = review_threads(&client).await;
    // The comments tab selects the first thread when it opens.
    let first = &threads[0];
    let outbox = Outbox::open(&path).expect("outbox");
    let target = Target::new(space, change_request);
    let writes = [
        Write::Comment {
            markdown: "A new thread from the train".to_string(),
            page: None,
            node: None,
            table_cell: None,
        },
        Write::Reply {
            comment: first.id.clone(),
            markdown: "Answered on the train".to_string(),
        },
        Write::Reaction {
            comment: first.id.clone(),
            reply: None,
            emoji: "🎉".to_string(),
            add: true,
        },
    ];
    for write in &writes {
        outbox.enqueue(&target, write).expect("queued");
    }
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.press(KeyCode::Char('3'));
    app.wait_for("↳ ◷ reply: Answered on the train").await;
    app.wait_for(" ◷ 🎉 ").await;
    // A new thread has no place yet: it is listed above the threads.
    let screen = app.backend.screen();
    let top = screen
        .lines()
        .position(|line| line.contains("◷ comment: A new thread from the train"))
        .expect("the new thread listed");
    let thread = screen
        .lines()
        .position(|line| line.contains("● open") || line.contains("✓ resolved"))
        .expect("a thread shown");
    assert!(top < thread, "{screen}");
    assert!(!screen.contains("◷ reaction"), "{screen}");

    app.press(KeyCode::Char('^'));
    app.wait_for("3 writes waiting").await;
    app.wait_for("▶ ◷ reply: Answered on the train").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_on_a_diff_line_out_of_reach_waits_with_its_block_and_is_stored_on_it() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let threads = review_threads(&client).await;
    let on_the_heading = threads
        .iter()
        .find(|thread| {
            let text = thread.body.markdown().unwrap_or("");
            text.contains("Is `/v1/tokens/self` public")
        })
        .expect("the demo's thread on a heading");
    let node = on_the_heading.target.node.clone().expect("a block").id;
    let api = client.clone();
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    // To the heading's line on the diff: its thread on the comments tab, then `m`.
    app.press(KeyCode::Char('3'));
    app.wait_for("● open").await;
    app.type_text("/tokens/self");
    app.press(KeyCode::Enter);
    app.wait_for("(esc clears)").await;
    app.press(KeyCode::Char('m'));
    // The diff is read and the heading's line selected before the server goes away.
    app.settle().await;
    app.sandbox.set_outage(Outage::Refuse).await;
    app.press(KeyCode::Char('c'));
    app.wait_for("Comment on the heading 'Check your token'")
        .await;
    app.type_text("Shorter heading?");
    app.press_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    app.wait_for("comment queued").await;
    // Marked on the heading's line of the diff, beside its thread.
    app.wait_for("◷1").await;
    let queued = Outbox::open(&path).expect("outbox").list().expect("listed");
    assert_eq!(
        queued
            .iter()
            .map(|queued| &queued.write)
            .collect::<Vec<_>>(),
        [&Write::Comment {
            markdown: "Shorter heading?".to_string(),
            page: Some(demo_ids::PAGE_QUICKSTART.to_string()),
            node: Some(node.clone()),
            table_cell: None,
        }]
    );

    app.sandbox.set_outage(Outage::None).await;
    app.wait_until_back("1 write waits in the outbox").await;
    send_all_from_the_outbox(&app, 1).await;
    let stored = review_threads(&api).await;
    let mine = stored
        .iter()
        .find(|thread| thread.body.markdown() == Some("Shorter heading?"))
        .expect("stored");
    assert_eq!(
        mine.target.page.as_ref().map(|page| page.id.as_str()),
        Some(demo_ids::PAGE_QUICKSTART)
    );
    assert_eq!(
        mine.target.node.as_ref().map(|block| block.id.as_str()),
        Some(node.as_str())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_with_the_server_out_of_reach_is_queued_and_shown_pending() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.sandbox.set_outage(Outage::Refuse).await;
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
            node: None,
            table_cell: None,
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

/// Queues `texts` as comments on the review's change request, oldest first.
fn queue_comments(outbox: &Outbox, texts: &[&str]) {
    let target = Target::new(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    for text in texts {
        let write = Write::Comment {
            markdown: text.to_string(),
            page: None,
            node: None,
            table_cell: None,
        };
        outbox.enqueue(&target, &write).expect("queued");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_outbox_says_what_changed_meanwhile_on_the_change_request_and_the_thread() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let (space, change_request) = (demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    let threads = review_threads(&client).await;
    let mut open = threads.iter().filter(|thread| !thread.is_resolved());
    let thread = open.next().expect("an open thread");
    let deleted = open.next().expect("another open thread");
    let outbox = Outbox::open(&path).expect("outbox");
    let target = Target::new(space, change_request);
    let reply = Write::Reply {
        comment: thread.id.clone(),
        markdown: "Answered on the train".to_string(),
    };
    outbox.enqueue(&target, &reply).expect("queued");
    let reaction = Write::Reaction {
        comment: deleted.id.clone(),
        reply: None,
        emoji: "👍".to_string(),
        add: true,
    };
    outbox.enqueue(&target, &reaction).expect("queued");
    // Meanwhile, someone deletes a thread, resolves the other and merges the change request.
    client
        .delete_comment(space, change_request, &deleted.id)
        .await
        .expect("deleted");
    let resolve = quire::api::CommentUpdate {
        resolved: Some(true),
        ..Default::default()
    };
    client
        .update_comment(space, change_request, &thread.id, &resolve)
        .await
        .expect("resolved");
    client
        .merge_change_request(space, change_request)
        .await
        .expect("merged");

    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.press(KeyCode::Char('^'));
    app.wait_for("2 writes waiting").await;
    app.wait_for(&format!("#{} ", demo_ids::CR_REVIEW_NUMBER))
        .await;
    app.wait_for("— merged meanwhile").await;
    app.wait_for("the thread was resolved meanwhile").await;
    app.wait_for("the comment was deleted meanwhile").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_edit_of_a_reply_deleted_meanwhile_says_so() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let (space, change_request) = (demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    let threads = review_threads(&client).await;
    let thread = threads
        .iter()
        .find(|thread| !thread.is_resolved())
        .expect("an open thread");
    let mut replies = Vec::new();
    for text in ["Kept", "Taken back"] {
        let reply = client
            .post_reply(space, change_request, &thread.id, text)
            .await
            .expect("replied");
        replies.push(reply.id);
    }
    let outbox = Outbox::open(&path).expect("outbox");
    let target = Target::new(space, change_request);
    for (reply, text) in replies.iter().zip(["Kept, edited", "Taken back, edited"]) {
        let edit = Write::Edit {
            comment: thread.id.clone(),
            reply: Some(reply.clone()),
            markdown: text.to_string(),
        };
        outbox.enqueue(&target, &edit).expect("queued");
    }
    client
        .delete_reply(space, change_request, &thread.id, &replies[1])
        .await
        .expect("deleted");

    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    app.press(KeyCode::Char('^'));
    app.wait_for("2 writes waiting").await;
    app.wait_for("the reply was deleted meanwhile").await;
    let screen = app.backend.screen();
    assert_eq!(
        screen.matches("the reply was deleted meanwhile").count(),
        1,
        "only the edit of the deleted reply: {screen}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn marked_writes_are_sent_together_after_a_yes_and_the_rest_wait() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let outbox = Outbox::open(&path).expect("outbox");
    queue_comments(&outbox, &["First", "Second", "Third"]);
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    let posts_before = app.sandbox.requests("POST", "*/comments");
    app.press(KeyCode::Char('^'));
    app.wait_for("3 writes waiting").await;
    app.press(KeyCode::Char(' '));
    app.press(KeyCode::Char(' '));
    app.wait_for("2 marked").await;
    app.press(KeyCode::Char('s'));
    app.wait_for("Send 2 writes to").await;
    app.press(KeyCode::Char('y'));
    app.wait_for("Sent 2 queued writes.").await;
    app.wait_for("1 write waiting").await;
    assert_eq!(app.sandbox.requests("POST", "*/comments") - posts_before, 2);
    let left: Vec<Write> = outbox
        .list()
        .expect("listed")
        .into_iter()
        .map(|queued| queued.write)
        .collect();
    assert_eq!(
        left,
        [Write::Comment {
            markdown: "Third".to_string(),
            page: None,
            node: None,
            table_cell: None,
        }]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_comment_is_edited_in_the_outbox_and_waits_with_its_new_text() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let outbox = Outbox::open(&path).expect("outbox");
    queue_comments(&outbox, &["Frist draft"]);
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    app.wait_for("Changes (4)").await;
    let posts_before = app.sandbox.requests("POST", "*/comments");
    app.press(KeyCode::Char('^'));
    app.wait_for("◷ comment: Frist draft").await;
    // Left unchanged, esc closes at once.
    app.press(KeyCode::Char('e'));
    app.wait_for("Edit the queued comment").await;
    app.press(KeyCode::Esc);
    app.wait_for("Not changed: the write waits as it was.")
        .await;
    app.press(KeyCode::Char('e'));
    app.wait_for("Edit the queued comment").await;
    app.press_with(KeyCode::Char('u'), KeyModifiers::CONTROL);
    for _ in 0.."Frist draft".len() {
        app.press(KeyCode::Backspace);
    }
    app.type_text("First draft, spelled right");
    app.press_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    app.wait_for("Edited; still queued.").await;
    app.wait_for("◷ comment: First draft, spelled right").await;
    let queued = outbox.list().expect("listed");
    assert_eq!(
        queued[0].write,
        Write::Comment {
            markdown: "First draft, spelled right".to_string(),
            page: None,
            node: None,
            table_cell: None,
        }
    );
    assert_eq!(app.sandbox.requests("POST", "*/comments"), posts_before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn back_online_the_footer_says_what_waits_and_nothing_is_sent_without_a_look() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_with(sandbox, client, review_screen);
    let posts_before = comment_with_the_server_refusing(&app, "Written in the tunnel").await;
    app.wait_for("◷ 1 queued").await;
    app.sandbox.set_outage(Outage::None).await;
    app.wait_until_back("1 write waits in the outbox: ^ to look and send.")
        .await;
    assert_eq!(app.sandbox.requests("POST", "*/comments"), posts_before);
    assert_eq!(Outbox::open(&path).expect("outbox").count().unwrap(), 1);
    // Sent after a look: back on the review, nothing says it is queued any more.
    send_all_from_the_outbox(&app, 1).await;
    app.press(KeyCode::Esc);
    app.wait_for("Written in the tunnel").await;
    app.wait_gone("◷ comment: Written in the tunnel").await;
    app.wait_gone("queued: the server cannot be reached").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_outbox_send_auto_what_waits_goes_when_the_server_is_back() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let (sandbox, client) = sandbox_and_client(&path).await;
    let app = Harness::start_configured(sandbox, client, review_screen, |model| {
        model.outbox.send_when_back = SendWhenBack::Auto;
    });
    let posts_before = comment_with_the_server_refusing(&app, "Sent by itself").await;
    app.wait_for("◷ 1 queued").await;
    app.sandbox.set_outage(Outage::None).await;
    app.wait_until_back("Sent 1 queued write.").await;
    assert_eq!(app.sandbox.requests("POST", "*/comments") - posts_before, 1);
    assert_eq!(Outbox::open(&path).expect("outbox").count().unwrap(), 0);
    // The review is read again: the comment is no longer pending, nor counted in the header.
    app.wait_gone("◷ comment: Sent by itself").await;
    app.wait_gone("◷ 1 queued").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_outbox_send_auto_writes_left_by_an_earlier_run_go_once_the_server_answers() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("cache.sqlite");
    let outbox = Outbox::open(&path).expect("outbox");
    queue_comments(&outbox, &["Left from yesterday"]);
    let (sandbox, client) = sandbox_and_client(&path).await;
    let posts_before = sandbox.requests("POST", "*/comments");
    let app = Harness::start_configured(sandbox, client, review_screen, |model| {
        model.outbox.send_when_back = SendWhenBack::Auto;
    });
    app.wait_for("Sent 1 queued write.").await;
    assert_eq!(app.sandbox.requests("POST", "*/comments") - posts_before, 1);
    assert!(outbox.list().expect("listed").is_empty());
}

/// Another quire on this account (a second terminal, here `quire outbox send` as a process of
/// its own) sends what this one shows waiting: the header's count and the open Outbox follow
/// without a key, and the write is on the server once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_outbox_and_the_header_follow_what_another_quire_sent() {
    let home = tempfile::tempdir().expect("a home");
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let path = quire::cli::cache::cache_path(
        &home.path().join("data").join("quire"),
        &sandbox.base_url(),
        tokens::ADMIN,
    );
    let text = "Sent from the other window";
    Outbox::open(&path)
        .expect("outbox")
        .enqueue(
            &Target::new(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW),
            &Write::Comment {
                markdown: text.into(),
                page: None,
                node: None,
                table_cell: None,
            },
        )
        .expect("queued");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("client");
    client.use_cache(Cache::open(&path, 10 << 20).expect("cache"));
    let base_url = sandbox.base_url();
    let app = Harness::start_with(sandbox, client, || {
        Screen::Organizations(Organizations::default())
    });
    app.wait_for("◷ 1 queued").await;
    app.press(KeyCode::Char('^'));
    app.wait_for(&format!("comment: {text}")).await;

    let other = tokio::process::Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["--api-url", &base_url, "--token", tokens::ADMIN])
        .args(["outbox", "send", "--yes"])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .output()
        .await
        .expect("the other quire runs");
    assert!(other.status.success(), "{other:?}");
    app.wait_for("Nothing waits").await;
    app.wait_gone("◷ 1 queued").await;
    let stored = review_threads_of(&app.sandbox.base_url())
        .await
        .iter()
        .filter(|comment| comment.body.markdown.as_deref() == Some(text))
        .count();
    assert_eq!(stored, 1);
}

async fn review_threads_of(base_url: &str) -> Vec<quire::api::models::Comment> {
    let client =
        Client::new(ClientConfig::new(base_url, Token::new(tokens::ADMIN))).expect("a client");
    review_threads(&client).await
}

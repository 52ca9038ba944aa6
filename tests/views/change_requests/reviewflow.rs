//! Review flow: the action log (empty, with writes, asking to undo, refusing to) and
//! the header's "review requested" count, drawn at 80x24 and 40x12.

use crate::common::char_key;
use crate::common::review::review;
use quire::api::CommentUpdate;
use quire::app::view::chrome;
use quire::app::{ApiCall, Model, Msg, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::Screen;
use quire::vocabulary::action_log::{PendingEntry, Undo};
use quire::vocabulary::change_requests::{ChangeRequestRef, ChangeRequestsCall};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn render(model: &mut Model, width: u16, height: u16) -> String {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

fn snapshot_both(name: &str, model: &mut Model) {
    insta::assert_snapshot!(format!("{name}_80x24"), render(model, 80, 24));
    insta::assert_snapshot!(format!("{name}_40x12"), render(model, 40, 12));
}

/// Two writes as the review logs them: a reaction (with its inverse) and a merge (without).
fn log_two_writes(model: &mut Model) {
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_GETTING_STARTED.to_string(),
        change_request: demo_ids::CR_REVIEW.to_string(),
    };
    model.action_log.record(PendingEntry::new(
        "Reacted 👍 to Diego Álvarez's comment",
        "change request #1 · Clarify token scopes in Quickstart",
        Undo::inverse(
            ApiCall::ChangeRequests(ChangeRequestsCall::UpdateComment {
                target,
                comment: "c1".into(),
                reply: None,
                update: CommentUpdate::react("👍", false),
            }),
            "Removes your 👍 reaction",
        ),
    ));
    model.action_log.record(PendingEntry::new(
        "Merged into main",
        "change request #1 · Clarify token scopes in Quickstart",
        Undo::impossible("a merge cannot be undone"),
    ));
}

#[tokio::test]
async fn the_action_log_empty_listed_asking_and_refusing() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    update(model, char_key('!'));
    snapshot_both("action_log_empty", model);
    update(
        model,
        Msg::Key(ratatui::crossterm::event::KeyEvent::from(
            ratatui::crossterm::event::KeyCode::Esc,
        )),
    );
    log_two_writes(model);
    update(model, char_key('!'));
    snapshot_both("action_log_listed", model);
    // The newest is the merge: `u` says why it cannot be undone.
    update(model, char_key('u'));
    snapshot_both("action_log_refused", model);
    update(model, char_key('j'));
    update(model, char_key('u'));
    snapshot_both("action_log_asking", model);
}

#[tokio::test]
async fn the_action_log_draws_at_every_size_without_panic() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    log_two_writes(model);
    update(model, char_key('!'));
    update(model, char_key('u'));
    for width in [0, 1, 2, 5, 20, 40, 80, 200] {
        for height in [0, 1, 2, 3, 5, 12, 24] {
            update(model, Msg::Resize { width, height });
            let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
            terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
        }
    }
}

#[tokio::test]
async fn the_header_counts_review_requested() {
    let (_sandbox, effects) =
        crate::common::sandbox_effects(quire::sandbox::SandboxOptions::default(), tokens::REVIEWER)
            .await;
    let mut model = Model::new(
        Screen::Organizations(Default::default()),
        crate::common::environment(),
        quire::app::Size::default(),
    );
    // Watching on (as by default outside tests): the count is kept.
    model.watch.interval = Some(std::time::Duration::from_secs(120));
    let resize = Msg::Resize {
        width: 80,
        height: 24,
    };
    headless::settle(&mut model, &effects, resize).await;
    headless::start(&mut model, &effects).await;
    headless::settle_holding_timers(
        &mut model,
        &effects,
        crate::common::key(ratatui::crossterm::event::KeyCode::Enter),
    )
    .await;
    snapshot_both("header_review_requested", &mut model);
}

/// The request of the first outbox call in `cmd`.
fn outbox_request(cmd: &quire::app::Cmd) -> Option<quire::app::RequestId> {
    match cmd {
        quire::app::Cmd::Api {
            request,
            call: ApiCall::Outbox(_),
        } => Some(*request),
        quire::app::Cmd::Batch(cmds) => cmds.iter().find_map(outbox_request),
        _ => None,
    }
}

fn queued(
    id: i64,
    change_request: &str,
    write: quire::api::outbox::Write,
) -> quire::api::outbox::Queued {
    quire::api::outbox::Queued {
        id,
        target: quire::api::outbox::Target::new(demo_ids::SPACE_GETTING_STARTED, change_request),
        write,
        queued_at: std::time::SystemTime::UNIX_EPOCH,
        attempted: id == 2,
        before: None,
        held: false,
        about: Default::default(),
    }
}

#[tokio::test]
async fn the_outbox_lists_writes_per_change_request() {
    use quire::api::outbox::Write;
    use quire::app::ApiResponse;
    use quire::vocabulary::outbox::OutboxResponse;
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    let cmd = update(model, char_key('^'));
    let request = outbox_request(&cmd).expect("the outbox is read");
    let writes = vec![
        queued(
            1,
            demo_ids::CR_REVIEW,
            Write::Comment {
                markdown: "Looks good, one question on the intro".to_string(),
                page: None,
                node: None,
                table_cell: None,
            },
        ),
        queued(
            2,
            demo_ids::CR_REVIEW,
            Write::Review {
                approve: true,
                markdown: None,
            },
        ),
        queued(
            3,
            "another",
            Write::Reply {
                comment: "thread".to_string(),
                markdown: "Agreed\u{1b}[31m".to_string(),
            },
        ),
    ];
    // The third was queued with its place known; the server no longer answers for it.
    let mut writes = writes;
    writes[2].about = quire::api::outbox::About {
        space_title: Some("RFCs".to_string()),
        change_request_title: Some("#1 Adopt a style guide".to_string()),
        thread_author: Some("Diego Álvarez".to_string()),
        thread_excerpt: Some("Screenshot in the install steps is…".to_string()),
    };
    let mut listing = quire::vocabulary::outbox::Listing {
        writes,
        ..Default::default()
    };
    listing.change_requests.insert(
        quire::api::outbox::Target::new(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW),
        quire::vocabulary::outbox::ChangeRequestNews {
            title: Some("#1 Document the token scopes".to_string()),
            space_title: Some("Getting Started".to_string()),
            meanwhile: Some("merged meanwhile".to_string()),
        },
    );
    listing
        .notes
        .insert(3, "the thread was resolved meanwhile".to_string());
    let response = ApiResponse::Outbox(OutboxResponse::Listed(Ok(listing)));
    update(model, Msg::Api { request, response });
    update(model, Msg::OutboxWaiting(3));
    snapshot_both("outbox_listed", model);
    update(model, char_key('S'));
    snapshot_both("outbox_send_all_asked", model);
    for width in [0, 1, 2, 5, 20, 40, 80, 200] {
        for height in [0, 1, 2, 3, 5, 12, 24] {
            update(model, Msg::Resize { width, height });
            let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
            terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
        }
    }
}

#[tokio::test]
async fn writes_waiting_on_a_thread_show_on_it_and_a_new_thread_above() {
    use quire::api::outbox::Write;
    use quire::screens::change_requests::review::ThreadFilter;
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    update(model, char_key('3'));
    let Screen::Review(screen) = model.screens.last_mut().unwrap() else {
        panic!("the review is on top");
    };
    // The first thread has no replies; the second has two.
    let first = screen.threads()[0].comment.id.clone();
    let second = &screen.threads()[1];
    let (second, its_last_reply) = (
        second.comment.id.clone(),
        second.replies.last().expect("replies").id.clone(),
    );
    let writes = [
        Write::Comment {
            markdown: "A new thread from the train".to_string(),
            page: None,
            node: None,
            table_cell: None,
        },
        Write::Resolve {
            comment: first.clone(),
            resolved: true,
        },
        // Reopened after resolving: the thread ends up open, so it says reopening.
        Write::Resolve {
            comment: first.clone(),
            resolved: false,
        },
        Write::Reaction {
            comment: first.clone(),
            reply: None,
            emoji: "🎉".to_string(),
            add: true,
        },
        Write::Edit {
            comment: first,
            reply: None,
            markdown: "Reworded\non the train".to_string(),
        },
        Write::Reaction {
            comment: second.clone(),
            reply: Some(its_last_reply),
            emoji: "👀".to_string(),
            add: true,
        },
        Write::Reply {
            comment: second,
            markdown: "Answered\u{1b}[31m on the train".to_string(),
        },
    ];
    screen.queued = writes
        .into_iter()
        .enumerate()
        .map(|(index, write)| queued(10 + index as i64, demo_ids::CR_REVIEW, write))
        .collect();
    for (width, height) in [(80, 24), (40, 12)] {
        let drawn = crate::common::review::steady_ages(&render(model, width, height));
        insta::assert_snapshot!(
            format!("review_writes_waiting_in_place_{width}x{height}"),
            drawn
        );
    }
    // With only resolved threads shown, the writes on the open ones are listed above.
    let Screen::Review(screen) = model.screens.last_mut().unwrap() else {
        panic!("the review is on top");
    };
    screen.thread_filter = ThreadFilter::Resolved;
    let drawn = crate::common::review::steady_ages(&render(model, 80, 24));
    insta::assert_snapshot!("review_writes_waiting_threads_filtered_out_80x24", drawn);
}

#[tokio::test]
async fn an_edit_answered_after_the_server_came_back_closes_its_composer() {
    use quire::api::outbox::Write;
    use quire::app::ApiResponse;
    use quire::vocabulary::outbox::{Listing, OutboxResponse};
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    update(model, Msg::Reachable(false));
    let cmd = update(model, char_key('^'));
    let request = outbox_request(&cmd).expect("the outbox is read");
    let write = Write::Comment {
        markdown: "Written on the train".to_string(),
        page: None,
        node: None,
        table_cell: None,
    };
    let listing = Listing {
        writes: vec![queued(1, demo_ids::CR_REVIEW, write)],
        ..Default::default()
    };
    let listed = ApiResponse::Outbox(OutboxResponse::Listed(Ok(listing)));
    update(
        model,
        Msg::Api {
            request,
            response: listed,
        },
    );
    update(model, char_key('e'));
    update(model, char_key('!'));
    let cmd = update(model, crate::common::ctrl('s'));
    let edit = outbox_request(&cmd).expect("the edit is asked");
    // The server comes back while the edit is under way: the outbox is listed again.
    let cmd = update(model, Msg::Reachable(true));
    assert!(outbox_request(&cmd).is_some(), "the outbox is read again");
    let edited = ApiResponse::Outbox(OutboxResponse::Edited(Ok(())));
    update(
        model,
        Msg::Api {
            request: edit,
            response: edited,
        },
    );
    let screen = render(model, 80, 24);
    assert!(screen.contains("Edited; still queued."), "{screen}");
    assert!(!screen.contains("Edit the queued"), "{screen}");
}

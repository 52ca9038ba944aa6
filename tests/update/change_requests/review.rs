//! Layer 1 for change-request review: every action's command, optimistic changes and their
//! rollback on refusal, drafts, confirmations and permissions. The data comes from the sandbox
//! once; after that `update` is driven by hand and nothing else runs.

use crate::common::review::{answer, forbidden, open_tab, review, review_call, screen, type_text};
use crate::common::{char_key, ctrl, key, requests};
use quire::api::ReviewVerdict;
use quire::api::models::{ChangeRequestStatus, MergeOutcome, MergeResult};
use quire::app::{ApiCall, Cmd, Msg, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::{Overlay, ReviewTab};
use quire::ui::notice::Notice;
use quire::vocabulary::change_requests::{ChangeRequestsCall, ChangeRequestsResponse};
use ratatui::crossterm::event::KeyCode;
use std::time::Duration;

#[tokio::test]
async fn the_review_loads_changes_threads_and_reviews() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let screen = screen(&loaded.model);
    let bundle = screen.bundle.value().expect("loaded");
    assert_eq!(screen.pages.len(), 4, "edited, moved, created, deleted");
    assert!(bundle.threads.len() >= 25);
    assert!(!bundle.reviews.is_empty());
    assert!(screen.diff_view.is_some(), "the first page's diff is shown");
    assert!(screen.can_merge() && screen.can_comment());
}

#[tokio::test]
async fn resolving_shows_at_once_and_rolls_back_when_refused() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    assert_eq!(screen(model).tab, ReviewTab::Comments);
    let row = screen(model).selected_row().unwrap();
    let was_resolved = screen(model).threads()[row.thread].comment.is_resolved();
    let (request, call) = review_call(&update(model, char_key('x')));
    let ChangeRequestsCall::UpdateComment { update: change, .. } = call else {
        panic!("{call:?}")
    };
    assert_eq!(change.resolved, Some(!was_resolved));
    let now = screen(model).threads()[row.thread].comment.is_resolved();
    assert_eq!(now, !was_resolved, "shown before the server answers");
    answer(
        model,
        request,
        ChangeRequestsResponse::CommentUpdated(Err(forbidden())),
    );
    let after = screen(model).threads()[row.thread].comment.is_resolved();
    assert_eq!(after, was_resolved, "rolled back");
    let notice = screen(model).notice.clone().unwrap();
    assert!(
        notice.error && notice.text.contains("your role"),
        "{notice:?}"
    );
}

#[tokio::test]
async fn reacting_toggles_through_the_picker_and_rolls_back() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    let row = screen(model).selected_row().unwrap();
    let before = screen(model).threads()[row.thread]
        .comment
        .reactions
        .clone();
    update(model, char_key('+'));
    assert!(matches!(
        screen(model).overlay,
        Some(Overlay::Reactions { .. })
    ));
    type_text(model, "rocket");
    let (request, call) = review_call(&update(model, key(KeyCode::Enter)));
    let ChangeRequestsCall::UpdateComment { update: change, .. } = call else {
        panic!()
    };
    assert_eq!(change.added_reactions, ["🚀"]);
    let during = &screen(model).threads()[row.thread].comment.reactions;
    assert!(during.iter().any(|r| r.emoji == "🚀" && r.count == 1));
    answer(
        model,
        request,
        ChangeRequestsResponse::CommentUpdated(Err(forbidden())),
    );
    assert_eq!(
        screen(model).threads()[row.thread].comment.reactions,
        before
    );
    // Recently used reactions come first next time.
    update(model, char_key('+'));
    let Some(Overlay::Reactions { picker, .. }) = &screen(model).overlay else {
        panic!()
    };
    assert_eq!(picker.results[0].emoji, "🚀");
}

#[tokio::test]
async fn a_reply_is_saved_as_a_draft_and_kept_when_the_post_fails() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    update(model, char_key('R'));
    let saves = type_text(model, "On it");
    let Cmd::SaveDraft {
        key: draft_key,
        text,
    } = saves.last().unwrap().clone()
    else {
        panic!("every key saves the draft: {saves:?}")
    };
    assert_eq!(text, "On it");
    assert!(draft_key.contains(".reply-"));
    let (request, call) = review_call(&update(model, ctrl('s')));
    assert!(
        matches!(call, ChangeRequestsCall::PostReply { ref markdown, .. } if markdown == "On it")
    );
    // The server refuses: the text stays, with the reason, and the draft is not discarded.
    let cmd = answer(
        model,
        request,
        ChangeRequestsResponse::ReplyPosted(Err(forbidden())),
    );
    assert_eq!(cmd, Cmd::None);
    let Some(Overlay::Composer { composer, .. }) = &screen(model).overlay else {
        panic!("the composer stays open")
    };
    assert_eq!(composer.text(), "On it");
    assert!(composer.error.is_some());
    // Sent again and accepted: the draft goes.
    let (request, _) = review_call(&update(model, ctrl('s')));
    let reply = serde_json::from_value(serde_json::json!({
        "object": "comment-reply", "id": "new-reply", "body": {"markdown": "On it"}
    }))
    .unwrap();
    let cmd = answer(
        model,
        request,
        ChangeRequestsResponse::ReplyPosted(Ok(reply)),
    );
    assert_eq!(cmd, Cmd::DiscardDraft { key: draft_key });
    assert!(screen(model).overlay.is_none());
}

/// As if the drafts folder held a new-comment draft for this change request.
fn find_comment_draft_on_disk(model: &mut quire::app::Model, text: &str) {
    let prefix = screen(model).draft_prefix();
    update(
        model,
        Msg::DraftsLoaded {
            prefix: prefix.clone(),
            drafts: vec![(format!("{prefix}comment"), text.into())],
        },
    );
}

#[tokio::test]
async fn drafts_found_on_disk_fill_the_composer_again() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    find_comment_draft_on_disk(model, "half a thought");
    assert!(
        screen(model)
            .notice
            .as_ref()
            .unwrap()
            .text
            .contains("restored")
    );
    open_tab(model, ReviewTab::Comments);
    update(model, char_key('c'));
    let Some(Overlay::Composer { composer, .. }) = &screen(model).overlay else {
        panic!()
    };
    assert_eq!(composer.text(), "half a thought");
    // Esc on a non-empty draft asks; `k` keeps it for later.
    update(model, key(KeyCode::Esc));
    assert_eq!(update(model, char_key('k')), Cmd::None);
    assert!(screen(model).overlay.is_none());
}

#[tokio::test]
async fn deleting_and_status_changes_ask_first() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('T'));
    assert!(matches!(screen(model).overlay, Some(Overlay::Confirm(_))));
    assert!(
        requests(&update(model, key(KeyCode::Esc))).is_empty(),
        "no is no"
    );
    update(model, char_key('T'));
    let (_, call) = review_call(&update(model, char_key('y')));
    assert!(matches!(
        call,
        ChangeRequestsCall::SetStatus {
            status: ChangeRequestStatus::Draft,
            ..
        }
    ));
    update(model, char_key('Z'));
    let (_, call) = review_call(&update(model, key(KeyCode::Enter)));
    assert!(matches!(
        call,
        ChangeRequestsCall::SetStatus {
            status: ChangeRequestStatus::Archived,
            ..
        }
    ));
}

#[tokio::test]
async fn merge_goes_through_the_preflight_and_reports_conflicts() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_CONFLICTS, 120, 35).await;
    let model = &mut loaded.model;
    // M merges nothing: it opens the pre-flight, which checks the links a merge would break.
    let (_, check) = review_call(&update(model, char_key('M')));
    assert!(
        matches!(check, ChangeRequestsCall::BreakingLinks { .. }),
        "{check:?}"
    );
    assert!(matches!(screen(model).overlay, Some(Overlay::Preflight(_))));
    let (request, call) = review_call(&update(model, char_key('y')));
    assert!(matches!(call, ChangeRequestsCall::Merge(_)));
    answer(
        model,
        request,
        ChangeRequestsResponse::Merged(Ok(MergeResult {
            revision: None,
            result: MergeOutcome::Conflicts,
        })),
    );
    let notice = screen(model).notice.clone().unwrap();
    // Where to resolve them: the web app, at the change request's address.
    let app = screen(model)
        .change_request()
        .unwrap()
        .urls
        .app
        .clone()
        .unwrap();
    let place = format!("resolve the conflicts in the web app ({app}) first");
    assert!(notice.error && notice.text.contains(&place), "{notice:?}");
}

#[tokio::test]
async fn approving_without_a_comment_sends_the_verdict() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('A'));
    let (_, call) = review_call(&update(model, ctrl('s')));
    assert_eq!(
        call,
        ChangeRequestsCall::SubmitReview {
            target: screen(model).target.clone(),
            verdict: ReviewVerdict::Approved,
            comment: None,
        }
    );
}

#[tokio::test]
async fn the_triage_loop_walks_unresolved_threads_with_a_counter() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    let open =
        quire::screens::change_requests::review::threads::unresolved(screen(model).threads()).len();
    update(model, char_key('n'));
    let first = screen(model).selected_row().unwrap().thread;
    assert!(!screen(model).threads()[first].comment.is_resolved());
    update(model, char_key('N'));
    update(model, char_key('N'));
    let last = screen(model).selected_row().unwrap().thread;
    let unresolved =
        quire::screens::change_requests::review::threads::unresolved(screen(model).threads());
    assert_eq!(Some(&last), unresolved.last(), "N wraps to the last one");
    assert_eq!(unresolved.len(), open);
    update(model, char_key('f'));
    assert!(
        screen(model)
            .rows()
            .iter()
            .all(|row| { !screen(model).threads()[row.thread].comment.is_resolved() })
    );
}

#[tokio::test]
async fn a_reader_is_told_why_and_nothing_is_sent() {
    let mut loaded = review(tokens::READER, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    for action in ['R', 'c', '+', 'x', 'A', 'M'] {
        let cmd = update(model, char_key(action));
        assert!(requests(&cmd).is_empty(), "{action} sent {cmd:?}");
        assert!(screen(model).overlay.is_none(), "{action} opened something");
        assert!(screen(model).notice.as_ref().unwrap().error);
    }
    let disabled = model.top().disabled_actions();
    assert!(disabled.contains(&quire::app::Action::Reply));
}

#[tokio::test]
async fn selecting_a_created_page_asks_only_for_the_change_request_side() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Changes);
    let created = screen(model)
        .pages
        .iter()
        .position(|p| {
            p.kinds
                .contains(&quire::screens::change_requests::review::ChangeKind::Created)
        })
        .unwrap();
    let mut call = None;
    for _ in 0..created {
        let cmd = update(model, char_key('J'));
        if !requests(&cmd).is_empty() {
            call = Some(review_call(&cmd).1);
        }
    }
    let Some(ChangeRequestsCall::LoadPageDiff {
        main,
        change_request,
        ..
    }) = call
    else {
        panic!("{call:?}")
    };
    assert!(!main && change_request);
}

#[tokio::test]
async fn a_stale_review_answer_is_dropped() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    let (old, _) = review_call(
        &requests(&update(model, char_key('r')))
            .into_iter()
            .filter(|(_, c)| {
                matches!(
                    c,
                    ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(_))
                )
            })
            .map(|(r, c)| Cmd::Api {
                request: r,
                call: c,
            })
            .next()
            .unwrap(),
    );
    update(model, char_key('r'));
    let subject_before = screen(model).change_request().unwrap().subject.clone();
    let mut other = screen(model).bundle.value().unwrap().clone();
    other.change_request.subject = "stale".into();
    answer(model, old, ChangeRequestsResponse::Review(Ok(other)));
    assert_eq!(
        screen(model).change_request().unwrap().subject,
        subject_before
    );
}

#[tokio::test]
async fn without_a_changes_endpoint_the_page_trees_are_compared() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let from_changes: Vec<_> = screen(&loaded.model)
        .pages
        .iter()
        .map(|p| (p.page.clone(), p.kinds.clone()))
        .collect();
    loaded.sandbox.set_faults(quire::sandbox::Faults {
        missing_endpoints: vec!["/changes".into()],
        ..Default::default()
    });
    let model = &mut loaded.model;
    let screen_before = screen(model).pages.len();
    quire::headless::settle(model, &loaded.effects, char_key('r')).await;
    let compared: Vec<_> = screen(model)
        .pages
        .iter()
        .map(|p| (p.page.clone(), p.kinds.clone()))
        .collect();
    assert_eq!(compared.len(), screen_before, "{compared:?}");
    for (page, kinds) in &from_changes {
        let found = compared.iter().find(|(p, _)| p == page).expect(page);
        assert_eq!(&found.1, kinds, "{page}");
    }
}

#[tokio::test]
async fn a_change_request_seen_before_paints_at_once_and_refreshes_behind() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    let target = screen(model).target.clone();
    // Open the same change request again, as coming back to it from the list would.
    model.screens.push(quire::screens::Screen::Review(Box::new(
        quire::screens::change_requests::review::ReviewScreen::new(target, None),
    )));
    let cmd = model.init();
    let again = screen(model);
    assert!(again.bundle.value().is_some(), "painted from memory");
    assert!(again.bundle.is_loading(), "and refreshing behind");
    assert!(again.pages.len() == 4);
    assert!(requests(&cmd).iter().any(|(_, call)| matches!(
        call,
        ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(_))
    )));
}

#[tokio::test]
async fn a_reaction_goes_to_the_comment_it_was_chosen_for_even_after_a_reload() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    update(model, char_key('n'));
    let row = screen(model).selected_row().unwrap();
    let chosen = screen(model).threads()[row.thread].comment.id.clone();
    let refresh = update(model, char_key('r'));
    let (reload, _) = requests(&refresh)
        .into_iter()
        .find(|(_, call)| {
            matches!(
                call,
                ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(_))
            )
        })
        .unwrap();
    update(model, char_key('+'));
    // The reload lands while the picker is open, with an earlier thread deleted meanwhile.
    let mut fresh = screen(model).bundle.value().unwrap().clone();
    fresh.threads.remove(0);
    answer(model, reload, ChangeRequestsResponse::Review(Ok(fresh)));
    type_text(model, "rocket");
    let (_, call) = review_call(&update(model, key(KeyCode::Enter)));
    let ChangeRequestsCall::UpdateComment { comment, .. } = call else {
        panic!()
    };
    assert_eq!(comment, chosen);
}

#[tokio::test]
async fn a_pasted_text_is_saved_as_a_draft_at_once() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    update(model, char_key('R'));
    let cmd = update(model, Msg::Paste("pasted\nparagraph".into()));
    let Cmd::SaveDraft { text, .. } = cmd else {
        panic!("{cmd:?}")
    };
    assert_eq!(text, "pasted\nparagraph");
}

#[tokio::test]
async fn a_post_with_no_answer_keeps_the_text_and_reloads_before_any_resend() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    update(model, char_key('R'));
    type_text(model, "maybe sent");
    let (request, _) = review_call(&update(model, ctrl('s')));
    let timeout = quire::api::ApiError::Timeout {
        endpoint: "POST /spaces/s/change-requests/c/comments/x/replies".into(),
    };
    let cmd = answer(
        model,
        request,
        ChangeRequestsResponse::ReplyPosted(Err(timeout)),
    );
    assert!(
        requests(&cmd).iter().any(|(_, call)| matches!(
            call,
            ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(_))
        )),
        "reloads to see whether it landed: {cmd:?}"
    );
    assert!(!matches!(cmd, Cmd::DiscardDraft { .. }));
    let Some(Overlay::Composer { composer, .. }) = &screen(model).overlay else {
        panic!()
    };
    assert_eq!(composer.text(), "maybe sent");
    assert!(
        composer
            .error
            .as_deref()
            .unwrap()
            .contains("may or may not")
    );
}

#[tokio::test]
async fn editing_your_own_comment_sends_the_new_text_and_shows_it() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    // Find a comment the server says we may edit.
    let rows = screen(model).rows();
    let own = rows
        .iter()
        .position(|row| {
            row.reply.is_none() && screen(model).threads()[row.thread].comment.permissions.edit
        })
        .expect("the admin wrote a comment in the demo");
    screen_select(model, own);
    update(model, char_key('e'));
    type_text(model, " (edited)");
    let (request, call) = review_call(&update(model, ctrl('s')));
    let ChangeRequestsCall::UpdateComment {
        update: change,
        comment,
        ..
    } = call
    else {
        panic!()
    };
    let text = change.markdown.clone().expect("new text");
    assert!(text.ends_with(" (edited)"));
    answer(
        model,
        request,
        ChangeRequestsResponse::CommentUpdated(Ok(())),
    );
    let thread = screen(model)
        .threads()
        .iter()
        .find(|t| t.comment.id == comment)
        .unwrap();
    assert_eq!(thread.comment.body.markdown(), Some(text.as_str()));
    assert!(thread.comment.edited_at.is_some(), "marked edited");
}

#[tokio::test]
async fn someone_elses_comment_cannot_be_edited_or_deleted() {
    let mut loaded = review(tokens::COMMENTER, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    let rows = screen(model).rows();
    let theirs = rows
        .iter()
        .position(|row| {
            row.reply.is_none() && !screen(model).threads()[row.thread].comment.permissions.edit
        })
        .unwrap();
    screen_select(model, theirs);
    for action in ['e', 'd'] {
        assert_eq!(update(model, char_key(action)), Cmd::None);
        assert!(screen(model).overlay.is_none());
        assert!(screen(model).notice.as_ref().unwrap().error);
    }
}

#[tokio::test]
async fn reviewers_are_requested_through_the_member_picker_and_removed_after_asking() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Reviews);
    let (request, call) = review_call(&update(model, char_key('+')));
    assert!(matches!(call, ChangeRequestsCall::ListMembers { .. }));
    let members = loaded
        .effects
        .client
        .as_ref()
        .unwrap()
        .list_up_to::<quire::api::models::Member>(
            &format!("/orgs/{}/members", demo_ids::ACME),
            &[],
            20,
        )
        .await
        .unwrap();
    answer(model, request, ChangeRequestsResponse::Members(Ok(members)));
    type_text(model, "hannah");
    let (_, call) = review_call(&update(model, key(KeyCode::Enter)));
    let ChangeRequestsCall::RequestReviewers { users, .. } = call else {
        panic!()
    };
    assert_eq!(users, [demo_ids::USER_HANNAH]);
    // Removing asks first.
    assert_eq!(update(model, char_key('-')), Cmd::None);
    assert!(matches!(screen(model).overlay, Some(Overlay::Confirm(_))));
    let (_, call) = review_call(&update(model, char_key('y')));
    assert!(matches!(call, ChangeRequestsCall::RemoveReviewer { .. }));
}

#[tokio::test]
async fn update_from_main_reports_conflicts_and_reloads_on_success() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_OUTDATED, 120, 35).await;
    let model = &mut loaded.model;
    let (request, call) = review_call(&update(model, char_key('U')));
    assert!(matches!(call, ChangeRequestsCall::UpdateFromMain(_)));
    let conflicts = quire::api::models::UpdateResult {
        revision: None,
        result: quire::api::models::UpdateOutcome::Conflicts,
    };
    answer(
        model,
        request,
        ChangeRequestsResponse::UpdatedFromMain(Ok(conflicts)),
    );
    assert!(screen(model).notice.as_ref().unwrap().error);
    let (request, _) = review_call(&update(model, char_key('U')));
    let updated = quire::api::models::UpdateResult {
        revision: Some("r2".into()),
        result: quire::api::models::UpdateOutcome::Update,
    };
    let cmd = answer(
        model,
        request,
        ChangeRequestsResponse::UpdatedFromMain(Ok(updated)),
    );
    assert!(
        matches!(review_call(&cmd).1, ChangeRequestsCall::LoadReview(_)),
        "reloads"
    );
}

fn screen_select(model: &mut quire::app::Model, row: usize) {
    update(model, char_key('g'));
    for _ in 0..row {
        update(model, char_key('j'));
    }
    assert_eq!(screen(model).comment_selection.selected, row);
}

/// The text of every thread (authors and bodies), lower-cased, as the `/` query sees it.
fn thread_text(model: &quire::app::Model, thread: usize) -> String {
    let thread = &screen(model).threads()[thread];
    let mut text = String::new();
    let bodies = std::iter::once((&thread.comment.posted_by, thread.comment.body.markdown()))
        .chain(
            thread
                .replies
                .iter()
                .map(|r| (&r.posted_by, r.body.markdown())),
        );
    for (author, body) in bodies {
        text.push_str(
            &author
                .as_ref()
                .map_or(String::new(), |u| u.display_name.clone()),
        );
        text.push('\n');
        text.push_str(body.unwrap_or(""));
        text.push('\n');
    }
    text.to_lowercase()
}

#[tokio::test]
async fn slash_on_the_comments_tab_filters_threads_and_takes_every_key() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    let all = screen(model).rows().len();
    update(model, char_key('/'));
    // "scope" holds c (new comment), e (edit), o and p: none may run as a command.
    let cmds = type_text(model, "scope");
    assert!(cmds.iter().all(|cmd| requests(cmd).is_empty()));
    assert!(screen(model).overlay.is_none(), "no composer opened");
    assert_eq!(screen(model).comment_query.text, "scope");
    let rows = screen(model).rows();
    assert!(
        !rows.is_empty() && rows.len() < all,
        "{} of {all}",
        rows.len()
    );
    for row in &rows {
        assert!(thread_text(model, row.thread).contains("scope"));
    }
    update(model, key(KeyCode::Enter));
    assert_eq!(screen(model).comment_query.text, "scope", "enter keeps it");
    update(model, key(KeyCode::Esc));
    assert_eq!(screen(model).rows().len(), all, "esc clears");
}

#[tokio::test]
async fn slash_on_the_changes_tab_searches_the_diff_and_n_walks_the_matches() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Changes);
    // A word that is in the diff more than once.
    let lines: Vec<String> = screen(model)
        .diff_view
        .as_ref()
        .unwrap()
        .lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    let word = ["the", "and", "to", "a"]
        .into_iter()
        .find(|w| {
            lines
                .iter()
                .filter(|l| l.to_lowercase().contains(w))
                .count()
                > 2
        })
        .expect("a common word");
    update(model, char_key('/'));
    let cmds = type_text(model, word);
    assert!(cmds.iter().all(|cmd| requests(cmd).is_empty()));
    update(model, key(KeyCode::Enter));
    let matches = screen(model).search_rows();
    assert!(matches.len() > 2, "{matches:?}");
    assert_eq!(screen(model).search_match, 0);
    let page = screen(model).page_selection.selected;
    update(model, char_key('n'));
    update(model, char_key('n'));
    assert_eq!(screen(model).search_match, 2, "n walks matches, not hunks");
    assert_eq!(screen(model).page_selection.selected, page);
    update(model, char_key('N'));
    assert_eq!(screen(model).search_match, 1);
    update(model, key(KeyCode::Esc));
    assert!(screen(model).diff_search.text.is_empty());
    assert!(screen(model).search_position().is_none());
}

#[tokio::test]
async fn cycling_the_thread_filter_keeps_the_selected_thread_or_the_nearest() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    // An open thread with a resolved one before it, so its row moves when the filter changes.
    let threads = screen(model).threads().to_vec();
    let open = (1..threads.len())
        .find(|i| {
            !threads[*i].comment.is_resolved()
                && threads[..*i].iter().any(|t| t.comment.is_resolved())
        })
        .expect("an open thread after a resolved one");
    let row = screen(model)
        .rows()
        .iter()
        .position(|r| r.thread == open && r.reply.is_none())
        .unwrap();
    screen_select(model, row);
    update(model, char_key('f'));
    assert_eq!(screen(model).thread_filter.label(), "open");
    assert_eq!(screen(model).selected_row().unwrap().thread, open, "kept");
    update(model, char_key('f'));
    assert_eq!(screen(model).thread_filter.label(), "resolved");
    let now = screen(model).selected_row().unwrap().thread;
    let nearest = threads
        .iter()
        .enumerate()
        .filter(|(_, t)| t.comment.is_resolved())
        .map(|(i, _)| i.abs_diff(open))
        .min()
        .unwrap();
    assert_eq!(now.abs_diff(open), nearest, "the nearest resolved thread");
}

#[tokio::test]
async fn n_goes_on_to_the_next_changed_page_and_n_back() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let (mut model, effects) = (loaded.model, loaded.effects);
    open_tab(&mut model, ReviewTab::Changes);
    let hunks = screen(&model).diff_view.as_ref().unwrap().hunk_rows.len();
    assert!(hunks > 0);
    for _ in 0..hunks {
        headless::type_keys(&mut model, &effects, "n").await;
        assert_eq!(screen(&model).page_selection.selected, 0);
    }
    assert_eq!(
        screen(&model).hunk_position().unwrap(),
        format!("change {hunks}/{hunks} · page 1/4")
    );
    // Past the last hunk of the page: the next changed page, at its first change.
    headless::type_keys(&mut model, &effects, "n").await;
    assert_eq!(screen(&model).page_selection.selected, 1);
    let position = screen(&model).hunk_position().unwrap();
    assert!(position.ends_with("page 2/4"), "{position}");
    if screen(&model)
        .diff_view
        .as_ref()
        .unwrap()
        .hunk_rows
        .is_empty()
    {
        assert_eq!(screen(&model).current_hunk, None);
    } else {
        assert!(position.starts_with("change 1/"), "{position}");
    }
    // And back: the previous page, at its last change.
    headless::type_keys(&mut model, &effects, "N").await;
    assert_eq!(screen(&model).page_selection.selected, 0);
    assert_eq!(
        screen(&model).hunk_position().unwrap(),
        format!("change {hunks}/{hunks} · page 1/4")
    );
}

#[tokio::test]
async fn side_by_side_on_a_narrow_diff_says_why_nothing_changed() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Changes);
    let before = screen(model).side_by_side;
    update(model, char_key('s'));
    assert_eq!(screen(model).side_by_side, before);
    let notice = screen(model).notice.clone().expect("a reason");
    assert!(notice.text.contains("120 columns"), "{notice:?}");
}

#[tokio::test]
async fn esc_on_an_unchanged_edit_just_closes() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    let own = screen(model)
        .rows()
        .iter()
        .position(|row| {
            row.reply.is_none() && screen(model).threads()[row.thread].comment.permissions.edit
        })
        .unwrap();
    screen_select(model, own);
    update(model, char_key('e'));
    assert!(matches!(
        screen(model).overlay,
        Some(Overlay::Composer { .. })
    ));
    update(model, key(KeyCode::Esc));
    assert!(screen(model).overlay.is_none(), "no Discard? question");
    // A changed edit still asks.
    update(model, char_key('e'));
    type_text(model, "!");
    update(model, key(KeyCode::Esc));
    let Some(Overlay::Composer { composer, .. }) = &screen(model).overlay else {
        panic!("still open")
    };
    assert!(composer.asking_to_discard);
}

#[tokio::test]
async fn a_refusal_names_the_role_you_have_and_the_one_needed() {
    let mut loaded = review(tokens::READER, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    update(model, char_key('c'));
    let notice = screen(model).notice.clone().unwrap();
    assert!(
        notice
            .text
            .contains("you are at read level; comment or above is needed"),
        "{notice:?}"
    );
    let mut loaded = review(tokens::COMMENTER, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('A'));
    let notice = screen(model).notice.clone().unwrap();
    assert!(
        notice
            .text
            .contains("you are at comment level; review or above is needed"),
        "{notice:?}"
    );
}

#[tokio::test]
async fn the_subject_is_edited_after_a_confirmation_and_stored() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let (mut model, effects, sandbox) = (loaded.model, loaded.effects, loaded.sandbox);
    update(&mut model, char_key('S'));
    assert!(matches!(
        screen(&model).overlay,
        Some(Overlay::Subject { .. })
    ));
    update(&mut model, ctrl('u'));
    type_text(&mut model, "Clearer subject");
    let cmd = update(&mut model, key(KeyCode::Enter));
    assert!(requests(&cmd).is_empty(), "nothing sent before the answer");
    assert!(matches!(
        screen(&model).overlay,
        Some(Overlay::Confirm(
            quire::screens::change_requests::review::Confirmation::SetSubject { .. }
        ))
    ));
    headless::type_keys(&mut model, &effects, "y").await;
    assert_eq!(
        screen(&model).change_request().unwrap().subject,
        "Clearer subject"
    );
    assert_eq!(
        screen(&model).notice.as_ref().unwrap().text,
        "Subject changed."
    );
    // The server kept it.
    let client = effects.client.as_ref().unwrap();
    let stored = client
        .get_change_request(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW)
        .await
        .unwrap();
    assert_eq!(stored.subject, "Clearer subject");
    drop(sandbox);
}

#[tokio::test]
async fn an_empty_or_unchanged_subject_is_not_sent() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('S'));
    let cmd = update(model, key(KeyCode::Enter));
    assert!(requests(&cmd).is_empty());
    assert!(screen(model).overlay.is_none(), "unchanged: closed");
    update(model, char_key('S'));
    update(model, ctrl('u'));
    update(model, key(KeyCode::Enter));
    let Some(Overlay::Subject { error, .. }) = &screen(model).overlay else {
        panic!("still open")
    };
    assert!(error.as_deref().unwrap().contains("empty"));
    // A reader may not edit it at all.
    let mut loaded = review(tokens::READER, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('S'));
    assert!(screen(model).overlay.is_none());
    assert!(screen(model).notice.as_ref().unwrap().error);
}

#[tokio::test]
async fn messages_follow_the_shared_rule() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    update(model, char_key('x'));
    assert!(!screen(model).notice.as_ref().unwrap().error);
    update(model, char_key('j'));
    assert!(
        screen(model).notice.is_some(),
        "a fresh message survives a key"
    );
    let Screen::Review(review_screen) = model.screens.last_mut().unwrap() else {
        panic!()
    };
    review_screen.notice = Some(Notice::info("Resolved.").aged(Duration::from_secs(5)));
    update(model, char_key('j'));
    assert!(
        screen(model).notice.is_none(),
        "an old message goes with a key"
    );
    // Errors stay until esc, which dismisses them and does nothing else.
    let Screen::Review(review_screen) = model.screens.last_mut().unwrap() else {
        panic!()
    };
    review_screen.notice = Some(Notice::error("Refused").aged(Duration::from_secs(60)));
    update(model, char_key('j'));
    assert!(screen(model).notice.is_some());
    update(model, char_key('/'));
    update(model, char_key('q'));
    update(model, key(KeyCode::Enter));
    update(model, key(KeyCode::Esc));
    assert!(screen(model).notice.is_none(), "esc dismissed the error");
    assert_eq!(
        screen(model).comment_query.text,
        "q",
        "the same esc did not clear the query"
    );
}

#[tokio::test]
async fn drafts_are_announced_only_when_this_user_may_send_them() {
    let mut loaded = review(tokens::READER, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    find_comment_draft_on_disk(model, "written as someone else");
    assert!(
        screen(model)
            .notice
            .as_ref()
            .is_none_or(|notice| !notice.text.contains("restored")),
        "a reader is not offered a comment draft they cannot send"
    );
}

#[tokio::test]
async fn a_paste_into_the_thread_filter_filters_at_once() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    let all = screen(model).rows().len();
    update(model, char_key('/'));
    update(model, Msg::Paste("follow-up".into()));
    assert_eq!(screen(model).comment_query.text, "follow-up");
    let shown = screen(model).rows().len();
    assert!(
        shown < all,
        "the paste narrowed the threads ({shown} of {all})"
    );
    assert!(screen(model).comment_selection.selected < shown.max(1));
}

#[tokio::test]
async fn a_comment_given_with_an_approval_shows_at_once_as_a_thread_and_in_reviews() {
    const TEXT: &str = "Ship it once the hint is fixed.";
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let before = screen(&loaded.model).threads().len();
    update(&mut loaded.model, char_key('A'));
    type_text(&mut loaded.model, TEXT);
    headless::settle(&mut loaded.model, &loaded.effects, ctrl('s')).await;
    let shown = screen(&loaded.model);
    assert_eq!(shown.threads().len(), before + 1, "no reload needed");
    assert_eq!(shown.threads()[0].comment.body.markdown(), Some(TEXT));
    // The comments tab's query finds it.
    open_tab(&mut loaded.model, ReviewTab::Comments);
    update(&mut loaded.model, char_key('/'));
    type_text(&mut loaded.model, "hint is fixed");
    let rows = screen(&loaded.model).rows();
    assert_eq!(rows.len(), 1, "{rows:?}");
    update(&mut loaded.model, key(KeyCode::Esc));
    // The reviews tab shows what the reviewer wrote under the verdict.
    open_tab(&mut loaded.model, ReviewTab::Reviews);
    let drawn = crate::common::views::render(&mut loaded.model, 120, 35);
    let verdict = drawn
        .lines()
        .position(|line| line.contains("✓ approved"))
        .expect("the approval is listed");
    assert!(
        drawn.lines().nth(verdict + 1).unwrap().contains(TEXT),
        "{drawn}"
    );
}

#[tokio::test]
async fn reviews_stay_newest_first_after_requesting_changes_and_a_reload() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    update(&mut loaded.model, char_key('X'));
    type_text(&mut loaded.model, "The hint needs a link.");
    headless::settle(&mut loaded.model, &loaded.effects, ctrl('s')).await;
    let newest_first = |model: &quire::app::Model| {
        let reviews = &screen(model).bundle.value().unwrap().reviews;
        assert!(reviews.len() >= 2, "{reviews:?}");
        let dates: Vec<&str> = reviews
            .iter()
            .map(|r| r.created_at.as_deref().unwrap())
            .collect();
        let mut sorted = dates.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(dates, sorted);
        assert_eq!(
            reviews[0].status,
            Some(quire::api::models::ReviewStatus::ChangesRequested)
        );
    };
    newest_first(&loaded.model);
    headless::settle(&mut loaded.model, &loaded.effects, char_key('r')).await;
    newest_first(&loaded.model);
}

fn subject_draft_key() -> String {
    format!(
        "{}.{}.subject",
        demo_ids::SPACE_GETTING_STARTED,
        demo_ids::CR_REVIEW
    )
}

fn subject_input(model: &quire::app::Model) -> String {
    match &screen(model).overlay {
        Some(Overlay::Subject { input, .. }) => input.text.clone(),
        other => panic!("the subject editor, got {other:?}"),
    }
}

/// The subject being typed is drafted key by key; `esc` keeps it for the next `S`, and the
/// subject the server takes drops the draft.
#[tokio::test]
async fn the_subject_being_typed_survives_esc_and_goes_once_saved() {
    use crate::common::drafts::{discards_draft, saved_draft};
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('S'));
    update(model, ctrl('u'));
    type_text(model, "Clearer su");
    let typed = update(model, char_key('b'));
    assert_eq!(
        saved_draft(&typed, &subject_draft_key()).as_deref(),
        Some("Clearer sub")
    );
    let closed = update(model, key(KeyCode::Esc));
    assert!(screen(model).overlay.is_none());
    assert!(!discards_draft(&closed, &subject_draft_key()));
    update(model, char_key('S'));
    assert_eq!(subject_input(model), "Clearer sub", "offered back");
    type_text(model, "ject");
    update(model, key(KeyCode::Enter));
    let (request, call) = review_call(&update(model, char_key('y')));
    assert!(
        matches!(call, ChangeRequestsCall::SetSubject { .. }),
        "{call:?}"
    );
    let mut stored = screen(model).change_request().unwrap().clone();
    stored.subject = "Clearer subject".into();
    let saved = answer(
        model,
        request,
        ChangeRequestsResponse::SubjectSet(Ok(stored)),
    );
    assert!(discards_draft(&saved, &subject_draft_key()), "{saved:?}");
    update(model, char_key('S'));
    assert_eq!(subject_input(model), "Clearer subject", "the subject now");
}

/// A subject typed in an earlier run is back in the editor.
#[tokio::test]
async fn a_subject_typed_in_an_earlier_run_is_back_in_the_editor() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    let prefix = format!(
        "{}.{}.",
        demo_ids::SPACE_GETTING_STARTED,
        demo_ids::CR_REVIEW
    );
    update(
        model,
        Msg::DraftsLoaded {
            prefix,
            drafts: vec![(subject_draft_key(), "Half a better subject".into())],
        },
    );
    update(model, char_key('S'));
    assert_eq!(subject_input(model), "Half a better subject");
}

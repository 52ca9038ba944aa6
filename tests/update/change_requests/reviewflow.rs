//! Review flow: the overview tab, `]c` / `[c` between change requests, the action
//! log with its undo, and watching. Driven against the real sandbox; what the server stored is
//! read back over HTTP.

use std::time::Duration;

use crate::common::review::{open_tab, review, screen};
use crate::common::{char_key, key};
use quire::api::models::{ChangeRequest, ChangeRequestStatus};
use quire::app::view::chrome;
use quire::app::{Model, Msg, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::ChangeRequestList;
use quire::screens::change_requests::review::ReviewTab;
use quire::ui::keymap::Action;
use quire::vocabulary::action_log::{PendingEntry, Undo};
use quire::vocabulary::change_requests::ChangeRequestScope;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

fn draw_text(model: &Model) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(model.size.width, model.size.height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

async fn keys(model: &mut Model, effects: &Effects, keys: &str) {
    headless::type_keys(model, effects, keys).await;
}

// ---------------------------------------------------------------------------------------------
// Overview

#[tokio::test]
async fn a_review_opens_on_its_overview_with_checks_and_a_timeline() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    assert_eq!(screen(&loaded.model).tab, ReviewTab::Overview);
    let bundle = screen(&loaded.model).bundle.value().unwrap().clone();
    let events = quire::screens::change_requests::review::timeline(&bundle);
    assert!(
        events.windows(2).all(|pair| pair[0].at >= pair[1].at),
        "newest first"
    );
    assert_eq!(events.last().unwrap().what, "opened it");
    assert!(events.iter().any(|e| e.what == "commented"));
    assert!(events.iter().any(|e| e.what == "approved"));
    let drawn = draw_text(&loaded.model);
    assert!(drawn.contains("Checks before a merge"), "{drawn}");
    assert!(drawn.contains("✓ You may merge in this space."), "{drawn}");
}

#[tokio::test]
async fn the_overview_scrolls_down_to_its_timeline() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    update(&mut loaded.model, char_key('G'));
    let drawn = draw_text(&loaded.model);
    assert!(
        drawn.contains("Fatima Zahra El Idrissi opened it"),
        "{drawn}"
    );
    update(&mut loaded.model, char_key('g'));
    assert!(draw_text(&loaded.model).contains("Description"));
}

#[tokio::test]
async fn number_keys_open_the_four_tabs() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    for tab in [
        ReviewTab::Changes,
        ReviewTab::Comments,
        ReviewTab::Reviews,
        ReviewTab::Overview,
    ] {
        open_tab(&mut loaded.model, tab);
    }
}

// ---------------------------------------------------------------------------------------------
// Next / previous change request

struct Listed {
    model: Model,
    effects: Effects,
    _sandbox: Sandbox,
}

/// Acme's whole change-request list, loaded.
async fn acme_list(token: &str) -> Listed {
    let (sandbox, effects) =
        crate::common::sandbox_effects(quire::sandbox::SandboxOptions::default(), token).await;
    let list = ChangeRequestList::new(
        ChangeRequestScope::Organization(demo_ids::ACME.to_string()),
        "Acme Robotics",
    );
    let mut model = Model::new(
        Screen::ChangeRequests(list),
        crate::common::environment(),
        quire::app::Size::default(),
    );
    let resize = Msg::Resize {
        width: 100,
        height: 30,
    };
    headless::settle(&mut model, &effects, resize).await;
    headless::start(&mut model, &effects).await;
    Listed {
        model,
        effects,
        _sandbox: sandbox,
    }
}

fn list(model: &Model) -> &ChangeRequestList {
    match model.top() {
        Screen::ChangeRequests(list) => list,
        _ => panic!("not on a change-request list"),
    }
}

fn shown_ids(model: &Model) -> Vec<String> {
    list(model)
        .visible()
        .iter()
        .map(|cr| cr.id.clone())
        .collect()
}

#[tokio::test]
async fn bracket_c_walks_the_list_and_esc_lands_on_the_last_one_shown() {
    // `_sandbox` is bound, so the server lives to the end of the test.
    let Listed {
        mut model,
        effects,
        _sandbox,
    } = acme_list(tokens::ADMIN).await;
    let ids = shown_ids(&model);
    assert!(ids.len() >= 3, "{ids:?}");
    keys(&mut model, &effects, "\r").await;
    assert_eq!(screen(&model).target.change_request, ids[0]);
    keys(&mut model, &effects, "3").await;
    // `]` waits for its second key and says so in the footer.
    keys(&mut model, &effects, "]").await;
    assert!(draw_text(&model).contains("]c  next change request"));
    keys(&mut model, &effects, "c").await;
    assert_eq!(screen(&model).target.change_request, ids[1]);
    assert_eq!(screen(&model).tab, ReviewTab::Comments, "the tab stays");
    assert_eq!(model.screens.len(), 2, "replaced, not pushed");
    keys(&mut model, &effects, "]c[c[c[c").await;
    assert_eq!(screen(&model).target.change_request, ids[0]);
    let notice = screen(&model).notice.clone().unwrap();
    assert!(notice.text.contains("first change request"), "{notice:?}");
    keys(&mut model, &effects, "]c\u{1b}").await;
    assert_eq!(
        list(&model).selected().map(|cr| cr.id.clone()),
        Some(ids[1].clone()),
        "{:?} {:?}",
        list(&model).selection,
        list(&model).list.error
    );
}

#[tokio::test]
async fn esc_after_the_first_key_of_a_sequence_only_cancels_it() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    update(&mut loaded.model, char_key(']'));
    assert!(loaded.model.pending_prefix.is_some());
    update(&mut loaded.model, key(KeyCode::Esc));
    assert!(loaded.model.pending_prefix.is_none());
    assert!(
        matches!(loaded.model.top(), Screen::Review(_)),
        "still here"
    );
    // Alone, the review says where ]c would go.
    update(&mut loaded.model, char_key(']'));
    update(&mut loaded.model, char_key('c'));
    let notice = screen(&loaded.model).notice.clone().unwrap();
    assert!(notice.text.contains("opened alone"), "{notice:?}");
}

// ---------------------------------------------------------------------------------------------
// Action log

fn my_reactions(comment: &quire::api::models::Comment, me: &str) -> Vec<String> {
    comment
        .reactions
        .iter()
        .filter(|r| r.users.iter().any(|u| u.user.id == me))
        .map(|r| r.emoji.clone())
        .collect()
}

#[tokio::test]
async fn a_reaction_is_logged_and_undone_from_the_log() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let (mut model, effects) = (loaded.model, loaded.effects);
    let client = effects.client.clone().unwrap();
    let space = demo_ids::SPACE_GETTING_STARTED;
    open_tab(&mut model, ReviewTab::Comments);
    let comment = {
        let row = screen(&model).selected_row().unwrap();
        screen(&model).threads()[row.thread].comment.id.clone()
    };
    let me = screen(&model).me.value().unwrap().id.clone();
    let before = client
        .get_comment(space, demo_ids::CR_REVIEW, &comment)
        .await
        .unwrap();
    assert!(!my_reactions(&before, &me).contains(&"👍".to_string()));
    keys(&mut model, &effects, "+\r").await;
    let reacted = client
        .get_comment(space, demo_ids::CR_REVIEW, &comment)
        .await
        .unwrap();
    assert!(my_reactions(&reacted, &me).contains(&"👍".to_string()));

    keys(&mut model, &effects, "!").await;
    assert!(matches!(model.top(), Screen::ActionLog(_)));
    let entry = model.action_log.newest_first().next().unwrap().clone();
    assert!(entry.what.contains("Reacted 👍"), "{entry:?}");
    assert!(entry.place.contains("#1"), "{entry:?}");
    // `u` asks first: nothing is sent until `y`.
    keys(&mut model, &effects, "u").await;
    assert!(draw_text(&model).contains("Undo: Reacted 👍"));
    keys(&mut model, &effects, "y").await;
    let after = client
        .get_comment(space, demo_ids::CR_REVIEW, &comment)
        .await
        .unwrap();
    assert!(!my_reactions(&after, &me).contains(&"👍".to_string()));
    let newest = model.action_log.newest_first().next().unwrap();
    assert!(newest.what.starts_with("Undid: Reacted"), "{newest:?}");
    assert!(model.action_log.get(entry.id).unwrap().undone);
    // A second `u` on the same write does nothing but say so.
    keys(&mut model, &effects, "u").await;
    assert_eq!(model.action_log.len(), 2);
    // Back on the review, it reloaded: the reaction is gone there too.
    keys(&mut model, &effects, "\u{1b}").await;
    let thread = screen(&model)
        .threads()
        .iter()
        .find(|t| t.comment.id == comment)
        .unwrap()
        .clone();
    assert!(!my_reactions(&thread.comment, &me).contains(&"👍".to_string()));
}

#[tokio::test]
async fn a_status_change_is_undone_by_setting_the_earlier_status_again() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let (mut model, effects) = (loaded.model, loaded.effects);
    let client = effects.client.clone().unwrap();
    let space = demo_ids::SPACE_GETTING_STARTED;
    keys(&mut model, &effects, "Zy").await;
    let stored = client
        .get_change_request(space, demo_ids::CR_REVIEW)
        .await
        .unwrap();
    assert_eq!(stored.status, Some(ChangeRequestStatus::Archived));
    keys(&mut model, &effects, "!uy").await;
    let stored: ChangeRequest = client
        .get_change_request(space, demo_ids::CR_REVIEW)
        .await
        .unwrap();
    assert_eq!(stored.status, Some(ChangeRequestStatus::Open));
}

#[tokio::test]
async fn a_write_without_an_inverse_says_why() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    model.action_log.record(PendingEntry::new(
        "Merged into main",
        "change request #1",
        Undo::impossible("a merge cannot be undone"),
    ));
    update(model, char_key('!'));
    update(model, char_key('u'));
    let drawn = draw_text(model);
    assert!(
        drawn.contains("Cannot undo: a merge cannot be undone."),
        "{drawn}"
    );
    assert!(
        drawn.contains("no undo: a merge cannot be undone"),
        "{drawn}"
    );
}

#[tokio::test]
async fn the_log_key_is_global_and_bound_once() {
    let keymap = quire::app::Keymap::default();
    let rows = keymap.help_rows(&[quire::app::KeyContext::Global]);
    assert!(
        rows.iter()
            .any(|(keys, help)| keys == "!" && *help == Action::ActionLogView.help())
    );
    let review = keymap.help_rows(&[quire::app::KeyContext::Review]);
    assert!(review.iter().any(|(keys, _)| keys == "]c"), "{review:?}");
}

// ---------------------------------------------------------------------------------------------
// Watching

#[tokio::test]
async fn a_comment_added_over_http_shows_as_new_after_a_watch_refresh() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let (mut model, effects) = (loaded.model, loaded.effects);
    let client = effects.client.clone().unwrap();
    // A short interval, as a user may set it (`watch_interval_secs`).
    model.watch.interval = Some(Duration::from_secs(1));
    let timers = headless::settle_holding_timers(&mut model, &effects, char_key('r')).await;
    let [timer] = timers.as_slice() else {
        panic!("one refresh is set: {timers:?}")
    };
    let posted = client
        .post_comment(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            "Posted behind quire's back",
            None,
        )
        .await
        .unwrap();
    let next = headless::settle_holding_timers(&mut model, &effects, Msg::Timer(*timer)).await;
    assert_eq!(next.len(), 1, "the next refresh is set");
    assert!(screen(&model).news.new_threads.contains(&posted.id));
    let notice = screen(&model).notice.clone().unwrap();
    assert!(notice.text.contains("1 new thread"), "{notice:?}");
    open_tab(&mut model, ReviewTab::Comments);
    update(&mut model, char_key('g'));
    let drawn = draw_text(&model);
    assert!(drawn.contains("Posted behind quire's back"), "{drawn}");
    assert!(drawn.contains("● new"), "{drawn}");
}

#[tokio::test]
async fn with_watching_off_no_timer_is_ever_set() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let (mut model, effects) = (loaded.model, loaded.effects);
    assert_eq!(model.watch.interval, None);
    let timers = headless::settle_holding_timers(&mut model, &effects, char_key('r')).await;
    assert!(timers.is_empty(), "{timers:?}");
}

#[tokio::test]
async fn an_updated_change_request_is_marked_in_the_list_until_selected() {
    // `_sandbox` is bound, so the server lives to the end of the test.
    let Listed {
        mut model,
        effects,
        _sandbox,
    } = acme_list(tokens::ADMIN).await;
    let client = effects.client.clone().unwrap();
    model.watch.interval = Some(Duration::from_secs(1));
    let timers = headless::settle_holding_timers(&mut model, &effects, char_key('r')).await;
    let [timer] = timers.as_slice() else {
        panic!("{timers:?}")
    };
    let ids = shown_ids(&model);
    let second = list(&model).visible()[1].clone();
    let space = second.space.clone().unwrap();
    client
        .post_comment(&space, &second.id, "A nudge", None)
        .await
        .unwrap();
    headless::settle_holding_timers(&mut model, &effects, Msg::Timer(*timer)).await;
    assert_eq!(
        list(&model).selected().unwrap().id,
        ids[0],
        "selection kept"
    );
    let updated: Vec<_> = list(&model).fresh.iter().cloned().collect();
    assert!(!updated.is_empty(), "something is marked");
    assert!(draw_text(&model).contains("● new"));
    for id in &updated {
        let position = shown_ids(&model).iter().position(|s| s == id).unwrap();
        list_select(&mut model, position);
    }
    assert!(list(&model).fresh.is_empty(), "seen rows lose their mark");
}

/// Moves the list's selection to `position` with `j`/`k`.
fn list_select(model: &mut Model, position: usize) {
    update(model, char_key('g'));
    for _ in 0..position {
        update(model, char_key('j'));
    }
}

#[tokio::test]
async fn the_header_counts_review_requested_in_the_organization() {
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
    headless::settle(
        &mut model,
        &effects,
        Msg::Resize {
            width: 80,
            height: 24,
        },
    )
    .await;
    headless::start(&mut model, &effects).await;
    assert!(!draw_text(&model).contains("review requested"));
    headless::settle_holding_timers(
        &mut model,
        &effects,
        crate::common::key(ratatui::crossterm::event::KeyCode::Enter),
    )
    .await;
    let count = model.watch.review_requested.unwrap();
    assert!(count > 0);
    let drawn = draw_text(&model);
    let header = drawn.lines().next().unwrap();
    assert!(
        header.contains(&format!("{count} review requested")),
        "{header}"
    );
}

#[test]
fn a_role_change_is_undone_by_giving_the_earlier_role_back() {
    use quire::api::models::MemberRole;
    use quire::app::{ApiCall, ApiResponse};
    use quire::vocabulary::members::{MembersCall, MembersResponse};
    let mut model = crate::common::members_teams::members_model(true, 80, 24);
    update(&mut model, char_key('j'));
    update(&mut model, char_key('e'));
    update(&mut model, char_key('G'));
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = crate::common::only_request(&update(&mut model, char_key('y')));
    let mut answered = crate::common::members_teams::members()[1].clone();
    answered.role = None;
    crate::common::respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Updated(Ok(answered.clone()))),
    );
    let entry = model.action_log.newest_first().next().unwrap().clone();
    assert_eq!(entry.what, "Changed Grace Hopper's role from edit to guest");
    update(&mut model, char_key('!'));
    update(&mut model, char_key('u'));
    let (request, call) = crate::common::only_request(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        ApiCall::Members(MembersCall::SetRole {
            organization: crate::common::members_teams::ORG.into(),
            user: "u-grace".into(),
            role: Some(MemberRole::Edit),
        })
    );
    answered.role = Some(MemberRole::Edit);
    crate::common::respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Updated(Ok(answered))),
    );
    assert!(model.action_log.get(entry.id).unwrap().undone);
    assert!(draw_text(&model).contains("Undone."));
}

#[test]
fn a_refused_undo_says_so_and_keeps_the_entry() {
    use quire::app::ApiResponse;
    use quire::vocabulary::members::MembersResponse;
    let mut model = crate::common::members_teams::members_model(true, 80, 24);
    update(&mut model, char_key('j'));
    update(&mut model, char_key('e'));
    update(&mut model, char_key('G'));
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = crate::common::only_request(&update(&mut model, char_key('y')));
    let mut answered = crate::common::members_teams::members()[1].clone();
    answered.role = None;
    crate::common::respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Updated(Ok(answered))),
    );
    update(&mut model, char_key('!'));
    update(&mut model, char_key('u'));
    let (request, _) = crate::common::only_request(&update(&mut model, char_key('y')));
    let refused = quire::api::ApiError::Status {
        endpoint: "PATCH /orgs/o-acme/members/u-grace".into(),
        status: 403,
        code: Some(403),
        message: "Only admins change roles".into(),
    };
    crate::common::respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Updated(Err(refused))),
    );
    assert!(!model.action_log.newest_first().next().unwrap().undone);
    assert!(
        draw_text(&model).contains("The undo failed"),
        "{}",
        draw_text(&model)
    );
}

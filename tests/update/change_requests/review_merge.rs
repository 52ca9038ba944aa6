//! Layer 1 for merging a change request: who may (the server's `permissions.merge`, said in one
//! wording everywhere), the pre-flight at 40x12 (warnings first, a box that scrolls, no merge
//! before every warning was on screen) and `M` on a change request that is merged or archived.

use crate::common::review::{answer, plant_markdown, review, review_call, screen};
use crate::common::{char_key, key, requests};
use quire::api::ApiError;
use quire::app::view::chrome;
use quire::app::{Model, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::Overlay;
use quire::ui::keymap::Action;
use quire::vocabulary::change_requests::{ChangeRequestsCall, ChangeRequestsResponse};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

fn draw(model: &Model) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(model.size.width, model.size.height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

fn notice(model: &Model) -> String {
    screen(model)
        .notice
        .as_ref()
        .map(|notice| notice.text.clone())
        .unwrap_or_default()
}

#[tokio::test]
async fn the_demo_editor_may_merge_and_m_opens_the_preflight() {
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    assert!(screen(model).can_merge(), "the space lets editors merge");
    assert!(!model.top().disabled_actions().contains(&Action::Merge));
    update(model, char_key('M'));
    assert!(
        matches!(screen(model).overlay, Some(Overlay::Preflight(_))),
        "{}",
        notice(model)
    );
    let drawn = draw(model);
    assert!(drawn.contains("✓ You may merge in this space."), "{drawn}");
    let (_, call) = review_call(&update(model, char_key('y')));
    assert!(matches!(call, ChangeRequestsCall::Merge(_)));
}

#[tokio::test]
async fn a_refused_m_says_what_the_preflight_line_says() {
    let mut loaded = review(tokens::REVIEWER, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    let refusal = screen(model).merge_permission_refusal();
    assert_eq!(
        refusal,
        "Your role cannot merge in this space (you are at review level): ask an admin."
    );
    // The overview's checks show it as a warning, first.
    let drawn = draw(model);
    let checks = drawn
        .lines()
        .position(|line| line.contains("Checks before a merge"))
        .expect("the checks");
    let first_check = drawn.lines().nth(checks + 1).unwrap_or_default();
    assert!(first_check.contains(&format!("⚠ {refusal}")), "{drawn}");
    assert!(requests(&update(model, char_key('M'))).is_empty());
    assert!(
        screen(model).overlay.is_none(),
        "no pre-flight to say no in"
    );
    assert_eq!(notice(model), refusal);
}

#[tokio::test]
async fn at_40x12_the_preflight_shows_its_warnings_first_and_scrolls_to_the_rest() {
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_REVIEW, 40, 12).await;
    let model = &mut loaded.model;
    update(model, char_key('M'));
    let drawn = draw(model);
    assert!(drawn.contains("⚠ 18 unresolved threads."), "{drawn}");
    assert!(
        drawn.contains("⚠ Still waiting on: Priya Raman, Sofia"),
        "{drawn}"
    );
    assert!(
        drawn.contains("↓ j: more"),
        "a hint that there is more: {drawn}"
    );
    assert!(!drawn.contains("Merge rules"), "{drawn}");
    assert!(
        drawn.contains("y merge · U update · esc not now"),
        "{drawn}"
    );
    let warning_row = |drawn: &str, text: &str| drawn.lines().position(|l| l.contains(text));
    let passed = warning_row(&drawn, "✓").expect("a passed check");
    let warned = warning_row(&drawn, "⚠").expect("a warning");
    assert!(warned < passed, "warnings before the ✓ lines: {drawn}");
    for _ in 0..4 {
        update(model, char_key('j'));
    }
    update(model, key(KeyCode::Down));
    update(model, key(KeyCode::Down));
    let scrolled = draw(model);
    assert!(scrolled.contains("Merge rules"), "{scrolled}");
    assert!(scrolled.contains("↑ k: back"), "{scrolled}");
    assert!(!scrolled.contains("↓ j: more"), "at the end: {scrolled}");
    update(model, char_key('k'));
    update(model, key(KeyCode::Up));
    assert!(draw(model).contains("↓ j: more"));
}

#[tokio::test]
async fn y_scrolls_unread_warnings_into_view_before_it_merges() {
    // Behind main, unresolved threads, no approval and a pending reviewer: four warnings,
    // more than the box shows at 40x12.
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_OUTDATED, 40, 12).await;
    let model = &mut loaded.model;
    update(model, char_key('M'));
    let opened = draw(model);
    assert!(opened.contains("⚠ Behind main"), "{opened}");
    assert!(
        !opened.contains("Still waiting on"),
        "below the box: {opened}"
    );
    let cmd = update(model, char_key('y'));
    assert!(requests(&cmd).is_empty(), "no merge past an unread warning");
    let nudged = draw(model);
    assert!(
        nudged.contains("⚠ Still waiting on: Priya Raman."),
        "{nudged}"
    );
    assert!(nudged.contains("Read the ⚠, then y merges"), "{nudged}");
    let (_, call) = review_call(&update(model, char_key('y')));
    assert!(matches!(call, ChangeRequestsCall::Merge(_)));
}

#[tokio::test]
async fn reading_the_warnings_with_j_lets_y_merge_at_once() {
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_OUTDATED, 40, 12).await;
    let model = &mut loaded.model;
    update(model, char_key('M'));
    for _ in 0..4 {
        update(model, char_key('j'));
    }
    let (_, call) = review_call(&update(model, char_key('y')));
    assert!(matches!(call, ChangeRequestsCall::Merge(_)));
}

#[tokio::test]
async fn m_on_a_merged_change_request_says_when_and_opens_nothing() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_MERGED, 80, 24).await;
    let model = &mut loaded.model;
    assert!(model.top().disabled_actions().contains(&Action::Merge));
    let reason = screen(model).merge_refusal(model.now()).expect("a reason");
    assert!(
        reason.starts_with("Already merged ") && reason.ends_with(" by Amara Okafor."),
        "{reason}"
    );
    assert!(reason.contains(" ago"), "says when: {reason}");
    assert!(requests(&update(model, char_key('M'))).is_empty());
    assert!(screen(model).overlay.is_none());
    assert_eq!(notice(model), reason);
    assert!(
        !screen(model).notice.as_ref().is_some_and(|n| n.error),
        "news, not an error"
    );
    // The help lists the key struck through, with the reason under it.
    update(model, char_key('?'));
    let help = draw(model);
    let row = help
        .lines()
        .position(|line| line.contains("merge (shows a pre-flight check first)"))
        .expect("M in the help");
    let under = help.lines().nth(row + 1).unwrap_or_default();
    assert!(under.contains("Already merged"), "{help}");
}

#[tokio::test]
async fn m_on_an_archived_change_request_says_so() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_ARCHIVED, 80, 24).await;
    let model = &mut loaded.model;
    assert!(model.top().disabled_actions().contains(&Action::Merge));
    update(model, char_key('M'));
    assert!(screen(model).overlay.is_none());
    let said = notice(model);
    assert!(
        said.starts_with("Archived (last changed ")
            && said.ends_with("): only open change requests merge."),
        "{said}"
    );
}

#[tokio::test]
async fn a_merge_refused_as_already_merged_says_so_briefly_and_reloads() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    update(model, char_key('M'));
    let (request, _) = review_call(&update(model, char_key('y')));
    let conflict = ApiError::Status {
        endpoint: format!(
            "POST /spaces/{}/change-requests/{}/merge",
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW
        ),
        status: 409,
        code: Some(409),
        message: "Only an open change request can be merged; this one is merged".into(),
    };
    let cmd = answer(
        model,
        request,
        ChangeRequestsResponse::Merged(Err(conflict)),
    );
    assert_eq!(
        notice(model),
        "Not merged: Only an open change request can be merged; this one is merged."
    );
    assert!(!requests(&cmd).is_empty(), "the review reloads");
}

#[tokio::test]
async fn the_preflight_lists_the_links_a_merge_would_break() {
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_REVIEW, 80, 24).await;
    // A link the change request writes to a page that is nowhere, beside one that works.
    plant_markdown(
        &loaded,
        Some(demo_ids::CR_REVIEW),
        demo_ids::PAGE_QUICKSTART,
        "# Quickstart\n\nSee [the ghost](ghost-page.md) and [Installation](installation.md).\n",
    )
    .await;
    // Main's Welcome links to the checklist the change request deletes.
    plant_markdown(
        &loaded,
        None,
        demo_ids::PAGE_WELCOME,
        "# Welcome\n\nBefore a launch, read [the checklist](launch-checklist-internal.md).\n",
    )
    .await;
    headless::settle(&mut loaded.model, &loaded.effects, char_key('M')).await;
    let drawn = draw(&loaded.model);
    assert!(drawn.contains("⚠ 2 links would break:"), "{drawn}");
    let model = &mut loaded.model;
    for _ in 0..12 {
        update(model, char_key('j'));
    }
    let scrolled = draw(model);
    for line in [
        "· “Quickstart” → ghost-page.md",
        "· “Welcome” → Launch checklist (internal) (deleted here)",
    ] {
        assert!(
            drawn.contains(line) || scrolled.contains(line),
            "`{line}` is in the box:\n{drawn}\n{scrolled}"
        );
    }
    assert!(
        !drawn.contains("installation.md"),
        "a working link is not listed"
    );
    // The warning is read like any other before `y` merges.
    let (_, call) = review_call(&update(model, char_key('y')));
    assert!(matches!(call, ChangeRequestsCall::Merge(_)));
}

#[tokio::test]
async fn links_already_broken_on_main_are_not_the_merges_doing() {
    // The demo's REST API guide links to `architecture.md`, broken on main too.
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_REVIEW, 80, 24).await;
    headless::settle(&mut loaded.model, &loaded.effects, char_key('M')).await;
    let drawn = draw(&loaded.model);
    assert!(drawn.contains("✓ No link would break."), "{drawn}");
    assert!(!drawn.contains("would break:"), "{drawn}");
}

#[tokio::test]
async fn the_preflight_says_while_links_are_checked_and_when_they_could_not_be() {
    let mut loaded = review(tokens::EDITOR, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    let (request, call) = review_call(&update(model, char_key('M')));
    assert!(
        matches!(call, ChangeRequestsCall::BreakingLinks { .. }),
        "{call:?}"
    );
    assert!(
        draw(model).contains("Checking which links would break…"),
        "{}",
        draw(model)
    );
    let refused = ApiError::Status {
        endpoint: "GET /spaces/s/change-requests/c/content/page/p/links".into(),
        status: 500,
        code: Some(500),
        message: "boom".into(),
    };
    answer(
        model,
        request,
        ChangeRequestsResponse::BreakingLinks(Err(refused)),
    );
    let drawn = draw(model);
    assert!(drawn.contains("Links not checked:"), "{drawn}");
    assert!(!drawn.contains("Checking which links"), "{drawn}");
}

/// The message after requesting changes says so in words, not as the API's value.
#[tokio::test]
async fn a_review_requesting_changes_is_told_in_words() {
    let mut loaded = crate::common::review::review(
        quire::sandbox::tokens::ADMIN,
        quire::sandbox::demo_ids::CR_REVIEW,
        120,
        35,
    )
    .await;
    quire::app::update(&mut loaded.model, crate::common::char_key('X'));
    crate::common::review::type_text(&mut loaded.model, "The hint needs a link.");
    quire::headless::settle(&mut loaded.model, &loaded.effects, crate::common::ctrl('s')).await;
    let drawn = crate::common::views::render(&mut loaded.model, 120, 35);
    assert!(
        drawn.contains("Review submitted: changes requested."),
        "{drawn}"
    );
}

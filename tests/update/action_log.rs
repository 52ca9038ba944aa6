//! The action log tells the truth: every write the user makes is listed (replies and restores
//! too), an inverse that a later write already made is shown as gone and `u` on it sends
//! nothing, and an undo that found nothing to do says so. Driven against the real sandbox;
//! what the server stored is read back over HTTP.

use crate::common::review::{open_tab, review, screen};
use crate::common::{ctrl, organizations_model, sandbox_effects};
use quire::app::{Cmd, Model, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewTab;
use quire::vocabulary::action_log::UndoState;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn draw_text(model: &Model) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(model.size.width, model.size.height)).unwrap();
    terminal
        .draw(|frame| quire::app::view::chrome::draw(frame, model))
        .unwrap();
    terminal.backend().to_string()
}

async fn keys(model: &mut Model, effects: &Effects, keys: &str) {
    headless::type_keys(model, effects, keys).await;
}

#[tokio::test]
async fn a_posted_reply_is_logged_as_a_reply() {
    let loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let (mut model, effects) = (loaded.model, loaded.effects);
    open_tab(&mut model, ReviewTab::Comments);
    let before = model.action_log.len();
    keys(&mut model, &effects, "ROn it, thanks").await;
    headless::settle(&mut model, &effects, ctrl('s')).await;
    assert_eq!(
        screen(&model).notice.as_ref().map(|n| n.text.as_str()),
        Some("Reply posted.")
    );
    assert_eq!(
        model.action_log.len(),
        before + 1,
        "one entry for the reply"
    );
    let newest = model.action_log.newest_first().next().unwrap();
    assert!(
        newest.what.starts_with("Replied to ") && newest.what.ends_with("On it, thanks"),
        "{newest:?}"
    );
    keys(&mut model, &effects, "!").await;
    assert!(
        draw_text(&model).contains("Replied to"),
        "{}",
        draw_text(&model)
    );
}

struct Org {
    model: Model,
    effects: Effects,
    sandbox: Sandbox,
}

/// Acme's Spaces tab against a fresh sandbox, with the Employee Handbook selected.
async fn acme_with_the_handbook_selected(width: u16, height: u16) -> Org {
    let (sandbox, effects) = sandbox_effects(SandboxOptions::default(), tokens::ADMIN).await;
    let mut model = organizations_model(width, height);
    headless::start(&mut model, &effects).await;
    keys(&mut model, &effects, "\r/Handbook\r").await;
    assert!(matches!(model.top(), Screen::Organization(_)));
    Org {
        model,
        effects,
        sandbox,
    }
}

/// What the sandbox stores for the Employee Handbook.
async fn handbook(org: &Org) -> quire::api::models::Space {
    let client = org.effects.client.as_ref().unwrap();
    client.get_space(demo_ids::SPACE_HANDBOOK).await.unwrap()
}

/// Deletes the selected space (asked first, then `y`) and checks the sandbox stored it.
async fn delete_the_handbook(org: &mut Org) {
    keys(&mut org.model, &org.effects, "dy").await;
    assert!(handbook(org).await.deleted_at.is_some(), "deleted");
}

#[tokio::test]
async fn a_restore_from_the_trash_is_logged_and_the_delete_can_no_longer_be_undone() {
    let mut org = acme_with_the_handbook_selected(80, 24).await;
    delete_the_handbook(&mut org).await;
    // The Trash tab is the sixth: Spaces, Change requests, Members, Teams, Sites, Trash.
    keys(&mut org.model, &org.effects, "\t\t\t\t\tu").await;
    assert!(handbook(&org).await.deleted_at.is_none(), "restored");

    let entries: Vec<_> = org.model.action_log.newest_first().cloned().collect();
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert_eq!(
        entries[0].what,
        "Restored the space “Employee Handbook” from the trash"
    );
    assert!(entries[1].what.starts_with("Deleted the space"));
    assert!(
        matches!(entries[1].undo_state(), UndoState::Overtaken(why) if why.contains("Restored")),
        "{:?}",
        entries[1]
    );

    // The log says so, and `u` on the delete refuses without sending anything.
    keys(&mut org.model, &org.effects, "!").await;
    let drawn = draw_text(&org.model);
    assert!(drawn.contains("Restored the space"), "{drawn}");
    assert!(drawn.contains("no undo any more"), "{drawn}");
    keys(&mut org.model, &org.effects, "j").await;
    let cmd = update(&mut org.model, crate::common::char_key('u'));
    assert_eq!(cmd, Cmd::None, "nothing is sent");
    let drawn = draw_text(&org.model);
    assert!(drawn.contains("Cannot undo"), "{drawn}");
    assert!(!drawn.contains("Undo:"), "no confirm is asked: {drawn}");
    assert_eq!(org.model.action_log.len(), 2);
    assert!(handbook(&org).await.deleted_at.is_none(), "still restored");
    drop(org.sandbox);
}

#[tokio::test]
async fn an_undo_that_finds_nothing_to_do_says_so() {
    let mut org = acme_with_the_handbook_selected(80, 24).await;
    delete_the_handbook(&mut org).await;
    // Someone else restores it meanwhile.
    let client = org.effects.client.clone().unwrap();
    client
        .restore_space(demo_ids::SPACE_HANDBOOK)
        .await
        .unwrap();
    keys(&mut org.model, &org.effects, "!uy").await;
    let drawn = draw_text(&org.model);
    assert!(drawn.contains("Nothing was undone"), "{drawn}");
    assert!(!drawn.contains("Undone."), "{drawn}");
    let entries: Vec<_> = org.model.action_log.newest_first().cloned().collect();
    assert_eq!(entries.len(), 1, "no undo is logged: {entries:?}");
    assert!(matches!(entries[0].undo_state(), UndoState::Overtaken(_)));
}

#[tokio::test]
async fn undoing_a_delete_from_the_log_restores_it_and_empties_the_trash() {
    let mut org = acme_with_the_handbook_selected(80, 24).await;
    delete_the_handbook(&mut org).await;
    keys(&mut org.model, &org.effects, "!uy").await;
    assert!(draw_text(&org.model).contains("Undone."));
    assert!(handbook(&org).await.deleted_at.is_none(), "restored");
    keys(&mut org.model, &org.effects, "\u{1b}\t\t\t\t\t").await;
    let Screen::Organization(screen) = org.model.top() else {
        panic!("back on the organization")
    };
    assert!(
        !screen
            .trash
            .entries()
            .iter()
            .any(|space| space.id == demo_ids::SPACE_HANDBOOK),
        "the restored space left the trash"
    );
}

#[tokio::test]
async fn a_lock_is_logged_in_the_words_the_tab_said() {
    let mut org = acme_with_the_handbook_selected(80, 24).await;
    keys(&mut org.model, &org.effects, "x").await;
    let newest = org.model.action_log.newest_first().next().cloned();
    let newest = newest.expect("the lock is logged");
    assert_eq!(
        newest.what,
        "“Employee Handbook” locked: all edits are locked"
    );
}

#[tokio::test]
async fn a_write_its_screen_does_not_log_is_logged_in_plain_words() {
    let mut org = acme_with_the_handbook_selected(80, 24).await;
    // A new collection: the Spaces tab keeps no log entry of its own for it.
    keys(&mut org.model, &org.effects, "gnE2E Docs\r").await;
    let newest = org.model.action_log.newest_first().next().cloned();
    let newest = newest.expect("the new collection is logged");
    assert_eq!(newest.what, "Created a collection");
    assert_eq!(newest.place, "Acme Robotics");
}

//! Layer 2 for the change-request screens, at 80x24 and 40x12: the description editor
//! with its kept-blocks summary and the confirmation before saving, the PDF popup, the status
//! and cluster pickers, the new change request's prompt, and what P says in a space. The lists
//! and the review of one change request have the modules below.

mod review;
mod review_diff;
mod review_lists;
mod reviewflow;

use crate::common::review::review;
use crate::common::{char_key, ctrl, key};
use quire::app::view::chrome;
use quire::app::{Model, Msg, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::ChangeRequestList;
use quire::screens::space::SpaceScreen;
use quire::vocabulary::change_requests::ChangeRequestScope;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

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

async fn started(screen: Screen) -> (Model, Effects, Sandbox) {
    let (sandbox, effects) =
        crate::common::sandbox_effects(SandboxOptions::default(), tokens::ADMIN).await;
    let mut model = Model::new(
        screen,
        crate::common::environment(),
        quire::app::Size::default(),
    );
    let resize = Msg::Resize {
        width: 80,
        height: 24,
    };
    headless::settle(&mut model, &effects, resize).await;
    headless::start(&mut model, &effects).await;
    (model, effects, sandbox)
}

async fn with_keys(model: &mut Model, effects: &Effects, keys: &[Msg]) {
    for msg in keys {
        headless::settle(model, effects, msg.clone()).await;
    }
}

#[tokio::test]
async fn the_description_editor_and_its_confirmation() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    crate::common::review::open_tab(
        &mut loaded.model,
        quire::screens::change_requests::review::ReviewTab::Reviews,
    );
    update(&mut loaded.model, char_key('D'));
    snapshot_both("description_editor", &mut loaded.model);
    update(&mut loaded.model, key(KeyCode::Enter));
    update(&mut loaded.model, char_key('x'));
    update(&mut loaded.model, ctrl('s'));
    snapshot_both("description_keeps_blocks", &mut loaded.model);
}

#[tokio::test]
async fn the_pdf_popup() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let effects = loaded.effects.clone();
    // On the changes tab (2), where P means the selected page.
    with_keys(&mut loaded.model, &effects, &[char_key('2'), char_key('P')]).await;
    snapshot_both("pdf_popup", &mut loaded.model);
}

#[tokio::test]
async fn the_status_and_cluster_pickers_and_the_cluster_in_use() {
    let list = ChangeRequestList::new(
        ChangeRequestScope::Organization(demo_ids::ACME.to_string()),
        "Acme Robotics",
    );
    let (mut model, effects, _sandbox) = started(Screen::ChangeRequests(list)).await;
    with_keys(
        &mut model,
        &effects,
        &[char_key('S'), char_key('j'), char_key(' ')],
    )
    .await;
    snapshot_both("status_picker", &mut model);
    with_keys(&mut model, &effects, &[key(KeyCode::Enter), char_key('I')]).await;
    snapshot_both("cluster_picker", &mut model);
    with_keys(
        &mut model,
        &effects,
        &[char_key('j'), char_key('j'), key(KeyCode::Enter)],
    )
    .await;
    snapshot_both("cluster_in_use", &mut model);
}

#[tokio::test]
async fn the_new_change_request_prompt_and_p_in_a_space() {
    let (sandbox, effects) =
        crate::common::sandbox_effects(SandboxOptions::default(), tokens::ADMIN).await;
    let client = effects.client.clone().unwrap();
    let space = client
        .get_space(demo_ids::SPACE_GETTING_STARTED)
        .await
        .unwrap();
    drop(sandbox);
    let (mut model, effects, _sandbox) = started(Screen::Space(SpaceScreen::new(
        space,
        "Acme Robotics".into(),
    )))
    .await;
    let mut keys = vec![char_key('N')];
    keys.extend("Explain token scopes".chars().map(char_key));
    with_keys(&mut model, &effects, &keys).await;
    snapshot_both("new_change_request_prompt", &mut model);
    with_keys(&mut model, &effects, &[key(KeyCode::Esc), char_key('P')]).await;
    snapshot_both("space_pdf_notice", &mut model);
}

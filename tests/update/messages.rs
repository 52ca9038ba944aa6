//! The messages popup (`ctrl-g`): listed in the help, opened over any screen even while a
//! text is being written, closed by `esc`, and honest when there is nothing to show.

use crate::common::review::{open_tab, review};
use crate::common::{ctrl, key};
use quire::app::{KeyContext, Keymap, Overlay, update};
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::ReviewTab;
use quire::ui::keymap::Action;
use ratatui::crossterm::event::KeyCode;

#[test]
fn ctrl_g_is_a_global_key_listed_in_the_help() {
    let rows = Keymap::default().help_rows(&[KeyContext::Global]);
    assert!(
        rows.iter()
            .any(|(keys, help)| keys == "ctrl-g" && *help == Action::ShowMessage.help()),
        "{rows:?}"
    );
}

#[tokio::test]
async fn ctrl_g_opens_over_a_reply_being_written_and_esc_closes_it() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    update(model, crate::common::char_key('R'));
    update(model, ctrl('g'));
    assert_eq!(model.overlay, Some(Overlay::Messages { scroll: 0 }));
    let drawn = crate::common::views::render(model, 80, 24);
    assert!(drawn.contains("No messages yet this session."), "{drawn}");
    update(model, key(KeyCode::Esc));
    assert_eq!(model.overlay, None);
    assert!(
        crate::common::review::screen(model).overlay.is_some(),
        "the reply being written is still open"
    );
}

#[tokio::test]
async fn a_refused_reply_is_read_whole_over_the_composer() {
    use crate::common::review::{answer, forbidden, review_call, type_text};
    use quire::vocabulary::change_requests::ChangeRequestsResponse;
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 40, 12).await;
    let model = &mut loaded.model;
    open_tab(model, ReviewTab::Comments);
    update(model, crate::common::char_key('R'));
    type_text(model, "On it");
    let (request, _) = review_call(&update(model, ctrl('s')));
    answer(
        model,
        request,
        ChangeRequestsResponse::ReplyPosted(Err(forbidden())),
    );
    update(model, ctrl('g'));
    let drawn = crate::common::views::render(model, 40, 12);
    assert!(drawn.contains("The comment role is needed"), "{drawn}");
}

//! Layer 1 for issue 10's change-request work: the description editor (`D`), the PDF popup
//! (`P`), creating a change request (`N`) and the lists' status and cluster pickers (`S`, `I`).
//! Data comes from the sandbox once; then `update` is driven by hand, except where a test says
//! it lets the commands run against the sandbox.

mod common;

use common::review::{forbidden, review, screen};
use common::{char_key, ctrl, key, requests};
use quire::app::review_calls::{ReviewCall, ReviewResponse};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::review::{Confirmation, Overlay, ReviewTab};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

fn review_call(cmd: &Cmd) -> (RequestId, ReviewCall) {
    let all = requests(cmd);
    assert_eq!(all.len(), 1, "{cmd:?}");
    match all.into_iter().next().unwrap() {
        (request, ApiCall::Review(call)) => (request, call),
        other => panic!("not a review call: {other:?}"),
    }
}

fn answer(model: &mut Model, request: RequestId, response: ReviewResponse) -> Cmd {
    update(
        model,
        Msg::Api {
            request,
            response: ApiResponse::Review(response),
        },
    )
}

fn type_text(model: &mut Model, text: &str) -> Vec<Cmd> {
    text.chars().map(|c| update(model, char_key(c))).collect()
}

fn composer_text(model: &Model) -> String {
    match &screen(model).overlay {
        Some(Overlay::Composer { composer, .. }) => composer.text(),
        other => panic!("no composer: {other:?}"),
    }
}

/// Opens the description editor on the Glossary draft change request, whose description the
/// sandbox builds from plain paragraphs (nothing kept).
async fn editing_plain_description() -> common::review::Loaded {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_DRAFT, 120, 35).await;
    update(&mut loaded.model, char_key('D'));
    loaded
}

#[tokio::test]
async fn d_opens_the_description_as_text() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('D'));
    let text = composer_text(model);
    assert!(
        text.starts_with(
            "Support keeps getting [tickets](https://support.acme-robotics.example/t/403)"
        ),
        "{text}"
    );
    assert!(text.contains("- says `fleet:write` up front and adds a _Check your token_ step"));
    assert!(
        text.ends_with("<!-- quire:keep 1 -->"),
        "the hint block: {text}"
    );
    let Some(Overlay::Composer { composer, .. }) = &screen(model).overlay else {
        panic!()
    };
    assert_eq!(
        composer.title,
        "Description — 1 block quire cannot edit is kept as it is"
    );
}

#[tokio::test]
async fn an_unchanged_description_is_not_sent() {
    let mut loaded = editing_plain_description().await;
    let model = &mut loaded.model;
    let cmd = update(model, ctrl('s'));
    assert!(requests(&cmd).is_empty(), "{cmd:?}");
    assert!(screen(model).overlay.is_none());
    assert!(
        screen(model)
            .notice
            .as_ref()
            .is_some_and(|notice| notice.text.contains("unchanged"))
    );
    // Esc on the untouched text closes without asking.
    update(model, char_key('D'));
    update(model, key(KeyCode::Esc));
    assert!(screen(model).overlay.is_none());
}

#[tokio::test]
async fn an_edited_description_is_sent_alone_and_its_draft_dropped_once_saved() {
    let mut loaded = editing_plain_description().await;
    let model = &mut loaded.model;
    let saves = type_text(model, "\n\n## More");
    let Some(Cmd::SaveDraft { key: draft_key, .. }) = saves.last().cloned() else {
        panic!("every key saves the draft: {saves:?}")
    };
    assert!(draft_key.ends_with(".description"), "{draft_key}");
    let (request, call) = review_call(&update(model, ctrl('s')));
    let ReviewCall::SetDescription { document, .. } = call else {
        panic!("{call:?}")
    };
    let nodes = document["nodes"].as_array().unwrap();
    assert_eq!(nodes.last().unwrap()["type"], "heading-2");
    assert_eq!(
        nodes.last().unwrap()["nodes"][0]["leaves"][0]["text"],
        "More"
    );
    // Refused: the text stays in the composer with the reason, and on disk.
    let cmd = answer(
        model,
        request,
        ReviewResponse::DescriptionSet(Err(forbidden())),
    );
    assert_eq!(cmd, Cmd::None);
    assert!(composer_text(model).ends_with("## More"));
    let Some(Overlay::Composer { composer, .. }) = &screen(model).overlay else {
        panic!()
    };
    assert!(composer.error.is_some());
    // Accepted: the composer closes, the draft goes, the screen shows the new description.
    let (request, _) = review_call(&update(model, ctrl('s')));
    let mut saved: quire::api::models::ChangeRequest = serde_json::from_value(json!({
        "id": demo_ids::CR_DRAFT, "subject": "Glossary"
    }))
    .unwrap();
    saved.description = Some(document);
    let cmd = answer(model, request, ReviewResponse::DescriptionSet(Ok(saved)));
    assert_eq!(cmd, Cmd::DiscardDraft { key: draft_key });
    assert!(screen(model).overlay.is_none());
    let shown = screen(model).change_request().unwrap().description.clone();
    assert!(shown.is_some());
}

#[tokio::test]
async fn kept_blocks_are_announced_before_saving_and_no_goes_back_to_the_text() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('D'));
    type_text(model, "\n\nOne more line.");
    let cmd = update(model, ctrl('s'));
    assert!(requests(&cmd).is_empty(), "asks first: {cmd:?}");
    let Some(Overlay::Confirm(Confirmation::SetDescription { kept, .. })) = &screen(model).overlay
    else {
        panic!("{:?}", screen(model).overlay)
    };
    assert_eq!(*kept, 1);
    update(model, char_key('n'));
    assert!(
        composer_text(model).ends_with("One more line."),
        "the text is back"
    );
    update(model, ctrl('s'));
    let (_, call) = review_call(&update(model, char_key('y')));
    let ReviewCall::SetDescription { document, .. } = call else {
        panic!("{call:?}")
    };
    let nodes = document["nodes"].as_array().unwrap();
    let hint = nodes.iter().find(|node| node["type"] == "hint").unwrap();
    assert_eq!(
        hint["key"], "d6",
        "the hint block is sent back exactly as it came"
    );
}

#[tokio::test]
async fn a_placeholder_for_nothing_is_refused_in_the_composer() {
    let mut loaded = editing_plain_description().await;
    let model = &mut loaded.model;
    type_text(model, "\n\n<!-- quire:keep 4 -->");
    let cmd = update(model, ctrl('s'));
    assert!(requests(&cmd).is_empty());
    let Some(Overlay::Composer { composer, .. }) = &screen(model).overlay else {
        panic!()
    };
    assert!(
        composer
            .error
            .as_deref()
            .is_some_and(|error| error.contains("kept block 4")),
        "{:?}",
        composer.error
    );
}

#[tokio::test]
async fn a_description_draft_on_disk_is_what_d_opens() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_DRAFT, 120, 35).await;
    let model = &mut loaded.model;
    let prefix = screen(model).draft_prefix();
    update(
        model,
        Msg::DraftsLoaded {
            prefix: prefix.clone(),
            drafts: vec![(format!("{prefix}description"), "Left half-done".into())],
        },
    );
    update(model, char_key('D'));
    assert_eq!(composer_text(model), "Left half-done");
}

#[tokio::test]
async fn readers_are_told_why_they_cannot_edit_the_description() {
    let mut loaded = review(tokens::READER, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    assert!(
        quire::screens::Screen::disabled_actions(model.top())
            .contains(&quire::app::keymap::Action::EditDescription)
    );
    let cmd = update(model, char_key('D'));
    assert!(requests(&cmd).is_empty());
    assert!(screen(model).overlay.is_none());
    let notice = screen(model).notice.clone().unwrap();
    assert!(
        notice.error && notice.text.contains("edit or above"),
        "{notice:?}"
    );
}

#[tokio::test]
async fn a_saved_description_is_stored_in_the_sandbox() {
    let mut loaded = editing_plain_description().await;
    let effects = loaded.effects.clone();
    let model = &mut loaded.model;
    type_text(model, "\n\n- first\n- second");
    headless::settle(model, &effects, ctrl('s')).await;
    assert!(
        screen(model).overlay.is_none(),
        "{:?}",
        screen(model).notice
    );
    let client = effects.client.clone().unwrap();
    let stored = client
        .get_change_request(demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_DRAFT)
        .await
        .unwrap();
    let nodes = stored.description.unwrap()["nodes"].clone();
    let list = nodes.as_array().unwrap().last().unwrap().clone();
    assert_eq!(list["type"], "list-unordered");
    assert_eq!(list["nodes"].as_array().map(Vec::len), Some(2));
}

// ---------------------------------------------------------------------------------------------
// PDF

#[tokio::test]
async fn p_on_the_changes_tab_asks_for_the_selected_page_and_shows_the_address() {
    let mut loaded = review(tokens::READER, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    assert_eq!(screen(model).tab, ReviewTab::Changes);
    let page = screen(model).selected_page().unwrap().page.clone();
    let (request, call) = review_call(&update(model, char_key('P')));
    assert_eq!(
        call,
        ReviewCall::Pdf {
            target: screen(model).target.clone(),
            page: Some(page),
        }
    );
    answer(
        model,
        request,
        ReviewResponse::Pdf(Ok("https://files.example/cr.pdf".into())),
    );
    assert!(matches!(screen(model).overlay, Some(Overlay::Pdf(_))));
    assert_eq!(
        update(model, char_key('y')),
        Cmd::CopyToClipboard("https://files.example/cr.pdf".into())
    );
    assert_eq!(
        update(model, char_key('o')),
        Cmd::OpenInBrowser("https://files.example/cr.pdf".into())
    );
    update(model, key(KeyCode::Esc));
    assert!(screen(model).overlay.is_none());
}

#[tokio::test]
async fn p_elsewhere_asks_for_the_whole_change_request_and_failures_say_so() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let model = &mut loaded.model;
    update(model, char_key('3'));
    let (request, call) = review_call(&update(model, char_key('P')));
    assert!(
        matches!(call, ReviewCall::Pdf { page: None, .. }),
        "{call:?}"
    );
    answer(model, request, ReviewResponse::Pdf(Err(forbidden())));
    assert!(screen(model).overlay.is_none());
    let notice = screen(model).notice.clone().unwrap();
    assert!(notice.error && notice.text.contains("PDF"), "{notice:?}");
}

#[tokio::test]
async fn the_pdf_address_comes_from_the_sandbox() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let effects = loaded.effects.clone();
    let model = &mut loaded.model;
    update(model, char_key('3'));
    headless::settle(model, &effects, char_key('P')).await;
    let Some(Overlay::Pdf(popup)) = &screen(model).overlay else {
        panic!("{:?}", screen(model).notice)
    };
    assert!(popup.address.ends_with(".pdf"), "{}", popup.address);
}

//! Layer 1 for the change-request work: the description editor (`D`), the PDF popup
//! (`P`), creating a change request (`N`) and the lists' status and cluster pickers (`S`, `I`).
//! Data comes from the sandbox once; then `update` is driven by hand, except where a test says
//! it lets the commands run against the sandbox. The review of one change request has the
//! modules below: its tabs, diff and cursor, authors, merge, and the overview tab's flow.

mod diff_cursor;
mod review;
mod review_authors;
mod review_cells;
mod review_diff;
mod review_links;
mod review_loading;
mod review_merge;
mod review_since;
mod review_titles;
mod reviewflow;

use crate::common::review::{answer, forbidden, review, review_call, screen, type_text};
use crate::common::{char_key, ctrl, key, requests};
use quire::app::{Cmd, Model, Msg, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::{Confirmation, Overlay, ReviewTab};
use quire::vocabulary::change_requests::{ChangeRequestsCall, ChangeRequestsResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

fn composer_text(model: &Model) -> String {
    match &screen(model).overlay {
        Some(Overlay::Composer { composer, .. }) => composer.text(),
        other => panic!("no composer: {other:?}"),
    }
}

/// Opens the description editor on the Glossary draft change request, whose description the
/// sandbox builds from plain paragraphs (nothing kept).
async fn editing_plain_description() -> crate::common::review::Loaded {
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
    let ChangeRequestsCall::SetDescription { document, .. } = call else {
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
        ChangeRequestsResponse::DescriptionSet(Err(forbidden())),
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
    let cmd = answer(
        model,
        request,
        ChangeRequestsResponse::DescriptionSet(Ok(saved)),
    );
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
    let ChangeRequestsCall::SetDescription { document, .. } = call else {
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
            .contains(&quire::ui::keymap::Action::EditDescription)
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
    crate::common::review::open_tab(model, ReviewTab::Changes);
    let page = screen(model).selected_page().unwrap().page.clone();
    let (request, call) = review_call(&update(model, char_key('P')));
    assert_eq!(
        call,
        ChangeRequestsCall::Pdf {
            target: screen(model).target.clone(),
            page: Some(page),
        }
    );
    answer(
        model,
        request,
        ChangeRequestsResponse::Pdf(Ok("https://files.example/cr.pdf".into())),
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
    crate::common::review::open_tab(model, ReviewTab::Reviews);
    let (request, call) = review_call(&update(model, char_key('P')));
    assert!(
        matches!(call, ChangeRequestsCall::Pdf { page: None, .. }),
        "{call:?}"
    );
    answer(
        model,
        request,
        ChangeRequestsResponse::Pdf(Err(forbidden())),
    );
    assert!(screen(model).overlay.is_none());
    let notice = screen(model).notice.clone().unwrap();
    assert!(notice.error && notice.text.contains("PDF"), "{notice:?}");
}

#[tokio::test]
async fn the_pdf_address_comes_from_the_sandbox() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    let effects = loaded.effects.clone();
    let model = &mut loaded.model;
    crate::common::review::open_tab(model, ReviewTab::Reviews);
    headless::settle(model, &effects, char_key('P')).await;
    let Some(Overlay::Pdf(popup)) = &screen(model).overlay else {
        panic!("{:?}", screen(model).notice)
    };
    assert!(popup.address.ends_with(".pdf"), "{}", popup.address);
}

// ---------------------------------------------------------------------------------------------
// Lists: several statuses, the cluster filter, a new change request

use quire::api::models::ChangeRequestStatus;
use quire::runtime::Effects;
use quire::sandbox::Sandbox;
use quire::screens::Screen;
use quire::screens::change_requests::ChangeRequestList;
use quire::vocabulary::change_requests::ChangeRequestScope;

struct Listed {
    model: Model,
    effects: Effects,
    _sandbox: Sandbox,
}

/// A screen made from the Getting Started space (as the sandbox gives it to `token`), started
/// against the sandbox at 100x30.
async fn driven(token: &str, make: impl FnOnce(quire::api::models::Space) -> Screen) -> Listed {
    let (sandbox, effects) =
        crate::common::sandbox_effects(quire::sandbox::SandboxOptions::default(), token).await;
    let client = effects.client.clone().unwrap();
    let space = client
        .get_space(demo_ids::SPACE_GETTING_STARTED)
        .await
        .unwrap();
    let mut model = Model::new(
        make(space),
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

/// A change-request list: with `space` the Getting Started space's list, opened the way the
/// space screen does, else Acme's whole list.
async fn listed(token: &str, space: bool) -> Listed {
    driven(token, |found| {
        Screen::ChangeRequests(if space {
            ChangeRequestList::for_space(&found)
        } else {
            ChangeRequestList::new(
                ChangeRequestScope::Organization(demo_ids::ACME.to_string()),
                "Acme Robotics",
            )
        })
    })
    .await
}

fn list(model: &Model) -> &ChangeRequestList {
    match model.top() {
        Screen::ChangeRequests(list) => list,
        _ => panic!("not on a change-request list"),
    }
}

fn shown_ids(model: &Model) -> Vec<String> {
    let mut ids: Vec<String> = list(model)
        .list
        .items
        .iter()
        .map(|change_request| change_request.id.clone())
        .collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn several_statuses_of_a_space_come_through_its_organization() {
    let mut listed = listed(tokens::ADMIN, true).await;
    let model = &mut listed.model;
    update(model, char_key('S'));
    let Some(picker) = &list(model).picker else {
        panic!("the status picker is open")
    };
    assert!(picker.multiple);
    // Open is ticked; tick draft (second) and merged (third) too.
    type_text(model, "j j ");
    let (_, call) = review_call(&update(model, key(KeyCode::Enter)));
    let ChangeRequestsCall::ListChangeRequests { scope, filter, .. } = call else {
        panic!("{call:?}")
    };
    assert_eq!(
        scope,
        ChangeRequestScope::Organization(demo_ids::ACME.to_string())
    );
    assert_eq!(
        filter.space.as_deref(),
        Some(demo_ids::SPACE_GETTING_STARTED)
    );
    assert_eq!(
        filter.statuses,
        [
            ChangeRequestStatus::Open,
            ChangeRequestStatus::Draft,
            ChangeRequestStatus::Merged
        ]
    );
    // Against the sandbox: drafts and merged ones of this space only, with the open ones.
    let effects = listed.effects.clone();
    let model = &mut listed.model;
    type_text(model, "Sjjj ");
    headless::settle(model, &effects, key(KeyCode::Enter)).await;
    let ids = shown_ids(model);
    for id in [
        demo_ids::CR_REVIEW,
        demo_ids::CR_DRAFT,
        demo_ids::CR_MERGED,
        demo_ids::CR_ARCHIVED,
    ] {
        assert!(ids.contains(&id.to_string()), "{id} in {ids:?}");
    }
    assert!(
        !ids.contains(&demo_ids::CR_RUNBOOK.to_string()),
        "another space's"
    );
}

#[tokio::test]
async fn no_status_ticked_is_refused_and_one_status_uses_the_space_list() {
    let mut listed = listed(tokens::ADMIN, true).await;
    let model = &mut listed.model;
    type_text(model, "S ");
    let cmd = update(model, key(KeyCode::Enter));
    assert!(requests(&cmd).is_empty());
    assert!(
        list(model)
            .creation
            .notice
            .as_ref()
            .is_some_and(|n| n.error)
    );
    update(model, key(KeyCode::Esc));
    type_text(model, "S j ");
    let (_, call) = review_call(&update(model, key(KeyCode::Enter)));
    let ChangeRequestsCall::ListChangeRequests { scope, filter, .. } = call else {
        panic!("{call:?}")
    };
    assert_eq!(
        scope,
        ChangeRequestScope::Space(demo_ids::SPACE_GETTING_STARTED.to_string())
    );
    assert_eq!(filter.statuses, [ChangeRequestStatus::Draft]);
}

#[tokio::test]
async fn a_space_list_without_its_organization_picks_one_status() {
    let space = ChangeRequestList::new(
        ChangeRequestScope::Space(demo_ids::SPACE_GETTING_STARTED.to_string()),
        "Getting Started",
    );
    let mut model = Model::new(
        Screen::ChangeRequests(space),
        crate::common::environment(),
        quire::app::Size::default(),
    );
    update(&mut model, char_key('S'));
    let Some(picker) = &list(&model).picker else {
        panic!()
    };
    assert!(!picker.multiple);
    update(&mut model, char_key('j'));
    let (_, call) = review_call(&update(&mut model, key(KeyCode::Enter)));
    let ChangeRequestsCall::ListChangeRequests { filter, .. } = call else {
        panic!()
    };
    assert_eq!(filter.statuses, [ChangeRequestStatus::Draft]);
}

#[tokio::test]
async fn i_loads_the_clusters_once_and_filters_by_the_one_picked() {
    let mut listed = listed(tokens::ADMIN, false).await;
    let (_, call) = review_call(&update(&mut listed.model, char_key('I')));
    assert_eq!(
        call,
        ChangeRequestsCall::ListIssueClusters {
            organization: demo_ids::ACME.to_string()
        }
    );
    // With the sandbox: the picker opens on "any cluster" with the four demo clusters.
    let mut fresh = self::listed(tokens::ADMIN, false).await;
    headless::settle(&mut fresh.model, &fresh.effects, char_key('I')).await;
    let Some(picker) = &list(&fresh.model).picker else {
        panic!("{:?}", list(&fresh.model).creation.notice)
    };
    assert_eq!(picker.options.len(), 5);
    assert_eq!(picker.options[0].label, "any cluster");
    let token_errors = picker
        .options
        .iter()
        .position(|option| option.value == demo_ids::CLUSTER_TOKEN_ERRORS)
        .unwrap();
    for _ in 0..token_errors {
        update(&mut fresh.model, char_key('j'));
    }
    headless::settle(&mut fresh.model, &fresh.effects, key(KeyCode::Enter)).await;
    assert_eq!(shown_ids(&fresh.model), [demo_ids::CR_REVIEW]);
    assert_eq!(
        list(&fresh.model)
            .cluster
            .as_ref()
            .map(|(_, label)| label.as_str()),
        Some("Token scope errors")
    );
    // Asked again: no second request, the picker opens on the cluster in use.
    let cmd = update(&mut fresh.model, char_key('I'));
    assert!(requests(&cmd).is_empty());
    let picker = list(&fresh.model).picker.as_ref().unwrap();
    assert_eq!(picker.selection.selected, token_errors);
    // "any cluster" drops the filter.
    update(&mut fresh.model, char_key('g'));
    headless::settle(&mut fresh.model, &fresh.effects, key(KeyCode::Enter)).await;
    assert!(list(&fresh.model).cluster.is_none());
    assert!(shown_ids(&fresh.model).len() > 1);
}

#[tokio::test]
async fn a_server_without_clusters_says_so() {
    let mut listed = listed(tokens::ADMIN, false).await;
    let model = &mut listed.model;
    let (request, _) = review_call(&update(model, char_key('I')));
    let missing = quire::api::ApiError::Status {
        endpoint: "GET /orgs/o/conversations-clusters".into(),
        status: 404,
        code: Some(404),
        message: "Not found".into(),
    };
    answer(
        model,
        request,
        ChangeRequestsResponse::IssueClusters(Err(missing)),
    );
    assert!(list(model).picker.is_none());
    let notice = list(model).creation.notice.clone().unwrap();
    assert!(notice.error && notice.text.contains("no conversations issues clusters"));
}

#[tokio::test]
async fn n_in_a_space_list_creates_and_opens_the_review() {
    let mut listed = listed(tokens::EDITOR, true).await;
    let effects = listed.effects.clone();
    let model = &mut listed.model;
    update(model, char_key('N'));
    assert!(list(model).creation.creating.is_some());
    // An empty subject is refused as typed: enter sends nothing.
    assert!(requests(&update(model, key(KeyCode::Enter))).is_empty());
    type_text(model, "Explain token scopes");
    headless::settle(model, &effects, key(KeyCode::Enter)).await;
    let Screen::Review(review) = model.top() else {
        panic!("the new change request opens in review")
    };
    let created = review.change_request().unwrap();
    assert_eq!(created.subject, "Explain token scopes");
    assert_eq!(created.number, Some(7));
    // Stored in the sandbox.
    let client = effects.client.clone().unwrap();
    let stored = client
        .get_change_request(demo_ids::SPACE_GETTING_STARTED, &created.id)
        .await
        .unwrap();
    assert_eq!(stored.subject, "Explain token scopes");
}

#[tokio::test]
async fn a_refused_create_keeps_the_subject_and_says_why() {
    let mut listed = listed(tokens::EDITOR, true).await;
    let model = &mut listed.model;
    update(model, char_key('N'));
    type_text(model, "Later");
    let (request, call) = review_call(&update(model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        ChangeRequestsCall::Create {
            space: demo_ids::SPACE_GETTING_STARTED.to_string(),
            subject: "Later".to_string()
        }
    );
    answer(
        model,
        request,
        ChangeRequestsResponse::Created(Err(forbidden())),
    );
    let creating = list(model).creation.creating.as_ref().unwrap();
    assert_eq!(creating.prompt.input.text, "Later");
    let notice = list(model).creation.notice.clone().unwrap();
    assert!(notice.error && notice.text.contains("Creating the change request"));
}

#[tokio::test]
async fn n_is_refused_for_readers_and_across_an_organization() {
    let mut listed = listed(tokens::READER, true).await;
    let model = &mut listed.model;
    assert!(
        Screen::disabled_actions(model.top())
            .contains(&quire::ui::keymap::Action::NewChangeRequest)
    );
    update(model, char_key('N'));
    assert!(list(model).creation.creating.is_none());
    let notice = list(model).creation.notice.clone().unwrap();
    assert!(
        notice
            .text
            .contains("You are at read level here: creating a change request needs edit or above"),
        "{notice:?}"
    );
    let mut organization = self::listed(tokens::ADMIN, false).await;
    update(&mut organization.model, char_key('N'));
    let notice = list(&organization.model).creation.notice.clone().unwrap();
    assert!(notice.text.contains("belong to a space"), "{notice:?}");
}

// ---------------------------------------------------------------------------------------------
// The space screen and the reader: N creates, P says what a PDF needs

use quire::screens::space::SpaceScreen;

/// The Getting Started space screen, loaded from the sandbox as `token`.
async fn space_screen(token: &str) -> Listed {
    driven(token, |space| {
        Screen::Space(SpaceScreen::new(space, "Acme Robotics".into()))
    })
    .await
}

fn space(model: &Model) -> &SpaceScreen {
    match model.top() {
        Screen::Space(space) => space,
        _ => panic!("not on the space screen"),
    }
}

#[tokio::test]
async fn n_in_the_space_creates_a_change_request_and_opens_it() {
    let mut loaded = space_screen(tokens::EDITOR).await;
    let effects = loaded.effects.clone();
    let model = &mut loaded.model;
    update(model, char_key('N'));
    assert!(space(model).change_requests.creating.is_some());
    type_text(model, "Fix the FAQ");
    headless::settle(model, &effects, key(KeyCode::Enter)).await;
    let Screen::Review(review) = model.top() else {
        panic!("{:?}", space(model).change_requests.notice)
    };
    assert_eq!(review.change_request().unwrap().subject, "Fix the FAQ");
    // Esc goes back to the space.
    update(model, key(KeyCode::Esc));
    assert!(matches!(model.top(), Screen::Space(_)));
}

#[tokio::test]
async fn n_in_the_space_is_refused_for_readers_and_esc_cancels_the_prompt() {
    let mut loaded = space_screen(tokens::READER).await;
    let model = &mut loaded.model;
    assert!(
        Screen::disabled_actions(model.top())
            .contains(&quire::ui::keymap::Action::NewChangeRequest)
    );
    update(model, char_key('N'));
    assert!(space(model).change_requests.creating.is_none());
    let notice = space(model).change_requests.notice.clone().unwrap();
    assert!(
        notice.error && notice.text.contains("edit or above"),
        "{notice:?}"
    );
    let mut editor = space_screen(tokens::EDITOR).await;
    update(&mut editor.model, char_key('N'));
    type_text(&mut editor.model, "Never mind");
    let cmd = update(&mut editor.model, key(KeyCode::Esc));
    assert!(requests(&cmd).is_empty());
    assert!(space(&editor.model).change_requests.creating.is_none());
}

#[tokio::test]
async fn p_in_the_space_and_in_the_reader_says_pdfs_are_made_of_change_requests() {
    let mut loaded = space_screen(tokens::ADMIN).await;
    let effects = loaded.effects.clone();
    let model = &mut loaded.model;
    let cmd = update(model, char_key('P'));
    assert!(requests(&cmd).is_empty());
    let notice = space(model).change_requests.notice.clone().unwrap();
    assert!(!notice.error && notice.text.contains("PDFs are of change requests only"));
    // The reader of a main-content page says the same.
    headless::settle(model, &effects, key(KeyCode::Enter)).await;
    let Screen::Page(_) = model.top() else {
        panic!("reading a page")
    };
    update(model, char_key('P'));
    let Screen::Page(page) = model.top() else {
        panic!()
    };
    let notice = page.change_requests.notice.clone().unwrap();
    assert!(notice.text.contains("PDFs are of change requests only"));
}

/// The subject of a change request not created yet is drafted as it is typed; `esc` keeps it
/// for the next `N`, a subject from an earlier run fills an untouched prompt, and the create
/// the server takes drops the draft.
#[tokio::test]
async fn a_new_change_requests_subject_survives_esc_and_an_earlier_run() {
    use crate::common::drafts::{discards_draft, loads_drafts, saved_draft};
    let key_name = format!("change-request-subject:{}", demo_ids::SPACE_GETTING_STARTED);
    let mut first = listed(tokens::EDITOR, true).await;
    let model = &mut first.model;
    let opened = update(model, char_key('N'));
    assert!(loads_drafts(&opened, &key_name), "{opened:?}");
    let typed = type_text(model, "Explain tokens");
    assert_eq!(
        saved_draft(typed.last().unwrap(), &key_name).as_deref(),
        Some("Explain tokens")
    );
    update(model, key(KeyCode::Esc));
    assert!(list(model).creation.creating.is_none());
    update(model, char_key('N'));
    let creating = list(model).creation.creating.as_ref().unwrap();
    assert_eq!(creating.prompt.input.text, "Explain tokens", "offered back");

    let mut fresh = listed(tokens::EDITOR, true).await;
    let model = &mut fresh.model;
    update(model, char_key('N'));
    update(
        model,
        Msg::DraftsLoaded {
            prefix: key_name.clone(),
            drafts: vec![(key_name.clone(), "Explain token scopes".into())],
        },
    );
    let creating = list(model).creation.creating.as_ref().unwrap();
    assert_eq!(creating.prompt.input.text, "Explain token scopes");
    let (request, _) = review_call(&update(model, key(KeyCode::Enter)));
    let created: quire::api::models::ChangeRequest =
        serde_json::from_value(json!({"id": "cr-new", "subject": "Explain token scopes"})).unwrap();
    let answered = answer(model, request, ChangeRequestsResponse::Created(Ok(created)));
    assert!(discards_draft(&answered, &key_name), "{answered:?}");
}

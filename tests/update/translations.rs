//! Layer 1 for the Translations tab: `update` on its own. Keys and answers in, the state and
//! the exact calls out: every action, the refusals by role and the server's refusals.

use std::collections::HashMap;

use crate::common::*;
use quire::api::models::{Space, Translation};
use quire::api::{ApiError, NewTranslation, NewTranslationSource};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, Size, update};
use quire::screens::organization::Organization;
use quire::screens::{Screen, ScreenState};
use quire::ui::keymap::Action;
use quire::vocabulary::translations::{TranslationList, TranslationsCall, TranslationsResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::json;

pub(crate) const ORG: &str = "org-1";

pub(crate) fn organization(admin: bool) -> quire::api::models::Organization {
    let mut value = organization_json(ORG, "Acme");
    value["permissions"] = json!({"view": true, "admin": admin, "createOpenAPISpec": admin});
    from_json(value)
}

fn translation(id: &str, language: &str, status: &str, result: Option<&str>) -> Translation {
    let mut value = json!({
        "object": "translation", "id": id, "status": status,
        "source": {"space": "spc-docs", "language": "en"}, "language": language,
        "instructions": {"object": "document", "data": {}, "nodes": [
            {"object": "block", "type": "paragraph", "data": {}, "nodes": [
                {"object": "text", "leaves": [{"object": "leaf", "text": "Be formal.", "marks": []}]}]}]},
        "createdAt": "2024-01-10T09:00:00.000Z", "updatedAt": "2024-01-10T09:00:00.000Z",
        "stats": {"runs": 2, "totalWords": 900, "totalPages": 6, "totalDuration": 4000,
                  "latestRunDuration": 2000, "latestPages": 3, "latestWords": 450},
        "permissions": {"view": true, "edit": true},
        "urls": {"location": format!("https://api.example/v1/orgs/{ORG}/translations/{id}")}
    });
    if let Some(space) = result {
        value["result"] = json!({"space": space, "revision": "rev-1", "language": language});
    }
    from_json(value)
}

fn space(id: &str, title: &str) -> Space {
    let mut value = space_json(id, title, None);
    value["language"] = json!("en");
    from_json(value)
}

fn translation_list(translations: Vec<Translation>) -> TranslationList {
    let spaces = vec![space("spc-docs", "Docs"), space("spc-docs-fr", "Docs (fr)")];
    TranslationList {
        translations,
        space_titles: spaces
            .iter()
            .map(|s| (s.id.clone(), s.title.clone()))
            .collect::<HashMap<_, _>>(),
        spaces,
        unreadable: 0,
        stopped_after_pages: None,
    }
}

pub(crate) fn org_model(admin: bool) -> Model {
    let mut model = Model::new(
        Screen::Organization(Organization::new(organization(admin))),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    );
    model.init();
    model
}

/// Tabs forward `count` times; the last tab's command.
pub(crate) fn tabs(model: &mut Model, count: usize) -> Cmd {
    let mut cmd = Cmd::None;
    for _ in 0..count {
        cmd = update(model, key(KeyCode::Tab));
    }
    cmd
}

fn translations_call(cmd: &Cmd) -> (RequestId, TranslationsCall) {
    match only_request(cmd) {
        (request, ApiCall::Translations(call)) => (request, call),
        (_, other) => panic!("expected a translations call, got {other:?}"),
    }
}

pub(crate) fn org_screen(model: &Model) -> &Organization {
    match model.top() {
        Screen::Organization(screen) => screen,
        other => panic!("expected the organization screen, got {}", other.title()),
    }
}

fn translations_notice(model: &Model) -> String {
    org_screen(model)
        .translations
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

pub(crate) fn type_text(model: &mut Model, text: &str) -> Cmd {
    let mut cmds = Vec::new();
    for c in text.chars() {
        cmds.push(update(model, char_key(c)));
    }
    Cmd::batch(cmds)
}

/// The Translations tab shown, its list answered with `translations`.
fn translations_model(admin: bool, translations: Vec<Translation>) -> Model {
    let mut model = org_model(admin);
    let cmd = tabs(&mut model, 6);
    assert!(
        matches!(&cmd, Cmd::Batch(cmds) if cmds.contains(&Cmd::LoadDrafts { prefix: format!("translation:{ORG}:") })),
        "the drafts are asked for: {cmd:?}"
    );
    let (request, call) = translations_call(&cmd);
    assert_eq!(
        call,
        TranslationsCall::List {
            organization: ORG.into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::List(Ok(translation_list(
            translations,
        )))),
    );
    model
}

pub(crate) fn refused(status: u16, message: &str) -> ApiError {
    ApiError::Status {
        endpoint: "POST /x".into(),
        status,
        code: Some(i64::from(status)),
        message: message.into(),
    }
}

#[test]
fn run_now_says_it_started_reloads_and_polls_while_running() {
    let mut model = translations_model(
        true,
        vec![translation("t-fr", "fr", "completed", Some("spc-docs-fr"))],
    );
    let cmd = update(&mut model, char_key('x'));
    let (request, call) = translations_call(&cmd);
    assert_eq!(
        call,
        TranslationsCall::Run {
            organization: ORG.into(),
            id: "t-fr".into()
        }
    );
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Done(Ok(()))),
    );
    assert_eq!(translations_notice(&model), "Run started: Docs → French.");
    let (request, call) = translations_call(&cmd);
    assert_eq!(
        call,
        TranslationsCall::List {
            organization: ORG.into()
        }
    );
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::List(Ok(translation_list(vec![
            translation("t-fr", "fr", "running", Some("spc-docs-fr")),
        ])))),
    );
    let Cmd::Timer { id, .. } = cmd else {
        panic!("a running translation is read again later: {cmd:?}")
    };
    let cmd = update(&mut model, Msg::Timer(id));
    assert_eq!(
        translations_call(&cmd).1,
        TranslationsCall::Running {
            organization: ORG.into(),
            ids: vec!["t-fr".into()]
        },
        "alone, not the whole list"
    );
}

/// While a run goes on, the poll reads the running translation alone; once it ended, the
/// list is read again (a run may have made its result space).
#[tokio::test]
async fn a_running_translation_is_polled_alone_until_its_run_ends() {
    use quire::api::{Client, ClientConfig, Token};
    use quire::headless;
    use quire::sandbox::{Sandbox, SandboxOptions, tokens};
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .unwrap();
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let effects = headless::effects_with(client);
    let mut model = organizations_model(100, 30);
    headless::start(&mut model, &effects).await;
    // Acme, then the Translations tab (the seventh).
    headless::type_keys(&mut model, &effects, "\r\t\t\t\t\t\t").await;
    let id = org_screen(&model)
        .translations
        .selected()
        .expect("a translation")
        .id
        .clone();
    // A run takes the sandbox's time: stopped, it moves only as the test says.
    sandbox.clock().stop();
    let timers = headless::settle_holding_timers(&mut model, &effects, char_key('x')).await;
    let poll = *timers.last().expect("polled while it runs");
    let selected = |model: &Model| org_screen(model).translations.selected().cloned().unwrap();
    assert_eq!(selected(&model).status.to_string(), "running");
    let run = quire::sandbox::TRANSLATION_RUN_SECONDS.unsigned_abs();
    sandbox.clock().advance(std::time::Duration::from_secs(run));
    let single = format!("/orgs/*/translations/{id}");
    let lists = sandbox.requests("GET", "/orgs/*/translations");
    let timers = headless::settle_holding_timers(&mut model, &effects, Msg::Timer(poll)).await;
    assert_eq!(sandbox.requests("GET", &single), 1, "read alone");
    assert_eq!(
        sandbox.requests("GET", "/orgs/*/translations"),
        lists + 1,
        "the list once, after the run ended"
    );
    assert!(timers.is_empty(), "nothing runs any more");
    assert_eq!(selected(&model).status.to_string(), "completed");
}

#[test]
fn a_failed_run_says_why() {
    let mut model = translations_model(true, vec![translation("t-fr", "fr", "completed", None)]);
    let (request, _) = translations_call(&update(&mut model, char_key('x')));
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Done(Err(refused(
            404,
            "No translation found with id \"t-fr\"",
        )))),
    );
    assert_eq!(cmd, Cmd::None);
    assert!(
        translations_notice(&model).contains("did not start: No translation found"),
        "{}",
        translations_notice(&model)
    );
}

#[test]
fn create_picks_language_space_and_source_language_then_sends_instructions() {
    let mut model = translations_model(true, vec![]);
    update(&mut model, char_key('n'));
    // English is first; French second.
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    // The space picker: Docs first.
    update(&mut model, key(KeyCode::Enter));
    // The source language starts on the space's own (en).
    update(&mut model, key(KeyCode::Enter));
    let cmd = type_text(&mut model, "Tu");
    let draft_key = format!("translation:{ORG}:new");
    assert!(
        matches!(&cmd, Cmd::Batch(cmds) if cmds.contains(&Cmd::SaveDraft { key: draft_key.clone(), text: "Tu".into() })),
        "{cmd:?}"
    );
    let cmd = update(&mut model, ctrl('s'));
    let (request, call) = translations_call(&cmd);
    let TranslationsCall::Create {
        organization,
        translation: sent,
    } = call
    else {
        panic!("{call:?}")
    };
    assert_eq!(organization, ORG);
    assert_eq!(sent.language, "fr");
    assert_eq!(
        sent.source,
        NewTranslationSource {
            space: "spc-docs".into(),
            language: "en".into()
        }
    );
    let instructions = sent.instructions.clone().expect("instructions sent");
    assert_eq!(instructions["nodes"][0]["type"], "paragraph");
    // Refused: the text stays, the error says why.
    respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Saved(Err(refused(
            400,
            "Invalid \"language\"",
        )))),
    );
    let cmd = update(&mut model, ctrl('s'));
    let (request, call) = translations_call(&cmd);
    assert_eq!(
        call,
        TranslationsCall::Create {
            organization: ORG.into(),
            translation: NewTranslation { ..sent }
        }
    );
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Saved(Ok(translation(
            "t-new", "fr", "pending", None,
        )))),
    );
    assert!(
        matches!(&cmd, Cmd::Batch(cmds) if cmds.contains(&Cmd::DiscardDraft { key: draft_key.clone() })),
        "{cmd:?}"
    );
    assert!(matches!(
        translations_call(&Cmd::batch(match cmd {
            Cmd::Batch(c) => c
                .into_iter()
                .filter(|c| matches!(c, Cmd::Api { .. }))
                .collect::<Vec<_>>(),
            other => vec![other],
        }))
        .1,
        TranslationsCall::List { .. }
    ));
    assert_eq!(translations_notice(&model), "Created Docs → French.");
}

#[test]
fn a_refused_create_keeps_the_text_and_names_the_field() {
    let mut model = translations_model(true, vec![]);
    for msg in [
        char_key('n'),
        key(KeyCode::Enter),
        key(KeyCode::Enter),
        key(KeyCode::Enter),
    ] {
        update(&mut model, msg);
    }
    type_text(&mut model, "Keep it short");
    let (request, _) = translations_call(&update(&mut model, ctrl('s')));
    respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Saved(Err(refused(
            400,
            "Invalid \"language\": the target language is the source language",
        )))),
    );
    let tab = &org_screen(&model).translations;
    let Some(quire::screens::translations::Modal::Composer { composer, .. }) = &tab.modal else {
        panic!("the composer stays open");
    };
    assert_eq!(composer.text(), "Keep it short");
    assert!(
        composer
            .error
            .as_deref()
            .unwrap_or_default()
            .contains("the target language is the source language")
    );
    assert!(!composer.submitting);
}

#[test]
fn instructions_are_edited_as_text_and_sent_as_a_document() {
    let mut model = translations_model(true, vec![translation("t-fr", "fr", "completed", None)]);
    update(&mut model, char_key('e'));
    let draft_key = format!("translation:{ORG}:t-fr");
    let cmd = type_text(&mut model, "!");
    assert_eq!(
        cmd,
        Cmd::SaveDraft {
            key: draft_key.clone(),
            text: "Be formal.!".into()
        }
    );
    let (request, call) = translations_call(&update(&mut model, ctrl('s')));
    let TranslationsCall::SetInstructions {
        id, instructions, ..
    } = call
    else {
        panic!("{call:?}")
    };
    assert_eq!(id, "t-fr");
    assert_eq!(instructions["object"], "document");
    assert_eq!(
        instructions["nodes"][0]["nodes"][0]["leaves"][0]["text"],
        "Be formal.!"
    );
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Saved(Ok(translation(
            "t-fr",
            "fr",
            "completed",
            None,
        )))),
    );
    assert!(
        matches!(&cmd, Cmd::Batch(cmds) if cmds.contains(&Cmd::DiscardDraft { key: draft_key })),
        "{cmd:?}"
    );
    assert_eq!(
        translations_notice(&model),
        "Instructions saved for Docs → French."
    );
}

#[test]
fn a_draft_left_behind_comes_back_in_the_editor() {
    let mut model = translations_model(true, vec![translation("t-fr", "fr", "completed", None)]);
    let prefix = format!("translation:{ORG}:");
    update(
        &mut model,
        Msg::DraftsLoaded {
            prefix: prefix.clone(),
            drafts: vec![(format!("{prefix}t-fr"), "Unsent words".into())],
        },
    );
    update(&mut model, char_key('e'));
    let tab = &org_screen(&model).translations;
    let Some(quire::screens::translations::Modal::Composer { composer, .. }) = &tab.modal else {
        panic!("composer")
    };
    assert_eq!(composer.text(), "Unsent words");
    assert_eq!(translations_notice(&model), "Your unsent draft is back.");
    assert!(org_screen(&model).unsaved_work().is_some());
}

#[test]
fn delete_asks_first_and_cancel_sends_nothing() {
    let mut model = translations_model(
        true,
        vec![translation("t-fr", "fr", "completed", Some("spc-docs-fr"))],
    );
    update(&mut model, char_key('d'));
    assert_eq!(update(&mut model, char_key('n')), Cmd::None);
    update(&mut model, char_key('d'));
    let (request, call) = translations_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        TranslationsCall::Delete {
            organization: ORG.into(),
            id: "t-fr".into()
        }
    );
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Done(Ok(()))),
    );
    assert_eq!(translations_notice(&model), "Deleted Docs → French.");
    assert!(matches!(
        translations_call(&cmd).1,
        TranslationsCall::List { .. }
    ));
}

#[test]
fn writes_are_refused_and_struck_through_for_non_admins() {
    let mut model = translations_model(false, vec![translation("t-fr", "fr", "completed", None)]);
    for c in ['n', 'x', 'e', 'd'] {
        assert_eq!(update(&mut model, char_key(c)), Cmd::None, "{c}");
        assert!(
            translations_notice(&model).starts_with("Not allowed: you are not an admin of Acme")
        );
        update(&mut model, key(KeyCode::Esc));
    }
    let disabled = org_screen(&model).disabled_actions();
    for action in [
        Action::Create,
        Action::RunTranslation,
        Action::EditInstructions,
        Action::Delete,
        Action::ResultSpace,
    ] {
        assert!(disabled.contains(&action), "{action:?}");
    }
}

#[test]
fn source_and_result_spaces_open_their_screens() {
    let mut model = translations_model(
        true,
        vec![
            translation("t-fr", "fr", "completed", Some("spc-docs-fr")),
            translation("t-ja", "ja", "pending", None),
        ],
    );
    let (request, call) = translations_call(&update(&mut model, char_key('t')));
    assert_eq!(
        call,
        TranslationsCall::Space {
            space: "spc-docs-fr".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Space(Ok(space(
            "spc-docs-fr",
            "Docs (fr)",
        )))),
    );
    assert_eq!(model.top().title(), "🚀 Docs (fr)");
    update(&mut model, key(KeyCode::Esc));
    update(&mut model, char_key('j'));
    assert_eq!(update(&mut model, char_key('t')), Cmd::None);
    assert!(translations_notice(&model).starts_with("No result space yet"));
    let (request, call) = translations_call(&update(&mut model, char_key('s')));
    assert_eq!(
        call,
        TranslationsCall::Space {
            space: "spc-docs".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Space(Err(refused(
            404,
            "No space found",
        )))),
    );
    assert!(translations_notice(&model).contains("Could not open the space: No space found"));
}

#[test]
fn x_right_after_a_create_runs_the_new_translation_before_the_list_is_read_again() {
    let mut model = translations_model(
        true,
        vec![translation("t-fr", "fr", "completed", Some("spc-docs-fr"))],
    );
    update(&mut model, char_key('n'));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, key(KeyCode::Enter));
    type_text(&mut model, "Tu");
    let (request, _) = translations_call(&update(&mut model, ctrl('s')));
    respond(
        &mut model,
        request,
        ApiResponse::Translations(TranslationsResponse::Saved(Ok(translation(
            "t-new", "fr", "pending", None,
        )))),
    );
    // The reload is still on its way: the new translation is already the selected row.
    let (_, call) = translations_call(&update(&mut model, char_key('x')));
    assert_eq!(
        call,
        TranslationsCall::Run {
            organization: ORG.into(),
            id: "t-new".into()
        }
    );
}

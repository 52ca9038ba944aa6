//! Layer 1 for the OpenAPI tab, a spec's versions and a version's files: `update` on its own.
//! Keys and answers in, the state and the exact calls out: every action, the refusals by role and
//! the server's refusals.

use crate::common::*;
use crate::translations::{ORG, org_model, org_screen, refused, tabs, type_text};
use quire::api::VersionRef;
use quire::api::models::{OpenApiContent, OpenApiSpec, OpenApiVersion, SpecVisibility};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, update};
use quire::screens::{Screen, ScreenState};
use quire::ui::keymap::Action;
use quire::vocabulary::openapi::{OpenApiCall, OpenApiResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::{Value, json};

fn openapi_call(cmd: &Cmd) -> (RequestId, OpenApiCall) {
    match only_request(cmd) {
        (request, ApiCall::OpenApi(call)) => (request, call),
        (_, other) => panic!("expected an OpenAPI call, got {other:?}"),
    }
}

fn openapi_notice(model: &Model) -> String {
    org_screen(model)
        .openapi
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

fn spec(slug: &str, state: &str, public: bool, edit: bool) -> OpenApiSpec {
    from_json(json!({
        "object": "openapi-spec", "id": format!("oas-{slug}"), "slug": slug,
        "createdAt": "2024-01-10T09:00:00.000Z", "updatedAt": "2024-01-10T09:00:00.000Z",
        "sourceURL": format!("https://example.com/{slug}.yaml"), "processingState": state,
        "visibility": if public { "public" } else { "private" }, "lastVersion": format!("ver-{slug}-2"),
        "lastProcessedAt": "2024-01-10T09:00:00.000Z", "lastProcessedErrors": [],
        "permissions": {"view": true, "edit": edit},
        "urls": {"location": "https://api.example/x", "app": format!("https://app.example/openapi/{slug}")}
    }))
}

fn openapi_model(admin: bool, specs: Vec<OpenApiSpec>) -> Model {
    let mut model = org_model(admin);
    let (request, call) = openapi_call(&tabs(&mut model, 7));
    assert_eq!(
        call,
        OpenApiCall::List {
            organization: ORG.into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::OpenApi(OpenApiResponse::List(Ok(specs.into()))),
    );
    model
}

#[test]
fn create_checks_the_slug_and_the_address_as_typed() {
    let mut model = openapi_model(true, vec![]);
    update(&mut model, char_key('n'));
    type_text(&mut model, "pet--store");
    assert_eq!(
        update(&mut model, key(KeyCode::Enter)),
        Cmd::None,
        "a bad slug is not sent"
    );
    assert!(openapi_notice(&model).contains("hyphens only between"));
    update(&mut model, key(KeyCode::Backspace));
    update(&mut model, key(KeyCode::Backspace));
    update(&mut model, key(KeyCode::Backspace));
    update(&mut model, key(KeyCode::Backspace));
    update(&mut model, key(KeyCode::Backspace));
    update(&mut model, key(KeyCode::Backspace));
    type_text(&mut model, "store");
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::None);
    type_text(&mut model, "exa mple");
    assert_eq!(
        update(&mut model, key(KeyCode::Enter)),
        Cmd::None,
        "a bad address is not sent"
    );
    for _ in 0.."exa mple".len() {
        update(&mut model, key(KeyCode::Backspace));
    }
    type_text(&mut model, "example.com/pets.yaml");
    let (request, call) = openapi_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        OpenApiCall::Create {
            organization: ORG.into(),
            slug: "pet-store".into(),
            url: "https://example.com/pets.yaml".into()
        }
    );
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::OpenApi(OpenApiResponse::Saved(Ok(spec(
            "pet-store",
            "pending",
            false,
            true,
        )))),
    );
    assert_eq!(
        openapi_notice(&model),
        "Created “pet-store”: it is being processed."
    );
    let (request, _) = openapi_call(&cmd);
    let cmd = respond(
        &mut model,
        request,
        ApiResponse::OpenApi(OpenApiResponse::List(Ok(vec![
            spec("fleet", "complete", true, true),
            spec("pet-store", "pending", false, true),
        ]
        .into()))),
    );
    assert_eq!(
        org_screen(&model).openapi.selection.selected,
        1,
        "the new spec is selected"
    );
    let Cmd::Timer { id, .. } = cmd else {
        panic!("processing is followed: {cmd:?}")
    };
    assert!(matches!(
        openapi_call(&update(&mut model, Msg::Timer(id))).1,
        OpenApiCall::List { .. }
    ));
}

#[test]
fn visibility_asks_first_then_flips() {
    let mut model = openapi_model(true, vec![spec("fleet", "complete", true, true)]);
    update(&mut model, char_key('v'));
    assert_eq!(update(&mut model, key(KeyCode::Esc)), Cmd::None);
    update(&mut model, char_key('v'));
    let (request, call) = openapi_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        OpenApiCall::SetVisibility {
            organization: ORG.into(),
            slug: "fleet".into(),
            visibility: SpecVisibility::Private
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::OpenApi(OpenApiResponse::Saved(Ok(spec(
            "fleet", "complete", false, true,
        )))),
    );
    assert_eq!(openapi_notice(&model), "“fleet” is now private.");
}

#[test]
fn a_new_source_replaces_the_address() {
    let mut model = openapi_model(true, vec![spec("fleet", "complete", true, true)]);
    update(&mut model, char_key('u'));
    type_text(&mut model, "?v=2");
    let (_, call) = openapi_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        OpenApiCall::Replace {
            organization: ORG.into(),
            slug: "fleet".into(),
            url: "https://example.com/fleet.yaml?v=2".into()
        }
    );
}

#[test]
fn delete_asks_first_and_a_refusal_is_shown_in_words() {
    let mut model = openapi_model(true, vec![spec("fleet", "complete", true, true)]);
    update(&mut model, char_key('d'));
    let (request, call) = openapi_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        OpenApiCall::Delete {
            organization: ORG.into(),
            slug: "fleet".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::OpenApi(OpenApiResponse::Deleted(Err(refused(
            403,
            "Changing OpenAPI specs needs the admin role",
        )))),
    );
    assert_eq!(
        openapi_notice(&model),
        "Refused: Changing OpenAPI specs needs the admin role"
    );
}

#[test]
fn spec_changes_are_refused_without_edit_permission() {
    let mut model = openapi_model(false, vec![spec("fleet", "complete", true, false)]);
    for c in ['n', 'u', 'v', 'd'] {
        assert_eq!(update(&mut model, char_key(c)), Cmd::None, "{c}");
        assert!(
            openapi_notice(&model).starts_with("Not allowed"),
            "{c}: {}",
            openapi_notice(&model)
        );
        update(&mut model, key(KeyCode::Esc));
    }
    let disabled = org_screen(&model).disabled_actions();
    for action in [
        Action::Create,
        Action::ReplaceSource,
        Action::ToggleVisibility,
        Action::Delete,
    ] {
        assert!(disabled.contains(&action), "{action:?}");
    }
}

fn version(id: &str) -> OpenApiVersion {
    from_json(
        json!({"object": "openapi-spec-version", "id": id, "createdAt": "2024-01-10T09:00:00.000Z",
                     "url": format!("https://files.example/{id}.yaml"), "urls": {"location": "https://api.example/v"}}),
    )
}

#[test]
fn versions_then_files_then_a_file_highlighted() {
    let mut model = openapi_model(true, vec![spec("fleet", "complete", true, true)]);
    let (request, call) = openapi_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        OpenApiCall::Versions {
            organization: ORG.into(),
            slug: "fleet".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::OpenApi(OpenApiResponse::Versions(Ok(vec![
            version("ver-fleet-2"),
            version("ver-fleet-1"),
        ]
        .into()))),
    );
    let Screen::SpecVersions(versions) = model.top() else {
        panic!("versions screen")
    };
    assert!(versions.is_latest(0) && !versions.is_latest(1));
    // The latest is read through `versions/latest`, an older one by its id.
    update(&mut model, char_key('j'));
    let (_, call) = openapi_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        OpenApiCall::Content {
            organization: ORG.into(),
            slug: "fleet".into(),
            version: VersionRef::Id("ver-fleet-1".into())
        }
    );
    update(&mut model, key(KeyCode::Esc));
    update(&mut model, char_key('k'));
    let (request, call) = openapi_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        OpenApiCall::Content {
            organization: ORG.into(),
            slug: "fleet".into(),
            version: VersionRef::Latest
        }
    );
    let filesystem: Value =
        json!({"openapi.yaml": "openapi: 3.1.0\n", "components": {"schemas.json": "{\"a\": 1}"}});
    respond(
        &mut model,
        request,
        ApiResponse::OpenApi(OpenApiResponse::Content(Ok(OpenApiContent {
            filesystem,
            url: None,
            urls: None,
        }))),
    );
    let Screen::SpecContent(content) = model.top() else {
        panic!("content screen")
    };
    assert_eq!(content.files.len(), 2);
    assert_eq!(
        content.rows.rows().len(),
        3,
        "components/, schemas.json, openapi.yaml"
    );
    let cmd = update(&mut model, char_key('j'));
    let Cmd::ParseMarkdown { markdown, .. } = cmd else {
        panic!("the file under the cursor is rendered: {cmd:?}")
    };
    assert_eq!(&*markdown, "```json\n{\"a\": 1}\n```\n");
    update(&mut model, key(KeyCode::Enter));
    let Screen::SpecContent(content) = model.top() else {
        panic!("content screen")
    };
    assert!(content.reading, "enter gives the keys to the text");
    update(&mut model, key(KeyCode::Esc));
    let Screen::SpecContent(content) = model.top() else {
        panic!("esc goes back to the tree first")
    };
    assert!(!content.reading);
}

#[test]
fn an_unknown_version_is_an_error_on_screen() {
    let mut model = openapi_model(true, vec![spec("fleet", "complete", true, true)]);
    let (request, _) = openapi_call(&update(&mut model, key(KeyCode::Enter)));
    respond(
        &mut model,
        request,
        ApiResponse::OpenApi(OpenApiResponse::Versions(Err(refused(
            404,
            "No OpenAPI spec found with slug \"fleet\"",
        )))),
    );
    let Screen::SpecVersions(versions) = model.top() else {
        panic!("versions screen")
    };
    assert!(versions.versions.error().is_some());
}

/// The demo's Fleet API versions opened by keys on a real sandbox, as the admin.
async fn fleet_api_versions() -> (
    Model,
    quire::runtime::Effects,
    quire::sandbox::Sandbox,
    quire::api::Client,
) {
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
    let effects = headless::effects_with(client.clone());
    let mut model = organizations_model(100, 30);
    headless::start(&mut model, &effects).await;
    // Acme, then the OpenAPI tab (the eighth).
    headless::type_keys(&mut model, &effects, "\r\t\t\t\t\t\t\t").await;
    let position = org_screen(&model)
        .openapi
        .list()
        .iter()
        .position(|spec| spec.slug == "fleet-api")
        .expect("the demo's Fleet API");
    let keys = format!("{}\r", "j".repeat(position));
    headless::type_keys(&mut model, &effects, &keys).await;
    (model, effects, sandbox, client)
}

fn versions_screen(model: &Model) -> &quire::screens::openapi::VersionsScreen {
    match model.top() {
        Screen::SpecVersions(screen) => screen,
        _ => panic!("not on a spec's versions"),
    }
}

/// `r` on a spec's versions reads that spec alone (not the organization's list): a version
/// processed since is then marked the latest.
#[tokio::test]
async fn r_on_a_specs_versions_reads_the_spec_alone_and_the_latest_mark_follows() {
    let (mut model, effects, sandbox, client) = fleet_api_versions().await;
    let before = versions_screen(&model).list().len();
    assert!(
        versions_screen(&model).is_latest(0),
        "the newest is the latest"
    );
    client
        .replace_openapi_source(
            "org-acme-robotics",
            "fleet-api",
            "https://specs.acme-robotics.example/fleet-api-v4.yaml",
        )
        .await
        .unwrap();
    let processing = quire::sandbox::OPENAPI_PROCESSING_SECONDS.unsigned_abs();
    sandbox
        .clock()
        .advance(std::time::Duration::from_secs(processing));
    let lists = sandbox.requests("GET", "/orgs/*/openapi");
    let reads = sandbox.requests("GET", "/orgs/*/openapi/fleet-api");
    quire::headless::settle(&mut model, &effects, char_key('r')).await;
    assert_eq!(
        sandbox.requests("GET", "/orgs/*/openapi"),
        lists,
        "no list read"
    );
    assert_eq!(
        sandbox.requests("GET", "/orgs/*/openapi/fleet-api"),
        reads + 1,
        "the spec read alone"
    );
    let screen = versions_screen(&model);
    assert_eq!(screen.list().len(), before + 1, "the new version is listed");
    assert_eq!(
        screen.spec.last_version.as_deref(),
        Some(screen.list()[0].id.as_str())
    );
    assert!(
        screen.is_latest(0) && !screen.is_latest(1),
        "the mark moved"
    );
}

/// `r` on the latest version's files reads that version alone too: once a newer one was
/// processed, the screen names it.
#[tokio::test]
async fn r_on_the_latest_versions_files_reads_the_version_alone() {
    let (mut model, effects, sandbox, client) = fleet_api_versions().await;
    quire::headless::type_keys(&mut model, &effects, "\r").await;
    let title = |model: &Model| match model.top() {
        Screen::SpecContent(screen) => screen.title(),
        _ => panic!("not on a version's files"),
    };
    let before = title(&model);
    client
        .replace_openapi_source(
            "org-acme-robotics",
            "fleet-api",
            "https://specs.acme-robotics.example/fleet-api-v4.yaml",
        )
        .await
        .unwrap();
    let processing = quire::sandbox::OPENAPI_PROCESSING_SECONDS.unsigned_abs();
    sandbox
        .clock()
        .advance(std::time::Duration::from_secs(processing));
    let single = "/orgs/*/openapi/fleet-api/versions/latest";
    let reads = sandbox.requests("GET", single);
    quire::headless::settle(&mut model, &effects, char_key('r')).await;
    assert_eq!(
        sandbox.requests("GET", single),
        reads + 1,
        "the version read alone"
    );
    assert_ne!(title(&model), before, "the newer version is named");
}

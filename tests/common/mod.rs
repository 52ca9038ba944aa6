//! Shared helpers for the test suites: fixtures built from JSON as the server sends it, key
//! presses, and small accessors on `Cmd`.
#![allow(dead_code)]

pub mod account;
pub mod drafts;
pub mod loop_harness;
pub mod members_teams;
pub mod outage_sandbox;
pub mod processes;
pub mod pty;
pub mod review;
pub mod sandbox_process;
pub mod views;
pub mod wait;

use quire::api::ListPage;
use quire::api::models::{Collection, Organization, Page, Space};
use quire::app::{
    ApiCall, ApiResponse, Cmd, Environment, Model, Msg, OrganizationTree, RequestId, Size, update,
};
use quire::screens::Screen;
use quire::screens::organizations::Organizations;
use quire::ui::markdown::MarkdownDoc;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};

/// The demo sandbox on a free loopback port, and a client of it signed in as the admin.
pub async fn admin_sandbox() -> (quire::sandbox::Sandbox, quire::api::Client) {
    use quire::api::{Client, ClientConfig, Token};
    use quire::sandbox::{Sandbox, SandboxOptions, tokens};
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    (sandbox, client)
}

pub fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("fixture decodes")
}

pub fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

pub fn char_key(c: char) -> Msg {
    let modifiers = if c.is_ascii_uppercase() {
        KeyModifiers::SHIFT
    } else {
        KeyModifiers::NONE
    };
    Msg::Key(KeyEvent::new(KeyCode::Char(c), modifiers))
}

pub fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// The "now" views measure relative dates from in tests ("3 days ago"), so snapshots of the
/// demo's fixed dates read the same any day.
pub const PINNED_NOW: &str = "2026-11-23T12:00:00Z";

pub fn pinned_clock() -> quire::ui::time::Clock {
    let at = chrono::DateTime::parse_from_rfc3339(PINNED_NOW).unwrap();
    quire::ui::time::Clock::Pinned(at.with_timezone(&chrono::Utc))
}

pub fn environment() -> Environment {
    Environment {
        server_label: "test".to_string(),
        config_path: "~/.config/quire/config.toml".to_string(),
        render: Default::default(),
        clock: pinned_clock(),
    }
}

pub fn organizations_model(width: u16, height: u16) -> Model {
    Model::new(
        Screen::Organizations(Organizations::default()),
        environment(),
        Size { width, height },
    )
}

/// The single API request inside a command, with its id.
pub fn only_request(cmd: &Cmd) -> (RequestId, ApiCall) {
    let requests = requests(cmd);
    assert_eq!(requests.len(), 1, "expected one request in {cmd:?}");
    requests.into_iter().next().unwrap()
}

pub fn requests(cmd: &Cmd) -> Vec<(RequestId, ApiCall)> {
    cmd.api_calls()
}

/// The timers `cmd` calls off (`Cmd::CancelTimer`), batched or not.
pub fn cancelled_timers(cmd: &Cmd) -> Vec<RequestId> {
    match cmd {
        Cmd::CancelTimer(id) => vec![*id],
        Cmd::Batch(commands) => commands.iter().flat_map(cancelled_timers).collect(),
        _ => Vec::new(),
    }
}

pub fn organization_json(id: &str, title: &str) -> Value {
    json!({
        "object": "organization",
        "id": id,
        "title": title,
        "createdAt": "2024-01-10T09:00:00.000Z",
        "emailDomains": [],
        "type": "business",
        "plan": "pro_2024",
        "inviteLinks": false,
        "mergeRules": {"type": "inherit"},
        "urls": {"location": format!("https://api.example/v1/orgs/{id}"), "app": format!("https://app.example/o/{id}")},
        "futureField": {"whatever": 1}
    })
}

pub fn space_json(id: &str, title: &str, parent: Option<&str>) -> Value {
    json!({
        "object": "space",
        "id": id,
        "title": title,
        "emoji": "1f680",
        "visibility": "public",
        "editMode": "live",
        "createdAt": "2024-01-10T09:00:00.000Z",
        "updatedAt": "2024-02-10T09:00:00.000Z",
        "organization": "org-1",
        "parent": parent,
        "urls": {"location": "https://api.example/v1/spaces/x", "app": format!("https://app.example/s/{id}")},
        "permissions": {"view": true}
    })
}

pub fn collection_json(id: &str, title: &str, parent: Option<&str>) -> Value {
    json!({
        "object": "collection",
        "id": id,
        "title": title,
        "organization": "org-1",
        "parent": parent,
        "defaultLevel": null,
        "urls": {"location": "https://api.example/v1/collections/x", "app": format!("https://app.example/c/{id}")},
        "permissions": {"view": true}
    })
}

pub fn page_json(id: &str, title: &str, kind: &str, children: Vec<Value>) -> Value {
    json!({
        "id": id,
        "title": title,
        "kind": "sheet",
        "type": kind,
        "path": id,
        "slug": id,
        "pages": children,
        "urls": {"app": format!("https://app.example/p/{id}")}
    })
}

// Scenes: models in a known state, shared by the update and view suites.

pub fn organizations_page(
    count: usize,
    start: usize,
    next: Option<&str>,
) -> ListPage<Organization> {
    ListPage {
        items: (start..start + count)
            .map(|i| from_json(organization_json(&format!("org-{i}"), &format!("Org {i}"))))
            .collect(),
        next_page: next.map(str::to_string),
        count: None,
        unreadable: Vec::new(),
    }
}

/// The answer to `ApiCall::ListPages` for `pages`, as the runtime hands it over: the tree.
pub fn page_tree_answer(pages: &[Page]) -> ApiResponse {
    let tree = quire::screens::space::build_page_tree(pages);
    ApiResponse::PageTree(Ok(quire::vocabulary::handoff::Handoff::new(tree)))
}

pub fn respond(model: &mut Model, request: RequestId, response: ApiResponse) -> Cmd {
    update(model, Msg::Api { request, response })
}

/// A model on the organizations screen with one page of organizations loaded.
pub fn loaded_organizations(count: usize, next: Option<&str>) -> Model {
    let mut model = organizations_model(80, 24);
    let init = model.init();
    let (request, _) = only_request(&init);
    respond(
        &mut model,
        request,
        ApiResponse::Organizations(Ok(organizations_page(count, 0, next))),
    );
    model
}

pub fn open_first_organization(model: &mut Model) -> Cmd {
    update(model, key(KeyCode::Enter))
}

pub fn tree() -> OrganizationTree {
    OrganizationTree {
        collections: vec![
            from_json::<Collection>(collection_json("c-guides", "Guides", None)),
            from_json(collection_json("c-internal", "Internal", Some("c-guides"))),
        ],
        spaces: vec![
            from_json::<Space>(space_json("s-handbook", "Handbook", Some("c-internal"))),
            from_json(space_json("s-api", "API Reference", None)),
        ],
        ..OrganizationTree::default()
    }
}

pub fn pages() -> Vec<Page> {
    // A text-presentation emoji with its variation selector: once dropped, leaving a gap.
    let mut start = page_json(
        "p-start",
        "Getting started",
        "document",
        vec![page_json("p-install", "Install", "document", vec![])],
    );
    start["emoji"] = Value::String("🗺️".into());
    vec![
        from_json(start),
        from_json(page_json("p-group", "Reference", "group", vec![])),
    ]
}

/// A model on a space screen whose page list arrived; returns the preview request.
pub fn space_model() -> (Model, RequestId) {
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    update(&mut model, char_key('G'));
    let (request, _) = only_request(&update(&mut model, key(KeyCode::Enter)));
    let cmd = respond(&mut model, request, page_tree_answer(&pages()));
    let (preview, call) = only_request(&cmd);
    assert_eq!(
        call,
        ApiCall::GetPageMarkdown {
            space: "s-api".into(),
            page: "p-start".into()
        }
    );
    (model, preview)
}

pub fn page_with_markdown(id: &str, markdown: &str) -> Page {
    let mut value = page_json(id, "Getting started", "document", vec![]);
    value["markdown"] = serde_json::Value::String(markdown.to_string());
    value["updatedAt"] = serde_json::Value::String("2024-03-01T00:00:00Z".into());
    from_json(value)
}

/// Feeds a parsed document for whatever the last command asked to parse.
pub fn finish_parse(model: &mut Model, cmd: Cmd) {
    if let Cmd::ParseMarkdown { key, markdown } = cmd {
        let doc = MarkdownDoc::parse(&markdown, &model.theme);
        update(
            model,
            Msg::MarkdownParsed {
                key,
                doc: quire::app::DocHandle(std::sync::Arc::new(doc)),
                highlighted: true,
            },
        );
    }
}

/// A proptest runner for `cases` cases that writes no regression files (the suite runs from a
/// clean checkout; a failure prints its minimal case).
pub fn proptest_runner(cases: u32) -> proptest::test_runner::TestRunner {
    proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })
}

/// A sandbox over loopback with `faults` on from the start, and a client signed in to it as
/// the demo admin.
pub async fn sandbox_with_faults(
    faults: quire::sandbox::Faults,
) -> (quire::sandbox::Sandbox, quire::api::Client) {
    let options = quire::sandbox::SandboxOptions {
        faults,
        ..quire::sandbox::SandboxOptions::default()
    };
    quire::headless::local_sandbox(options)
        .await
        .expect("sandbox starts")
}

/// A sandbox over loopback and the effects that reach it as the holder of `token`.
pub async fn sandbox_effects(
    options: quire::sandbox::SandboxOptions,
    token: &str,
) -> (quire::sandbox::Sandbox, quire::runtime::Effects) {
    use quire::api::{Client, ClientConfig, Token};
    let sandbox = quire::sandbox::Sandbox::start("127.0.0.1:0".parse().unwrap(), options)
        .await
        .expect("sandbox");
    let client = Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token))).unwrap();
    let effects = quire::runtime::Effects {
        client: Some(client),
        drafts: None,
        theme: quire::ui::theme::Theme::default(),
        render: Default::default(),
    };
    (sandbox, effects)
}

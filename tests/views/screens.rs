//! Layer 2: what each screen draws, as insta snapshots at 80x24 and 40x12, plus a sweep over
//! terminal sizes from 1x1 to 300x100 that must never panic.

use crate::common::views::{draw_only, sizes_to_try};
use crate::common::*;
use quire::api::ApiError;
use quire::app::view::chrome;
use quire::app::{ApiResponse, Model, Msg, Size, update};
use quire::screens::Screen;
use quire::screens::welcome::Welcome;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

fn render(model: &mut Model, width: u16, height: u16) -> String {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

/// Snapshots a scene at both standard sizes.
macro_rules! snapshot_both {
    ($name:literal, $scene:expr) => {{
        let mut model = $scene;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

fn server_error() -> ApiError {
    ApiError::Status {
        endpoint: "GET /orgs".into(),
        status: 503,
        code: Some(503),
        message: "Service Unavailable".into(),
    }
}

fn unauthorized() -> ApiError {
    ApiError::Status {
        endpoint: "GET /orgs".into(),
        status: 401,
        code: Some(401),
        message: "The token was rejected".into(),
    }
}

fn organizations_failing(error: ApiError) -> Model {
    let mut model = organizations_model(80, 24);
    let (request, _) = only_request(&model.init());
    respond(&mut model, request, ApiResponse::Organizations(Err(error)));
    model
}

/// Two organizations and, between them, one the client could not read.
fn organizations_with_unreadable() -> Model {
    let mut model = organizations_model(80, 24);
    let (request, _) = only_request(&model.init());
    let mut page = organizations_page(2, 0, None);
    page.unreadable.push(quire::api::UnreadableItem {
        path: "items[1].id".into(),
        message: "invalid type: integer `404`, expected a string".into(),
    });
    respond(&mut model, request, ApiResponse::Organizations(Ok(page)));
    model
}

fn organizations_loading() -> Model {
    let mut model = organizations_model(80, 24);
    model.init();
    model
}

/// The first read failed with a 429 and waits 2 s to be tried again.
fn organizations_retrying() -> Model {
    let mut model = organizations_loading();
    update(
        &mut model,
        Msg::Retry(quire::api::RetryNotice::Waiting {
            endpoint: "GET /orgs".into(),
            delay: std::time::Duration::from_secs(2),
        }),
    );
    model
}

fn organization_loaded() -> Model {
    organization_with_tree(tree())
}

fn organization_with_tree(tree: quire::app::OrganizationTree) -> Model {
    let mut model = loaded_organizations(2, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(&mut model, request, ApiResponse::OrganizationTree(Ok(tree)));
    model
}

fn organization_loading() -> Model {
    let mut model = loaded_organizations(2, None);
    open_first_organization(&mut model);
    model
}

fn space_with_preview() -> Model {
    let (mut model, preview) = space_model();
    let markdown = "# Getting started\n\nWelcome to **Acme**. Install with:\n\n```bash\ncargo install acme\n```\n\n- one\n- two\n";
    let cmd = respond(
        &mut model,
        preview,
        ApiResponse::PageMarkdown(Ok(page_with_markdown("p-start", markdown))),
    );
    finish_parse(&mut model, cmd);
    model
}

fn reader() -> Model {
    let mut model = space_with_preview();
    update(&mut model, key(KeyCode::Enter));
    model
}

#[test]
fn welcome_without_a_token() {
    snapshot_both!(
        "welcome",
        Model::new(Screen::Welcome(Welcome), environment(), Size::default())
    );
}

#[test]
fn organizations_states() {
    snapshot_both!("organizations_loading", organizations_loading());
    snapshot_both!("organizations_retrying", organizations_retrying());
    snapshot_both!(
        "organizations_loaded",
        loaded_organizations(30, Some("next"))
    );
    snapshot_both!("organizations_empty", loaded_organizations(0, None));
    snapshot_both!("organizations_unreadable", organizations_with_unreadable());
    snapshot_both!("organizations_error", organizations_failing(server_error()));
    snapshot_both!(
        "organizations_unauthorized",
        organizations_failing(unauthorized())
    );
}

#[test]
fn organization_states() {
    snapshot_both!("organization_loading", organization_loading());
    snapshot_both!("organization_tree", organization_loaded());
    let mut filtered = organization_loaded();
    for c in "/hand".chars() {
        update(&mut filtered, char_key(c));
    }
    snapshot_both!("organization_tree_filtered", filtered);
}

fn organization_failed() -> Model {
    let mut model = loaded_organizations(2, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Err(server_error())),
    );
    model
}

fn ada_member() -> serde_json::Value {
    serde_json::json!({
        "object": "member", "id": "u-1", "role": "admin",
        "user": {"object": "user", "id": "u-1", "displayName": "Ada Lovelace", "email": "ada@example.com"},
        "joinedAt": "2024-01-01T00:00:00Z", "lastSeenAt": "2024-03-01T00:00:00Z"
    })
}

/// A members page holding Ada and whatever could not be read.
fn ada_page(
    unreadable: Vec<quire::api::UnreadableItem>,
) -> quire::api::ListPage<quire::api::Member> {
    quire::api::ListPage {
        items: vec![from_json(ada_member())],
        next_page: None,
        count: Some(1 + unreadable.len() as u64),
        unreadable,
    }
}

fn members_tab() -> Model {
    let mut model = organization_loaded();
    update(&mut model, key(KeyCode::Tab));
    let (request, _) = only_request(&update(&mut model, key(KeyCode::Tab)));
    respond(
        &mut model,
        request,
        ApiResponse::Members(quire::vocabulary::members::MembersResponse::List(Ok(
            ada_page(Vec::new()),
        ))),
    );
    model
}

/// A members page with one item quire could not read, filtered by role.
fn members_tab_with_unreadable() -> Model {
    let mut model = members_tab();
    let (request, _) = only_request(&update(&mut model, char_key('f')));
    respond(
        &mut model,
        request,
        ApiResponse::Members(quire::vocabulary::members::MembersResponse::List(Ok(
            ada_page(vec![quire::api::UnreadableItem {
                path: "items[1].user".into(),
                message: "missing field `user`".into(),
            }]),
        ))),
    );
    model
}

/// A tree whose lists did not end: what was loaded shows, with a note under it.
fn organization_cut_short() -> Model {
    organization_with_tree(quire::app::OrganizationTree {
        stopped_after_pages: Some(20),
        ..tree()
    })
}

fn space_failed() -> Model {
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    update(&mut model, char_key('G'));
    let (request, _) = only_request(&update(&mut model, key(KeyCode::Enter)));
    respond(
        &mut model,
        request,
        ApiResponse::PageTree(Err(server_error())),
    );
    model
}

/// The pages were shown, then `r` reloaded them and the reload failed: the old tree stays and
/// its last row says so, the retry hint first.
fn space_reload_failed() -> Model {
    let mut model = space_with_preview();
    let reload = update(&mut model, char_key('r'));
    let pages_request = requests(&reload)
        .into_iter()
        .find(|(_, call)| matches!(call, quire::app::ApiCall::ListPages { .. }))
        .map(|(request, _)| request)
        .expect("r reloads the pages");
    respond(
        &mut model,
        pages_request,
        ApiResponse::PageTree(Err(server_error())),
    );
    model
}

fn page_failed() -> Model {
    let (mut model, preview) = space_model();
    respond(
        &mut model,
        preview,
        ApiResponse::PageMarkdown(Err(server_error())),
    );
    let (request, _) = only_request(&update(&mut model, key(KeyCode::Enter)));
    respond(
        &mut model,
        request,
        ApiResponse::PageMarkdown(Err(server_error())),
    );
    model
}

#[test]
fn failure_and_members_states() {
    snapshot_both!("organization_error", organization_failed());
    snapshot_both!("organization_members", members_tab());
    snapshot_both!(
        "organization_members_unreadable",
        members_tab_with_unreadable()
    );
    snapshot_both!("organization_tree_cut_short", organization_cut_short());
    snapshot_both!("space_error", space_failed());
    snapshot_both!("space_reload_failed", space_reload_failed());
    snapshot_both!("page_error", page_failed());
}

#[test]
fn space_and_reader_states() {
    snapshot_both!("space_loading_preview", space_model().0);
    snapshot_both!("space_with_preview", space_with_preview());
    snapshot_both!("reader", reader());
    let mut with_contents = reader();
    update(&mut with_contents, char_key('t'));
    snapshot_both!("reader_contents", with_contents);
    let mut help = reader();
    update(&mut help, char_key('?'));
    snapshot_both!("reader_help", help);
}

/// Every screen state drawn at the sizes that find a layout's mistakes ([`sizes_to_try`]): none
/// may panic.
#[test]
fn every_state_draws_at_every_size_without_panic() {
    type Scene = (&'static str, fn() -> Model);
    let scenes: Vec<Scene> = vec![
        ("welcome", || {
            Model::new(Screen::Welcome(Welcome), environment(), Size::default())
        }),
        ("organizations loading", organizations_loading),
        ("organizations loaded", || {
            loaded_organizations(30, Some("next"))
        }),
        ("organizations error", || {
            organizations_failing(server_error())
        }),
        (
            "organizations 401",
            || organizations_failing(unauthorized()),
        ),
        ("organization loading", organization_loading),
        ("organization tree", organization_loaded),
        ("space", || space_model().0),
        ("space preview", space_with_preview),
        ("reader", reader),
        ("organization error", organization_failed),
        ("members", members_tab),
        ("space error", space_failed),
        ("page error", page_failed),
    ];
    let sizes = sizes_to_try();
    for (name, scene) in scenes {
        let mut model = scene();
        for &(width, height) in &sizes {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                draw_only(&mut model, width, height)
            }));
            assert!(result.is_ok(), "{name} panicked at {width}x{height}");
        }
    }
}

#[test]
fn an_empty_filtered_list_names_the_filter_and_how_to_clear_it() {
    let mut model = loaded_organizations(3, None);
    update(&mut model, char_key('/'));
    for c in "zzz".chars() {
        update(&mut model, char_key(c));
    }
    let screen = render(&mut model, 80, 24);
    assert!(
        screen.contains("No matches for 'zzz' — esc clears"),
        "{screen}"
    );

    let mut tree = organization_loaded();
    update(&mut tree, char_key('/'));
    for c in "gett".chars() {
        update(&mut tree, char_key(c));
    }
    let screen = render(&mut tree, 80, 24);
    assert!(screen.contains("No matches for 'gett'"), "{screen}");
}

#[test]
fn the_list_title_has_no_count_while_loading() {
    let screen = render(&mut organizations_loading(), 80, 24);
    assert!(screen.contains("Organizations"), "{screen}");
    assert!(!screen.contains("Organizations (0)"), "{screen}");
}

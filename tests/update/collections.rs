//! Layer 1 for the collection actions and the move and transfer flow on the organization's
//! Spaces tab: `update` alone. Keys and answers in, the exact `CollectionsCall`s and the state
//! out, including refusals, failures and stale answers.

use crate::common::*;
use quire::api::models::{Collection, DefaultLevel, Organization as OrganizationModel, Space};
use quire::api::{
    ApiError, CollectionUpdate, ContentMove, ContentPointer, ContentPosition, MovedContent,
    NewCollection,
};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, OrganizationTree, RequestId, Size, update};
use quire::screens::Screen;
use quire::screens::organization::{ContentModal, OrgNode, Organization};
use quire::ui::keymap::Action;
use quire::vocabulary::collections::{CollectionsCall, CollectionsResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::{Value, json};

fn collection(id: &str, title: &str, parent: Option<&str>, admin: bool) -> Collection {
    let mut value = collection_json(id, title, parent);
    value["permissions"] = json!({"view": true, "admin": admin, "create": true});
    from_json(value)
}

fn space(id: &str, title: &str, parent: Option<&str>, admin: bool) -> Space {
    let mut value = space_json(id, title, parent);
    value["permissions"] = json!({"view": true, "admin": admin, "edit": true});
    from_json(value)
}

/// Guides (admin) › Internal (not admin) › Handbook (not admin); Guides › Start; API at the
/// top level.
fn content(extra: Option<Collection>) -> OrganizationTree {
    let mut collections = vec![
        collection("c-guides", "Guides", None, true),
        collection("c-internal", "Internal", Some("c-guides"), false),
    ];
    collections.extend(extra);
    OrganizationTree {
        collections,
        spaces: vec![
            space("s-handbook", "Handbook", Some("c-internal"), false),
            space("s-start", "Start", Some("c-guides"), true),
            space("s-api", "API Reference", None, true),
        ],
        ..OrganizationTree::default()
    }
}

fn organization_model() -> OrganizationModel {
    let mut value: Value = organization_json("org-1", "Acme");
    value["permissions"] = json!({"view": true, "admin": true, "createContent": true});
    from_json(value)
}

/// The Spaces tab with the tree loaded (top level open).
fn loaded() -> Model {
    let mut model = Model::new(
        Screen::Organization(Organization::new(organization_model())),
        environment(),
        Size {
            width: 80,
            height: 24,
        },
    );
    let (request, _) = only_request(&model.init());
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(content(None))),
    );
    model
}

fn screen(model: &Model) -> &Organization {
    match model.top() {
        Screen::Organization(screen) => screen,
        other => panic!("expected the organization screen, got {}", other.title()),
    }
}

fn selected_key(model: &Model) -> Option<String> {
    screen(model).selected_node().map(OrgNode::key)
}

/// Moves the selection to the row showing `title`, opening everything first.
fn select(model: &mut Model, title: &str) {
    update(model, char_key('E'));
    update(model, char_key('g'));
    for _ in 0..20 {
        if screen(model).selected_node().map(OrgNode::title) == Some(title) {
            return;
        }
        update(model, char_key('j'));
    }
    panic!("no row titled {title}");
}

fn type_text(model: &mut Model, text: &str) {
    for c in text.chars() {
        update(model, char_key(c));
    }
}

/// The single collections call of `cmd`.
fn call(cmd: &Cmd) -> (RequestId, CollectionsCall) {
    match only_request(cmd) {
        (request, ApiCall::Collections(call)) => (request, call),
        (_, other) => panic!("expected a collections call, got {other:?}"),
    }
}

fn answer(model: &mut Model, request: RequestId, response: CollectionsResponse) -> Cmd {
    respond(model, request, ApiResponse::Collections(response))
}

fn notice(model: &Model) -> String {
    screen(model)
        .content
        .notice
        .as_ref()
        .map(|notice| notice.text.clone())
        .unwrap_or_default()
}

fn modal_text(model: &Model) -> String {
    match &screen(model).content.modal {
        Some(ContentModal::Confirm { confirm, .. }) => confirm.text(),
        Some(ContentModal::Picker(picker)) => picker
            .options
            .iter()
            .map(|option| option.label.clone())
            .collect::<Vec<_>>()
            .join("\n"),
        Some(ContentModal::Prompt(prompt)) => prompt.input.text.clone(),
        None => String::new(),
    }
}

fn status(code: u16, message: &str) -> ApiError {
    ApiError::Status {
        endpoint: "POST /x".into(),
        status: code,
        code: Some(i64::from(code)),
        message: message.into(),
    }
}

/// Answers the tree reload `cmd` asks for with `tree`.
fn reload(model: &mut Model, cmd: &Cmd, tree: OrganizationTree) {
    let (request, call) = only_request(cmd);
    assert_eq!(
        call,
        ApiCall::OrganizationTree {
            organization: "org-1".into()
        }
    );
    respond(model, request, ApiResponse::OrganizationTree(Ok(tree)));
}

#[test]
fn n_creates_a_collection_inside_the_selected_one_and_selects_it_after_the_reload() {
    let mut model = loaded();
    select(&mut model, "Internal");
    // Internal is open; close Guides to check the reload opens the way to the new one.
    update(&mut model, char_key('g'));
    update(&mut model, key(KeyCode::Left));
    select(&mut model, "Internal");
    update(&mut model, char_key('n'));
    type_text(&mut model, "Runbooks");
    let (request, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        asked,
        CollectionsCall::Create {
            organization: "org-1".into(),
            collection: NewCollection {
                title: Some("Runbooks".into()),
                parent: Some("c-internal".into()),
            },
        }
    );
    assert!(screen(&model).content.modal.is_none());
    let created = collection("c-new", "Runbooks", Some("c-internal"), true);
    let cmd = answer(
        &mut model,
        request,
        CollectionsResponse::Collection(Ok(created.clone())),
    );
    assert!(notice(&model).contains("done"), "{}", notice(&model));
    reload(&mut model, &cmd, content(Some(created)));
    assert_eq!(selected_key(&model).as_deref(), Some("collection:c-new"));
}

#[test]
fn n_on_a_space_creates_at_the_top_level() {
    let mut model = loaded();
    select(&mut model, "API Reference");
    update(&mut model, char_key('n'));
    type_text(&mut model, "Archive");
    let (_, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert!(matches!(
        asked,
        CollectionsCall::Create {
            collection: NewCollection { parent: None, .. },
            ..
        }
    ));
}

#[test]
fn a_title_over_50_characters_or_blank_is_refused_in_words_and_nothing_is_sent() {
    let mut model = loaded();
    select(&mut model, "Guides");
    update(&mut model, char_key('n'));
    let cmd = update(&mut model, key(KeyCode::Enter));
    assert_eq!(cmd, Cmd::None, "a blank title is not sent");
    let Some(ContentModal::Prompt(prompt)) = &screen(&model).content.modal else {
        panic!("the prompt stays");
    };
    assert_eq!(prompt.error().as_deref(), Some("a title is required"));
    type_text(&mut model, &"x".repeat(51));
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::None);
    let Some(ContentModal::Prompt(prompt)) = &screen(&model).content.modal else {
        panic!("the prompt stays");
    };
    assert_eq!(
        prompt.error().as_deref(),
        Some("at most 50 characters (51)")
    );
    update(&mut model, key(KeyCode::Esc));
    assert!(screen(&model).content.modal.is_none());
}

#[test]
fn r_renames_and_the_renamed_collection_stays_selected() {
    let mut model = loaded();
    select(&mut model, "Guides");
    update(&mut model, char_key('R'));
    assert_eq!(modal_text(&model), "Guides");
    type_text(&mut model, " & how-tos");
    let (request, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        asked,
        CollectionsCall::Update {
            collection: "c-guides".into(),
            update: CollectionUpdate {
                title: Some("Guides & how-tos".into()),
                ..CollectionUpdate::default()
            },
        }
    );
    let renamed = collection("c-guides", "Guides & how-tos", None, true);
    let cmd = answer(
        &mut model,
        request,
        CollectionsResponse::Collection(Ok(renamed)),
    );
    let mut tree = content(None);
    tree.collections[0].title = "Guides & how-tos".into();
    // Another collection first, so the renamed one moves down a row.
    tree.collections
        .insert(0, collection("c-aaa", "Aaa", None, true));
    reload(&mut model, &cmd, tree);
    assert_eq!(selected_key(&model).as_deref(), Some("collection:c-guides"));
}

#[test]
fn d_edits_the_description_up_to_100_characters() {
    let mut model = loaded();
    select(&mut model, "Guides");
    update(&mut model, char_key('D'));
    type_text(&mut model, &"d".repeat(101));
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::None);
    update(&mut model, key(KeyCode::Backspace));
    let (_, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        asked,
        CollectionsCall::Update {
            collection: "c-guides".into(),
            update: CollectionUpdate {
                description: Some("d".repeat(100)),
                ..CollectionUpdate::default()
            },
        }
    );
}

#[test]
fn l_picks_a_role_or_none_as_the_default_level() {
    let mut model = loaded();
    select(&mut model, "Guides");
    update(&mut model, char_key('L'));
    assert_eq!(
        modal_text(&model),
        "admin\ncreate\nreview\nedit\ncomment\nread\nnone"
    );
    // The picker starts on the current level (none).
    let (_, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        asked,
        CollectionsCall::Update {
            collection: "c-guides".into(),
            update: CollectionUpdate {
                default_level: Some(None),
                ..CollectionUpdate::default()
            },
        }
    );
    let mut model = loaded();
    select(&mut model, "Guides");
    update(&mut model, char_key('L'));
    update(&mut model, char_key('g'));
    for _ in 0..3 {
        update(&mut model, char_key('j'));
    }
    let (_, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert!(matches!(
        asked,
        CollectionsCall::Update {
            update: CollectionUpdate {
                default_level: Some(Some(DefaultLevel::Edit)),
                ..
            },
            ..
        }
    ));
}

#[test]
fn delete_asks_first_naming_what_is_inside_and_selects_the_parent_afterwards() {
    let mut model = loaded();
    select(&mut model, "Guides");
    update(&mut model, char_key('d'));
    let question = modal_text(&model);
    assert!(
        question.contains("Delete the collection “Guides”?"),
        "{question}"
    );
    assert!(
        question.contains("It holds 1 collection and 2 spaces"),
        "{question}"
    );
    // n cancels without a request.
    assert_eq!(update(&mut model, char_key('n')), Cmd::None);
    assert!(screen(&model).content.modal.is_none());

    select(&mut model, "Internal");
    // Internal is not ours to delete: refused, nothing asked.
    assert_eq!(update(&mut model, char_key('d')), Cmd::None);
    assert!(notice(&model).contains("not an admin of the collection “Internal”"));
    let mut model = loaded();
    let mut tree = content(None);
    tree.collections[1].permissions.admin = true;
    // `r` on a space reads the tree again (on a collection, that collection too).
    select(&mut model, "API Reference");
    let (request, _) = only_request(&update(&mut model, char_key('r')));
    respond(&mut model, request, ApiResponse::OrganizationTree(Ok(tree)));
    select(&mut model, "Internal");
    update(&mut model, char_key('d'));
    assert!(modal_text(&model).contains("It holds 0 collections and 1 space"));
    let (request, asked) = call(&update(&mut model, char_key('y')));
    assert_eq!(
        asked,
        CollectionsCall::Delete {
            collection: "c-internal".into()
        }
    );
    let cmd = answer(&mut model, request, CollectionsResponse::Deleted(Ok(())));
    let mut after = content(None);
    after.collections.truncate(1);
    after.spaces.remove(0);
    reload(&mut model, &cmd, after);
    assert_eq!(selected_key(&model).as_deref(), Some("collection:c-guides"));
}

#[test]
fn refused_actions_are_struck_through_and_say_why() {
    let mut model = loaded();
    select(&mut model, "Internal");
    let disabled = model.top().disabled_actions();
    for action in [
        Action::Rename,
        Action::EditDescription,
        Action::DefaultLevel,
        Action::Delete,
        Action::Move,
        Action::Transfer,
    ] {
        assert!(disabled.contains(&action), "{action:?} in {disabled:?}");
    }
    assert!(!disabled.contains(&Action::Create), "create is allowed");
    for key in ['R', 'D', 'L', 'm', 'T'] {
        assert_eq!(update(&mut model, char_key(key)), Cmd::None, "{key}");
        assert_eq!(
            notice(&model),
            "Not allowed: you are not an admin of the collection “Internal”"
        );
    }
    select(&mut model, "Handbook");
    assert!(model.top().disabled_actions().contains(&Action::Move));
    select(&mut model, "Guides");
    // Of the collection actions none is refused (the space-only ones are, on a collection).
    let disabled = model.top().disabled_actions();
    for action in [
        Action::Rename,
        Action::EditDescription,
        Action::DefaultLevel,
        Action::Delete,
        Action::Move,
        Action::Transfer,
    ] {
        assert!(!disabled.contains(&action), "{action:?} in {disabled:?}");
    }
    assert!(disabled.contains(&Action::ToggleLock), "not a space");
    // A space has no description.
    select(&mut model, "Start");
    update(&mut model, char_key('D'));
    assert!(
        notice(&model).contains("not a collection"),
        "{}",
        notice(&model)
    );
    // Esc takes the error away before it means back.
    update(&mut model, key(KeyCode::Esc));
    assert_eq!(notice(&model), "");
    assert!(matches!(model.top(), Screen::Organization(_)));
}

/// The whole Spaces tab as drawn at 80x24.
fn drawn(model: &Model) -> String {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).expect("terminal");
    let _ = terminal.draw(|frame| quire::app::view::chrome::draw(frame, model));
    terminal.backend().to_string()
}

#[test]
fn a_refusal_names_its_space_or_collection_and_replaces_the_last_one() {
    let mut model = loaded();
    select(&mut model, "Handbook");
    update(&mut model, char_key('R'));
    let space_refusal = "only an admin of the space “Handbook” may change it";
    assert!(drawn(&model).contains(space_refusal), "{}", drawn(&model));
    select(&mut model, "Internal");
    update(&mut model, char_key('R'));
    let screen_now = drawn(&model);
    assert!(
        screen_now.contains("you are not an admin of the collection “Internal”"),
        "{screen_now}"
    );
    assert!(!screen_now.contains("“Handbook” may"), "{screen_now}");
    // And back: a space's refusal takes the collection's place.
    select(&mut model, "Handbook");
    update(&mut model, char_key('i'));
    let screen_now = drawn(&model);
    assert!(screen_now.contains(space_refusal), "{screen_now}");
    assert!(!screen_now.contains("“Internal”"), "{screen_now}");
}

#[test]
fn m_moves_a_space_into_a_collection_before_a_sibling() {
    let mut model = loaded();
    select(&mut model, "API Reference");
    update(&mut model, char_key('m'));
    // A space has no "top level" target; collections show their path.
    assert_eq!(modal_text(&model), "Guides\nGuides / Internal");
    update(&mut model, char_key('g'));
    let cmd = update(&mut model, key(KeyCode::Enter));
    assert_eq!(cmd, Cmd::None, "asks where among the siblings first");
    // After the last sibling is the end: offered once, as "At the end".
    assert_eq!(modal_text(&model), "At the end\nBefore “Start”");
    update(&mut model, char_key('j'));
    let (request, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        asked,
        CollectionsCall::Move {
            item: ContentPointer::space("s-api"),
            target: ContentMove {
                parent: Some("c-guides".into()),
                position: Some(ContentPosition::Before(ContentPointer::space("s-start"))),
            },
        }
    );
    let moved = space("s-api", "API Reference", Some("c-guides"), true);
    let cmd = answer(
        &mut model,
        request,
        CollectionsResponse::Moved(Ok(MovedContent::Space(moved.clone()))),
    );
    let mut after = content(None);
    after.spaces.pop();
    after.spaces.insert(1, moved);
    reload(&mut model, &cmd, after);
    assert_eq!(selected_key(&model).as_deref(), Some("space:s-api"));
}

#[test]
fn a_collection_moves_to_the_top_level_and_never_inside_itself() {
    let mut model = loaded();
    let mut tree = content(None);
    tree.collections[1].permissions.admin = true;
    // `r` on a space reads the tree again (on a collection, that collection too).
    select(&mut model, "API Reference");
    let (request, _) = only_request(&update(&mut model, char_key('r')));
    respond(&mut model, request, ApiResponse::OrganizationTree(Ok(tree)));
    select(&mut model, "Guides");
    update(&mut model, char_key('m'));
    assert_eq!(modal_text(&model), "Top level", "not itself nor Internal");
    update(&mut model, key(KeyCode::Esc));
    select(&mut model, "Internal");
    update(&mut model, char_key('m'));
    assert_eq!(modal_text(&model), "Top level\nGuides");
    update(&mut model, char_key('g'));
    // The top level holds another collection: where among them?
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(modal_text(&model), "At the end\nBefore “Guides”");
    let (_, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        asked,
        CollectionsCall::Move {
            item: ContentPointer::collection("c-internal"),
            target: ContentMove {
                parent: None,
                position: None,
            },
        }
    );
}

#[test]
fn a_move_that_would_change_nothing_says_so_in_words() {
    let mut model = loaded();
    select(&mut model, "Start");
    update(&mut model, char_key('m'));
    // Starts on the current parent (Guides), which has no other space: sent at once.
    let (request, asked) = call(&update(&mut model, key(KeyCode::Enter)));
    assert!(matches!(
        asked,
        CollectionsCall::Move {
            target: ContentMove { position: None, .. },
            ..
        }
    ));
    let cmd = answer(
        &mut model,
        request,
        CollectionsResponse::Moved(Err(status(409, "The move would not change anything"))),
    );
    assert_eq!(cmd, Cmd::None, "no reload after a failure");
    assert_eq!(
        notice(&model),
        "Not moved: would not change anything: it is already there"
    );
    assert!(
        screen(&model)
            .content
            .notice
            .as_ref()
            .is_some_and(|n| n.error)
    );
    // Other refusals keep the server's words.
    select(&mut model, "Start");
    update(&mut model, char_key('m'));
    let (request, _) = call(&update(&mut model, key(KeyCode::Enter)));
    answer(
        &mut model,
        request,
        CollectionsResponse::Moved(Err(status(400, "Invalid \"position\": no space \"x\""))),
    );
    assert_eq!(
        notice(&model),
        "Not moved: Invalid \"position\": no space \"x\""
    );
}

#[test]
fn t_transfers_to_another_organization_after_naming_both() {
    let mut model = loaded();
    select(&mut model, "API Reference");
    let (request, asked) = call(&update(&mut model, char_key('T')));
    assert_eq!(asked, CollectionsCall::Organizations);
    let organizations = vec![
        from_json(organization_json("org-1", "Acme")),
        from_json(organization_json("org-2", "Lumen")),
    ];
    answer(
        &mut model,
        request,
        CollectionsResponse::Organizations(Ok(organizations.into())),
    );
    assert_eq!(modal_text(&model), "Lumen", "only the other organizations");
    update(&mut model, key(KeyCode::Enter));
    let question = modal_text(&model);
    assert!(
        question.contains("Transfer “API Reference” from Acme to Lumen?"),
        "{question}"
    );
    let (request, asked) = call(&update(&mut model, char_key('y')));
    assert_eq!(
        asked,
        CollectionsCall::Transfer {
            item: ContentPointer::space("s-api"),
            organization: "org-2".into(),
        }
    );
    let mut gone = space("s-api", "API Reference", None, true);
    gone.organization = Some("org-2".into());
    let cmd = answer(
        &mut model,
        request,
        CollectionsResponse::Moved(Ok(MovedContent::Space(gone))),
    );
    let mut after = content(None);
    after.spaces.pop();
    reload(&mut model, &cmd, after);
    assert!(notice(&model).contains("Transferring “API Reference” — done"));
}

#[test]
fn transfer_failures_and_lonely_users_are_told() {
    let mut model = loaded();
    select(&mut model, "Start");
    let (request, _) = call(&update(&mut model, char_key('T')));
    answer(
        &mut model,
        request,
        CollectionsResponse::Organizations(Ok(
            vec![from_json(organization_json("org-1", "Acme"))].into()
        )),
    );
    assert!(screen(&model).content.modal.is_none());
    assert!(notice(&model).contains("no other organization"));
    let (request, _) = call(&update(&mut model, char_key('T')));
    answer(
        &mut model,
        request,
        CollectionsResponse::Organizations(Ok(vec![
            from_json(organization_json("org-1", "Acme")),
            from_json(organization_json("org-2", "Lumen")),
        ]
        .into())),
    );
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = call(&update(&mut model, char_key('y')));
    answer(
        &mut model,
        request,
        CollectionsResponse::Moved(Err(status(
            412,
            "The space cannot be moved: it is synchronized with git",
        ))),
    );
    assert_eq!(
        notice(&model),
        "Not transferred: The space cannot be moved: it is synchronized with git"
    );
}

#[test]
fn stale_answers_are_dropped_and_failures_keep_the_tree() {
    let mut model = loaded();
    select(&mut model, "Guides");
    update(&mut model, char_key('R'));
    type_text(&mut model, "!");
    let (request, _) = call(&update(&mut model, key(KeyCode::Enter)));
    let stale = RequestId(request.0 + 1000);
    assert_eq!(
        answer(
            &mut model,
            stale,
            CollectionsResponse::Collection(Ok(collection("c-guides", "x", None, true)))
        ),
        Cmd::None
    );
    let cmd = answer(
        &mut model,
        request,
        CollectionsResponse::Collection(Err(status(400, "Invalid \"title\": too long"))),
    );
    assert_eq!(cmd, Cmd::None);
    assert_eq!(
        notice(&model),
        "Renaming to “Guides!” failed: Invalid \"title\": too long"
    );
    assert_eq!(selected_key(&model).as_deref(), Some("collection:c-guides"));
}

/// The organization's spaces could not be listed, its collections could: the tree shows them
/// and says so, and opening a collection reads that collection's own spaces, once.
#[tokio::test]
async fn a_collection_opened_alone_reads_its_own_spaces_when_the_list_failed() {
    use quire::api::{Client, ClientConfig, Token};
    use quire::headless;
    use quire::sandbox::{Fault, FaultRule, Faults, Sandbox, SandboxOptions, tokens};
    let options = SandboxOptions {
        faults: Faults {
            rules: vec![FaultRule::new("/orgs/*/spaces", Fault::Status(403)).method("GET")],
            ..Faults::default()
        },
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), options)
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
    headless::type_keys(&mut model, &effects, "\r").await;
    let spaces_shown = |model: &Model| {
        let tree = screen(model).tree.value().expect("the collections");
        tree.nodes()
            .filter(|(_, node)| matches!(node.item, OrgNode::Space(_)))
            .count()
    };
    assert_eq!(spaces_shown(&model), 0);
    let note = screen(&model).tree_note.clone().unwrap_or_default();
    assert!(
        note.contains("opening a collection reads its own"),
        "{note}"
    );
    select(&mut model, "Engineering");
    headless::type_keys(&mut model, &effects, "l").await;
    assert_eq!(sandbox.requests("GET", "/collections/*/spaces"), 1);
    let engineering = spaces_shown(&model);
    assert!(engineering > 0, "its spaces are in the tree");
    let tree = screen(&model).tree.value().unwrap();
    let visible = screen(&model)
        .visible_rows()
        .iter()
        .filter(|row| matches!(tree.item(row.node), Some(OrgNode::Space(_))))
        .count();
    assert_eq!(visible, engineering, "and shown, the collection open");
    // Read once: opening it again asks nothing.
    select(&mut model, "Engineering");
    headless::type_keys(&mut model, &effects, "l").await;
    assert_eq!(sandbox.requests("GET", "/collections/*/spaces"), 1);
}

/// `r` on a collection reads that collection again (`GET /collections/{id}`) beside the tree;
/// one deleted meanwhile says so and leaves the tree.
#[tokio::test]
async fn r_on_a_collection_reads_it_again() {
    use quire::api::{Client, ClientConfig, Token};
    use quire::headless;
    use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
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
    headless::type_keys(&mut model, &effects, "\r").await;
    select(&mut model, "Engineering");
    let rename = CollectionUpdate {
        title: Some("Engineering Hub".into()),
        ..CollectionUpdate::default()
    };
    client
        .update_collection(demo_ids::COLLECTION_ENGINEERING, &rename)
        .await
        .unwrap();
    headless::type_keys(&mut model, &effects, "r").await;
    assert_eq!(sandbox.requests("GET", "/collections/*"), 1);
    assert_eq!(notice(&model), "Read “Engineering Hub” again.");
    let title = screen(&model).selected_node().map(OrgNode::title);
    assert_eq!(title, Some("Engineering Hub"));

    client
        .delete_collection(demo_ids::COLLECTION_ENGINEERING)
        .await
        .unwrap();
    headless::type_keys(&mut model, &effects, "r").await;
    assert_eq!(sandbox.requests("GET", "/collections/*"), 2);
    assert_eq!(
        notice(&model),
        "“Engineering Hub” is gone: it was deleted meanwhile."
    );
    let tree = screen(&model).tree.value().unwrap();
    assert!(
        !tree
            .nodes()
            .any(|(_, node)| node.item.title() == "Engineering Hub"),
        "the tree no longer shows it"
    );
}

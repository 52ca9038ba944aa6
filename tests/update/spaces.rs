//! Layer 1 for the space operations and the trash: `update` on its own. Keys and answers in,
//! the state and the exact `SpacesCall`s out, refusals and failures included.

use crate::common::*;
use quire::api::models::{DefaultLevel, Member, MergeRules, Space, SpaceEditMode};
use quire::api::{ApiError, SpaceUpdate};
use quire::app::{ApiCall, ApiResponse, Cmd, Model, OrganizationTree, RequestId, update};
use quire::screens::organization::{OrgNode, Organization, Tab};
use quire::screens::{Screen, ScreenState};
use quire::ui::keymap::Action;
use quire::vocabulary::spaces::{SpacesCall, SpacesResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::{Value, json};

fn admin_space(id: &str, title: &str, parent: Option<&str>, admin: bool) -> Value {
    let mut space = space_json(id, title, parent);
    space["permissions"] = json!({"view": true, "admin": admin, "edit": admin});
    space
}

/// Guides ▸ Internal ▸ Handbook, and API Reference at the top level (selected with `G`).
fn tree_with(admin: bool, extra: Vec<Value>) -> OrganizationTree {
    let mut spaces = vec![
        from_json::<Space>(admin_space(
            "s-handbook",
            "Handbook",
            Some("c-internal"),
            admin,
        )),
        from_json(admin_space("s-api", "API Reference", None, admin)),
    ];
    spaces.extend(extra.into_iter().map(from_json::<Space>));
    OrganizationTree { spaces, ..tree() }
}

/// The organization screen with `tree` loaded and the last row (API Reference) selected.
fn org_model(tree: OrganizationTree) -> Model {
    let mut model = loaded_organizations(1, None);
    let (request, _) = only_request(&open_first_organization(&mut model));
    respond(&mut model, request, ApiResponse::OrganizationTree(Ok(tree)));
    update(&mut model, char_key('G'));
    model
}

fn org(model: &Model) -> &Organization {
    match model.top() {
        Screen::Organization(screen) => screen,
        other => panic!("expected the organization screen, got {}", other.title()),
    }
}

fn spaces_call(cmd: &Cmd) -> (RequestId, SpacesCall) {
    match only_request(cmd) {
        (request, ApiCall::Spaces(call)) => (request, call),
        (_, other) => panic!("expected a spaces call, got {other:?}"),
    }
}

fn update_call(update: SpaceUpdate) -> SpacesCall {
    SpacesCall::Update {
        space: "s-api".into(),
        update,
    }
}

fn answered(model: &mut Model, request: RequestId, response: SpacesResponse) -> Cmd {
    respond(model, request, ApiResponse::Spaces(response))
}

fn notice(model: &Model) -> String {
    let screen = org(model);
    let notice = match screen.tab {
        Tab::Trash => &screen.trash.notice,
        _ => &screen.space_ops.notice,
    };
    notice.as_ref().map(|n| n.text.clone()).unwrap_or_default()
}

fn selected_space(model: &Model) -> Space {
    match org(model).selected_node() {
        Some(OrgNode::Space(space)) => space.clone(),
        other => panic!("expected a space selected, got {other:?}"),
    }
}

fn with(space: Value, change: Value) -> Space {
    let mut space = space;
    if let (Some(object), Some(change)) = (space.as_object_mut(), change.as_object()) {
        object.extend(change.clone());
    }
    from_json(space)
}

fn forbidden() -> ApiError {
    ApiError::Status {
        endpoint: "PATCH /spaces/s-api".into(),
        status: 403,
        code: Some(403),
        message: "Changing space \"s-api\" needs the admin role; your role is edit".into(),
    }
}

#[test]
fn x_locks_the_space_and_the_answer_shows_in_the_tree() {
    let mut model = org_model(tree_with(true, vec![]));
    let (request, call) = spaces_call(&update(&mut model, char_key('x')));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            edit_mode: Some(SpaceEditMode::Locked),
            ..SpaceUpdate::default()
        })
    );
    let locked = with(
        admin_space("s-api", "API Reference", None, true),
        json!({"editMode": "locked"}),
    );
    answered(&mut model, request, SpacesResponse::Space(Ok(locked)));
    assert!(selected_space(&model).is_locked());
    assert!(notice(&model).contains("locked"), "{}", notice(&model));
    // And x again unlocks.
    let (_, call) = spaces_call(&update(&mut model, char_key('x')));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            edit_mode: Some(SpaceEditMode::Live),
            ..SpaceUpdate::default()
        })
    );
}

#[test]
fn without_admin_every_space_action_is_struck_through_and_says_why() {
    let mut model = org_model(tree_with(false, vec![]));
    assert!(org(&model).disabled_actions().contains(&Action::ToggleLock));
    for key in ['x', 'R', 'i', 'L', 'a', 'M', 'Y', 'd'] {
        let cmd = update(&mut model, char_key(key));
        assert_eq!(cmd, Cmd::None, "{key}");
        assert!(
            notice(&model).starts_with("only an admin of the space “"),
            "{key}: {}",
            notice(&model)
        );
        assert!(org(&model).space_ops.modal.is_none(), "{key}");
    }
}

#[test]
fn space_only_actions_on_a_collection_say_so() {
    let mut model = org_model(tree_with(true, vec![]));
    update(&mut model, char_key('g'));
    assert_eq!(update(&mut model, char_key('x')), Cmd::None);
    assert!(notice(&model).contains("not a space"), "{}", notice(&model));
    assert!(org(&model).disabled_actions().contains(&Action::Duplicate));
}

#[test]
fn a_refused_change_shows_the_servers_words_until_esc() {
    let mut model = org_model(tree_with(true, vec![]));
    let (request, _) = spaces_call(&update(&mut model, char_key('x')));
    answered(&mut model, request, SpacesResponse::Space(Err(forbidden())));
    assert!(
        notice(&model).contains("your role is edit"),
        "{}",
        notice(&model)
    );
    assert!(!selected_space(&model).is_locked());
    update(&mut model, key(KeyCode::Esc));
    assert_eq!(notice(&model), "");
    assert!(
        matches!(model.top(), Screen::Organization(_)),
        "esc only dismissed"
    );
}

#[test]
fn rename_prompts_with_the_title_and_checks_its_length() {
    let mut model = org_model(tree_with(true, vec![]));
    update(&mut model, char_key('R'));
    update(&mut model, ctrl('u'));
    assert_eq!(
        update(&mut model, key(KeyCode::Enter)),
        Cmd::None,
        "empty is refused"
    );
    for c in "API v2".chars() {
        update(&mut model, char_key(c));
    }
    let (_, call) = spaces_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            title: Some("API v2".into()),
            ..SpaceUpdate::default()
        })
    );
}

#[test]
fn emoji_level_and_language_come_from_pickers() {
    let mut model = org_model(tree_with(true, vec![]));
    update(&mut model, char_key('i'));
    for c in "rocket".chars() {
        update(&mut model, char_key(c));
    }
    let (request, call) = spaces_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            emoji: Some("🚀".into()),
            ..SpaceUpdate::default()
        })
    );
    let space = with(admin_space("s-api", "API Reference", None, true), json!({}));
    answered(&mut model, request, SpacesResponse::Space(Ok(space)));

    update(&mut model, char_key('L'));
    update(&mut model, char_key('G'));
    let (request, call) = spaces_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            default_level: Some(None),
            ..SpaceUpdate::default()
        })
    );
    let space = with(admin_space("s-api", "API Reference", None, true), json!({}));
    answered(&mut model, request, SpacesResponse::Space(Ok(space)));
    update(&mut model, char_key('L'));
    update(&mut model, char_key('g'));
    update(&mut model, char_key('j'));
    let (request, call) = spaces_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            default_level: Some(Some(DefaultLevel::Create)),
            ..SpaceUpdate::default()
        })
    );
    let space = with(admin_space("s-api", "API Reference", None, true), json!({}));
    answered(&mut model, request, SpacesResponse::Space(Ok(space)));

    update(&mut model, char_key('a'));
    update(&mut model, char_key('g'));
    update(&mut model, char_key('j'));
    let (_, call) = spaces_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            language: Some("fr".into()),
            ..SpaceUpdate::default()
        })
    );
}

#[test]
fn merge_rules_require_reviewers_chosen_from_the_members() {
    let mut model = org_model(tree_with(true, vec![]));
    update(&mut model, char_key('M'));
    update(&mut model, char_key('j'));
    let (request, call) = spaces_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        SpacesCall::Members {
            organization: "org-0".into()
        }
    );
    let members: Vec<Member> = ["usr-ada", "usr-bo"]
        .iter()
        .map(|id| {
            from_json(json!({"id": id, "role": "review",
                "user": {"object": "user", "id": id, "displayName": id}}))
        })
        .collect();
    answered(
        &mut model,
        request,
        SpacesResponse::Members(Ok(members.into())),
    );
    // Enter with nobody marked is refused; mark the second member, then enter.
    assert_eq!(update(&mut model, key(KeyCode::Enter)), Cmd::None);
    assert!(notice(&model).contains("no reviewer"), "{}", notice(&model));
    update(&mut model, char_key('M'));
    update(&mut model, char_key('j'));
    update(&mut model, key(KeyCode::Enter));
    update(&mut model, char_key('j'));
    update(&mut model, char_key(' '));
    let (_, call) = spaces_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            merge_rules: Some(MergeRules::SpecificReviewers(vec!["usr-bo".into()])),
            ..SpaceUpdate::default()
        })
    );
    // Back to the organization's rules.
    let mut model = org_model(tree_with(true, vec![]));
    update(&mut model, char_key('M'));
    let (_, call) = spaces_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        update_call(SpaceUpdate {
            merge_rules: Some(MergeRules::Inherit),
            ..SpaceUpdate::default()
        })
    );
}

#[test]
fn delete_asks_first_then_the_space_moves_to_the_trash() {
    let mut model = org_model(tree_with(true, vec![]));
    assert_eq!(update(&mut model, char_key('d')), Cmd::None);
    let text = format!("{:?}", org(&model).space_ops.modal);
    assert!(text.contains("restored for 7 days"), "{text}");
    assert_eq!(update(&mut model, char_key('n')), Cmd::None, "n cancels");
    update(&mut model, char_key('d'));
    let (request, call) = spaces_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        SpacesCall::Delete {
            space: "s-api".into()
        }
    );
    let reload = answered(&mut model, request, SpacesResponse::Deleted(Ok(())));
    assert!(matches!(
        only_request(&reload).1,
        ApiCall::OrganizationTree { .. }
    ));
    assert!(notice(&model).contains("Trash"), "{}", notice(&model));
    let trash = &org(&model).trash;
    assert_eq!(trash.entries()[0].id, "s-api");
    // The action log lists the deletion, undone by restoring the space.
    let logged = model.action_log.newest_first().next().expect("logged");
    assert!(logged.what.starts_with("Deleted the space"), "{logged:?}");
    assert_eq!(
        logged.undo,
        quire::vocabulary::action_log::Undo::inverse(
            ApiCall::Spaces(SpacesCall::Restore {
                space: "s-api".into()
            }),
            match &logged.undo {
                quire::vocabulary::action_log::Undo::Inverse { describe, .. } => describe.clone(),
                other => panic!("an inverse: {other:?}"),
            },
        )
    );
}

#[test]
fn duplicate_selects_the_copy_once_the_tree_is_reloaded() {
    let mut model = org_model(tree_with(true, vec![]));
    let (request, call) = spaces_call(&update(&mut model, char_key('Y')));
    assert_eq!(
        call,
        SpacesCall::Duplicate {
            space: "s-api".into()
        }
    );
    let copy = admin_space("s-copy", "Handbook (copy)", Some("c-internal"), true);
    let reload = answered(
        &mut model,
        request,
        SpacesResponse::Space(Ok(from_json(copy.clone()))),
    );
    let (request, _) = only_request(&reload);
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree_with(true, vec![copy]))),
    );
    assert_eq!(selected_space(&model).id, "s-copy", "its collection opened");
    assert!(notice(&model).contains("Duplicated"));
}

fn deleted_space(id: &str, title: &str, admin: bool, days_ago: i64) -> Value {
    let mut space = admin_space(id, title, None, admin);
    let when = chrono::Utc::now() - chrono::Duration::days(days_ago);
    space["deletedAt"] = json!(when.to_rfc3339());
    space
}

fn trash_model(admin: bool) -> Model {
    let mut model = org_model(tree_with(
        true,
        vec![deleted_space("s-old", "Old Notes", admin, 2)],
    ));
    // Trash is the sixth tab: Spaces, Change requests, Members, Teams, Sites, Trash.
    for _ in 0..5 {
        update(&mut model, key(KeyCode::Tab));
    }
    assert_eq!(org(&model).tab, Tab::Trash);
    model
}

#[test]
fn deleted_spaces_leave_the_tree_for_the_trash() {
    let model = trash_model(true);
    let tree = org(&model).tree.value().unwrap();
    assert!(
        !tree
            .nodes()
            .any(|(_, node)| node.item.key() == "space:s-old")
    );
    assert_eq!(org(&model).trash.entries()[0].id, "s-old");
}

#[test]
fn u_restores_and_says_restored() {
    let mut model = trash_model(true);
    let (request, call) = spaces_call(&update(&mut model, char_key('u')));
    assert_eq!(
        call,
        SpacesCall::Restore {
            space: "s-old".into()
        }
    );
    let restored = with(admin_space("s-old", "Old Notes", None, true), json!({}));
    let reload = answered(&mut model, request, SpacesResponse::Space(Ok(restored)));
    assert!(matches!(
        only_request(&reload).1,
        ApiCall::OrganizationTree { .. }
    ));
    assert!(notice(&model).contains("Restored"), "{}", notice(&model));
    assert!(org(&model).trash.entries().is_empty());
}

#[test]
fn a_refused_restore_keeps_the_space_in_the_trash_and_says_why() {
    let mut model = trash_model(true);
    let (request, _) = spaces_call(&update(&mut model, char_key('u')));
    let purged = ApiError::Status {
        endpoint: "POST /spaces/s-old/restore".into(),
        status: 404,
        code: Some(404),
        message: "Space \"s-old\" was deleted more than 7 days ago and has been purged".into(),
    };
    answered(&mut model, request, SpacesResponse::Space(Err(purged)));
    assert!(
        notice(&model).contains("more than 7 days"),
        "{}",
        notice(&model)
    );
    assert_eq!(org(&model).trash.entries().len(), 1);
}

#[test]
fn restore_without_admin_is_struck_through_and_says_why() {
    let mut model = trash_model(false);
    assert!(org(&model).disabled_actions().contains(&Action::Restore));
    assert_eq!(update(&mut model, char_key('u')), Cmd::None);
    assert_eq!(
        notice(&model),
        "only an admin of the space “Old Notes” may restore it"
    );
}

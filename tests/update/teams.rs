//! Layer 1 for teams: `update` on its own. Keys and answers in, the state, the words shown and
//! the exact calls out: teams created with initial members, renamed and deleted, a team's members
//! one by one and in bulk, and refusals (by role, before sending, and by the server, in words).

use crate::common::drafts::{discards_draft, saved_draft};
use crate::common::members_teams::*;
use crate::common::*;
use crate::members::{forbidden, timer_of, type_text};
use quire::api::TeamMembersUpdate;
use quire::api::models::TeamRole;
use quire::app::{ApiCall, ApiResponse, Cmd, Msg, RequestId, update};
use quire::ui::keymap::Action;
use quire::vocabulary::teams::{TeamsCall, TeamsResponse};
use ratatui::crossterm::event::KeyCode;

fn teams_call(cmd: &Cmd) -> (RequestId, TeamsCall) {
    match only_request(cmd) {
        (request, ApiCall::Teams(call)) => (request, call),
        (_, other) => panic!("expected a teams call, got {other:?}"),
    }
}

#[test]
fn teams_filter_by_title_on_the_server_and_show_the_ones_i_manage() {
    let mut model = teams_model(true, 80, 24);
    update(&mut model, char_key('/'));
    let cmds = type_text(&mut model, "doc");
    let (_, call) = teams_call(&update(&mut model, Msg::Timer(timer_of(&cmds[2]))));
    assert!(
        matches!(&call, TeamsCall::List { title: Some(title), owner: None, page: None, .. } if title == "doc"),
        "{call:?}"
    );
    update(&mut model, key(KeyCode::Enter));
    // `m`: who am I first, then the teams I can manage.
    let (request, call) = teams_call(&update(&mut model, char_key('m')));
    assert_eq!(call, TeamsCall::CurrentUser);
    let me = from_json(serde_json::json!({"object": "user", "id": "u-ada"}));
    let (_, call) = teams_call(&respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::CurrentUser(Ok(me))),
    ));
    assert!(
        matches!(&call, TeamsCall::List { owner: Some(owner), title: Some(_), .. } if owner == "u-ada"),
        "{call:?}"
    );
    let (_, call) = teams_call(&update(&mut model, char_key('m')));
    assert!(matches!(call, TeamsCall::List { owner: None, .. }));
}

/// Creates "Field Ops" from the Teams tab (no initial members) and answers the create; returns
/// the reload's request.
fn create_field_ops(model: &mut quire::app::Model) -> RequestId {
    update(model, char_key('n'));
    type_text(model, "Field Ops");
    let (request, _) = teams_call(&update(model, key(KeyCode::Enter)));
    respond(
        model,
        request,
        ApiResponse::Teams(TeamsResponse::Pickable(Ok(pickable()))),
    );
    let (request, _) = teams_call(&update(model, key(KeyCode::Enter)));
    let (reload, call) = teams_call(&respond(
        model,
        request,
        ApiResponse::Teams(TeamsResponse::Saved(Ok(team(
            "t-new",
            "Field Ops",
            0,
            true,
        )))),
    ));
    assert!(matches!(call, TeamsCall::List { .. }), "the list reloads");
    reload
}

fn selected_title(model: &quire::app::Model) -> Option<String> {
    teams_tab(model).selected().map(|team| team.title.clone())
}

#[test]
fn a_created_team_is_selected_at_once_and_after_the_reload() {
    let mut model = teams_model(true, 80, 24);
    assert_eq!(selected_title(&model).as_deref(), Some("Platform"));
    let reload = create_field_ops(&mut model);
    assert_eq!(selected_title(&model).as_deref(), Some("Field Ops"));
    let mut listed = teams();
    listed.push(team("t-new", "Field Ops", 0, true));
    respond(
        &mut model,
        reload,
        ApiResponse::Teams(TeamsResponse::List(Ok(page(listed)))),
    );
    assert_eq!(selected_title(&model).as_deref(), Some("Field Ops"));
    update(&mut model, key(KeyCode::Enter));
    assert_eq!(team_screen(&model).team.title, "Field Ops");
}

#[test]
fn a_created_team_on_a_later_page_is_read_on_to_and_selected() {
    let mut model = teams_model(true, 80, 24);
    let reload = create_field_ops(&mut model);
    let mut first = page(teams());
    first.next_page = Some("p2".into());
    let (more, call) = teams_call(&respond(
        &mut model,
        reload,
        ApiResponse::Teams(TeamsResponse::List(Ok(first))),
    ));
    assert!(
        matches!(&call, TeamsCall::List { page: Some(page), .. } if page == "p2"),
        "{call:?}"
    );
    respond(
        &mut model,
        more,
        ApiResponse::Teams(TeamsResponse::List(Ok(page(vec![team(
            "t-new",
            "Field Ops",
            0,
            true,
        )])))),
    );
    assert_eq!(selected_title(&model).as_deref(), Some("Field Ops"));
}

#[test]
fn a_team_is_created_with_a_checked_title_and_initial_members() {
    use quire::screens::teams::tab::Modal;
    let mut model = teams_model(true, 80, 24);
    update(&mut model, char_key('n'));
    type_text(&mut model, &"x".repeat(65));
    assert!(requests(&update(&mut model, key(KeyCode::Enter))).is_empty());
    match &teams_tab(&model).modal {
        Some(Modal::Title(prompt)) => assert_eq!(
            prompt.error().as_deref(),
            Some("at most 64 characters (65 now)")
        ),
        other => panic!("the prompt stays open, got {other:?}"),
    }
    for _ in 0..65 {
        update(&mut model, key(KeyCode::Backspace));
    }
    type_text(&mut model, "Field Ops");
    let (request, call) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        TeamsCall::Pickable {
            organization: ORG.into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Pickable(Ok(pickable()))),
    );
    assert!(matches!(teams_tab(&model).modal, Some(Modal::Members(_))));
    update(&mut model, char_key(' '));
    update(&mut model, char_key('j'));
    update(&mut model, char_key(' '));
    let (request, call) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        TeamsCall::Create {
            organization: ORG.into(),
            title: "Field Ops".into(),
            members: vec!["u-ada".into(), "u-grace".into()]
        }
    );
    let (_, call) = teams_call(&respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Saved(Ok(team(
            "t-new",
            "Field Ops",
            2,
            true,
        )))),
    ));
    assert!(matches!(call, TeamsCall::List { .. }), "the list reloads");
    let notice = teams_tab(&model).notice.clone().expect("a notice");
    assert_eq!(notice.text, "Created team “Field Ops”");
    // The action log lists it, undone by deleting the new team.
    let logged = model.action_log.newest_first().next().expect("logged");
    assert_eq!(logged.what, "Created team “Field Ops”");
    match &logged.undo {
        quire::vocabulary::action_log::Undo::Inverse { call, .. } => assert_eq!(
            **call,
            ApiCall::Teams(TeamsCall::Delete {
                organization: ORG.into(),
                team: "t-new".into()
            })
        ),
        other => panic!("an inverse: {other:?}"),
    }
}

#[test]
fn a_team_is_renamed_and_deleted_after_asking_and_a_refusal_is_shown() {
    use quire::screens::teams::tab::Modal;
    let mut model = teams_model(true, 80, 24);
    update(&mut model, char_key('R'));
    for _ in 0.."Platform".len() {
        update(&mut model, key(KeyCode::Backspace));
    }
    type_text(&mut model, "Platform Eng");
    let (request, call) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        TeamsCall::Rename {
            organization: ORG.into(),
            team: "t-platform".into(),
            title: "Platform Eng".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Saved(Ok(team(
            "t-platform",
            "Platform Eng",
            3,
            true,
        )))),
    );
    let notice = teams_tab(&model).notice.clone().expect("a notice");
    assert_eq!(notice.text, "Renamed “Platform” to “Platform Eng”");
    match &model.action_log.newest_first().next().expect("logged").undo {
        quire::vocabulary::action_log::Undo::Inverse { call, .. } => assert_eq!(
            **call,
            ApiCall::Teams(TeamsCall::Rename {
                organization: ORG.into(),
                team: "t-platform".into(),
                title: "Platform".into()
            })
        ),
        other => panic!("an inverse: {other:?}"),
    }

    update(&mut model, char_key('d'));
    match &teams_tab(&model).modal {
        Some(Modal::ConfirmDelete(confirm, _)) => {
            assert!(confirm.text().contains("Delete team “Platform”?"));
            assert!(confirm.text().contains("Its 3 members"));
        }
        other => panic!("expected a confirmation, got {other:?}"),
    }
    let (request, call) = teams_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        TeamsCall::Delete {
            organization: ORG.into(),
            team: "t-platform".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Deleted(Err(forbidden(
            "Deleting a team needs the admin role",
        )))),
    );
    let notice = teams_tab(&model).notice.clone().expect("a notice");
    assert!(notice.error);
    assert_eq!(
        notice.text,
        "Could not delete “Platform”: Deleting a team needs the admin role"
    );
}

#[test]
fn teams_need_the_admin_role_to_change() {
    let mut model = teams_model(false, 80, 24);
    let disabled = model.top().disabled_actions();
    assert!(disabled.contains(&Action::Create) && disabled.contains(&Action::Delete));
    for c in ['n', 'R', 'd'] {
        assert!(requests(&update(&mut model, char_key(c))).is_empty());
        assert!(teams_tab(&model).modal.is_none());
    }
    let notice = teams_tab(&model).notice.clone().expect("a notice");
    assert_eq!(
        notice.text,
        "Deleting a team needs the admin role in this organization"
    );
}

#[test]
fn enter_on_a_team_opens_its_members() {
    let mut model = teams_model(true, 80, 24);
    let (_, call) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        TeamsCall::Members {
            organization: ORG.into(),
            team: "t-platform".into(),
            page: None
        }
    );
    assert_eq!(team_screen(&model).team.title, "Platform");
}

#[test]
fn one_member_is_added_given_a_role_and_removed_after_asking() {
    use quire::screens::teams::Modal;
    let mut model = team_model(true, 80, 24);
    let (request, call) = teams_call(&update(&mut model, char_key('a')));
    assert_eq!(
        call,
        TeamsCall::Pickable {
            organization: ORG.into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Pickable(Ok(pickable()))),
    );
    // Only members outside the team are offered: Linus.
    match &team_screen(&model).modal {
        Some(Modal::Pick(picker)) => assert_eq!(picker.options.len(), 1),
        other => panic!("expected the member picker, got {other:?}"),
    }
    let (request, call) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        TeamsCall::SetMember {
            organization: ORG.into(),
            team: "t-platform".into(),
            user: "u-linus".into(),
            role: Some(TeamRole::Member)
        }
    );
    let (_, reload) = teams_call(&respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::MembersChanged(Ok(()))),
    ));
    assert!(matches!(reload, TeamsCall::Members { .. }));
    let notice = team_screen(&model).notice.clone().expect("a notice");
    assert_eq!(notice.text, "Added Linus Torvalds to “Platform”");

    update(&mut model, char_key('j'));
    update(&mut model, char_key('e'));
    update(&mut model, char_key('k'));
    let (_, call) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        TeamsCall::SetMember {
            organization: ORG.into(),
            team: "t-platform".into(),
            user: "u-grace".into(),
            role: Some(TeamRole::Owner)
        }
    );
}

#[test]
fn removing_one_asks_naming_them_and_a_refusal_is_shown_in_words() {
    use quire::screens::teams::Modal;
    let mut model = team_model(true, 80, 24);
    update(&mut model, char_key('j'));
    update(&mut model, char_key('d'));
    match &team_screen(&model).modal {
        Some(Modal::Confirm(confirm, _)) => {
            assert!(
                confirm
                    .text()
                    .contains("Remove Grace Hopper from “Platform”?")
            )
        }
        other => panic!("expected a confirmation, got {other:?}"),
    }
    let (request, call) = teams_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        TeamsCall::RemoveMember {
            organization: ORG.into(),
            team: "t-platform".into(),
            user: "u-grace".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::MembersChanged(Err(forbidden(
            "needs the owner role in the team",
        )))),
    );
    let notice = team_screen(&model).notice.clone().expect("a notice");
    assert!(notice.error);
    assert_eq!(notice.text, "Not changed: needs the owner role in the team");
}

#[test]
fn bulk_edit_adds_picked_and_removes_marked_in_one_put_and_says_who_ends_up_removed() {
    use quire::screens::teams::Modal;
    let mut model = team_model(true, 80, 24);
    // Mark Ada and Grace (space moves down), then pick Grace and Linus to add.
    update(&mut model, char_key(' '));
    update(&mut model, char_key(' '));
    assert_eq!(team_screen(&model).marked.len(), 2);
    let (request, _) = teams_call(&update(&mut model, char_key('B')));
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Pickable(Ok(pickable()))),
    );
    update(&mut model, char_key('j'));
    update(&mut model, char_key(' '));
    update(&mut model, char_key('j'));
    update(&mut model, char_key(' '));
    assert!(requests(&update(&mut model, key(KeyCode::Enter))).is_empty());
    let text = match &team_screen(&model).modal {
        Some(Modal::Confirm(confirm, _)) => confirm.text(),
        other => panic!("expected the confirmation, got {other:?}"),
    };
    assert!(text.contains("Change the members of “Platform”?"), "{text}");
    assert!(
        text.contains("Added: Grace Hopper, Linus Torvalds. Removed: Ada Lovelace, Grace Hopper."),
        "{text}"
    );
    assert!(
        text.contains("Grace Hopper both added and removed: they end up removed."),
        "{text}"
    );
    let (request, call) = teams_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        TeamsCall::UpdateMembers {
            organization: ORG.into(),
            team: "t-platform".into(),
            update: TeamMembersUpdate {
                add: vec!["u-grace".into(), "u-linus".into()],
                remove: vec!["u-ada".into(), "u-grace".into()],
                ..TeamMembersUpdate::default()
            }
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::MembersChanged(Ok(()))),
    );
    assert!(team_screen(&model).marked.is_empty());
    let notice = team_screen(&model).notice.clone().expect("a notice");
    assert_eq!(
        notice.text,
        "Changed the members of “Platform”: 1 added, 2 removed"
    );
}

#[test]
fn a_team_i_cannot_manage_refuses_changes_before_sending() {
    let mut model = team_model(false, 80, 24);
    let disabled = model.top().disabled_actions();
    for action in [
        Action::AddTeamMember,
        Action::ChangeRole,
        Action::Delete,
        Action::BulkEdit,
    ] {
        assert!(disabled.contains(&action), "{action:?}");
    }
    for c in ['a', 'e', 'd', 'B'] {
        assert!(requests(&update(&mut model, char_key(c))).is_empty());
    }
    let notice = team_screen(&model).notice.clone().expect("a notice");
    assert!(
        notice.text.contains("owner role in the team"),
        "{}",
        notice.text
    );
}

#[test]
fn back_from_a_teams_members_the_teams_list_is_asked_again() {
    let mut model = teams_model(true, 80, 24);
    let (request, _) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Members(Ok(page(Vec::new())))),
    );
    let (_, call) = teams_call(&update(&mut model, key(KeyCode::Esc)));
    assert!(
        matches!(call, TeamsCall::List { page: None, .. }),
        "{call:?}"
    );
}

#[test]
fn a_member_picker_says_when_the_organizations_list_was_cut_short() {
    use quire::screens::teams::Modal;
    let mut model = team_model(true, 80, 24);
    let (request, _) = teams_call(&update(&mut model, char_key('a')));
    let mut cut = pickable();
    cut.cut_short = true;
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Pickable(Ok(cut))),
    );
    match &team_screen(&model).modal {
        Some(Modal::Pick(picker)) => {
            assert_eq!(picker.title, "Add to “Platform” — first 3 members only")
        }
        other => panic!("expected the member picker, got {other:?}"),
    }
}

#[test]
fn a_failed_member_list_closes_the_waiting_popup_with_the_reason() {
    let mut model = team_model(true, 80, 24);
    let (request, _) = teams_call(&update(&mut model, char_key('B')));
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Pickable(Err(forbidden("slow down")))),
    );
    assert!(team_screen(&model).modal.is_none());
    let notice = team_screen(&model).notice.clone().expect("a notice");
    assert_eq!(
        notice.text,
        "Could not list the members to pick from: slow down"
    );
    // Asked again next time.
    let (_, call) = teams_call(&update(&mut model, char_key('B')));
    assert!(matches!(call, TeamsCall::Pickable { .. }));
}

/// `r` on a team's members reads that team alone as well (not the Teams list): a rename made
/// elsewhere shows at once.
#[tokio::test]
async fn r_on_a_teams_members_reads_the_team_alone() {
    use quire::api::{Client, ClientConfig, Token};
    use quire::headless;
    use quire::sandbox::{Sandbox, SandboxOptions, tokens};
    use quire::screens::{Screen, ScreenState};
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .unwrap();
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let effects = headless::effects_with(client.clone());
    let mut model = crate::common::organizations_model(100, 30);
    headless::start(&mut model, &effects).await;
    // Acme, the Teams tab (the fourth), its first team.
    headless::type_keys(&mut model, &effects, "\r\t\t\t\r").await;
    let team = match model.top() {
        Screen::Team(screen) => screen.team.clone(),
        _ => panic!("not on a team"),
    };
    client
        .rename_team("org-acme-robotics", &team.id, "Renamed Elsewhere")
        .await
        .unwrap();
    let single = format!("/orgs/*/teams/{}", team.id);
    let (reads, lists) = (
        sandbox.requests("GET", &single),
        sandbox.requests("GET", "/orgs/*/teams"),
    );
    headless::type_keys(&mut model, &effects, "r").await;
    assert_eq!(
        sandbox.requests("GET", &single),
        reads + 1,
        "the team read alone"
    );
    assert_eq!(
        sandbox.requests("GET", "/orgs/*/teams"),
        lists,
        "not the list"
    );
    let Screen::Team(screen) = model.top() else {
        panic!("still on the team");
    };
    assert_eq!(screen.title(), "Team Renamed Elsewhere");
}

const NEW_TEAM_DRAFT: &str = "team-create:o-acme";

fn title_prompt(model: &quire::app::Model) -> (String, String) {
    use quire::screens::teams::tab::Modal;
    match &teams_tab(model).modal {
        Some(Modal::Title(prompt)) => (prompt.input.text.clone(), prompt.hint.clone()),
        other => panic!("the title prompt, got {other:?}"),
    }
}

/// The title and the members picked survive `esc` at either step and a refused create: each
/// is drafted as it changes, the next `n` offers them, and the create the server takes drops
/// the draft.
#[test]
fn a_team_being_created_survives_esc_and_a_refused_create() {
    let mut model = teams_model(true, 80, 24);
    update(&mut model, char_key('n'));
    let typed = type_text(&mut model, "Field Ops");
    assert_eq!(
        saved_draft(typed.last().unwrap(), NEW_TEAM_DRAFT).as_deref(),
        Some("title: Field Ops\n")
    );
    let closed = update(&mut model, key(KeyCode::Esc));
    assert!(teams_tab(&model).modal.is_none());
    assert!(!discards_draft(&closed, NEW_TEAM_DRAFT), "{closed:?}");

    update(&mut model, char_key('n'));
    assert_eq!(title_prompt(&model).0, "Field Ops", "offered back");
    let (request, _) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Pickable(Ok(pickable()))),
    );
    let marked = update(&mut model, char_key(' '));
    assert_eq!(
        saved_draft(&marked, NEW_TEAM_DRAFT).as_deref(),
        Some("title: Field Ops\nmember: u-ada\n")
    );
    update(&mut model, key(KeyCode::Esc));

    update(&mut model, char_key('n'));
    let (title, hint) = title_prompt(&model);
    assert_eq!(title, "Field Ops");
    assert!(hint.contains("with 1 member"), "{hint}");
    update(&mut model, key(KeyCode::Enter));
    let (request, call) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        TeamsCall::Create {
            organization: ORG.into(),
            title: "Field Ops".into(),
            members: vec!["u-ada".into()]
        },
        "the member is marked again"
    );
    let refused = respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Saved(Err(forbidden("Not allowed today")))),
    );
    assert!(!discards_draft(&refused, NEW_TEAM_DRAFT), "{refused:?}");
    let notice = teams_tab(&model).notice.clone().expect("a notice");
    assert!(notice.text.contains("n offers it again"), "{}", notice.text);

    update(&mut model, char_key('n'));
    update(&mut model, key(KeyCode::Enter));
    let (request, _) = teams_call(&update(&mut model, key(KeyCode::Enter)));
    let created = respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Saved(Ok(team(
            "t-new",
            "Field Ops",
            1,
            true,
        )))),
    );
    assert!(discards_draft(&created, NEW_TEAM_DRAFT), "{created:?}");
    assert_eq!(teams_tab(&model).new_team, None);
    update(&mut model, char_key('n'));
    assert_eq!(title_prompt(&model).0, "", "a fresh team next time");
}

/// A team being created when quire ended is offered by the next `n`.
#[test]
fn a_team_being_created_in_an_earlier_run_is_offered_by_n() {
    let mut model = teams_model(true, 80, 24);
    update(
        &mut model,
        Msg::DraftsLoaded {
            prefix: NEW_TEAM_DRAFT.into(),
            drafts: vec![(
                NEW_TEAM_DRAFT.into(),
                "title: Field Ops\nmember: u-grace\n".into(),
            )],
        },
    );
    let notice = teams_tab(&model).notice.clone().expect("a notice");
    assert!(
        notice.text.contains("n offers “Field Ops” again"),
        "{}",
        notice.text
    );
    update(&mut model, char_key('n'));
    let (title, hint) = title_prompt(&model);
    assert_eq!(title, "Field Ops");
    assert!(hint.contains("with 1 member"), "{hint}");
}

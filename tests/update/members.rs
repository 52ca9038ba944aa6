//! Layer 1 for members: `update` on its own. Keys and answers in, the state, the words shown
//! and the exact calls out: the server's member filters (search debounced, older answers
//! dropped), a member's details, role / SSO / removal asked first naming the person, and
//! refusals by role, in words.

use crate::common::members_teams::*;
use crate::common::wait::{PATIENCE, wait_until_async};
use crate::common::*;
use quire::api::ApiError;
use quire::api::models::MemberRole;
use quire::app::{ApiCall, ApiResponse, Cmd, Model, Msg, RequestId, update};
use quire::ui::keymap::Action;
use quire::vocabulary::members::{MemberDetails, MembersCall, MembersResponse};
use ratatui::crossterm::event::KeyCode;

pub(crate) fn forbidden(message: &str) -> ApiError {
    ApiError::Status {
        endpoint: "PATCH /orgs/o-acme/members/u-ada".into(),
        status: 403,
        code: Some(403),
        message: message.into(),
    }
}

pub(crate) fn type_text(model: &mut Model, text: &str) -> Vec<Cmd> {
    text.chars().map(|c| update(model, char_key(c))).collect()
}

/// The debounce timer a key set; after the first key it comes with the call-off of the one
/// before.
pub(crate) fn timer_of(cmd: &Cmd) -> RequestId {
    match cmd {
        Cmd::Timer { id, after } => {
            assert_eq!(*after, std::time::Duration::from_millis(250));
            *id
        }
        Cmd::Batch(commands) => match commands.as_slice() {
            [Cmd::CancelTimer(_), timer] => timer_of(timer),
            other => panic!("expected a debounce timer and a call-off, got {other:?}"),
        },
        other => panic!("expected a debounce timer, got {other:?}"),
    }
}

fn members_notice(model: &Model) -> String {
    let notice = members_tab(model).notice.as_ref();
    notice.map(|notice| notice.text.clone()).unwrap_or_default()
}

fn member_call(cmd: &Cmd) -> (RequestId, MembersCall) {
    match only_request(cmd) {
        (request, ApiCall::Members(call)) => (request, call),
        (_, other) => panic!("expected a member call, got {other:?}"),
    }
}

fn confirm_text(model: &Model) -> String {
    use quire::screens::members::Modal;
    match &members_tab(model).modal {
        Some(Modal::Confirm { confirm, .. }) => confirm.text(),
        other => panic!("expected a confirmation, got {other:?}"),
    }
}

#[test]
fn search_is_sent_as_typed_once_typing_pauses_and_older_answers_are_dropped() {
    let mut model = members_model(true, 80, 24);
    update(&mut model, char_key('/'));
    let cmds = type_text(&mut model, "gr");
    let first = timer_of(&cmds[0]);
    let latest = timer_of(&cmds[1]);
    assert!(requests(&cmds[1]).is_empty(), "typing itself sends nothing");
    assert_eq!(
        cancelled_timers(&cmds[1]),
        [first],
        "the second key calls off the first key's timer"
    );
    assert_eq!(members_tab(&model).visible().len(), 1, "narrowed at once");
    // The first timer is stale: only the latest one asks the server.
    assert!(requests(&update(&mut model, Msg::Timer(first))).is_empty());
    let (old_request, call) = only_request(&update(&mut model, Msg::Timer(latest)));
    match call {
        ApiCall::Members(MembersCall::List { filter, page, .. }) => {
            assert_eq!(filter.search.as_deref(), Some("gr"));
            assert_eq!(page, None);
        }
        other => panic!("expected the members list, got {other:?}"),
    }
    // More typing asks again; the answer to the older question is dropped.
    let cmds = type_text(&mut model, "a");
    let (new_request, _) = only_request(&update(&mut model, Msg::Timer(timer_of(&cmds[0]))));
    let grace = members()[1].clone();
    respond(
        &mut model,
        new_request,
        ApiResponse::Members(MembersResponse::List(Ok(page(vec![grace])))),
    );
    respond(
        &mut model,
        old_request,
        ApiResponse::Members(MembersResponse::List(Ok(page(members())))),
    );
    let names: Vec<_> = members_tab(&model)
        .list
        .items
        .iter()
        .map(|member| member.user.display_name.clone())
        .collect();
    assert_eq!(names, ["Grace Hopper"]);
    assert_eq!(members_tab(&model).query.search.as_deref(), Some("gra"));
}

#[test]
fn enter_shows_a_members_spaces_and_teams_and_esc_goes_back_to_the_list() {
    let mut model = members_model(true, 80, 24);
    let (request, call) = member_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        MembersCall::Details {
            organization: ORG.into(),
            user: "u-ada".into(),
            oldest_first: false,
            teams_title: None,
        }
    );
    let details = MemberDetails {
        spaces: page(vec![from_json(serde_json::json!({
            "permission": "admin", "space": space_json("s-api", "API Reference", None)
        }))]),
        teams: page(vec![from_json(serde_json::json!({
            "team": {"id": "t-platform", "title": "Platform"}, "member": {"role": "owner"}
        }))]),
    };
    respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Details(Ok(details.clone()))),
    );
    let shown = members_tab(&model).details.as_ref().expect("details open");
    assert_eq!(shown.loaded.value(), Some(&details));
    update(&mut model, key(KeyCode::Esc));
    assert!(members_tab(&model).details.is_none());
    assert_eq!(
        model.screens.len(),
        1,
        "esc closed the details, not the screen"
    );
}

#[test]
fn in_the_details_o_flips_the_spaces_order_and_slash_narrows_the_teams_by_title() {
    let mut model = members_model(true, 80, 24);
    update(&mut model, key(KeyCode::Enter));
    let (_, call) = member_call(&update(&mut model, char_key('O')));
    assert_eq!(
        call,
        MembersCall::Details {
            organization: ORG.into(),
            user: "u-ada".into(),
            oldest_first: true,
            teams_title: None,
        }
    );
    update(&mut model, char_key('/'));
    type_text(&mut model, "plat");
    let (_, call) = member_call(&update(&mut model, key(KeyCode::Enter)));
    assert_eq!(
        call,
        MembersCall::Details {
            organization: ORG.into(),
            user: "u-ada".into(),
            oldest_first: true,
            teams_title: Some("plat".into()),
        }
    );
    assert!(
        members_tab(&model).details.is_some(),
        "still in the details"
    );
}

#[test]
fn a_role_is_picked_confirmed_naming_the_person_and_sent() {
    let mut model = members_model(true, 80, 24);
    update(&mut model, char_key('j'));
    update(&mut model, char_key('e'));
    // The picker starts on Grace's role (edit); G goes to the last choice, guest.
    update(&mut model, char_key('G'));
    assert!(requests(&update(&mut model, key(KeyCode::Enter))).is_empty());
    let text = confirm_text(&model);
    assert!(text.contains("Make Grace Hopper a guest?"), "{text}");
    assert!(text.contains("from edit to guest"), "{text}");
    let (request, call) = member_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        MembersCall::SetRole {
            organization: ORG.into(),
            user: "u-grace".into(),
            role: None
        }
    );
    let mut answered = members()[1].clone();
    answered.role = None;
    respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Updated(Ok(answered))),
    );
    assert_eq!(members_tab(&model).list.items[1].role, None);
    assert_eq!(members_notice(&model), "Grace Hopper's role is now guest");

    // A role picked and then refused by the server: its words, as an error.
    update(&mut model, char_key('e'));
    update(&mut model, char_key('g'));
    update(&mut model, key(KeyCode::Enter));
    assert!(confirm_text(&model).contains("Give Grace Hopper the admin role?"));
    let (request, call) = member_call(&update(&mut model, key(KeyCode::Enter)));
    assert!(matches!(
        call,
        MembersCall::SetRole {
            role: Some(MemberRole::Admin),
            ..
        }
    ));
    respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Updated(Err(forbidden(
            "Changing a member's role needs the admin role",
        )))),
    );
    let notice = members_tab(&model).notice.clone().expect("a notice");
    assert!(notice.error);
    assert_eq!(
        notice.text,
        "Could not change the role of Grace Hopper: Changing a member's role needs the admin role"
    );
    // The error stays until esc.
    update(&mut model, char_key('j'));
    assert!(members_tab(&model).notice.is_some());
    update(&mut model, key(KeyCode::Esc));
    assert!(members_tab(&model).notice.is_none());
}

#[test]
fn sso_and_removal_ask_first_and_name_the_person() {
    let mut model = members_model(true, 80, 24);
    update(&mut model, char_key('S'));
    assert!(confirm_text(&model).contains("Make Ada Lovelace an SSO member?"));
    update(&mut model, char_key('n'));
    assert!(members_tab(&model).modal.is_none(), "n cancels");
    update(&mut model, char_key('S'));
    let (request, call) = member_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        MembersCall::MakeSso {
            organization: ORG.into(),
            user: "u-ada".into()
        }
    );
    let mut answered = members()[0].clone();
    answered.sso = Some(true);
    respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Updated(Ok(answered))),
    );
    assert_eq!(members_notice(&model), "Ada Lovelace is now an SSO member");
    update(&mut model, char_key('S'));
    assert!(members_tab(&model).modal.is_none());
    assert_eq!(
        members_notice(&model),
        "Ada Lovelace is already an SSO member"
    );

    update(&mut model, char_key('d'));
    assert!(confirm_text(&model).contains("Remove Ada Lovelace from this organization?"));
    let (request, call) = member_call(&update(&mut model, char_key('y')));
    assert_eq!(
        call,
        MembersCall::Remove {
            organization: ORG.into(),
            user: "u-ada".into()
        }
    );
    respond(
        &mut model,
        request,
        ApiResponse::Members(MembersResponse::Removed(Ok(()))),
    );
    assert_eq!(members_tab(&model).list.items.len(), 2);
    assert_eq!(
        members_notice(&model),
        "Removed Ada Lovelace from the organization"
    );
}

#[test]
fn without_the_admin_role_changes_are_struck_through_and_refused_in_words() {
    let mut model = members_model(false, 80, 24);
    let disabled = model.top().disabled_actions();
    for action in [Action::ChangeRole, Action::MakeSsoMember, Action::Delete] {
        assert!(disabled.contains(&action), "{action:?}");
    }
    for c in ['e', 'S', 'd'] {
        assert!(requests(&update(&mut model, char_key(c))).is_empty());
        assert!(members_tab(&model).modal.is_none());
    }
    assert_eq!(
        members_notice(&model),
        "Removing a member needs the admin role in this organization"
    );
}

/// The user's own "last seen" as the other members see it, read with a client of its own.
async fn admin_last_seen(sandbox: &quire::sandbox::Sandbox) -> Option<String> {
    use quire::api::{Client, ClientConfig, Token};
    use quire::sandbox::{demo_ids, tokens};
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("client");
    client
        .get_member(demo_ids::ACME, demo_ids::USER_ADMIN)
        .await
        .expect("the admin is a member")
        .last_seen_at
}

/// Waits (in the loop's time) until the sandbox has seen `count` requests `method path`.
async fn wait_for_requests(
    sandbox: &quire::sandbox::Sandbox,
    method: &str,
    path: &str,
    count: usize,
) {
    let sent = wait_until_async(PATIENCE, sandbox.activity(), || {
        sandbox.requests(method, path) >= count
    })
    .await;
    assert!(
        sent,
        "{method} {path} was sent {} times, not {count}",
        sandbox.requests(method, path)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_an_organization_marks_the_user_as_seen_there_now() {
    use crate::common::loop_harness::Harness;
    use quire::sandbox::{SandboxOptions, tokens};
    let harness = Harness::start(tokens::ADMIN, SandboxOptions::default()).await;
    harness.wait_for("Acme Robotics").await;
    let before = admin_last_seen(&harness.sandbox).await;
    assert_eq!(
        harness.sandbox.requests("POST", "/ping"),
        0,
        "not before opening"
    );
    harness.press(KeyCode::Enter);
    harness.wait_for("Engineering").await;
    wait_for_requests(&harness.sandbox, "POST", "/orgs/org-acme-robotics/ping", 1).await;
    let after = admin_last_seen(&harness.sandbox).await;
    assert!(after > before, "seen now: {before:?} → {after:?}");
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    assert!(
        after.as_deref().unwrap_or("").starts_with(&today),
        "{after:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_the_ping_still_opens_the_organization_without_a_word() {
    use crate::common::loop_harness::Harness;
    use quire::sandbox::{Faults, SandboxOptions, tokens};
    let options = SandboxOptions {
        faults: Faults {
            missing_endpoints: vec!["/ping".into()],
            ..Faults::default()
        },
        ..SandboxOptions::default()
    };
    let harness = Harness::start(tokens::ADMIN, options).await;
    harness.wait_for("Acme Robotics").await;
    harness.press(KeyCode::Enter);
    harness.wait_for("Engineering").await;
    wait_for_requests(&harness.sandbox, "POST", "/ping", 1).await;
    harness.settle().await;
    let screen = harness.backend.screen();
    assert!(screen.contains("Engineering"), "{screen}");
    for word in ["ping", "404", "rror"] {
        assert!(!screen.contains(word), "`{word}` shown:\n{screen}");
    }
    assert!(!harness.running.is_finished(), "quire ended");
}

//! Fixtures for the members and teams suites: an organization the caller
//! administers (or not), opened on its Members or Teams tab, and members and teams as the
//! server sends them.
#![allow(dead_code)]

use crate::common::*;
use quire::api::ListPage;
use quire::api::models::{Member, Team, TeamMember};
use quire::app::{ApiCall, ApiResponse, Model, RequestId, Size, update};
use quire::screens::Screen;
use quire::screens::members::MembersTab;
use quire::screens::organization::Organization as OrganizationScreen;
use quire::screens::teams::TeamScreen;
use quire::screens::teams::TeamsTab;
use quire::vocabulary::teams::{PickableMembers, TeamsResponse};
use ratatui::crossterm::event::KeyCode;
use serde_json::{Value, json};

pub const ORG: &str = "o-acme";

pub fn member_json(id: &str, name: &str, role: Option<&str>) -> Value {
    json!({
        "object": "member", "id": id, "role": role,
        "user": {"object": "user", "id": id, "displayName": name,
                 "email": format!("{}@acme.example", name.to_lowercase().replace(' ', "."))},
        "disabled": false, "sso": false, "spaces": 3, "teams": 1,
        "joinedAt": "2024-01-01T00:00:00Z", "lastSeenAt": "2024-03-01T00:00:00Z"
    })
}

pub fn member(id: &str, name: &str, role: Option<&str>) -> Member {
    from_json(member_json(id, name, role))
}

/// Ada (admin), Grace (edit, disabled, SSO), Linus (guest, never seen).
pub fn members() -> Vec<Member> {
    let mut grace = member_json("u-grace", "Grace Hopper", Some("edit"));
    grace["disabled"] = json!(true);
    grace["sso"] = json!(true);
    let mut linus = member_json("u-linus", "Linus Torvalds", None);
    linus["lastSeenAt"] = Value::Null;
    vec![
        member("u-ada", "Ada Lovelace", Some("admin")),
        from_json(grace),
        from_json(linus),
    ]
}

pub fn page<T>(items: Vec<T>) -> ListPage<T> {
    ListPage {
        count: Some(items.len() as u64),
        items,
        next_page: None,
        unreadable: Vec::new(),
    }
}

pub fn team(id: &str, title: &str, members: u64, admin: bool) -> Team {
    from_json(json!({
        "object": "team", "id": id, "title": title, "members": members, "spaces": 2,
        "createdAt": "2024-02-01T00:00:00Z", "permissions": {"admin": admin, "view": true}
    }))
}

pub fn teams() -> Vec<Team> {
    vec![
        team("t-platform", "Platform", 3, true),
        team("t-docs", "Docs Guild", 2, true),
    ]
}

pub fn team_member(member: &Member, role: &str) -> TeamMember {
    from_json(json!({
        "organization": serde_json::to_value(member).expect("member encodes"),
        "team": {"role": role}, "permissions": {"view": true}
    }))
}

/// An organization screen on `ORG`, the caller an admin or not, its tree answered.
pub fn organization_model(admin: bool, width: u16, height: u16) -> Model {
    let mut value = organization_json(ORG, "Acme Robotics");
    value["permissions"] = json!({"view": true, "admin": admin, "listMembers": true});
    let screen = OrganizationScreen::new(from_json(value));
    let mut model = Model::new(
        Screen::Organization(screen),
        environment(),
        Size { width, height },
    );
    let (request, _) = only_request(&model.init());
    respond(
        &mut model,
        request,
        ApiResponse::OrganizationTree(Ok(tree())),
    );
    model
}

pub fn organization(model: &Model) -> &OrganizationScreen {
    match model.top() {
        Screen::Organization(screen) => screen,
        other => panic!("expected the organization screen, got {}", other.title()),
    }
}

pub fn members_tab(model: &Model) -> &MembersTab {
    &organization(model).members
}

pub fn teams_tab(model: &Model) -> &TeamsTab {
    &organization(model).teams
}

pub fn team_screen(model: &Model) -> &TeamScreen {
    match model.top() {
        Screen::Team(screen) => screen,
        other => panic!("expected a team's screen, got {}", other.title()),
    }
}

/// Presses tab until the organization shows `label`; returns the API calls sent on the way.
pub fn go_to_tab(model: &mut Model, label: &str) -> Vec<(RequestId, ApiCall)> {
    let mut calls = Vec::new();
    for _ in 0..12 {
        if organization(model).tab.label() == label {
            return calls;
        }
        calls.extend(requests(&update(model, key(KeyCode::Tab))));
    }
    panic!("no tab {label}");
}

/// The Members tab with `members()` loaded.
pub fn members_model(admin: bool, width: u16, height: u16) -> Model {
    let mut model = organization_model(admin, width, height);
    let calls = go_to_tab(&mut model, "Members");
    let (request, _) = calls
        .into_iter()
        .find(|(_, call)| {
            matches!(
                call,
                ApiCall::Members(quire::vocabulary::members::MembersCall::List { .. })
            )
        })
        .expect("the members list is asked for");
    respond(
        &mut model,
        request,
        ApiResponse::Members(quire::vocabulary::members::MembersResponse::List(Ok(page(
            members(),
        )))),
    );
    model
}

/// The Teams tab with `teams()` loaded.
pub fn teams_model(admin: bool, width: u16, height: u16) -> Model {
    let mut model = organization_model(admin, width, height);
    let calls = go_to_tab(&mut model, "Teams");
    let (request, _) = calls
        .into_iter()
        .find(|(_, call)| matches!(call, ApiCall::Teams(_)))
        .expect("the teams list is asked for");
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::List(Ok(page(teams())))),
    );
    model
}

/// A team's screen (Platform) with Ada (owner) and Grace (member) in it.
pub fn team_model(admin: bool, width: u16, height: u16) -> Model {
    let platform = team("t-platform", "Platform", 2, admin);
    let screen = TeamScreen::new(ORG, "Acme Robotics", platform);
    let mut model = Model::new(
        Screen::Team(Box::new(screen)),
        environment(),
        Size { width, height },
    );
    let (request, _) = only_request(&model.init());
    let all = members();
    respond(
        &mut model,
        request,
        ApiResponse::Teams(TeamsResponse::Members(Ok(page(vec![
            team_member(&all[0], "owner"),
            team_member(&all[1], "member"),
        ])))),
    );
    model
}

pub fn pickable() -> PickableMembers {
    PickableMembers {
        members: members(),
        cut_short: false,
    }
}

//! The HTTP handlers of teams and team members.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, put};
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use super::{Seat, Team, recount};
use crate::context::{Context, Shared, query_map, require_organization, view};
use crate::error::ApiError;
use crate::members::{require_admin, resolve_member};
use crate::model::iso;
use crate::paging::envelope;
use crate::validate::{self, Body};
use crate::world::World;

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

/// Team titles: 1 to 64 characters.
const TITLE_LENGTH: (usize, usize) = (1, 64);

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route(
            "/v1/orgs/{organization}/teams",
            get(list_teams).put(create_team),
        )
        .route(
            "/v1/orgs/{organization}/teams/{team}",
            get(get_team).patch(rename_team).delete(delete_team),
        )
        .route(
            "/v1/orgs/{organization}/teams/{team}/members",
            get(list_team_members).put(update_team_members),
        )
        .route(
            "/v1/orgs/{organization}/teams/{team}/members/{user}",
            put(set_team_member).delete(remove_team_member),
        )
}

fn body_of(body: RequestBody, optional: bool) -> Result<Body, ApiError> {
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    validate::object_body(&bytes, optional)
}

fn find_team<'a>(world: &'a World, organization: &str, id: &str) -> Result<&'a Team, ApiError> {
    require_organization(world, organization)?;
    world
        .teams
        .find(organization, id)
        .ok_or_else(|| ApiError::not_found("team", id))
}

/// Organization admins change teams; owners of a team may change its members.
fn require_manager(world: &World, team: &Team, user: &str) -> Result<(), ApiError> {
    if team.manageable_by(world, user) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        format!(
            "Changing the members of team \"{}\" needs the admin role in the organization or \
             the owner role in the team",
            team.title
        ),
    ))
}

fn title_of(body: &Body) -> Result<String, ApiError> {
    let title = validate::required_text(body, "title", TITLE_LENGTH.0, TITLE_LENGTH.1)?;
    if title.trim().is_empty() {
        return Err(ApiError::bad_request(
            "Invalid \"title\": expected a string of 1 to 64 characters, not only spaces",
        ));
    }
    Ok(title)
}

async fn list_teams(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let query = query_map(raw);
    let world = shared.world.read().await;
    require_organization(&world, &organization)?;
    let title = query
        .get("title")
        .map(|title| title.trim().to_lowercase())
        .unwrap_or_default();
    let owner = query.get("owner").filter(|owner| !owner.is_empty());
    let items = world
        .teams
        .teams
        .iter()
        .filter(|team| team.organization == organization)
        .filter(|team| title.is_empty() || team.title.to_lowercase().contains(&title))
        .filter(|team| owner.is_none_or(|owner| team.manageable_by(&world, owner)))
        .map(|team| team.json(&world, &context.user))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

async fn get_team(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let team = find_team(&world, &organization, &id)?;
    Ok(Json(team.json(&world, &context.user)).into_response())
}

async fn create_team(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    body: RequestBody,
) -> Answer {
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["title", "members"])?;
    let mut world = shared.world.write().await;
    require_organization(&world, &organization)?;
    require_admin(&world, &organization, &context.user, "Creating a team")?;
    let title = title_of(&body)?;
    let mut seats: Vec<Seat> = Vec::new();
    for wanted in validate::string_list(&body, "members")?.unwrap_or_default() {
        let user = resolve_member(&world, &organization, &wanted, "members")?;
        if !seats.iter().any(|seat| seat.user == user) {
            seats.push(Seat { user, owner: false });
        }
    }
    world.teams.created += 1;
    let team = Team {
        id: format!("team-new-{}", world.teams.created),
        organization,
        title,
        created_at: iso(world.now()),
        spaces: 0,
        seats,
    };
    let answer = team.json(&world, &context.user);
    world.teams.teams.push(team);
    recount(&mut world);
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

async fn rename_team(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["title"])?;
    let mut world = shared.world.write().await;
    find_team(&world, &organization, &id)?;
    require_admin(&world, &organization, &context.user, "Renaming a team")?;
    let title = title_of(&body)?;
    let Some(team) = world.teams.find_mut(&organization, &id) else {
        return Err(ApiError::not_found("team", &id));
    };
    team.title = title;
    let team = team.clone();
    Ok(Json(team.json(&world, &context.user)).into_response())
}

async fn delete_team(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_organization(&world, &organization)?;
    require_admin(&world, &organization, &context.user, "Deleting a team")?;
    world
        .teams
        .teams
        .retain(|team| !(team.organization == organization && team.id == id));
    recount(&mut world);
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn list_team_members(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let query = query_map(raw);
    let world = shared.world.read().await;
    let team = find_team(&world, &organization, &id)?;
    let view = view(&world, &shared, &context);
    let items = team
        .seats
        .iter()
        .filter_map(|seat| {
            let membership = world.membership(&organization, &seat.user)?;
            Some(json!({
                "organization": view.member(membership),
                "team": { "role": seat.role() },
                "permissions": { "view": true },
            }))
        })
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

/// `{role}` of a membership: `owner` or `member`; `None` when absent.
fn team_role(value: Option<&Value>, field: &str) -> Result<Option<bool>, ApiError> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(role)) if role == "owner" => Ok(Some(true)),
        Some(Value::String(role)) if role == "member" => Ok(Some(false)),
        Some(_) => Err(ApiError::bad_request(format!(
            "Invalid \"{field}\": expected owner or member"
        ))),
    }
}

/// `memberships`: user id or email → `{role}`.
fn memberships_of(
    world: &World,
    organization: &str,
    body: &Body,
) -> Result<BTreeMap<String, bool>, ApiError> {
    let mut roles = BTreeMap::new();
    match body.get("memberships") {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (wanted, membership) in map {
                let field = format!("memberships.{wanted}.role");
                let role = match membership {
                    Value::Object(object) => team_role(object.get("role"), &field)?,
                    _ => {
                        return Err(ApiError::bad_request(format!(
                            "Invalid \"memberships.{wanted}\": expected an object {{\"role\": …}}"
                        )));
                    }
                };
                let user = resolve_member(world, organization, wanted, "memberships")?;
                if let Some(owner) = role {
                    roles.insert(user, owner);
                }
            }
        }
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"memberships\": expected an object mapping users to {\"role\": …}",
            ));
        }
    }
    Ok(roles)
}

fn members_of(
    world: &World,
    organization: &str,
    body: &Body,
    field: &str,
) -> Result<Vec<String>, ApiError> {
    validate::string_list(body, field)?
        .unwrap_or_default()
        .iter()
        .map(|wanted| resolve_member(world, organization, wanted, field))
        .collect()
}

/// The bulk edit: adds, then role changes, then removals, so a user both added and removed
/// ends up removed.
async fn update_team_members(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["add", "remove", "memberships"])?;
    let mut world = shared.world.write().await;
    let team = find_team(&world, &organization, &id)?;
    require_manager(&world, team, &context.user)?;
    let add = members_of(&world, &organization, &body, "add")?;
    let remove = members_of(&world, &organization, &body, "remove")?;
    let roles = memberships_of(&world, &organization, &body)?;
    let Some(team) = world.teams.find_mut(&organization, &id) else {
        return Err(ApiError::not_found("team", &id));
    };
    for user in add {
        if team.seat(&user).is_none() {
            team.seats.push(Seat { user, owner: false });
        }
    }
    for seat in team.seats.iter_mut() {
        if let Some(owner) = roles.get(&seat.user) {
            seat.owner = *owner;
        }
    }
    team.seats.retain(|seat| !remove.contains(&seat.user));
    recount(&mut world);
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn set_team_member(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, wanted)): Path<(String, String, String)>,
    body: RequestBody,
) -> Answer {
    let body = body_of(body, true)?;
    validate::reject_unknown(&body, &["role"])?;
    let owner = team_role(body.get("role"), "role")?;
    let mut world = shared.world.write().await;
    let team = find_team(&world, &organization, &id)?;
    require_manager(&world, team, &context.user)?;
    let user = world
        .membership(&organization, &wanted)
        .map(|membership| membership.user.clone())
        .ok_or_else(|| ApiError::not_found("member", &wanted))?;
    let Some(team) = world.teams.find_mut(&organization, &id) else {
        return Err(ApiError::not_found("team", &id));
    };
    match team.seats.iter_mut().find(|seat| seat.user == user) {
        Some(seat) => seat.owner = owner.unwrap_or(seat.owner),
        None => team.seats.push(Seat {
            user,
            owner: owner.unwrap_or(false),
        }),
    }
    recount(&mut world);
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn remove_team_member(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, user)): Path<(String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_organization(&world, &organization)?;
    // A missing team or member answers 204 as the seed says; an existing team needs rights.
    if let Some(team) = world.teams.find(&organization, &id) {
        require_manager(&world, team, &context.user)?;
    }
    if let Some(team) = world.teams.find_mut(&organization, &id) {
        team.seats.retain(|seat| seat.user != user);
    }
    recount(&mut world);
    Ok(StatusCode::NO_CONTENT.into_response())
}

//! Organization members: the list with its filters, one member, their role, SSO
//! membership and removal, the spaces and teams they reach, and `ping` (last seen). Only
//! admins change members; an organization keeps at least one admin.

mod demo;

pub(crate) use demo::{demo_member_id, populate};

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::model::{Membership, Role, iso};
use super::paging::envelope;
use super::world::World;
use crate::context::{Context, Shared, query_map, require_organization, view};
use crate::validate;

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/orgs/{organization}/members", get(list_members))
        .route(
            "/v1/orgs/{organization}/members/{user}",
            get(get_member).patch(set_role).delete(remove_member),
        )
        .route(
            "/v1/orgs/{organization}/members/{user}/sso",
            post(make_sso_member),
        )
        .route(
            "/v1/orgs/{organization}/members/{user}/spaces",
            get(member_spaces),
        )
        .route(
            "/v1/orgs/{organization}/members/{user}/teams",
            get(member_teams),
        )
        .route("/v1/orgs/{organization}/ping", post(ping))
}

/// 403 unless `user` is an admin of the organization; `what` names the refused change.
pub(crate) fn require_admin(
    world: &World,
    organization: &str,
    user: &str,
    what: &str,
) -> Result<(), ApiError> {
    match world.role_in(organization, user) {
        Some(Role::Admin) => Ok(()),
        role => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "{what} needs the admin role in organization \"{organization}\"; your role is {}",
                role.map_or("guest", Role::as_str)
            ),
        )),
    }
}

/// The member a request names by user id or email; a 400 naming `field` when there is none.
pub(crate) fn resolve_member(
    world: &World,
    organization: &str,
    wanted: &str,
    field: &str,
) -> Result<String, ApiError> {
    world
        .memberships
        .iter()
        .filter(|membership| membership.organization == organization)
        .find(|membership| {
            membership.user == wanted
                || world
                    .user(&membership.user)
                    .is_some_and(|user| user.email.eq_ignore_ascii_case(wanted))
        })
        .map(|membership| membership.user.clone())
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "Invalid \"{field}\": \"{}\" is not a member of organization \"{organization}\"",
                wanted.escape_default()
            ))
        })
}

fn find_member<'a>(
    world: &'a World,
    organization: &str,
    user: &str,
) -> Result<&'a Membership, ApiError> {
    require_organization(world, organization)?;
    world
        .membership(organization, user)
        .ok_or_else(|| ApiError::not_found("member", user))
}

fn member_mut<'a>(
    world: &'a mut World,
    organization: &str,
    user: &str,
) -> Result<&'a mut Membership, ApiError> {
    world
        .memberships
        .iter_mut()
        .find(|membership| membership.organization == organization && membership.user == user)
        .ok_or_else(|| ApiError::not_found("member", user))
}

/// Refuses to leave the organization without an admin.
fn keep_an_admin(world: &World, organization: &str, user: &str) -> Result<(), ApiError> {
    let other_admins = world
        .memberships
        .iter()
        .filter(|membership| membership.organization == organization)
        .filter(|membership| membership.user != user && membership.role == Some(Role::Admin))
        .count();
    if world.role_in(organization, user) == Some(Role::Admin) && other_admins == 0 {
        return Err(ApiError::bad_request(
            "This member is the organization's last admin: make someone else admin first",
        ));
    }
    Ok(())
}

/// `order`: `asc` or `desc` (the default).
fn ascending(query: &std::collections::HashMap<String, String>) -> Result<bool, ApiError> {
    match query.get("order").map(String::as_str) {
        None | Some("desc") => Ok(false),
        Some("asc") => Ok(true),
        Some(_) => Err(ApiError::bad_request(
            "Invalid \"order\": expected asc or desc",
        )),
    }
}

fn member_json(
    world: &World,
    shared: &Shared,
    context: &Context,
    membership: &Membership,
) -> Answer {
    Ok(Json(view(world, shared, context).member(membership)).into_response())
}

async fn list_members(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let query = query_map(raw);
    let role_filter = match query.get("role").map(String::as_str) {
        None | Some("") => None,
        Some("guest") => Some(None),
        Some(text) => Some(Some(Role::parse(text).ok_or_else(|| {
            ApiError::bad_request(format!("Invalid \"role\": {}", text.escape_default()))
        })?)),
    };
    let search = query
        .get("search")
        .map(|text| text.trim().to_lowercase())
        .unwrap_or_default();
    let sort = query.get("sort").map(String::as_str).unwrap_or("joinedAt");
    let ascending = ascending(&query)?;
    if !matches!(sort, "joinedAt" | "lastSeenAt" | "name") {
        return Err(ApiError::bad_request(
            "Invalid \"sort\": expected joinedAt, lastSeenAt or name",
        ));
    }
    let world = shared.world.read().await;
    require_organization(&world, &id)?;
    let mut members: Vec<_> = world
        .memberships
        .iter()
        .filter(|membership| membership.organization == id)
        .filter(|membership| role_filter.is_none_or(|role| membership.role == role))
        .filter(|membership| sort != "lastSeenAt" || membership.last_seen_at.is_some())
        .filter(|membership| {
            search.is_empty()
                || world.user(&membership.user).is_some_and(|user| {
                    user.display_name.to_lowercase().contains(&search)
                        || user.email.to_lowercase().contains(&search)
                })
        })
        .collect();
    let name_of = |user: &str| {
        world
            .user(user)
            .map(|user| user.display_name.to_lowercase())
            .unwrap_or_default()
    };
    members.sort_by(|left, right| match sort {
        "lastSeenAt" => left.last_seen_at.cmp(&right.last_seen_at),
        "name" => name_of(&left.user).cmp(&name_of(&right.user)),
        _ => left.joined_at.cmp(&right.joined_at),
    });
    if !ascending {
        members.reverse();
    }
    let view = view(&world, &shared, &context);
    let items = members
        .into_iter()
        .map(|membership| view.member(membership))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

/// One member of an organization (the caller asks for its own role this way).
async fn get_member(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, user)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let membership = find_member(&world, &organization, &user)?;
    member_json(&world, &shared, &context, membership)
}

/// `PATCH {role}`: a role, or null for a guest; no `role` changes nothing.
async fn set_role(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, user)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let body = validate::object_body(&bytes, false)?;
    validate::reject_unknown(&body, &["role"])?;
    let role = match body.get("role") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(Value::String(text)) if Role::parse(text).is_some() => Some(Role::parse(text)),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"role\": expected admin, create, edit, review, comment, read or null",
            ));
        }
    };
    let mut world = shared.world.write().await;
    find_member(&world, &organization, &user)?;
    require_admin(
        &world,
        &organization,
        &context.user,
        "Changing a member's role",
    )?;
    if let Some(role) = role {
        if role != Some(Role::Admin) {
            keep_an_admin(&world, &organization, &user)?;
        }
        member_mut(&mut world, &organization, &user)?.role = role;
    }
    let membership = find_member(&world, &organization, &user)?;
    member_json(&world, &shared, &context, membership)
}

async fn make_sso_member(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, user)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    find_member(&world, &organization, &user)?;
    require_admin(&world, &organization, &context.user, "Making an SSO member")?;
    member_mut(&mut world, &organization, &user)?.sso = true;
    let membership = find_member(&world, &organization, &user)?;
    member_json(&world, &shared, &context, membership)
}

/// 204 whether or not they were a member; they leave every team of the organization too.
async fn remove_member(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, user)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_organization(&world, &organization)?;
    require_admin(&world, &organization, &context.user, "Removing a member")?;
    keep_an_admin(&world, &organization, &user)?;
    world
        .memberships
        .retain(|membership| !(membership.organization == organization && membership.user == user));
    world.teams.forget_member(&organization, &user);
    super::teams::recount(&mut world);
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The spaces a member reaches: the organization's first `spaces` spaces (the count the
/// member carries), with their role as the permission (`read` for guests).
async fn member_spaces(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, user)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let query = query_map(raw);
    let ascending = ascending(&query)?;
    let world = shared.world.read().await;
    let membership = find_member(&world, &organization, &user)?;
    let permission = membership.role.unwrap_or(Role::Read).as_str();
    let view = view(&world, &shared, &context);
    let mut spaces: Vec<_> = world
        .spaces
        .iter()
        .filter(|space| space.organization == organization && space.deleted_at.is_none())
        .take(membership.spaces as usize)
        .collect();
    if ascending {
        spaces.reverse();
    }
    let items = spaces
        .into_iter()
        .map(|space| json!({ "permission": permission, "space": view.space(space) }))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

async fn member_teams(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, user)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let query = query_map(raw);
    let title = query
        .get("title")
        .map(|title| title.trim().to_lowercase())
        .unwrap_or_default();
    let world = shared.world.read().await;
    find_member(&world, &organization, &user)?;
    let items = world
        .teams
        .of_member(&organization, &user)
        .filter(|(team, _)| title.is_empty() || team.title.to_lowercase().contains(&title))
        .map(|(team, seat)| {
            json!({
                "team": team.json(&world, &context.user),
                "member": { "role": seat.role() },
            })
        })
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

/// Marks the caller as seen now.
async fn ping(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
) -> Answer {
    let mut world = shared.world.write().await;
    find_member(&world, &organization, &context.user)?;
    let now = iso(world.now());
    member_mut(&mut world, &organization, &context.user)?.last_seen_at = Some(now);
    Ok(Json(json!({ "serviceVisitorClaims": "" })).into_response())
}

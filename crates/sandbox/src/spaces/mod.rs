//! Space operations: settings (`PATCH`), delete, restore, duplicate, and
//! the sandbox's clock knob that lets a test see a deleted space pass its retention.
//!
//! A deleted space keeps its record with `deletedAt` set. It stays readable and is listed in
//! `GET /orgs/{org}/spaces` (with `deletedAt`, so a client can show a trash), not in
//! collection listings; after [`RETENTION_DAYS`] it is purged: unknown everywhere, and
//! restoring it is refused. Every change needs the admin role in the space's organization.
//! Checks run in the order: space exists (404), caller is an admin (403), body is valid (400).

mod validate;

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::{IntoResponse, Response};
use axum::routing::{patch, post};
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::model::{RETENTION_DAYS, Role, Space, iso};
use super::render::View;
use super::world::World;
use crate::context::{Context, Shared};

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

/// The space routes, merged into the sandbox router (which adds the gate and fallbacks).
pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route(
            "/v1/spaces/{space}",
            patch(update_space).delete(delete_space),
        )
        .route("/v1/spaces/{space}/duplicate", post(duplicate_space))
        .route("/v1/spaces/{space}/restore", post(restore_space))
        // Not part of the API: moves the sandbox's clock (see `World::clock_shift_days`).
        .route("/_sandbox/clock", post(shift_clock))
}

fn render(world: &World, shared: &Shared, context: &Context, space: &Space) -> Value {
    View {
        world,
        api_url: &shared.api_url,
        caller: &context.user,
    }
    .space(space)
}

/// Only organization admins change spaces (seed: admin administers content).
fn require_admin(world: &World, space: &Space, user: &str) -> Result<(), ApiError> {
    match world.role_in(&space.organization, user) {
        Some(Role::Admin) => Ok(()),
        role => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "Changing space \"{}\" needs the admin role in its organization; your role is {}",
                space.id,
                role.map_or("guest", Role::as_str)
            ),
        )),
    }
}

/// The space (not purged) if the caller may change it.
fn writable<'a>(world: &'a World, id: &str, user: &str) -> Result<&'a Space, ApiError> {
    let space = world
        .space(id)
        .ok_or_else(|| ApiError::not_found("space", id))?;
    require_admin(world, space, user)?;
    Ok(space)
}

fn space_mut<'a>(world: &'a mut World, id: &str) -> Result<&'a mut Space, ApiError> {
    world
        .spaces
        .iter_mut()
        .find(|space| space.id == id)
        .ok_or_else(|| ApiError::not_found("space", id))
}

async fn update_space(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    let organization = writable(&world, &id, &context.user)?.organization.clone();
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let update = validate::space_update(&bytes, &world, &organization)?;
    let now = iso(world.now());
    let space = space_mut(&mut world, &id)?;
    update.apply(space);
    space.updated_at = now;
    let space = space.clone();
    Ok(Json(render(&world, &shared, &context, &space)).into_response())
}

/// 204 whether or not the space existed; a deleted space keeps its first date.
async fn delete_space(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let mut world = shared.world.write().await;
    if world.space(&id).is_none() {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    writable(&world, &id, &context.user)?;
    let now = iso(world.now());
    let space = space_mut(&mut world, &id)?;
    space.deleted_at.get_or_insert(now);
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Restores a space deleted within the retention; a purged one is refused, an active one is
/// answered as it is.
async fn restore_space(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let mut world = shared.world.write().await;
    let purged = world
        .spaces
        .iter()
        .any(|space| space.id == id && world.is_purged(space));
    if purged {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "Space \"{id}\" was deleted more than {RETENTION_DAYS} days ago and has been \
                 purged; it can no longer be restored"
            ),
        ));
    }
    writable(&world, &id, &context.user)?;
    let space = space_mut(&mut world, &id)?;
    space.deleted_at = None;
    let space = space.clone();
    Ok(Json(render(&world, &shared, &context, &space)).into_response())
}

/// 201 with the copy (placed right after the original) and its `Location`.
async fn duplicate_space(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let mut world = shared.world.write().await;
    let original = writable(&world, &id, &context.user)?.clone();
    if original.deleted_at.is_some() {
        return Err(ApiError::bad_request(format!(
            "Space \"{id}\" is deleted: restore it before duplicating it"
        )));
    }
    let copy = duplicate(&world, &original);
    let location = format!("{}/spaces/{}", shared.api_url, copy.id);
    let body = render(&world, &shared, &context, &copy);
    let at = world
        .spaces
        .iter()
        .position(|space| space.id == id)
        .map_or(world.spaces.len(), |index| index + 1);
    world.spaces.insert(at, copy);
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(body)).into_response())
}

/// A copy with a fresh id, "(copy)" in its title (kept within 50 characters) and no git sync.
fn duplicate(world: &World, original: &Space) -> Space {
    let mut number = 1;
    let id = loop {
        let candidate = format!("{}-copy-{number}", original.id);
        if world.spaces.iter().all(|space| space.id != candidate) {
            break candidate;
        }
        number += 1;
    };
    let suffix = " (copy)";
    let room = 50 - suffix.chars().count();
    let title: String = original.title.chars().take(room).collect();
    let now = iso(world.now());
    let mut copy = original.clone();
    copy.revision.id = format!("rev-{id}-1");
    copy.id = id;
    copy.title = format!("{title}{suffix}");
    copy.created_at = now.clone();
    copy.updated_at = now;
    copy.git_repository = None;
    copy.comments = 0;
    copy.change_requests = 0;
    copy.change_requests_open = 0;
    copy.change_requests_draft = 0;
    copy
}

/// `POST /_sandbox/clock` with `{"shiftDays": n}`: the sandbox's "now" runs `n` days ahead.
async fn shift_clock(State(shared): State<Arc<Shared>>, body: RequestBody) -> Answer {
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let body: Value = serde_json::from_slice(&bytes)
        .map_err(|_| ApiError::bad_request("Expected {\"shiftDays\": number}"))?;
    let days = body["shiftDays"]
        .as_i64()
        .ok_or_else(|| ApiError::bad_request("Invalid \"shiftDays\": expected a whole number"))?;
    let mut world = shared.world.write().await;
    world.clock_shift_days = days;
    Ok(Json(json!({ "shiftDays": days, "now": iso(world.now()) })).into_response())
}

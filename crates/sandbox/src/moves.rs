//! Moving and transferring collections and spaces:
//! `POST /collections/{id}/move`, `/collections/{id}/transfer`, `/spaces/{id}/move` and
//! `/spaces/{id}/transfer`, with the seed's error cases: no matching space or collection (404),
//! an invalid parent or position (400), a move or transfer that would not change anything
//! (409), and a space that cannot be moved because it is synchronized with git (412).
//!
//! Order: the API lists collections and spaces apart, so a position before or after an item of
//! the same kind reorders that list; one of the other kind only has to be a sibling.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Extension, Json, Router};
use serde_json::Value;

use super::collections::routes::{find_collection, require_role};
use super::collections::subtree;
use super::error::ApiError;
use super::model::Role;
use super::world::World;
use crate::context::{Context, Shared, view};
use crate::validate::{self, Body};

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/collections/{collection}/move", post(move_collection))
        .route(
            "/v1/collections/{collection}/transfer",
            post(transfer_collection),
        )
        .route("/v1/spaces/{space}/move", post(move_space))
        .route("/v1/spaces/{space}/transfer", post(transfer_space))
}

/// What is moved, by kind and id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Collection,
    Space,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Collection => "collection",
            Kind::Space => "space",
        }
    }
}

/// A position: before or after a sibling of some kind.
struct Anchor {
    kind: Kind,
    id: String,
    after: bool,
}

/// What is known of the item being moved.
struct Moving {
    organization: String,
    parent: Option<String>,
    title: String,
}

fn moving(world: &World, kind: Kind, id: &str) -> Result<Moving, ApiError> {
    match kind {
        Kind::Collection => {
            let found = find_collection(world, id)?;
            Ok(Moving {
                organization: found.organization.clone(),
                parent: found.parent.clone(),
                title: found.title.clone(),
            })
        }
        Kind::Space => {
            let found = world
                .space(id)
                .ok_or_else(|| ApiError::not_found("space", id))?;
            Ok(Moving {
                organization: found.organization.clone(),
                parent: found.parent.clone(),
                title: found.title.clone(),
            })
        }
    }
}

/// Moving or transferring needs the admin role on the item: a collection's own, a space's
/// through its collection.
fn require_admin(
    world: &World,
    kind: Kind,
    id: &str,
    item: &Moving,
    user: &str,
    what: &str,
) -> Result<(), ApiError> {
    let place = match kind {
        Kind::Collection => Some(id),
        Kind::Space => item.parent.as_deref(),
    };
    require_role(world, &item.organization, user, place, Role::Admin, what)
}

fn body_of(body: RequestBody) -> Result<Body, ApiError> {
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    validate::object_body(&bytes, true)
}

fn answer(world: &World, shared: &Shared, context: &Context, kind: Kind, id: &str) -> Answer {
    let view = view(world, shared, context);
    let json = match kind {
        Kind::Collection => view.collection(find_collection(world, id)?),
        Kind::Space => view.space(
            world
                .space(id)
                .ok_or_else(|| ApiError::not_found("space", id))?,
        ),
    };
    Ok(Json(json).into_response())
}

fn invalid_position(reason: &str) -> ApiError {
    ApiError::bad_request(format!("Invalid \"position\": {reason}"))
}

/// `{type:'space', space:<id>}` or `{type:'collection', collection:<id>}`.
fn pointer(value: &Value) -> Result<(Kind, String), ApiError> {
    let kind = match value.get("type").and_then(Value::as_str) {
        Some("space") => Kind::Space,
        Some("collection") => Kind::Collection,
        _ => {
            return Err(invalid_position(
                "expected {\"type\": \"space\", \"space\": id} or \
                 {\"type\": \"collection\", \"collection\": id}",
            ));
        }
    };
    let id = value
        .get(kind.name())
        .and_then(Value::as_str)
        .ok_or_else(|| invalid_position(&format!("the pointer needs a \"{}\" id", kind.name())))?;
    Ok((kind, id.to_string()))
}

fn position(body: &Body) -> Result<Option<Anchor>, ApiError> {
    let Some(value) = body.get("position") else {
        return Ok(None);
    };
    let Some(object) = value.as_object() else {
        return Err(invalid_position("expected an object with before or after"));
    };
    match (object.get("before"), object.get("after")) {
        (Some(before), None) => pointer(before).map(|(kind, id)| {
            Some(Anchor {
                kind,
                id,
                after: false,
            })
        }),
        (None, Some(after)) => pointer(after).map(|(kind, id)| {
            Some(Anchor {
                kind,
                id,
                after: true,
            })
        }),
        _ => Err(invalid_position("give exactly one of before or after")),
    }
}

/// The target parent: absent keeps the current one, null is the top level.
fn target_parent(
    world: &World,
    body: &Body,
    kind: Kind,
    id: &str,
    item: &Moving,
) -> Result<Option<String>, ApiError> {
    let parent = match body.get("parent") {
        None => return Ok(item.parent.clone()),
        Some(Value::Null) => return Ok(None),
        Some(Value::String(parent)) => parent.clone(),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"parent\": expected a collection id or null",
            ));
        }
    };
    if world
        .collection(&parent)
        .is_none_or(|found| found.organization != item.organization)
    {
        return Err(ApiError::bad_request(format!(
            "Invalid \"parent\": no collection \"{}\" in this organization",
            parent.escape_default()
        )));
    }
    if kind == Kind::Collection && subtree(world, id).contains(&parent) {
        return Err(ApiError::bad_request(
            "Invalid \"parent\": a collection cannot move inside itself",
        ));
    }
    Ok(Some(parent))
}

/// The anchor must be another item under the target parent.
fn check_anchor(
    world: &World,
    anchor: &Anchor,
    id: &str,
    parent: Option<&str>,
    organization: &str,
) -> Result<(), ApiError> {
    let sibling = match anchor.kind {
        Kind::Space => world
            .space(&anchor.id)
            .map(|s| (s.organization.as_str(), s.parent.as_deref())),
        Kind::Collection => world
            .collection(&anchor.id)
            .map(|c| (c.organization.as_str(), c.parent.as_deref())),
    };
    if anchor.id == id {
        return Err(invalid_position("an item cannot be placed next to itself"));
    }
    match sibling {
        Some((owner, its_parent)) if owner == organization && its_parent == parent => Ok(()),
        Some(_) => Err(invalid_position(&format!(
            "{} \"{}\" is not in the target collection",
            anchor.kind.name(),
            anchor.id.escape_default()
        ))),
        None => Err(invalid_position(&format!(
            "no {} \"{}\"",
            anchor.kind.name(),
            anchor.id.escape_default()
        ))),
    }
}

/// Takes `id` out of `list` and puts it back next to the anchor (same kind) or at the end.
fn reorder<T>(list: &mut Vec<T>, id_of: fn(&T) -> &str, id: &str, anchor: Option<(&str, bool)>) {
    let Some(from) = list.iter().position(|item| id_of(item) == id) else {
        return;
    };
    let item = list.remove(from);
    let at = anchor
        .and_then(|(anchor, after)| {
            list.iter()
                .position(|item| id_of(item) == anchor)
                .map(|index| index + usize::from(after))
        })
        .unwrap_or(list.len());
    list.insert(at, item);
}

/// One item of a list as far as order goes: id, organization, parent.
type Placement = (String, String, Option<String>);

/// Where each item sits as a client sees it: its parent and its rank among its siblings.
fn arrangement(list: &[Placement]) -> BTreeMap<&str, (Option<&str>, usize)> {
    let mut seen: BTreeMap<(&str, Option<&str>), usize> = BTreeMap::new();
    list.iter()
        .map(|(id, organization, parent)| {
            let rank = seen
                .entry((organization.as_str(), parent.as_deref()))
                .or_default();
            *rank += 1;
            (id.as_str(), (parent.as_deref(), *rank))
        })
        .collect()
}

/// Moves the item; `Err` 409 when nothing would change where a client can see it.
fn apply_move(
    world: &mut World,
    kind: Kind,
    id: &str,
    parent: Option<String>,
    anchor: Option<&Anchor>,
) -> Result<(), ApiError> {
    let same_kind = anchor
        .filter(|anchor| anchor.kind == kind)
        .map(|anchor| (anchor.id.as_str(), anchor.after));
    let before: Vec<Placement> = match kind {
        Kind::Collection => world
            .collections
            .iter()
            .map(|c| (c.id.clone(), c.organization.clone(), c.parent.clone()))
            .collect(),
        // Deleted spaces (in the trash) are nowhere a client can see.
        Kind::Space => world
            .spaces
            .iter()
            .filter(|s| s.deleted_at.is_none())
            .map(|s| (s.id.clone(), s.organization.clone(), s.parent.clone()))
            .collect(),
    };
    let mut after = before.clone();
    if let Some(found) = after.iter_mut().find(|(item, _, _)| item == id) {
        found.2 = parent.clone();
    }
    reorder(&mut after, |(item, _, _)| item.as_str(), id, same_kind);
    if arrangement(&before) == arrangement(&after) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "The move would not change anything: the {} is already there",
                kind.name()
            ),
        ));
    }
    match kind {
        Kind::Collection => {
            if let Some(found) = world.collections.iter_mut().find(|c| c.id == id) {
                found.parent = parent;
            }
            reorder(&mut world.collections, |c| c.id.as_str(), id, same_kind);
        }
        Kind::Space => {
            if let Some(found) = world.spaces.iter_mut().find(|s| s.id == id) {
                found.parent = parent;
            }
            reorder(&mut world.spaces, |s| s.id.as_str(), id, same_kind);
        }
    }
    Ok(())
}

async fn move_item(
    shared: Arc<Shared>,
    context: Context,
    kind: Kind,
    id: String,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    let item = moving(&world, kind, &id)?;
    let what = format!("Moving a {}", kind.name());
    require_admin(&world, kind, &id, &item, &context.user, &what)?;
    let body = body_of(body)?;
    validate::reject_unknown(&body, &["parent", "position"])?;
    let parent = target_parent(&world, &body, kind, &id, &item)?;
    let anchor = position(&body)?;
    if let Some(anchor) = &anchor {
        check_anchor(&world, anchor, &id, parent.as_deref(), &item.organization)?;
    }
    require_role(
        &world,
        &item.organization,
        &context.user,
        parent.as_deref(),
        Role::Create,
        &what,
    )?;
    apply_move(&mut world, kind, &id, parent, anchor.as_ref())?;
    answer(&world, &shared, &context, kind, &id)
}

async fn move_collection(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    move_item(shared, context, Kind::Collection, id, body).await
}

async fn move_space(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    move_item(shared, context, Kind::Space, id, body).await
}

/// The repository one of `spaces` is synchronized with, if any: such a space cannot leave its
/// organization (its git installation belongs to the organization).
fn git_synchronized(world: &World, spaces: &[String]) -> Option<String> {
    world
        .spaces
        .iter()
        .filter(|space| spaces.contains(&space.id))
        .find_map(|space| space.git_repository.clone())
}

async fn transfer_item(
    shared: Arc<Shared>,
    context: Context,
    kind: Kind,
    id: String,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    let item = moving(&world, kind, &id)?;
    let body = body_of(body)?;
    validate::reject_unknown(&body, &["organization"])?;
    let target = validate::required_text(&body, "organization", 1, 256)?;
    let target_title = world
        .organization(&target)
        .map(|organization| organization.title.clone())
        .ok_or_else(|| ApiError::not_found("organization", &target))?;
    if target == item.organization {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "The transfer would not change anything: \"{}\" is already in {target_title}",
                item.title
            ),
        ));
    }
    let what = format!("Transferring a {}", kind.name());
    require_admin(&world, kind, &id, &item, &context.user, &what)?;
    require_role(&world, &target, &context.user, None, Role::Create, &what)?;
    let collections = match kind {
        Kind::Collection => subtree(&world, &id),
        Kind::Space => Vec::new(),
    };
    let spaces: Vec<String> = world
        .spaces
        .iter()
        .filter(|space| match kind {
            Kind::Space => space.id == id,
            Kind::Collection => space
                .parent
                .as_ref()
                .is_some_and(|parent| collections.contains(parent)),
        })
        .map(|space| space.id.clone())
        .collect();
    if let Some(repository) = git_synchronized(&world, &spaces) {
        return Err(ApiError::new(
            StatusCode::PRECONDITION_FAILED,
            format!(
                "The space cannot be moved: it is synchronized with the git repository \
                 {repository}; remove the git sync first"
            ),
        ));
    }
    for collection in world.collections.iter_mut() {
        if collections.contains(&collection.id) {
            collection.organization = target.clone();
            if collection.id == id {
                collection.parent = None;
            }
        }
    }
    for space in world.spaces.iter_mut() {
        if spaces.contains(&space.id) {
            space.organization = target.clone();
            if space.id == id {
                space.parent = None;
            }
        }
    }
    answer(&world, &shared, &context, kind, &id)
}

async fn transfer_collection(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    transfer_item(shared, context, Kind::Collection, id, body).await
}

async fn transfer_space(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    transfer_item(shared, context, Kind::Space, id, body).await
}

//! The collections endpoints (apart from move and transfer, which live with the
//! space moves in `sandbox::moves`). Checks run in the order: the collection (or organization)
//! exists (404), the caller may do it (403), the body is valid (400); nothing changes unless
//! every check passed.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::Value;

use super::content_role;
use crate::context::{Context, Shared, boolean_parameter, query_map, require_organization, view};
use crate::error::ApiError;
use crate::model::{Collection, Role};
use crate::paging::envelope;
use crate::render::slugify;
use crate::validate::{self, Body};
use crate::world::World;

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

/// Longest collection title and description.
pub(crate) const MAX_TITLE: usize = 50;
pub(crate) const MAX_DESCRIPTION: usize = 100;
/// A collection's `defaultLevel`: a member role (or null); the seed has no `inherit` here.
const LEVELS: [&str; 6] = ["admin", "create", "review", "edit", "comment", "read"];

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route(
            "/v1/orgs/{organization}/collections",
            get(list_collections).post(create_collection),
        )
        .route(
            "/v1/collections/{collection}",
            get(get_collection)
                .patch(update_collection)
                .delete(delete_collection),
        )
        .route(
            "/v1/collections/{collection}/spaces",
            get(list_collection_spaces),
        )
}

pub(crate) fn find_collection<'a>(world: &'a World, id: &str) -> Result<&'a Collection, ApiError> {
    world
        .collection(id)
        .ok_or_else(|| ApiError::not_found("collection", id))
}

/// 403 unless `user` holds at least `needed` on content inside `collection` (`None` = the
/// organization's top level); `what` names the operation for the message.
pub(crate) fn require_role(
    world: &World,
    organization: &str,
    user: &str,
    collection: Option<&str>,
    needed: Role,
    what: &str,
) -> Result<(), ApiError> {
    let role = content_role(world, organization, user, collection);
    if role.is_some_and(|role| role >= needed) {
        return Ok(());
    }
    let place = match collection.and_then(|id| world.collection(id)) {
        Some(collection) => format!("collection \"{}\"", collection.title),
        None => format!("organization \"{organization}\""),
    };
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        format!(
            "{what} needs the {} role in {place}; your role is {}",
            needed.as_str(),
            role.map_or("guest", Role::as_str)
        ),
    ))
}

fn body_of(body: RequestBody, optional: bool) -> Result<Body, ApiError> {
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    validate::object_body(&bytes, optional)
}

fn collection_json(world: &World, shared: &Shared, context: &Context, id: &str) -> Answer {
    let collection = find_collection(world, id)?;
    Ok(Json(view(world, shared, context).collection(collection)).into_response())
}

async fn list_collections(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let query = query_map(raw);
    let nested = boolean_parameter(&query, "nested", true)?;
    let world = shared.world.read().await;
    require_organization(&world, &id)?;
    let view = view(&world, &shared, &context);
    let items = world
        .collections
        .iter()
        .filter(|collection| collection.organization == id)
        .filter(|collection| nested || collection.parent.is_none())
        .map(|collection| view.collection(collection))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

async fn get_collection(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let world = shared.world.read().await;
    collection_json(&world, &shared, &context, &id)
}

async fn list_collection_spaces(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let world = shared.world.read().await;
    find_collection(&world, &id)?;
    let view = view(&world, &shared, &context);
    let items = world
        .spaces
        .iter()
        .filter(|space| space.parent.as_deref() == Some(id.as_str()))
        .filter(|space| space.deleted_at.is_none())
        .map(|space| view.space(space))
        .collect();
    Ok(Json(envelope(items, &query_map(raw), &context.faults)?))
}

async fn create_collection(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_organization(&world, &organization)?;
    let body = body_of(body, true)?;
    validate::reject_unknown(&body, &["title", "parent"])?;
    let title = validate::text(&body, "title", 0, MAX_TITLE)?;
    let parent = validate::text(&body, "parent", 1, usize::MAX)?;
    if let Some(parent) = &parent
        && world
            .collection(parent)
            .is_none_or(|found| found.organization != organization)
    {
        return Err(ApiError::bad_request(format!(
            "Invalid \"parent\": no collection \"{}\" in this organization",
            parent.escape_default()
        )));
    }
    require_role(
        &world,
        &organization,
        &context.user,
        parent.as_deref(),
        Role::Create,
        "Creating a collection",
    )?;
    let title = title
        .map(|title| title.trim().to_string())
        .filter(|title| !title.is_empty())
        .unwrap_or_else(|| "Untitled collection".to_string());
    let number = world.content_access.next_number();
    let id = format!("col-{}-{number}", slugify(&title));
    world.collections.push(Collection {
        id: id.clone(),
        organization,
        parent,
        title,
        description: None,
        default_level: None,
    });
    let location = format!("{}/collections/{id}", shared.api_url);
    let collection = find_collection(&world, &id)?;
    let json = view(&world, &shared, &context).collection(collection);
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(json)).into_response())
}

/// The fields of a PATCH, each `None` when absent.
struct CollectionEdit {
    title: Option<String>,
    description: Option<String>,
    default_level: Option<Option<Role>>,
}

fn collection_edit(body: &Body) -> Result<CollectionEdit, ApiError> {
    validate::reject_unknown(body, &["title", "description", "defaultLevel"])?;
    let title = validate::text(body, "title", 1, MAX_TITLE).map_err(|_| {
        ApiError::bad_request(format!(
            "Invalid \"title\": expected a string of 1 to {MAX_TITLE} characters"
        ))
    })?;
    if title
        .as_deref()
        .is_some_and(|title| title.trim().is_empty())
    {
        return Err(ApiError::bad_request(
            "Invalid \"title\": it cannot be blank",
        ));
    }
    let description = validate::text(body, "description", 0, MAX_DESCRIPTION)?;
    let default_level = match body.get("defaultLevel") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(_) => Some(
            validate::choice(body, "defaultLevel", &LEVELS)?
                .as_deref()
                .and_then(Role::parse),
        ),
    };
    Ok(CollectionEdit {
        title,
        description,
        default_level,
    })
}

async fn update_collection(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    let found = find_collection(&world, &id)?;
    let organization = found.organization.clone();
    require_role(
        &world,
        &organization,
        &context.user,
        Some(&id),
        Role::Admin,
        "Changing a collection",
    )?;
    let edit = collection_edit(&body_of(body, false)?)?;
    if let Some(collection) = world.collections.iter_mut().find(|c| c.id == id) {
        if let Some(title) = edit.title {
            collection.title = title.trim().to_string();
        }
        if let Some(description) = edit.description {
            collection.description = Some(description).filter(|text| !text.is_empty());
        }
        if let Some(level) = edit.default_level {
            collection.default_level = level;
        }
    }
    collection_json(&world, &shared, &context, &id)
}

/// Deletes the collection with every collection and space inside it. A collection that does
/// not exist answers 204 as well.
async fn delete_collection(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let mut world = shared.world.write().await;
    let Some(found) = world.collection(&id) else {
        return Ok(StatusCode::NO_CONTENT);
    };
    let organization = found.organization.clone();
    require_role(
        &world,
        &organization,
        &context.user,
        Some(&id),
        Role::Admin,
        "Deleting a collection",
    )?;
    let removed = super::subtree(&world, &id);
    world.collections.retain(|c| !removed.contains(&c.id));
    world
        .spaces
        .retain(|space| !space.parent.as_ref().is_some_and(|p| removed.contains(p)));
    world
        .content_access
        .overrides
        .retain(|entry| !removed.contains(&entry.collection));
    Ok(StatusCode::NO_CONTENT)
}

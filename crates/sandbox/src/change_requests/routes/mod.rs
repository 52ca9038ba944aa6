//! The change-request endpoints, with the public service's names and status codes. Handlers
//! read or lock the shared world, check the caller's role and answer with the shapes of
//! [`super::render`].
//!
//! One file per resource: the change requests themselves ([`change_requests`]), their content,
//! semantic changes and PDF ([`content`]), comments with their replies and reactions
//! ([`comments`]), reviews and requested reviewers ([`reviews`]). This module registers them
//! and holds the helpers they share.

mod change_requests;
mod comments;
mod content;
mod reviews;

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use self::change_requests::{
    create_change_request, get_change_request, list_organization_change_requests,
    list_space_change_requests, merge_change_request, patch_change_request, update_change_request,
};
use self::comments::{
    delete_comment, delete_reply, get_comment, get_reply, list_commenters, list_comments,
    list_replies, post_comment, post_reply, put_comment, put_reply,
};
use self::content::{get_content, get_content_page, get_pdf, list_changes, list_content_pages};
use self::reviews::{
    delete_requested_reviewer, get_review, list_requested_reviewers, list_reviews,
    post_requested_reviewers, post_review,
};
use super::model::Status;
use super::render::{Abilities, BodyFormat, Renderer};
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::model::{Role, Space};
use crate::render::View;
use crate::world::World;

type Answer = Result<Response, ApiError>;
type Pairs = Vec<(String, String)>;
type SharedState = State<Arc<Shared>>;

const CHANGE_REQUEST: &str = "/v1/spaces/{space}/change-requests/{change_request}";
/// Every change-request route, to be merged into the sandbox's router before its gate layer.
pub(crate) fn router() -> Router<Arc<Shared>> {
    let at = |suffix: &str| format!("{CHANGE_REQUEST}{suffix}");
    Router::new()
        .route(
            "/v1/spaces/{space}/change-requests",
            get(list_space_change_requests).post(create_change_request),
        )
        .route(
            "/v1/orgs/{organization}/change-requests",
            get(list_organization_change_requests),
        )
        .route(
            CHANGE_REQUEST,
            get(get_change_request).patch(patch_change_request),
        )
        .route(&at("/merge"), post(merge_change_request))
        .route(&at("/update"), post(update_change_request))
        .route(&at("/changes"), get(list_changes))
        .route(&at("/pdf"), get(get_pdf))
        .route(&at("/content"), get(get_content))
        .route(&at("/content/pages"), get(list_content_pages))
        .route(&at("/content/page/{page}"), get(get_content_page))
        .route(&at("/comments"), get(list_comments).post(post_comment))
        .route(
            &at("/comments/{comment}"),
            get(get_comment).put(put_comment).delete(delete_comment),
        )
        .route(
            &at("/comments/{comment}/replies"),
            get(list_replies).post(post_reply),
        )
        .route(
            &at("/comments/{comment}/replies/{reply}"),
            get(get_reply).put(put_reply).delete(delete_reply),
        )
        .route(&at("/commenters"), get(list_commenters))
        .route(&at("/reviews"), get(list_reviews).post(post_review))
        .route(&at("/reviews/{review}"), get(get_review))
        .route(
            &at("/requested-reviewers"),
            get(list_requested_reviewers).post(post_requested_reviewers),
        )
        .route(
            &at("/requested-reviewers/{user}"),
            axum::routing::delete(delete_requested_reviewer),
        )
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

/// The current time in the format of every timestamp the sandbox emits.
fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// Query parameters as pairs, so repeated keys (`status=open&status=draft`) survive.
fn query_pairs(raw: Option<String>) -> Pairs {
    url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

fn first<'a>(pairs: &'a Pairs, name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

fn every<'a>(pairs: &'a Pairs, name: &str) -> Vec<&'a str> {
    pairs
        .iter()
        .filter(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
        .filter(|value| !value.is_empty())
        .collect()
}

/// The single-valued view the paging helpers read (`page`, `limit`).
fn paging_query(pairs: &Pairs) -> HashMap<String, String> {
    let mut map = HashMap::new();
    for (key, value) in pairs {
        map.entry(key.clone()).or_insert_with(|| value.clone());
    }
    map
}

fn body_format(pairs: &Pairs) -> Result<BodyFormat, ApiError> {
    match first(pairs, "format") {
        None | Some("markdown") => Ok(BodyFormat::Markdown),
        Some("document") => Ok(BodyFormat::Document),
        Some(_) => Err(ApiError::bad_request(
            "Invalid \"format\": expected document or markdown",
        )),
    }
}

/// Parses a JSON body into `T`, answering 400 with serde's explanation when it does not fit.
fn parse_body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    serde_json::from_slice(text)
        .map_err(|error| ApiError::bad_request(format!("Invalid request body: {error}")))
}

/// `{markdown}` from a `Document` body; other document forms are not accepted for writing.
#[derive(Debug, Default, Deserialize)]
struct MarkdownBody {
    markdown: Option<String>,
}

fn required_markdown(body: Option<MarkdownBody>, field: &str) -> Result<String, ApiError> {
    match body.and_then(|body| body.markdown) {
        Some(markdown) if !markdown.trim().is_empty() => Ok(markdown),
        _ => Err(ApiError::bad_request(format!(
            "\"{field}.markdown\" is required and must not be empty"
        ))),
    }
}

/// The caller's role on the space's content: a role given on its collection (or one above it)
/// counts before the organization role, as it does for the space's own `permissions`, so a
/// change request's permissions and its routes agree with the space's.
fn role_of(world: &World, space: &Space, user: &str) -> Role {
    crate::collections::content_role(world, &space.organization, user, space.parent.as_deref())
        .unwrap_or(Role::Read)
}

/// Refuses a merge exactly when the space's `permissions.merge` is false for this role.
fn require_merge_permission(have: Role) -> Result<(), ApiError> {
    if have.may_merge() {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "Merging a change request needs the space's merge permission, which your role \
                 (\"{}\") does not have",
                have.as_str()
            ),
        ))
    }
}

fn forbidden(action: &str, needed: Role, have: Role) -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        format!(
            "{action} needs the \"{}\" role or higher; your role is \"{}\"",
            needed.as_str(),
            have.as_str()
        ),
    )
}

fn require_role(have: Role, needed: Role, action: &str) -> Result<(), ApiError> {
    if have >= needed {
        Ok(())
    } else {
        Err(forbidden(action, needed, have))
    }
}

fn conflict(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, message)
}

fn space_of<'a>(world: &'a World, id: &str) -> Result<&'a Space, ApiError> {
    world
        .space(id)
        .ok_or_else(|| ApiError::not_found("space", id))
}

/// The index of a change request in the world, by id or number; 404 for either unknown part.
fn locate(world: &World, space: &str, change_request: &str) -> Result<usize, ApiError> {
    space_of(world, space)?;
    world
        .change_requests
        .find(space, change_request)
        .ok_or_else(|| ApiError::not_found("change request", change_request))
}

fn renderer<'a>(
    world: &'a World,
    shared: &'a Shared,
    context: &'a Context,
    space: &'a Space,
) -> Renderer<'a> {
    Renderer {
        view: View {
            world,
            api_url: &shared.api_url,
            caller: &context.user,
        },
        space,
        abilities: Abilities {
            role: role_of(world, space, &context.user),
        },
    }
}

fn json_response(value: Value) -> Answer {
    Ok(Json(value).into_response())
}

/// Keeps the space's change-request counters in line with the records after any status change.
pub(crate) fn sync_space_counts(world: &mut World, space: &str) {
    let of_space = || {
        world
            .change_requests
            .items
            .iter()
            .filter(|change_request| change_request.space == space)
    };
    let total = of_space().count() as u32;
    let open = of_space()
        .filter(|change_request| change_request.status == Status::Open)
        .count() as u32;
    let draft = of_space()
        .filter(|change_request| change_request.status == Status::Draft)
        .count() as u32;
    if let Some(record) = world.spaces.iter_mut().find(|record| record.id == space) {
        record.change_requests = total;
        record.change_requests_open = open;
        record.change_requests_draft = draft;
    }
}

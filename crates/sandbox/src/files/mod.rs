//! A space's or a change request's files: one file by id, and the change
//! request's list. A change request edits pages only, so its files are its space's. The space's
//! own list is the walking skeleton's `GET /spaces/{id}/content/files`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::Value;

use super::error::ApiError;
use super::links::content;
use super::paging::envelope;
use crate::context::{Context, Shared, query_map, view};

type Answer = Result<Json<Value>, ApiError>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/spaces/{space}/content/files/{file}", get(one_file))
        .route(
            "/v1/spaces/{space}/change-requests/{change_request}/content/files",
            get(change_request_files),
        )
        .route(
            "/v1/spaces/{space}/change-requests/{change_request}/content/files/{file}",
            get(one_file),
        )
}

/// One file of the space (or of a change request of it, which has the same files).
async fn file_of(
    shared: &Shared,
    context: &Context,
    space: &str,
    change_request: Option<&str>,
    file: &str,
) -> Answer {
    let world = shared.world.read().await;
    let content = content(&world, space, change_request)?;
    let found = content
        .space
        .revision
        .files
        .iter()
        .find(|known| known.id == file)
        .ok_or_else(|| ApiError::not_found("file", file))?;
    Ok(Json(
        view(&world, shared, context).file(content.space, found),
    ))
}

/// A file of the space or, when the path names one, of a change request.
async fn one_file(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(params): Path<HashMap<String, String>>,
) -> Answer {
    let param = |name: &str| params.get(name).map(String::as_str);
    let (space, file) = (
        param("space").unwrap_or_default(),
        param("file").unwrap_or_default(),
    );
    file_of(&shared, &context, space, param("change_request"), file).await
}

async fn change_request_files(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((space, change_request)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    let content = content(&world, &space, Some(&change_request))?;
    let view = view(&world, &shared, &context);
    let items = content
        .space
        .revision
        .files
        .iter()
        .map(|file| view.file(content.space, file))
        .collect();
    Ok(Json(envelope(items, &query_map(raw), &context.faults)?))
}

//! A site's adaptive-content schema and the template conditions read from it.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{Extension, Json};

use super::{Answer, RequestBody, body_of, check_writable, find_site, now, site_mut};
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::sites::model::AdaptiveSchema;
use crate::sites::render;
use crate::sites::validate as site_fields;
use crate::validate;

pub(super) async fn get_adaptive_schema(
    State(shared): State<Arc<Shared>>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let site = find_site(&world, &organization, &id)?;
    let schema = site.adaptive_schema.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("Site \"{id}\" has no adaptive schema yet"),
        )
    })?;
    Ok(Json(render::adaptive_schema(
        &schema.json_schema,
        &schema.updated_at,
    ))
    .into_response())
}

pub(super) async fn put_adaptive_schema(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["jsonSchema"])?;
    let json_schema = body
        .get("jsonSchema")
        .ok_or_else(|| ApiError::bad_request("\"jsonSchema\" is required"))?;
    site_fields::adaptive_schema(json_schema)?;
    let schema = AdaptiveSchema {
        json_schema: json_schema.clone(),
        updated_at: now(),
    };
    let answer = render::adaptive_schema(&schema.json_schema, &schema.updated_at);
    site_mut(world, &organization, &id)?.adaptive_schema = Some(schema);
    Ok(Json(answer).into_response())
}

pub(super) async fn list_template_conditions(
    State(shared): State<Arc<Shared>>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let site = find_site(&world, &organization, &id)?;
    let schema = site
        .adaptive_schema
        .as_ref()
        .map(|schema| &schema.json_schema);
    Ok(Json(render::template_conditions(schema)).into_response())
}

//! Publishing a site and reading what it publishes: publish, unpublish, the published view
//! (optionally through a share link's key) and the published structure.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{Extension, Json};

use super::{Answer, check_writable, find_site, query_pairs, site_answer, site_mut, view};
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::sites::render;

async fn set_published(
    shared: &Shared,
    context: &Context,
    organization: &str,
    id: &str,
    published: bool,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, organization, id, &context.user)?;
    site_mut(world, organization, id)?.published = published;
    site_answer(world, shared, context, organization, id)
}

pub(super) async fn publish_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    set_published(&shared, &context, &organization, &id, true).await
}

pub(super) async fn unpublish_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    set_published(&shared, &context, &organization, &id, false).await
}

/// The published view of a site. A `shareKey`, when given, must belong to an active share link
/// of the site; without one, members see the site whether or not it is published (the sandbox
/// has no anonymous visitors).
pub(super) async fn get_published(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let query: HashMap<String, String> = query_pairs(raw).into_iter().collect();
    let world = shared.world.read().await;
    let site = find_site(&world, &organization, &id)?;
    if let Some(key) = query.get("shareKey")
        && !site
            .share_links
            .iter()
            .any(|link| link.active && &link.token == key)
    {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("No active share link of site \"{id}\" has this shareKey"),
        ));
    }
    Ok(Json(render::published(&view(&world, &shared, &context), site)).into_response())
}

pub(super) async fn get_structure(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let site = find_site(&world, &organization, &id)?;
    Ok(Json(render::structure(&view(&world, &shared, &context), site)).into_response())
}

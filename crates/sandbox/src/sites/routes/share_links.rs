//! A site's share links: list, create, rename or (de)activate, delete.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{Extension, Json};

use super::{
    Answer, RequestBody, body_of, check_writable, created, find_site, now, query_pairs,
    site_location, site_mut, view,
};
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::paging::envelope;
use crate::sites::model::ShareLink;
use crate::sites::render;
use crate::validate;

/// A stable, unguessable-looking secret for a share link URL.
fn secret(seed: &str, number: u64) -> String {
    let mut state: u64 = 0xcbf2_9ce4_8422_2325 ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut token = String::new();
    for round in 0..2u8 {
        for byte in seed.bytes().chain([round]) {
            state ^= u64::from(byte);
            state = state.wrapping_mul(0x0100_0000_01b3);
        }
        token.push_str(&format!("{state:016x}"));
    }
    token
}

/// Longest share link name.
const MAX_SHARE_LINK_NAME: usize = 50;

pub(super) async fn list_share_links(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let query: HashMap<String, String> = query_pairs(raw).into_iter().collect();
    let search = query
        .get("search")
        .map(|text| text.trim().to_lowercase())
        .unwrap_or_default();
    let world = shared.world.read().await;
    let site = find_site(&world, &organization, &id)?;
    let view = view(&world, &shared, &context);
    let items = site
        .share_links
        .iter()
        .filter(|link| link.name.to_lowercase().contains(&search))
        .map(|link| render::share_link(&view, site, link))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?).into_response())
}

pub(super) async fn create_share_link(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["name"])?;
    let name = validate::required_text(&body, "name", 1, MAX_SHARE_LINK_NAME)?;
    let number = world.sites.next_number();
    let link = ShareLink {
        id: format!("shl-{number}"),
        name,
        active: true,
        created_at: now(),
        token: secret(&id, number),
    };
    let link_id = link.id.clone();
    site_mut(world, &organization, &id)?.share_links.push(link);
    let site = find_site(world, &organization, &id)?;
    let link = site
        .share_links
        .iter()
        .find(|link| link.id == link_id)
        .ok_or_else(|| ApiError::not_found("share link", &link_id))?;
    let value = render::share_link(&view(world, &shared, &context), site, link);
    let location = format!(
        "{}/share-links/{link_id}",
        site_location(&shared, &organization, &id)
    );
    Ok(created(location, value))
}

pub(super) async fn update_share_link(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, link_id)): Path<(String, String, String)>,
    body: RequestBody,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["active", "name"])?;
    let active = validate::boolean(&body, "active")?;
    let name = validate::text(&body, "name", 1, MAX_SHARE_LINK_NAME)?;
    let link = site_mut(world, &organization, &id)?
        .share_links
        .iter_mut()
        .find(|link| link.id == link_id)
        .ok_or_else(|| ApiError::not_found("share link", &link_id))?;
    if let Some(active) = active {
        link.active = active;
    }
    if let Some(name) = name {
        link.name = name;
    }
    let site = find_site(world, &organization, &id)?;
    let link = site
        .share_links
        .iter()
        .find(|link| link.id == link_id)
        .ok_or_else(|| ApiError::not_found("share link", &link_id))?;
    Ok(Json(render::share_link(
        &view(world, &shared, &context),
        site,
        link,
    ))
    .into_response())
}

pub(super) async fn delete_share_link(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, link_id)): Path<(String, String, String)>,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    site_mut(world, &organization, &id)?
        .share_links
        .retain(|link| link.id != link_id);
    Ok(StatusCode::NO_CONTENT.into_response())
}

//! The sites endpoints. Everyone in the organization may read; every
//! change (PATCH, publish, unpublish, create, delete, schema, share links, section groups)
//! needs the admin role. Checks run in the order: organization and site exist (404), caller is
//! an admin (403), body is valid (400); nothing changes unless every check passed.
//!
//! One file per resource: the sites themselves ([`sites`]), publishing ([`publishing`]), the
//! adaptive-content schema ([`adaptive_schema`]), share links ([`share_links`]) and section
//! groups with their sections ([`section_groups`]). This module registers them and holds the
//! helpers they share.

mod adaptive_schema;
mod publishing;
mod section_groups;
mod share_links;
mod sites;

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::Value;

use self::adaptive_schema::{get_adaptive_schema, list_template_conditions, put_adaptive_schema};
use self::publishing::{get_published, get_structure, publish_site, unpublish_site};
use self::section_groups::{
    add_section_to_group, create_section_group, delete_section_group, list_section_groups,
    remove_section_from_group, update_section, update_section_group,
};
use self::share_links::{
    create_share_link, delete_share_link, list_share_links, update_share_link,
};
use self::sites::{create_site, delete_site, get_site, list_sites, update_site};
use super::model::Site;
use super::render;
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::model::Role;
use crate::render::View;
use crate::validate::{self, Body};
use crate::world::World;

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

/// Path of a site, relative to `/v1`.
const SITE: &str = "/v1/orgs/{organization}/sites/{site}";

/// The sites routes, merged into the sandbox router (which adds the gate and fallbacks).
pub(crate) fn router() -> Router<Arc<Shared>> {
    let at = |suffix: &str| format!("{SITE}{suffix}");
    Router::new()
        .route(
            "/v1/orgs/{organization}/sites",
            get(list_sites).post(create_site),
        )
        .route(SITE, get(get_site).patch(update_site).delete(delete_site))
        .route(&at("/publish"), post(publish_site))
        .route(&at("/unpublish"), post(unpublish_site))
        .route(&at("/published"), get(get_published))
        .route(&at("/structure"), get(get_structure))
        .route(
            &at("/adaptive-schema"),
            get(get_adaptive_schema).put(put_adaptive_schema),
        )
        .route(
            &at("/adaptive-schema/template-conditions"),
            get(list_template_conditions),
        )
        .route(
            &at("/share-links"),
            get(list_share_links).post(create_share_link),
        )
        .route(
            &at("/share-links/{link}"),
            axum::routing::patch(update_share_link).delete(delete_share_link),
        )
        .route(
            &at("/section-groups"),
            get(list_section_groups).post(create_section_group),
        )
        .route(
            &at("/section-groups/{group}"),
            axum::routing::patch(update_section_group).delete(delete_section_group),
        )
        .route(
            &at("/section-groups/{group}/sections"),
            post(add_section_to_group),
        )
        .route(
            &at("/section-groups/{group}/sections/{section}"),
            axum::routing::delete(remove_section_from_group),
        )
        .route(
            &at("/sections/{section}"),
            axum::routing::patch(update_section),
        )
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

fn query_pairs(raw: Option<String>) -> Vec<(String, String)> {
    url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

fn view<'a>(world: &'a World, shared: &'a Shared, context: &'a Context) -> View<'a> {
    View {
        world,
        api_url: &shared.api_url,
        caller: &context.user,
    }
}

fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

fn body_of(body: RequestBody, optional: bool) -> Result<Body, ApiError> {
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    validate::object_body(&bytes, optional)
}

fn find_site<'a>(world: &'a World, organization: &str, id: &str) -> Result<&'a Site, ApiError> {
    world
        .organization(organization)
        .ok_or_else(|| ApiError::not_found("organization", organization))?;
    world
        .sites
        .site(organization, id)
        .ok_or_else(|| ApiError::not_found("site", id))
}

/// Only organization admins change sites (seed: sites are administered content).
fn require_admin(world: &World, organization: &str, user: &str) -> Result<(), ApiError> {
    match world.role_in(organization, user) {
        Some(Role::Admin) => Ok(()),
        role => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "Changing sites needs the admin role in organization \"{organization}\"; \
                 your role is {}",
                role.map_or("guest", Role::as_str)
            ),
        )),
    }
}

/// 404 for an unknown organization or site, then 403 for a non-admin.
fn check_writable(
    world: &World,
    organization: &str,
    site: &str,
    user: &str,
) -> Result<(), ApiError> {
    find_site(world, organization, site)?;
    require_admin(world, organization, user)
}

/// The site for changing; only call after [`check_writable`].
fn site_mut<'a>(
    world: &'a mut World,
    organization: &str,
    id: &str,
) -> Result<&'a mut Site, ApiError> {
    world
        .sites
        .site_mut(organization, id)
        .ok_or_else(|| ApiError::not_found("site", id))
}

fn site_answer(
    world: &World,
    shared: &Shared,
    context: &Context,
    organization: &str,
    id: &str,
) -> Answer {
    let site = find_site(world, organization, id)?;
    Ok(Json(render::site(&view(world, shared, context), site)).into_response())
}

fn created(location: String, value: Value) -> Response {
    (StatusCode::CREATED, [(LOCATION, location)], Json(value)).into_response()
}

fn site_location(shared: &Shared, organization: &str, site: &str) -> String {
    format!("{}/orgs/{organization}/sites/{site}", shared.api_url)
}

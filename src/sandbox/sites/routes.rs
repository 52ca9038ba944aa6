//! The sites endpoints (seed §4.10–4.12). Everyone in the organization may read; every
//! change (PATCH, publish, unpublish, create, delete, schema, share links, section groups)
//! needs the admin role. Checks run in the order: organization and site exist (404), caller is
//! an admin (403), body is valid (400); nothing changes unless every check passed.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde_json::Value;

use super::model::{AdaptiveSchema, Item, Section, SectionGroup, ShareLink, Site, SiteSpace};
use super::render;
use super::validate::{self, Body};
use crate::sandbox::error::ApiError;
use crate::sandbox::model::{Role, World};
use crate::sandbox::paging::envelope;
use crate::sandbox::render::{View, slugify};
use crate::sandbox::routes::{Context, Shared};

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

/// Path of a site, relative to `/v1`.
const SITE: &str = "/v1/orgs/{organization}/sites/{site}";

/// The sites routes, merged into the sandbox router (which adds the gate and fallbacks).
pub fn router() -> Router<Arc<Shared>> {
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

/// The answer of a route the `no_group_section_routes` / `no_section_patch` knobs take away.
fn lacking_route(status: StatusCode, what: &str) -> ApiError {
    ApiError::new(status, format!("No route for {what}"))
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

// ---------------------------------------------------------------------------------------------
// Sites

async fn list_sites(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let query: HashMap<String, String> = pairs.iter().cloned().collect();
    let published = match query.get("published").map(|value| value.trim()) {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"published\": expected true or false",
            ));
        }
    };
    let title = query.get("title").map(|text| text.trim().to_lowercase());
    let space = query.get("space").filter(|space| !space.is_empty());
    // `type` is an array parameter: repeated keys, and commas accepted too.
    let mut types = Vec::new();
    for (_, value) in pairs.iter().filter(|(key, _)| key == "type") {
        for kind in value.split(',').filter(|kind| !kind.is_empty()) {
            if !validate::SITE_TYPES.contains(&kind) {
                return Err(ApiError::bad_request(format!(
                    "Invalid \"type\": expected any of {}",
                    validate::SITE_TYPES.join(", ")
                )));
            }
            types.push(kind.to_string());
        }
    }
    let world = shared.world.read().await;
    world
        .organization(&organization)
        .ok_or_else(|| ApiError::not_found("organization", &organization))?;
    let view = view(&world, &shared, &context);
    let items = world
        .sites
        .sites
        .iter()
        .filter(|site| site.organization == organization)
        .filter(|site| published.is_none_or(|wanted| site.published == wanted))
        .filter(|site| {
            title
                .as_deref()
                .is_none_or(|title| site.title.to_lowercase().contains(title))
        })
        .filter(|site| {
            space.is_none_or(|space| site.site_spaces.iter().any(|found| &found.space == space))
        })
        .filter(|site| types.is_empty() || types.contains(&site.site_type))
        .map(|site| render::site(&view, site))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?).into_response())
}

async fn get_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    site_answer(&world, &shared, &context, &organization, &id)
}

/// Title of a site created without one.
const UNTITLED_SITE: &str = "Untitled site";

async fn create_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    body: RequestBody,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    world
        .organization(&organization)
        .ok_or_else(|| ApiError::not_found("organization", &organization))?;
    require_admin(world, &organization, &context.user)?;
    let body = body_of(body, true)?;
    validate::reject_unknown(&body, &["type", "title", "visibility", "spaces"])?;
    let site_type = validate::choice(&body, "type", &validate::SITE_TYPES)?;
    let title = validate::text(&body, "title", 2, 128)?;
    let visibility = validate::choice(&body, "visibility", &validate::VISIBILITIES)?;
    let spaces = validate::string_list(&body, "spaces")?.unwrap_or_default();
    let mut site_spaces = Vec::new();
    for (index, space_id) in spaces.iter().enumerate() {
        let space = world
            .space(space_id)
            .filter(|space| space.organization == organization)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "Invalid \"spaces[{index}]\": no space \"{}\" in this organization",
                    space_id.escape_default()
                ))
            })?;
        site_spaces.push((space.id.clone(), space.title.clone()));
    }
    let number = world.sites.next_number();
    let id = format!("site-{number}");
    let title = title.unwrap_or_else(|| UNTITLED_SITE.to_string());
    let basename = Some(slugify(&title)).filter(|slug| !slug.is_empty());
    let site_spaces = site_spaces
        .into_iter()
        .enumerate()
        .map(|(index, (space, space_title))| SiteSpace {
            id: format!("sitesp-{number}-{index}"),
            path: Some(slugify(&space_title))
                .filter(|slug| !slug.is_empty())
                .unwrap_or_else(|| space.clone()),
            space,
            section: None,
            title: space_title,
            default: index == 0,
            condition: None,
        })
        .collect();
    world.sites.sites.push(Site {
        id: id.clone(),
        organization: organization.clone(),
        site_type: site_type.unwrap_or_else(|| "basic".to_string()),
        title,
        hostname: None,
        basename,
        proxy: None,
        visibility: visibility.unwrap_or_else(|| "public".to_string()),
        published: false,
        created_at: now(),
        adaptive_content: false,
        agents_context: "included".to_string(),
        default_level: Some("inherit".to_string()),
        sections: Vec::new(),
        site_spaces,
        groups: Vec::new(),
        share_links: Vec::new(),
        adaptive_schema: None,
    });
    let site = find_site(world, &organization, &id)?;
    let value = render::site(&view(world, &shared, &context), site);
    Ok(created(site_location(&shared, &organization, &id), value))
}

async fn delete_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    world
        .organization(&organization)
        .ok_or_else(|| ApiError::not_found("organization", &organization))?;
    require_admin(&world, &organization, &context.user)?;
    world
        .sites
        .sites
        .retain(|site| !(site.id == id && site.organization == organization));
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The fields PATCH accepts.
const SITE_PATCH_FIELDS: [&str; 9] = [
    "title",
    "visibility",
    "basename",
    "adaptiveContent",
    "agentsContext",
    "defaultLevel",
    "defaultSiteSpace",
    "defaultSiteSection",
    "proxy",
];

/// A checked PATCH body: `None` = leave as is.
struct SitePatch {
    title: Option<String>,
    visibility: Option<String>,
    basename: Option<String>,
    adaptive_content: Option<bool>,
    agents_context: Option<String>,
    default_level: Option<Option<String>>,
    default_site_space: Option<String>,
    default_site_section: Option<String>,
    proxy: Option<Option<String>>,
}

fn parse_site_patch(body: &Body, site: &Site) -> Result<SitePatch, ApiError> {
    if body.contains_key("published") {
        return Err(ApiError::bad_request(
            "\"published\" cannot be changed with PATCH: use POST …/publish or …/unpublish",
        ));
    }
    validate::reject_unknown(body, &SITE_PATCH_FIELDS)?;
    let default_site_space = validate::text(body, "defaultSiteSpace", 1, 256)?;
    if let Some(id) = &default_site_space
        && site.site_space(id).is_none()
    {
        return Err(ApiError::bad_request(format!(
            "Invalid \"defaultSiteSpace\": \"{}\" is not a site space of site \"{}\"",
            id.escape_default(),
            site.id
        )));
    }
    let default_site_section = validate::text(body, "defaultSiteSection", 1, 256)?;
    if let Some(id) = &default_site_section
        && site.section(id).is_none()
    {
        return Err(ApiError::bad_request(format!(
            "Invalid \"defaultSiteSection\": \"{}\" is not a section of site \"{}\"",
            id.escape_default(),
            site.id
        )));
    }
    // A default site space in another section would contradict the default section.
    if let (Some(space), Some(section)) = (&default_site_space, &default_site_section) {
        let holder = site
            .site_space(space)
            .and_then(|found| found.section.clone());
        if holder.as_deref() != Some(section.as_str()) {
            return Err(ApiError::bad_request(format!(
                "Invalid \"defaultSiteSpace\": \"{}\" is not in section \"{}\" given as \
                 \"defaultSiteSection\"",
                space.escape_default(),
                section.escape_default()
            )));
        }
    }
    Ok(SitePatch {
        title: validate::text(body, "title", 2, 128)?,
        visibility: validate::choice(body, "visibility", &validate::VISIBILITIES)?,
        basename: validate::basename(body)?,
        adaptive_content: validate::adaptive_content(body)?,
        agents_context: validate::choice(body, "agentsContext", &validate::AGENTS_CONTEXTS)?,
        default_level: validate::default_level(body)?,
        default_site_space,
        default_site_section,
        proxy: validate::proxy(body)?,
    })
}

fn apply_site_patch(site: &mut Site, patch: SitePatch) {
    if let Some(title) = patch.title {
        site.title = title;
    }
    if let Some(visibility) = patch.visibility {
        site.visibility = visibility;
    }
    if let Some(basename) = patch.basename {
        site.basename = Some(basename);
    }
    if let Some(enabled) = patch.adaptive_content {
        site.adaptive_content = enabled;
    }
    if let Some(agents_context) = patch.agents_context {
        site.agents_context = agents_context;
    }
    if let Some(default_level) = patch.default_level {
        site.default_level = default_level;
    }
    if let Some(section) = patch.default_site_section {
        site.set_default_section(&section);
    }
    if let Some(site_space) = patch.default_site_space {
        site.set_default_site_space(&site_space);
    }
    if let Some(proxy) = patch.proxy {
        site.proxy = proxy;
    }
}

async fn update_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let body = body_of(body, false)?;
    let patch = parse_site_patch(&body, find_site(world, &organization, &id)?)?;
    apply_site_patch(site_mut(world, &organization, &id)?, patch);
    site_answer(world, &shared, &context, &organization, &id)
}

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

async fn publish_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    set_published(&shared, &context, &organization, &id, true).await
}

async fn unpublish_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    set_published(&shared, &context, &organization, &id, false).await
}

/// The published view of a site. A `shareKey`, when given, must belong to an active share link
/// of the site; without one, members see the site whether or not it is published (the sandbox
/// has no anonymous visitors).
async fn get_published(
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

async fn get_structure(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let site = find_site(&world, &organization, &id)?;
    Ok(Json(render::structure(&view(&world, &shared, &context), site)).into_response())
}

// ---------------------------------------------------------------------------------------------
// Adaptive content

async fn get_adaptive_schema(
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

async fn put_adaptive_schema(
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
    validate::adaptive_schema(json_schema)?;
    let schema = AdaptiveSchema {
        json_schema: json_schema.clone(),
        updated_at: now(),
    };
    let answer = render::adaptive_schema(&schema.json_schema, &schema.updated_at);
    site_mut(world, &organization, &id)?.adaptive_schema = Some(schema);
    Ok(Json(answer).into_response())
}

async fn list_template_conditions(
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

// ---------------------------------------------------------------------------------------------
// Share links

/// Longest share link name.
const MAX_SHARE_LINK_NAME: usize = 50;

async fn list_share_links(
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

async fn create_share_link(
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

async fn update_share_link(
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

async fn delete_share_link(
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

// ---------------------------------------------------------------------------------------------
// Section groups

/// Group title and icon limits.
const MAX_GROUP_TITLE: usize = 100;
const MAX_ICON: usize = 50;

/// Every group of a site, depth first in structure order, so parents precede their children.
fn groups_in_order<'a>(site: &'a Site, parent: Option<&str>, into: &mut Vec<&'a SectionGroup>) {
    for item in site.level(parent) {
        if let Item::Group(group) = item {
            into.push(group);
            groups_in_order(site, Some(&group.id), into);
        }
    }
}

async fn list_section_groups(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let query: HashMap<String, String> = query_pairs(raw).into_iter().collect();
    let world = shared.world.read().await;
    let site = find_site(&world, &organization, &id)?;
    let view = view(&world, &shared, &context);
    let mut groups = Vec::new();
    groups_in_order(site, None, &mut groups);
    let items = groups
        .into_iter()
        .map(|group| render::group(&view, site, group))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?).into_response())
}

fn group_answer(
    world: &World,
    shared: &Shared,
    context: &Context,
    organization: &str,
    id: &str,
    group_id: &str,
    status: StatusCode,
) -> Answer {
    let site = find_site(world, organization, id)?;
    let group = site
        .group(group_id)
        .ok_or_else(|| ApiError::not_found("section group", group_id))?;
    let value = render::group(&view(world, shared, context), site, group);
    if status == StatusCode::CREATED {
        let location = format!(
            "{}/section-groups/{group_id}",
            site_location(shared, organization, id)
        );
        Ok(created(location, value))
    } else {
        Ok((status, Json(value)).into_response())
    }
}

fn require_section<'a>(site: &'a Site, field: &str, id: &str) -> Result<&'a Section, ApiError> {
    site.section(id).ok_or_else(|| {
        ApiError::bad_request(format!(
            "Invalid \"{field}\": \"{}\" is not a section of site \"{}\"",
            id.escape_default(),
            site.id
        ))
    })
}

async fn create_section_group(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["title", "icon", "sections", "parent", "draft"])?;
    let title = validate::required_text(&body, "title", 1, MAX_GROUP_TITLE)?;
    let icon = validate::nullable_text(&body, "icon", MAX_ICON)?.flatten();
    let sections = validate::string_list(&body, "sections")?.unwrap_or_default();
    let parent = validate::text(&body, "parent", 1, 256)?;
    let draft = validate::boolean(&body, "draft")?.unwrap_or(false);
    let site = find_site(world, &organization, &id)?;
    for (index, section) in sections.iter().enumerate() {
        require_section(site, &format!("sections[{index}]"), section)?;
    }
    if let Some(parent) = &parent
        && site.group(parent).is_none()
    {
        return Err(ApiError::bad_request(format!(
            "Invalid \"parent\": \"{}\" is not a section group of site \"{id}\"",
            parent.escape_default()
        )));
    }
    let number = world.sites.next_number();
    let group_id = format!("grp-{number}");
    let mut positions: Vec<u64> = Vec::new();
    for _ in &sections {
        positions.push(world.sites.next_number());
    }
    let site = site_mut(world, &organization, &id)?;
    site.groups.push(SectionGroup {
        id: group_id.clone(),
        title,
        icon,
        parent,
        draft,
        position: number,
    });
    for (section, position) in sections.iter().zip(positions) {
        site.move_section(section, Some(&group_id), position);
    }
    group_answer(
        world,
        &shared,
        &context,
        &organization,
        &id,
        &group_id,
        StatusCode::CREATED,
    )
}

async fn update_section_group(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, group_id)): Path<(String, String, String)>,
    body: RequestBody,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["title", "icon", "draft", "parentSectionGroupId"])?;
    let title = validate::text(&body, "title", 1, MAX_GROUP_TITLE)?;
    let icon = validate::nullable_text(&body, "icon", MAX_ICON)?;
    let draft = validate::boolean(&body, "draft")?;
    let parent = validate::nullable_text(&body, "parentSectionGroupId", 256)?;
    let site = find_site(world, &organization, &id)?;
    site.group(&group_id)
        .ok_or_else(|| ApiError::not_found("section group", &group_id))?;
    if let Some(Some(parent)) = &parent {
        if site.group(parent).is_none() {
            return Err(ApiError::bad_request(format!(
                "Invalid \"parentSectionGroupId\": \"{}\" is not a section group of site \"{id}\"",
                parent.escape_default()
            )));
        }
        if site.is_within(parent, &group_id) {
            return Err(ApiError::bad_request(
                "Invalid \"parentSectionGroupId\": a group cannot move inside itself",
            ));
        }
    }
    let position = world.sites.next_number();
    let site = site_mut(world, &organization, &id)?;
    if let Some(group) = site.groups.iter_mut().find(|group| group.id == group_id) {
        if let Some(title) = title {
            group.title = title;
        }
        if let Some(icon) = icon {
            group.icon = icon;
        }
        if let Some(draft) = draft {
            group.draft = draft;
        }
        if let Some(parent) = parent
            && parent != group.parent
        {
            group.parent = parent;
            group.position = position;
        }
    }
    group_answer(
        world,
        &shared,
        &context,
        &organization,
        &id,
        &group_id,
        StatusCode::OK,
    )
}

async fn delete_section_group(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, group_id)): Path<(String, String, String)>,
) -> Answer {
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    site_mut(world, &organization, &id)?.remove_group(&group_id);
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn add_section_to_group(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, group_id)): Path<(String, String, String)>,
    body: RequestBody,
) -> Answer {
    if context.faults.no_group_section_routes {
        return Err(lacking_route(
            StatusCode::NOT_FOUND,
            "POST …/section-groups/{group}/sections",
        ));
    }
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let site = find_site(world, &organization, &id)?;
    site.group(&group_id)
        .ok_or_else(|| ApiError::not_found("section group", &group_id))?;
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["sectionId"])?;
    let section = validate::required_text(&body, "sectionId", 1, 256)?;
    require_section(site, "sectionId", &section)?;
    let position = world.sites.next_number();
    site_mut(world, &organization, &id)?.move_section(&section, Some(&group_id), position);
    group_answer(
        world,
        &shared,
        &context,
        &organization,
        &id,
        &group_id,
        StatusCode::CREATED,
    )
}

/// Takes a section out of a group, placing it where the group is (the group's parent level).
/// 204 also when the group or the section was not there: the end state is the one asked for.
async fn remove_section_from_group(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, group_id, section_id)): Path<(String, String, String, String)>,
) -> Answer {
    if context.faults.no_group_section_routes {
        return Err(lacking_route(
            StatusCode::NOT_FOUND,
            "DELETE …/section-groups/{group}/sections/{section}",
        ));
    }
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let site = find_site(world, &organization, &id)?;
    let in_group = site
        .section(&section_id)
        .is_some_and(|section| section.group.as_deref() == Some(group_id.as_str()));
    if in_group {
        let destination = site.group(&group_id).and_then(|group| group.parent.clone());
        let position = world.sites.next_number();
        site_mut(world, &organization, &id)?.move_section(
            &section_id,
            destination.as_deref(),
            position,
        );
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The service's section PATCH; the sandbox implements moving a section between groups with
/// `siteSectionGroupId` (a group id, or null for the top level) and refuses other fields.
async fn update_section(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id, section_id)): Path<(String, String, String)>,
    body: RequestBody,
) -> Answer {
    if context.faults.no_section_patch {
        return Err(lacking_route(
            StatusCode::METHOD_NOT_ALLOWED,
            "PATCH …/sections/{section}",
        ));
    }
    let mut guard = shared.world.write().await;
    let world = &mut *guard;
    check_writable(world, &organization, &id, &context.user)?;
    let body = body_of(body, false)?;
    validate::reject_unknown(&body, &["siteSectionGroupId"])?;
    let group = validate::nullable_text(&body, "siteSectionGroupId", 256)?;
    let site = find_site(world, &organization, &id)?;
    site.section(&section_id)
        .ok_or_else(|| ApiError::not_found("section", &section_id))?;
    if let Some(Some(group)) = &group
        && site.group(group).is_none()
    {
        return Err(ApiError::bad_request(format!(
            "Invalid \"siteSectionGroupId\": \"{}\" is not a section group of site \"{id}\"",
            group.escape_default()
        )));
    }
    if let Some(group) = group {
        let position = world.sites.next_number();
        site_mut(world, &organization, &id)?.move_section(&section_id, group.as_deref(), position);
    }
    let site = find_site(world, &organization, &id)?;
    let section = site
        .section(&section_id)
        .ok_or_else(|| ApiError::not_found("section", &section_id))?;
    Ok(Json(render::section(
        &view(world, &shared, &context),
        site,
        section,
    ))
    .into_response())
}

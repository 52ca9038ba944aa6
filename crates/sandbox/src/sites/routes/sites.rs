//! Sites themselves: the organization's list, one site, creating, deleting and changing one
//! (its title, visibility, basename and the other settings PATCH accepts).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{Extension, Json};

use super::{
    Answer, RequestBody, body_of, check_writable, created, find_site, now, query_pairs,
    require_admin, site_answer, site_location, site_mut, view,
};
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::paging::envelope;
use crate::render::slugify;
use crate::sites::model::{Site, SiteSpace};
use crate::sites::render;
use crate::sites::validate as site_fields;
use crate::validate::{self, Body};

pub(super) async fn list_sites(
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
            if !site_fields::SITE_TYPES.contains(&kind) {
                return Err(ApiError::bad_request(format!(
                    "Invalid \"type\": expected any of {}",
                    site_fields::SITE_TYPES.join(", ")
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

pub(super) async fn get_site(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    site_answer(&world, &shared, &context, &organization, &id)
}

/// Title of a site created without one.
const UNTITLED_SITE: &str = "Untitled site";

pub(super) async fn create_site(
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
    let site_type = validate::choice(&body, "type", &site_fields::SITE_TYPES)?;
    let title = validate::text(&body, "title", 2, 128)?;
    let visibility = validate::choice(&body, "visibility", &site_fields::VISIBILITIES)?;
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

pub(super) async fn delete_site(
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
        visibility: validate::choice(body, "visibility", &site_fields::VISIBILITIES)?,
        basename: site_fields::basename(body)?,
        adaptive_content: site_fields::adaptive_content(body)?,
        agents_context: validate::choice(body, "agentsContext", &site_fields::AGENTS_CONTEXTS)?,
        default_level: site_fields::default_level(body)?,
        default_site_space,
        default_site_section,
        proxy: site_fields::proxy(body)?,
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

pub(super) async fn update_site(
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

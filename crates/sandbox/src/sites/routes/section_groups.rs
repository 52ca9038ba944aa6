//! A site's section groups (nested, in structure order), the sections in them, and moving a
//! section between groups.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{Extension, Json};

use super::{
    Answer, RequestBody, body_of, check_writable, created, find_site, query_pairs, site_location,
    site_mut, view,
};
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::paging::envelope;
use crate::sites::model::{Item, Section, SectionGroup, Site};
use crate::sites::render;
use crate::validate;
use crate::world::World;

/// The answer of a route the `no_group_section_routes` / `no_section_patch` knobs take away.
fn lacking_route(status: StatusCode, what: &str) -> ApiError {
    ApiError::new(status, format!("No route for {what}"))
}

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

pub(super) async fn list_section_groups(
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

pub(super) async fn create_section_group(
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

pub(super) async fn update_section_group(
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

pub(super) async fn delete_section_group(
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

pub(super) async fn add_section_to_group(
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
pub(super) async fn remove_section_from_group(
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
pub(super) async fn update_section(
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

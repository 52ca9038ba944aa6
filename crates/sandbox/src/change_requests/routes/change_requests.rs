//! The change requests themselves: the space's and the organization's lists, creating one,
//! reading and editing one, merging it and updating it from main.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::header::LOCATION;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    Answer, Pairs, SharedState, conflict, every, first, json_response, locate, now, paging_query,
    parse_body, query_pairs, renderer, require_merge_permission, require_role, role_of, space_of,
    sync_space_counts,
};
use crate::change_requests::content::{apply, conflicts};
use crate::change_requests::model::{ChangeRequest, Status};
use crate::change_requests::render::outdated;
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::model::{Revision, Role};
use crate::paging::envelope;
use crate::world::World;

/// Longest subject the contract allows (`ChangeRequestSubject`, max 100).
const MAX_SUBJECT: usize = 100;

// ---------------------------------------------------------------------------------------------
// Listing

/// The filters both list operations share.
struct ListFilters<'a> {
    statuses: Vec<Status>,
    creator: Option<&'a str>,
    contributor: Option<&'a str>,
    requested_reviewer: Option<&'a str>,
    space: Option<&'a str>,
    cluster: Option<&'a str>,
    by_created: bool,
}

/// The cluster filter's query parameter: the seed names no parameter, so the sandbox takes the
/// change request's own field name.
const CLUSTER_PARAM: &str = "conversationsIssuesCluster";

fn parse_status(text: &str) -> Result<Status, ApiError> {
    Status::parse(text).ok_or_else(|| {
        ApiError::bad_request(format!(
            "Invalid \"status\" {:?}: expected draft, open, archived or merged",
            text
        ))
    })
}

fn list_filters(pairs: &Pairs, repeated_status: bool) -> Result<ListFilters<'_>, ApiError> {
    let mut statuses = Vec::new();
    let given = if repeated_status {
        every(pairs, "status")
    } else {
        first(pairs, "status").into_iter().collect()
    };
    for text in given {
        statuses.push(parse_status(text)?);
    }
    if statuses.is_empty() {
        statuses.push(Status::Open);
    }
    let by_created = match first(pairs, "orderBy") {
        None | Some("updatedAt") => false,
        Some("createdAt") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"orderBy\": expected updatedAt or createdAt",
            ));
        }
    };
    let non_empty = |name| first(pairs, name).filter(|value: &&str| !value.is_empty());
    Ok(ListFilters {
        statuses,
        creator: non_empty("creator"),
        contributor: non_empty("contributor"),
        requested_reviewer: non_empty("requestedReviewer"),
        space: non_empty("space"),
        cluster: non_empty(CLUSTER_PARAM),
        by_created,
    })
}

fn contributed(change_request: &ChangeRequest, user: &str) -> bool {
    change_request.created_by == user
        || change_request.editors.iter().any(|editor| editor == user)
        || change_request.comments.iter().any(|comment| {
            comment.author == user || comment.replies.iter().any(|reply| reply.author == user)
        })
}

fn matches(change_request: &ChangeRequest, filters: &ListFilters) -> bool {
    filters.statuses.contains(&change_request.status)
        && filters
            .creator
            .is_none_or(|creator| change_request.created_by == creator)
        && filters
            .contributor
            .is_none_or(|user| contributed(change_request, user))
        && filters.requested_reviewer.is_none_or(|user| {
            change_request
                .requested_reviewers
                .iter()
                .any(|requested| requested.user == user)
        })
        && filters
            .space
            .is_none_or(|space| change_request.space == space)
        && filters
            .cluster
            .is_none_or(|cluster| change_request.cluster.as_deref() == Some(cluster))
}

/// Renders the matching change requests newest first (by `orderBy`) and pages them.
fn list_answer(
    world: &World,
    shared: &Shared,
    context: &Context,
    pairs: &Pairs,
    filters: &ListFilters,
    in_scope: impl Fn(&ChangeRequest) -> bool,
) -> Answer {
    let mut selected: Vec<&ChangeRequest> = world
        .change_requests
        .items
        .iter()
        .filter(|change_request| in_scope(change_request) && matches(change_request, filters))
        .collect();
    selected.sort_by(|left, right| {
        let key = |change_request: &ChangeRequest| {
            if filters.by_created {
                change_request.created_at.clone()
            } else {
                change_request.updated_at.clone()
            }
        };
        key(right).cmp(&key(left))
    });
    let mut items = Vec::new();
    for change_request in selected {
        if let Some(space) = world.space(&change_request.space) {
            items.push(renderer(world, shared, context, space).change_request(change_request));
        }
    }
    json_response(envelope(items, &paging_query(pairs), &context.faults)?)
}

pub(super) async fn list_space_change_requests(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path(space): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let filters = list_filters(&pairs, false)?;
    let world = shared.world.read().await;
    space_of(&world, &space)?;
    list_answer(
        &world,
        &shared,
        &context,
        &pairs,
        &filters,
        |change_request| change_request.space == space,
    )
}

pub(super) async fn list_organization_change_requests(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let filters = list_filters(&pairs, true)?;
    let world = shared.world.read().await;
    world
        .organization(&organization)
        .ok_or_else(|| ApiError::not_found("organization", &organization))?;
    // Only a member reads the organization's change requests across its spaces: anyone else
    // is told so, as the organization's other member-only lists do.
    if world.role_in(&organization, &context.user).is_none() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("You are not a member of organization \"{organization}\""),
        ));
    }
    list_answer(
        &world,
        &shared,
        &context,
        &pairs,
        &filters,
        |change_request| {
            world
                .space(&change_request.space)
                .is_some_and(|space| space.organization == organization)
        },
    )
}

#[derive(Debug, Deserialize)]
struct NewChangeRequest {
    subject: Option<Value>,
}

/// `POST /spaces/{space}/change-requests`: a new change request on the space's current
/// content, open, numbered after the space's last one; 201 with `Location`.
pub(super) async fn create_change_request(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path(space_id): Path<String>,
    bytes: Bytes,
) -> Answer {
    let body: NewChangeRequest = parse_body(&bytes)?;
    let subject = match body.subject {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(subject)) => subject,
        Some(_) => return Err(ApiError::bad_request("\"subject\" must be a string")),
    };
    if subject.chars().count() > MAX_SUBJECT {
        return Err(ApiError::bad_request(format!(
            "\"subject\" is longer than {MAX_SUBJECT} characters"
        )));
    }
    let mut world = shared.world.write().await;
    let space = space_of(&world, &space_id)?.clone();
    require_role(
        role_of(&world, &space, &context.user),
        Role::Edit,
        "Creating a change request",
    )?;
    let id = world.change_requests.new_id("cr");
    let number = world
        .change_requests
        .items
        .iter()
        .filter(|change_request| change_request.space == space_id)
        .map(|change_request| change_request.number)
        .max()
        .unwrap_or(0)
        + 1;
    let stamp = now();
    world.change_requests.items.push(ChangeRequest {
        id: id.clone(),
        number,
        space: space_id.clone(),
        status: Status::Open,
        subject,
        description: None,
        cluster: None,
        created_by: context.user.clone(),
        created_at: stamp.clone(),
        updated_at: stamp,
        revision: format!("rev-{id}-1"),
        revision_initial: space.revision.id.clone(),
        revision_merged_ancestor: None,
        revision_merged: None,
        merged_by: None,
        merged_at: None,
        base_revision: space.revision.id.clone(),
        base_pages: space.revision.pages.clone(),
        edits: Vec::new(),
        editors: Vec::new(),
        comments: Vec::new(),
        reviews: Vec::new(),
        requested_reviewers: Vec::new(),
    });
    sync_space_counts(&mut world, &space_id);
    let index = world.change_requests.items.len() - 1;
    let change_request = &world.change_requests.items[index];
    let renderer = renderer(&world, &shared, &context, &space);
    let location = renderer.change_request_location(change_request);
    let body = renderer.change_request(change_request);
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(body)).into_response())
}

// ---------------------------------------------------------------------------------------------
// One change request: get, patch, merge, update

pub(super) async fn get_change_request(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let index = locate(&world, &space, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space)?;
    json_response(renderer(&world, &shared, &context, space).change_request(change_request))
}

#[derive(Debug, Deserialize)]
struct PatchChangeRequest {
    subject: Option<String>,
    description: Option<Value>,
    status: Option<String>,
    /// Accepted and ignored: the sandbox keeps no links.
    #[allow(dead_code)]
    links: Option<Value>,
}

pub(super) async fn patch_change_request(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let body: PatchChangeRequest = parse_body(&bytes)?;
    let minimal = headers
        .get("prefer")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim() == "return=minimal");
    let status = match body.status.as_deref() {
        None => None,
        Some(text @ ("draft" | "open" | "archived")) => Status::parse(text),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "Invalid \"status\" {other:?}: expected draft, open or archived"
            )));
        }
    };
    if let Some(subject) = &body.subject
        && subject.chars().count() > MAX_SUBJECT
    {
        return Err(ApiError::bad_request(format!(
            "\"subject\" is longer than {MAX_SUBJECT} characters"
        )));
    }
    if let Some(description) = &body.description
        && !description.is_object()
    {
        return Err(ApiError::bad_request(
            "\"description\" must be a document object",
        ));
    }
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    require_role(role, Role::Edit, "Editing a change request")?;
    let stamp = now();
    let change_request = &mut world.change_requests.items[index];
    if status.is_some() && change_request.status == Status::Merged {
        return Err(conflict("A merged change request cannot change its status"));
    }
    if let Some(subject) = body.subject {
        change_request.subject = subject;
    }
    if let Some(description) = body.description {
        change_request.description = Some(description);
    }
    if let Some(status) = status {
        change_request.status = status;
    }
    change_request.updated_at = stamp;
    sync_space_counts(&mut world, &space_id);
    if minimal {
        return Ok((
            StatusCode::NO_CONTENT,
            [("preference-applied", "return=minimal")],
        )
            .into_response());
    }
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).change_request(change_request))
}

pub(super) async fn merge_change_request(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let space = space_of(&world, &space_id)?;
    let role = role_of(&world, space, &context.user);
    require_merge_permission(role)?;
    let change_request = &world.change_requests.items[index];
    if change_request.status != Status::Open {
        return Err(conflict(format!(
            "Only an open change request can be merged; this one is {}",
            change_request.status.as_str()
        )));
    }
    if !conflicts(
        &change_request.base_pages,
        &space.revision.pages,
        &change_request.edits,
    )
    .is_empty()
    {
        return json_response(
            json!({ "revision": change_request.revision, "result": "conflicts" }),
        );
    }
    let stamp = now();
    let merged_pages = apply(&space.revision.pages, &change_request.edits, &stamp);
    let message = format!(
        "Merge change request #{}: {}",
        change_request.number, change_request.subject
    );
    let revision_id = world.change_requests.new_id("rev");
    let Some(space) = world.spaces.iter_mut().find(|space| space.id == space_id) else {
        return Err(ApiError::not_found("space", &space_id));
    };
    let previous = std::mem::replace(
        &mut space.revision,
        Revision {
            id: revision_id.clone(),
            parents: Vec::new(),
            created_at: stamp.clone(),
            git_message: None,
            pages: merged_pages,
            files: Vec::new(),
            variables: Default::default(),
        },
    );
    space.revision.parents = vec![previous.id];
    space.revision.files = previous.files;
    space.revision.variables = previous.variables;
    space.revision.git_message = previous.git_message.map(|_| message);
    space.updated_at = stamp.clone();
    let change_request = &mut world.change_requests.items[index];
    change_request.status = Status::Merged;
    change_request.revision_merged = Some(revision_id.clone());
    change_request.merged_by = Some(context.user.clone());
    change_request.merged_at = Some(stamp.clone());
    change_request.updated_at = stamp;
    sync_space_counts(&mut world, &space_id);
    json_response(json!({ "revision": revision_id, "result": "merge" }))
}

pub(super) async fn update_change_request(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let space = space_of(&world, &space_id)?;
    let role = role_of(&world, space, &context.user);
    require_role(role, Role::Edit, "Updating a change request from main")?;
    let change_request = &world.change_requests.items[index];
    if matches!(change_request.status, Status::Merged | Status::Archived) {
        return Err(conflict(format!(
            "A {} change request cannot be updated",
            change_request.status.as_str()
        )));
    }
    if !outdated(change_request, space) {
        return json_response(json!({ "revision": change_request.revision, "result": "update" }));
    }
    if !conflicts(
        &change_request.base_pages,
        &space.revision.pages,
        &change_request.edits,
    )
    .is_empty()
    {
        return json_response(
            json!({ "revision": change_request.revision, "result": "conflicts" }),
        );
    }
    let main_pages = space.revision.pages.clone();
    let main_revision = space.revision.id.clone();
    let revision_id = world.change_requests.new_id("rev");
    let change_request = &mut world.change_requests.items[index];
    change_request.base_pages = main_pages;
    change_request.base_revision = main_revision.clone();
    change_request.revision_merged_ancestor = Some(main_revision);
    change_request.revision = revision_id.clone();
    change_request.updated_at = now();
    json_response(json!({ "revision": revision_id, "result": "update" }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::ids;

    /// The demo change requests the organization list's `query` selects, by id.
    fn selected(query: &str) -> Result<Vec<String>, ApiError> {
        let world = crate::demo::world();
        let pairs = query_pairs(Some(query.to_string()));
        let filters = list_filters(&pairs, true)?;
        let mut ids: Vec<String> = world
            .change_requests
            .items
            .iter()
            .filter(|change_request| matches(change_request, &filters))
            .map(|change_request| change_request.id.clone())
            .collect();
        ids.sort();
        Ok(ids)
    }

    #[test]
    fn the_organization_list_combines_people_and_repeated_statuses() {
        let asked = selected("status=open&status=draft&requestedReviewer=usr-priya-raman");
        assert_eq!(
            asked.unwrap(),
            [ids::CR_OUTDATED, ids::CR_REVIEW, ids::CR_LUMEN_OPEN]
        );
        let mine_any_status = selected(
            "status=open&status=draft&status=merged&status=archived&creator=usr-hannah-schmidt",
        );
        assert_eq!(mine_any_status.unwrap(), [ids::CR_CONFLICTS]);
        let together = selected("contributor=usr-diego-alvarez&requestedReviewer=usr-priya-raman");
        assert_eq!(together.unwrap(), [ids::CR_OUTDATED, ids::CR_REVIEW]);
        assert!(selected("orderBy=title").is_err());
        assert!(selected("status=opn").is_err());
        // An empty value filters nothing.
        assert_eq!(
            selected("creator=").unwrap().len(),
            selected("").unwrap().len()
        );
    }
}

//! The change-request endpoints (seed reference §4.4–4.6, names and status codes from the
//! service contract §6.4–6.6). Handlers read or lock the shared world, check the caller's role
//! and answer with the shapes of [`super::render`].

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::header::LOCATION;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::content::{apply, changes, conflicts, find};
use super::model::{
    ChangeRequest, Comment, Reply, RequestedReviewer, Resolution, Review, ReviewStatus, Status,
    apply_reactions,
};
use super::render::{Abilities, BodyFormat, Renderer, outdated};
use crate::sandbox::error::ApiError;
use crate::sandbox::model::{Revision, Role, Space, World};
use crate::sandbox::paging::{envelope, envelope_of_page, page_window};
use crate::sandbox::render::View;
use crate::sandbox::routes::{Context, Shared};

type Answer = Result<Response, ApiError>;
type Pairs = Vec<(String, String)>;
type SharedState = State<Arc<Shared>>;

const CHANGE_REQUEST: &str = "/v1/spaces/{space}/change-requests/{change_request}";
/// Longest subject the contract allows (`ChangeRequestSubject`, max 100).
const MAX_SUBJECT: usize = 100;
/// `limit` of the semantic changes list when none is given.
const DEFAULT_CHANGES_LIMIT: usize = 10;

/// Every change-request route, to be merged into the sandbox's router before its gate layer.
pub fn router() -> Router<Arc<Shared>> {
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

fn role_of(world: &World, space: &Space, user: &str) -> Role {
    world
        .role_in(&space.organization, user)
        .unwrap_or(Role::Read)
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
pub fn sync_space_counts(world: &mut World, space: &str) {
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

async fn list_space_change_requests(
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

async fn list_organization_change_requests(
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
async fn create_change_request(
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

/// `GET …/change-requests/{cr}/pdf`: where the PDF of the change request (or, with `page`, of
/// that page; `only` is accepted as a boolean) would be downloaded. `page` is a page id of the
/// change request's content: 404 for one it does not have.
async fn get_pdf(
    State(shared): SharedState,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    if let Some(only) = first(&pairs, "only")
        && !matches!(only, "true" | "false")
    {
        return Err(ApiError::bad_request(
            "Invalid \"only\": expected true or false",
        ));
    }
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let mut url = format!(
        "https://files.docs.example/pdf/{space_id}/{}.pdf",
        change_request.id
    );
    if let Some(page) = first(&pairs, "page").filter(|page| !page.is_empty()) {
        if find(&content_of(change_request), page).is_none() {
            return Err(ApiError::not_found("page", page));
        }
        url.push_str(&format!("?page={page}"));
    }
    json_response(json!({ "url": url }))
}

// ---------------------------------------------------------------------------------------------
// One change request: get, patch, merge, update

async fn get_change_request(
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

async fn patch_change_request(
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

async fn merge_change_request(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let space = space_of(&world, &space_id)?;
    let role = role_of(&world, space, &context.user);
    require_role(role, Role::Create, "Merging a change request")?;
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

async fn update_change_request(
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

// ---------------------------------------------------------------------------------------------
// Content and semantic changes

/// The change request's page tree: its base with its edits applied.
fn content_of(change_request: &ChangeRequest) -> Vec<crate::sandbox::model::Page> {
    apply(
        &change_request.base_pages,
        &change_request.edits,
        &change_request.updated_at,
    )
}

async fn list_changes(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let limit = match first(&pairs, "limit") {
        None => DEFAULT_CHANGES_LIMIT,
        Some(text) => text
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|limit| *limit <= crate::sandbox::MAX_LIMIT)
            .ok_or_else(|| ApiError::bad_request("Invalid \"limit\": expected 0 to 1000"))?,
    };
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let content = content_of(change_request);
    let all = changes(&change_request.base_pages, &content);
    let renderer = renderer(&world, &shared, &context, space);
    let listed: Vec<Value> = all
        .iter()
        .take(limit)
        .map(|change| renderer.change(change))
        .collect();
    let mut body = json!({ "changes": listed });
    if all.len() > limit {
        body["more"] = json!(all.len() - limit);
    }
    json_response(body)
}

async fn get_content(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let mut as_revision = space.clone();
    as_revision.revision.id = change_request.revision.clone();
    as_revision.revision.parents = vec![change_request.base_revision.clone()];
    as_revision.revision.created_at = change_request.updated_at.clone();
    as_revision.revision.pages = content_of(change_request);
    let renderer = renderer(&world, &shared, &context, space);
    json_response(renderer.view.revision(&as_revision))
}

async fn list_content_pages(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let content = content_of(change_request);
    let renderer = renderer(&world, &shared, &context, space);
    json_response(json!({ "pages": renderer.view.page_tree(space, &content) }))
}

async fn get_content_page(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, page_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let markdown_format = match first(&pairs, "format") {
        None | Some("document") => false,
        Some("markdown") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"format\": expected document or markdown",
            ));
        }
    };
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let content = content_of(change_request);
    let page = find(&content, &page_id).ok_or_else(|| ApiError::not_found("page", &page_id))?;
    let renderer = renderer(&world, &shared, &context, space);
    json_response(renderer.view.page_with_body(space, page, markdown_format))
}

// ---------------------------------------------------------------------------------------------
// Comments

fn comment_index(change_request: &ChangeRequest, id: &str) -> Result<usize, ApiError> {
    change_request
        .comments
        .iter()
        .position(|comment| comment.id == id)
        .ok_or_else(|| ApiError::not_found("comment", id))
}

async fn list_comments(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let format = body_format(&pairs)?;
    let ascending = match first(&pairs, "order") {
        None | Some("desc") => false,
        Some("asc") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"order\": expected asc or desc",
            ));
        }
    };
    let wanted_status = match first(&pairs, "status") {
        None | Some("all") => None,
        Some("open") => Some(false),
        Some("resolved") => Some(true),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"status\": expected all, open or resolved",
            ));
        }
    };
    let target_page = first(&pairs, "targetPage").filter(|page| !page.is_empty());
    let authors = every(&pairs, "authors");
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let mut selected: Vec<&Comment> = change_request
        .comments
        .iter()
        .filter(|comment| {
            wanted_status.is_none_or(|resolved| comment.resolved.is_some() == resolved)
        })
        .filter(|comment| target_page.is_none_or(|page| comment.page.as_deref() == Some(page)))
        .filter(|comment| authors.is_empty() || authors.contains(&comment.author.as_str()))
        .collect();
    // A stable sort keeps comments posted in the same millisecond in posting order.
    selected.sort_by(|left, right| left.posted_at.cmp(&right.posted_at));
    if !ascending {
        selected.reverse();
    }
    let renderer = renderer(&world, &shared, &context, space);
    // Only the requested page is rendered: rendering is the costly part with 2,000 comments.
    let query = paging_query(&pairs);
    let count = selected.len();
    let items = selected[page_window(count, &query)?]
        .iter()
        .map(|comment| renderer.comment(change_request, comment, format))
        .collect();
    json_response(envelope_of_page(items, count, &query, &context.faults)?)
}

#[derive(Debug, Deserialize)]
struct PostComment {
    body: Option<MarkdownBody>,
    page: Option<String>,
    node: Option<String>,
    /// Accepted and ignored: the sandbox has no tables.
    #[serde(rename = "tableCell")]
    #[allow(dead_code)]
    table_cell: Option<Value>,
}

async fn post_comment(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> Answer {
    let body: PostComment = parse_body(&bytes)?;
    let markdown = required_markdown(body.body, "body")?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    require_role(role, Role::Comment, "Commenting")?;
    if let Some(page) = &body.page
        && find(&content_of(&world.change_requests.items[index]), page).is_none()
    {
        return Err(ApiError::bad_request(format!(
            "\"page\": no page {page:?} in this change request"
        )));
    }
    let comment_id = world.change_requests.new_id("cmt");
    let change_request = &mut world.change_requests.items[index];
    let comment = Comment {
        id: comment_id,
        author: context.user.clone(),
        posted_at: now(),
        edited_at: None,
        markdown,
        page: body.page,
        node: body.node,
        review: None,
        revision: change_request.revision.clone(),
        resolved: None,
        reactions: Vec::new(),
        replies: Vec::new(),
    };
    change_request.comments.push(comment);
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let comment = change_request.comments.last().ok_or_else(|| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The comment was not kept",
        )
    })?;
    json_response(renderer(&world, &shared, &context, space).comment(
        change_request,
        comment,
        BodyFormat::Markdown,
    ))
}

async fn get_comment(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let format = body_format(&query_pairs(raw))?;
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[comment_index(change_request, &comment_id)?];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).comment(
        change_request,
        comment,
        format,
    ))
}

/// `UpdateCommentSchema`, used for comments and replies alike (`resolved` is ignored on replies).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UpdateComment {
    resolved: Option<bool>,
    body: Option<MarkdownBody>,
    #[serde(default)]
    added_reactions: Vec<String>,
    #[serde(default)]
    removed_reactions: Vec<String>,
}

/// Who may do what in an update: any change needs the comment role; a new body also needs the
/// caller to be the author.
fn check_update(
    update: &UpdateComment,
    role: Role,
    author: &str,
    caller: &str,
) -> Result<Option<String>, ApiError> {
    require_role(
        role,
        Role::Comment,
        "Updating, resolving or reacting to a comment",
    )?;
    let Some(body) = &update.body else {
        return Ok(None);
    };
    if author != caller {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "Only the author can edit the text of a comment or reply",
        ));
    }
    match &body.markdown {
        Some(markdown) if !markdown.trim().is_empty() => Ok(Some(markdown.clone())),
        _ => Err(ApiError::bad_request("\"body.markdown\" must not be empty")),
    }
}

async fn put_comment(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
    bytes: Bytes,
) -> Answer {
    let update: UpdateComment = parse_body(&bytes)?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let position = comment_index(&world.change_requests.items[index], &comment_id)?;
    let stamp = now();
    let comment = &mut world.change_requests.items[index].comments[position];
    let new_text = check_update(&update, role, &comment.author, &context.user)?;
    if let Some(markdown) = new_text {
        comment.markdown = markdown;
        comment.edited_at = Some(stamp.clone());
    }
    match update.resolved {
        Some(true) if comment.resolved.is_none() => {
            comment.resolved = Some(Resolution {
                at: stamp.clone(),
                by: context.user.clone(),
            });
        }
        Some(false) => comment.resolved = None,
        _ => {}
    }
    apply_reactions(
        &mut comment.reactions,
        &context.user,
        &stamp,
        &update.added_reactions,
        &update.removed_reactions,
    );
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).comment(
        change_request,
        &change_request.comments[position],
        BodyFormat::Markdown,
    ))
}

/// Author or admin; anyone else gets 403.
fn require_author_or_admin(role: Role, author: &str, caller: &str) -> Result<(), ApiError> {
    if (author == caller && role >= Role::Comment) || role == Role::Admin {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "Only the author or an organization admin can delete this",
        ))
    }
}

async fn delete_comment(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let change_request = &mut world.change_requests.items[index];
    let Some(position) = change_request
        .comments
        .iter()
        .position(|comment| comment.id == comment_id)
    else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    require_author_or_admin(
        role,
        &change_request.comments[position].author,
        &context.user,
    )?;
    change_request.comments.remove(position);
    for review in &mut change_request.reviews {
        if review.comment.as_deref() == Some(comment_id.as_str()) {
            review.comment = None;
        }
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

// ---------------------------------------------------------------------------------------------
// Replies

async fn list_replies(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let format = body_format(&pairs)?;
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[comment_index(change_request, &comment_id)?];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let items = comment
        .replies
        .iter()
        .map(|reply| renderer.reply(change_request, comment, reply, format))
        .collect();
    json_response(envelope(items, &paging_query(&pairs), &context.faults)?)
}

#[derive(Debug, Deserialize)]
struct PostReply {
    body: Option<MarkdownBody>,
}

async fn post_reply(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
    bytes: Bytes,
) -> Answer {
    let format = body_format(&query_pairs(raw))?;
    let body: PostReply = parse_body(&bytes)?;
    let markdown = required_markdown(body.body, "body")?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let position = comment_index(&world.change_requests.items[index], &comment_id)?;
    require_role(role, Role::Comment, "Replying to a comment")?;
    let reply_id = world.change_requests.new_id("rpl");
    world.change_requests.items[index].comments[position]
        .replies
        .push(Reply {
            id: reply_id,
            author: context.user.clone(),
            posted_at: now(),
            edited_at: None,
            markdown,
            reactions: Vec::new(),
        });
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[position];
    let space = space_of(&world, &space_id)?;
    let reply = comment.replies.last().ok_or_else(|| {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "The reply was not kept")
    })?;
    json_response(renderer(&world, &shared, &context, space).reply(
        change_request,
        comment,
        reply,
        format,
    ))
}

fn reply_index(comment: &Comment, id: &str) -> Result<usize, ApiError> {
    comment
        .replies
        .iter()
        .position(|reply| reply.id == id)
        .ok_or_else(|| ApiError::not_found("comment reply", id))
}

async fn get_reply(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id, reply_id)): Path<(String, String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let format = body_format(&query_pairs(raw))?;
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[comment_index(change_request, &comment_id)?];
    let reply = &comment.replies[reply_index(comment, &reply_id)?];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).reply(
        change_request,
        comment,
        reply,
        format,
    ))
}

async fn put_reply(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id, reply_id)): Path<(String, String, String, String)>,
    bytes: Bytes,
) -> Answer {
    let update: UpdateComment = parse_body(&bytes)?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let position = comment_index(&world.change_requests.items[index], &comment_id)?;
    let reply_position = reply_index(
        &world.change_requests.items[index].comments[position],
        &reply_id,
    )?;
    let stamp = now();
    let reply = &mut world.change_requests.items[index].comments[position].replies[reply_position];
    let new_text = check_update(&update, role, &reply.author, &context.user)?;
    if let Some(markdown) = new_text {
        reply.markdown = markdown;
        reply.edited_at = Some(stamp.clone());
    }
    apply_reactions(
        &mut reply.reactions,
        &context.user,
        &stamp,
        &update.added_reactions,
        &update.removed_reactions,
    );
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[position];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).reply(
        change_request,
        comment,
        &comment.replies[reply_position],
        BodyFormat::Markdown,
    ))
}

async fn delete_reply(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id, reply_id)): Path<(String, String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let change_request = &mut world.change_requests.items[index];
    let Some(comment) = change_request
        .comments
        .iter_mut()
        .find(|comment| comment.id == comment_id)
    else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    let Some(position) = comment
        .replies
        .iter()
        .position(|reply| reply.id == reply_id)
    else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    require_author_or_admin(role, &comment.replies[position].author, &context.user)?;
    comment.replies.remove(position);
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn list_commenters(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let mut users: Vec<&str> = Vec::new();
    for comment in &change_request.comments {
        let authors = std::iter::once(&comment.author)
            .chain(comment.replies.iter().map(|reply| &reply.author));
        for author in authors {
            if !users.contains(&author.as_str()) {
                users.push(author);
            }
        }
    }
    let renderer = renderer(&world, &shared, &context, space);
    let items = users
        .into_iter()
        .filter_map(|user| world.membership(&space.organization, user))
        .map(|membership| renderer.view.member(membership))
        .collect();
    json_response(envelope(items, &paging_query(&pairs), &context.faults)?)
}

// ---------------------------------------------------------------------------------------------
// Reviews and requested reviewers

async fn list_reviews(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let format = body_format(&pairs)?;
    let outdated_filter = match first(&pairs, "outdated") {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"outdated\": expected true or false",
            ));
        }
    };
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let items = change_request
        .reviews
        .iter()
        .filter(|review| outdated_filter.is_none_or(|wanted| review.outdated == wanted))
        .map(|review| renderer.review(change_request, review, format))
        .collect();
    json_response(envelope(items, &paging_query(&pairs), &context.faults)?)
}

async fn get_review(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, review_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let format = body_format(&query_pairs(raw))?;
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let review = change_request
        .reviews
        .iter()
        .find(|review| review.id == review_id)
        .ok_or_else(|| ApiError::not_found("review", &review_id))?;
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).review(change_request, review, format))
}

#[derive(Debug, Deserialize)]
struct PostReview {
    status: Option<String>,
    comment: Option<MarkdownBody>,
}

async fn post_review(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> Answer {
    let body: PostReview = parse_body(&bytes)?;
    let status = body
        .status
        .as_deref()
        .and_then(ReviewStatus::parse)
        .ok_or_else(|| {
            ApiError::bad_request("\"status\" is required: approved or changes-requested")
        })?;
    let comment_text = body
        .comment
        .and_then(|comment| comment.markdown)
        .filter(|markdown| !markdown.trim().is_empty());
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    require_role(role, Role::Review, "Reviewing a change request")?;
    let current_status = world.change_requests.items[index].status;
    if matches!(current_status, Status::Merged | Status::Archived) {
        return Err(conflict(format!(
            "A {} change request cannot be reviewed",
            current_status.as_str()
        )));
    }
    let review_id = world.change_requests.new_id("rvw");
    let comment_id = comment_text
        .as_ref()
        .map(|_| world.change_requests.new_id("cmt"));
    let stamp = now();
    let caller = context.user.clone();
    let change_request = &mut world.change_requests.items[index];
    for earlier in change_request
        .reviews
        .iter_mut()
        .filter(|review| review.reviewer == caller)
    {
        earlier.outdated = true;
    }
    let requested_by = change_request
        .requested_reviewers
        .iter()
        .find(|requested| requested.user == caller)
        .map(|requested| requested.requested_by.clone());
    change_request
        .requested_reviewers
        .retain(|requested| requested.user != caller);
    if let (Some(comment_id), Some(markdown)) = (&comment_id, comment_text) {
        change_request.comments.push(Comment {
            id: comment_id.clone(),
            author: caller.clone(),
            posted_at: stamp.clone(),
            edited_at: None,
            markdown,
            page: None,
            node: None,
            review: Some(review_id.clone()),
            revision: change_request.revision.clone(),
            resolved: None,
            reactions: Vec::new(),
            replies: Vec::new(),
        });
    }
    change_request.reviews.push(Review {
        id: review_id,
        reviewer: caller,
        requested_by,
        status,
        revision: change_request.revision.clone(),
        outdated: false,
        comment: comment_id,
        created_at: stamp.clone(),
        updated_at: stamp.clone(),
    });
    change_request.updated_at = stamp;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let review = change_request.reviews.last().ok_or_else(|| {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "The review was not kept")
    })?;
    let location = renderer.review_location(change_request, review);
    let body = renderer.review(change_request, review, BodyFormat::Markdown);
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(body)).into_response())
}

async fn list_requested_reviewers(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let items = change_request
        .requested_reviewers
        .iter()
        .map(|requested| renderer.requested_reviewer(requested))
        .collect();
    json_response(envelope(items, &paging_query(&pairs), &context.faults)?)
}

#[derive(Debug, Deserialize)]
struct PostRequestedReviewers {
    users: Option<Vec<String>>,
    /// Accepted and ignored (the real service may update the change request with them).
    #[allow(dead_code)]
    subject: Option<String>,
    #[allow(dead_code)]
    description: Option<Value>,
}

async fn post_requested_reviewers(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> Answer {
    let body: PostRequestedReviewers = parse_body(&bytes)?;
    let users = body
        .users
        .ok_or_else(|| ApiError::bad_request("\"users\" is required: an array of user ids"))?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let space = space_of(&world, &space_id)?;
    let role = role_of(&world, space, &context.user);
    require_role(role, Role::Edit, "Requesting reviewers")?;
    for user in &users {
        let can_review = world
            .role_in(&space.organization, user)
            .is_some_and(|role| role >= Role::Review);
        if !can_review {
            return Err(ApiError::bad_request(format!(
                "User {user:?} is not a member who can review in this organization"
            )));
        }
    }
    let stamp = now();
    let change_request = &mut world.change_requests.items[index];
    for user in &users {
        if !change_request
            .requested_reviewers
            .iter()
            .any(|requested| &requested.user == user)
        {
            change_request.requested_reviewers.push(RequestedReviewer {
                user: user.clone(),
                requested_by: context.user.clone(),
                created_at: stamp.clone(),
                revision: change_request.revision.clone(),
            });
        }
    }
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let answered: Vec<Value> = change_request
        .requested_reviewers
        .iter()
        .filter(|requested| users.contains(&requested.user))
        .map(|requested| renderer.requested_reviewer(requested))
        .collect();
    json_response(json!({ "users": answered }))
}

async fn delete_requested_reviewer(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, user)): Path<(String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    if user != context.user {
        require_role(role, Role::Edit, "Removing a requested reviewer")?;
    }
    let requested = &mut world.change_requests.items[index].requested_reviewers;
    let before = requested.len();
    requested.retain(|requested| requested.user != user);
    if requested.len() < before {
        Ok(StatusCode::RESET_CONTENT.into_response())
    } else {
        Ok(StatusCode::NO_CONTENT.into_response())
    }
}

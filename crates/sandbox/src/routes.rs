//! The HTTP surface: one gate (latency, injected faults, bearer auth) in front of read-only
//! handlers for the walking-skeleton endpoints. Every failure, including unknown routes and
//! wrong methods, answers with the contract's error body.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, TRANSFER_ENCODING};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use crate::Faults;
use crate::context::{Context, Shared, query_map, require_organization, require_space, view};
use crate::error::ApiError;
use crate::fault_rules::{self, Fault};
use crate::operations::{self, Body, Reach};
use crate::paging::envelope;

/// The API version and build reported by `GET /v1/`.
const API_VERSION: &str = "1.0.0";
const API_BUILD: &str = "quire-sandbox";

type Answer = Result<Json<Value>, ApiError>;

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/v1", get(api_information))
        .route("/v1/", get(api_information))
        .route("/v1/user", get(current_user))
        .route("/v1/orgs", get(list_organizations))
        .route("/v1/orgs/{organization}", get(get_organization))
        .route(
            "/v1/orgs/{organization}/spaces",
            get(list_organization_spaces),
        )
        .route("/v1/spaces/{space}", get(get_space))
        .route("/v1/spaces/{space}/content", get(get_revision))
        .route("/v1/spaces/{space}/content/pages", get(list_pages))
        .route("/v1/spaces/{space}/content/page/{page}", get(get_page))
        .route("/v1/spaces/{space}/content/files", get(list_files))
        .merge(super::search::router())
        .merge(super::links::router())
        .merge(super::files::router())
        .merge(super::sites::routes::router())
        .merge(super::change_requests::routes::router())
        .merge(super::conversations::routes::router())
        .merge(super::collections::routes::router())
        .merge(super::moves::router())
        .merge(super::spaces::router())
        .merge(super::templates::router())
        .merge(super::git::router())
        .merge(super::members::router())
        .merge(super::teams::router())
        .merge(super::sso::router())
        .merge(super::org_settings::router())
        .merge(super::translations::router())
        .merge(super::openapi::router())
        .merge(super::integrations::routes::router())
        // Not part of the API: test-only knobs under /_sandbox.
        .merge(super::testing::router())
        .fallback(unknown_route)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(shared.clone(), gate))
        .layer(middleware::from_fn_with_state(shared.clone(), route_faults))
        .with_state(shared)
}

/// Counts the request, then applies the first matching fault rule around [`gate`].
async fn route_faults(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_owned());
    shared.counters.count_request(&method, &path);
    let _in_flight = shared.counters.start_request();
    let rules = shared.faults.borrow().rules.clone();
    let Some(fault) = shared.counters.take_fault(&rules, &method, &path) else {
        return next.run(request).await;
    };
    if let Some(answer) = fault_rules::answer_instead(&fault) {
        return answer;
    }
    match fault {
        Fault::Latency(delay) => {
            tokio::time::sleep(delay).await;
            next.run(request).await
        }
        Fault::Truncated => fault_rules::truncate(next.run(request).await).await,
        // The handler runs (a write lands), but its answer is lost.
        Fault::StoreThenFail => {
            let _stored = next.run(request).await;
            ApiError::injected(500).into_response()
        }
        _ => next.run(request).await,
    }
}

/// Runs before every handler, in this order: latency, `fail_with`, authentication.
async fn gate(State(shared): State<Arc<Shared>>, mut request: Request, next: Next) -> Response {
    if !shared.latency.is_zero() {
        tokio::time::sleep(shared.latency).await;
    }
    if super::outage::hold(&shared.outage).await {
        return ApiError::injected(503).into_response();
    }
    let faults = shared.faults.borrow().clone();
    if let Some(code) = faults.fail_with {
        return ApiError::injected(code).into_response();
    }
    let path = request.uri().path().to_string();
    if faults
        .missing_endpoints
        .iter()
        .any(|suffix| path.ends_with(suffix.as_str()))
    {
        return unknown_route(request).await.into_response();
    }
    let Some(user) = authenticate(&shared, request.headers()).await else {
        return ApiError::unauthorized().into_response();
    };
    if let Some(refusal) = refused_by_operation_rules(&faults, &request) {
        return refusal;
    }
    if faults.like_public {
        drop_undeclared_query(&mut request);
    }
    request.extensions_mut().insert(Context { user, faults });
    next.run(request).await
}

/// The public service's rules, by the sandbox's table of operations ([`operations`]): under `like_public` an operation only
/// the API reference defines answers 404 as an unknown route; under `strict_bodies` (implied by
/// `like_public`) a body where the operation takes none answers 415, a missing body where one
/// is required 400, and a request that is no known operation 501, so no client call can slip
/// past the table.
fn refused_by_operation_rules(faults: &Faults, request: &Request) -> Option<Response> {
    let path = request.uri().path();
    let relative = path.strip_prefix("/v1")?;
    let operation = operations::find(request.method(), relative);
    if faults.like_public
        && operation.is_some_and(|operation| operation.reach == Reach::ReferenceOnly)
    {
        let message = format!("No route for {} {path}", request.method());
        return Some(ApiError::new(StatusCode::NOT_FOUND, message).into_response());
    }
    if !(faults.strict_bodies || faults.like_public) {
        return None;
    }
    let Some(operation) = operation else {
        let message = format!("{} {path} is no operation of the API", request.method());
        return Some(ApiError::new(StatusCode::NOT_IMPLEMENTED, message).into_response());
    };
    let body = has_body(request.headers());
    let (status, rule) = match operation.body {
        Body::Refused if body => (StatusCode::UNSUPPORTED_MEDIA_TYPE, "takes no request body"),
        Body::Required if !body => (StatusCode::BAD_REQUEST, "needs a JSON request body"),
        _ => return None,
    };
    let message = format!("{} {path} {rule}", request.method());
    Some(ApiError::new(status, message).into_response())
}

/// The public service declares no `conversationsIssuesCluster` on change-request lists and
/// ignores it: the list comes back unfiltered.
fn drop_undeclared_query(request: &mut Request) {
    let Some(query) = request.uri().query() else {
        return;
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.starts_with("conversationsIssuesCluster="))
        .collect();
    if kept.len() == query.split('&').count() {
        return;
    }
    let path = request.uri().path();
    let rebuilt = if kept.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", kept.join("&"))
    };
    if let Ok(uri) = rebuilt.parse() {
        *request.uri_mut() = uri;
    }
}

/// True when the request carries a body or says what type its body has.
fn has_body(headers: &HeaderMap) -> bool {
    let declared_length = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.trim().parse::<u64>().ok());
    headers.contains_key(CONTENT_TYPE)
        || headers.contains_key(TRANSFER_ENCODING)
        || declared_length.is_some_and(|length| length > 0)
}

async fn authenticate(shared: &Shared, headers: &HeaderMap) -> Option<String> {
    let header = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = header.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let world = shared.world.read().await;
    world.tokens.get(token.trim()).cloned()
}

async fn unknown_route(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("No route for {} {}", request.method(), request.uri().path()),
    )
}

async fn method_not_allowed(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "Method {} is not allowed on {}",
            request.method(),
            request.uri().path()
        ),
    )
}

async fn api_information() -> Json<Value> {
    Json(json!({ "version": API_VERSION, "build": API_BUILD }))
}

async fn current_user(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
) -> Answer {
    let world = shared.world.read().await;
    let user = world
        .user(&context.user)
        .ok_or_else(|| ApiError::not_found("user", &context.user))?;
    Ok(Json(view(&world, &shared, &context).user(user)))
}

async fn list_organizations(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    let view = view(&world, &shared, &context);
    let items = world
        .organizations
        .iter()
        .filter(|organization| world.membership(&organization.id, &context.user).is_some())
        .map(|organization| view.organization(organization))
        .collect();
    Ok(Json(envelope(items, &query_map(raw), &context.faults)?))
}

async fn get_organization(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let world = shared.world.read().await;
    let organization = world
        .organization(&id)
        .ok_or_else(|| ApiError::not_found("organization", &id))?;
    Ok(Json(
        view(&world, &shared, &context).organization(organization),
    ))
}

async fn list_organization_spaces(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    require_organization(&world, &id)?;
    let view = view(&world, &shared, &context);
    let items = world
        .spaces
        .iter()
        .filter(|space| space.organization == id)
        // Deleted spaces are listed with `deletedAt` until purged: the trash reads them here.
        .filter(|space| !world.is_purged(space))
        .map(|space| view.space(space))
        .collect();
    Ok(Json(envelope(items, &query_map(raw), &context.faults)?))
}

/// A space. With `shareKey`, the key must be an active share link of a site publishing the
/// space (404 otherwise), and the space's published address is that share link's.
async fn get_space(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    let space = require_space(&world, &id)?;
    let view = view(&world, &shared, &context);
    let mut object = view.space(space);
    let Some(key) = query_map(raw).remove("shareKey") else {
        return Ok(Json(object));
    };
    let site = world.sites.sites.iter().find(|site| {
        site.site_spaces
            .iter()
            .any(|published| published.space == space.id)
            && site
                .share_links
                .iter()
                .any(|link| link.active && link.token == key)
    });
    let Some(site) = site else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("No active share link of a site publishing space \"{id}\" has this shareKey"),
        ));
    };
    let mut address = url::Url::parse(&crate::sites::render::published_url(&view, site))
        .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "A bad site address"))?;
    address.query_pairs_mut().append_pair("shareKey", &key);
    object["urls"]["published"] = json!(address.to_string());
    Ok(Json(object))
}

async fn get_revision(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let world = shared.world.read().await;
    let space = require_space(&world, &id)?;
    Ok(Json(view(&world, &shared, &context).revision(space)))
}

async fn list_pages(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let world = shared.world.read().await;
    let space = require_space(&world, &id)?;
    let pages = view(&world, &shared, &context).page_tree(space, &space.revision.pages);
    Ok(Json(json!({ "pages": pages })))
}

async fn get_page(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((space_id, page_id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let query = query_map(raw);
    let markdown_format = match query.get("format").map(String::as_str) {
        None | Some("document") => false,
        Some("markdown") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"format\": expected document or markdown",
            ));
        }
    };
    let world = shared.world.read().await;
    let space = require_space(&world, &space_id)?;
    let page = space
        .revision
        .page(&page_id)
        .ok_or_else(|| ApiError::not_found("page", &page_id))?;
    Ok(Json(view(&world, &shared, &context).page_with_body(
        space,
        page,
        markdown_format,
    )))
}

async fn list_files(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    let space = require_space(&world, &id)?;
    let view = view(&world, &shared, &context);
    let items = space
        .revision
        .files
        .iter()
        .map(|file| view.file(space, file))
        .collect();
    Ok(Json(envelope(items, &query_map(raw), &context.faults)?))
}

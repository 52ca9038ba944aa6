//! Stored OpenAPI specs and their versions, addressed by slug. Reading needs
//! membership of the organization; changes need its admin role (403 otherwise). Validation
//! failures are 400s naming the field; an unknown spec or version is a 404; DELETE is 204
//! whether or not the spec was there.
//!
//! Processing progresses over time: a create or a new source (PUT) sets `processingState`
//! to `pending`; a read [`PROGRESS_SECONDS`] later finds it `progress`, and one
//! [`COMPLETE_SECONDS`] after the change `complete`, with a new version whose filesystem holds
//! a few files. An address holding `invalid` ends with `PARSE_ERROR` and its messages (no new
//! version); an address on the host `unreachable.example` ends with `FETCH_ERROR`.

pub(crate) mod state;
pub(crate) use state::{Spec, Version};

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::model::{Role, iso};
use super::paging::envelope;
use super::render::APP_URL;
use super::translations::{RequestBody, body_of, require_admin_to, require_member};
use super::world::World;
use crate::context::{Context, Shared};
use crate::validate::{self, Body};

pub(crate) const PROGRESS_SECONDS: i64 = 1;
pub const COMPLETE_SECONDS: i64 = 2;

type Answer = Result<Response, ApiError>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/orgs/{organization}/openapi", get(list).post(create))
        .route(
            "/v1/orgs/{organization}/openapi/{slug}",
            get(read).put(replace).patch(set_visibility).delete(remove),
        )
        .route(
            "/v1/orgs/{organization}/openapi/{slug}/versions",
            get(list_versions),
        )
        .route(
            "/v1/orgs/{organization}/openapi/{slug}/versions/{version}",
            get(read_version),
        )
        .route(
            "/v1/orgs/{organization}/openapi/{slug}/versions/{version}/content",
            get(read_content),
        )
}

fn require_admin(world: &World, organization: &str, user: &str) -> Result<(), ApiError> {
    require_admin_to("Changing OpenAPI specs", world, organization, user)
}

fn position(world: &World, organization: &str, slug: &str) -> Option<usize> {
    world
        .openapi
        .items
        .iter()
        .position(|spec| spec.organization == organization && spec.slug == slug)
}

fn find(world: &World, organization: &str, slug: &str) -> Result<usize, ApiError> {
    position(world, organization, slug).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("No OpenAPI spec found with slug \"{slug}\""),
        )
    })
}

fn seconds_since(world: &World, at: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(at)
        .map(|at| (world.now() - at.with_timezone(&chrono::Utc)).num_seconds())
        .unwrap_or(i64::MAX)
}

fn state(world: &World, spec: &Spec) -> &'static str {
    match spec.submitted_at.as_deref() {
        None => "complete",
        Some(at) if seconds_since(world, at) >= PROGRESS_SECONDS => "progress",
        Some(_) => "pending",
    }
}

/// Finishes the processing that has taken its time (see the module's note).
pub(crate) fn settle(world: &mut World) {
    let now = world.now();
    let due: Vec<usize> = world
        .openapi
        .items
        .iter()
        .enumerate()
        .filter(|(_, spec)| {
            spec.submitted_at
                .as_deref()
                .is_some_and(|at| seconds_since(world, at) >= COMPLETE_SECONDS)
        })
        .map(|(index, _)| index)
        .collect();
    for index in due {
        process(&mut world.openapi.items[index], iso(now));
    }
}

/// Processing of the source as it is now: a new version, or errors.
fn process(spec: &mut Spec, now: String) {
    spec.submitted_at = None;
    spec.last_processed_at = Some(now.clone());
    spec.updated_at = now.clone();
    let host = spec
        .source_url
        .split_once("://")
        .map(|(_, rest)| rest.split(['/', '?', '#']).next().unwrap_or(""))
        .unwrap_or("");
    if host == "unreachable.example" {
        spec.error_code = Some("FETCH_ERROR");
        spec.errors = vec![(
            format!("Could not fetch {}: connection refused", spec.source_url),
            "FETCH_ERROR".to_string(),
        )];
        return;
    }
    if spec.source_url.contains("invalid") {
        spec.error_code = Some("PARSE_ERROR");
        spec.errors = parse_errors();
        return;
    }
    spec.error_code = None;
    spec.errors.clear();
    let number = spec.versions.len() + 1;
    spec.versions.push(Version {
        id: format!("ver-{}-{number}", spec.slug),
        created_at: now,
        filesystem: filesystem(&spec.slug, number),
    });
}

fn parse_errors() -> Vec<(String, String)> {
    vec![
        (
            "paths./robots/{id}.get.responses.200: $ref \"#/components/schemas/Robot\" does not \
             resolve"
                .to_string(),
            "PARSE_ERROR".to_string(),
        ),
        (
            "components.schemas.Telemetry.properties.at: unknown format \"datetime\"".to_string(),
            "PARSE_ERROR".to_string(),
        ),
    ]
}

/// A version's files: the root document, schemas as JSON, parameters and paths as YAML.
pub(crate) fn filesystem(slug: &str, number: usize) -> Value {
    let title = slug.replace('-', " ");
    let root = format!(
        "openapi: 3.1.0\ninfo:\n  title: {title}\n  version: 1.{number}.0\n  description: |\n    \
         Version {number} of the {title} API.\nservers:\n  - url: https://api.acme-robotics.example/v1\n\
         paths:\n  /robots:\n    $ref: paths/robots.yaml\n  /robots/{{id}}:\n    $ref: paths/robot.yaml\n\
         components:\n  schemas:\n    $ref: components/schemas.json\n"
    );
    let schemas = format!(
        "{{\n  \"Robot\": {{\n    \"type\": \"object\",\n    \"required\": [\"id\", \"name\"],\n    \
         \"properties\": {{\n      \"id\": {{ \"type\": \"string\" }},\n      \"name\": {{ \"type\": \
         \"string\" }},\n      \"battery\": {{ \"type\": \"number\", \"minimum\": 0, \"maximum\": 100 }},\n      \
         \"firmware\": {{ \"type\": \"string\", \"example\": \"1.{number}.0\" }}\n    }}\n  }},\n  \
         \"Error\": {{\n    \"type\": \"object\",\n    \"properties\": {{\n      \"code\": {{ \"type\": \
         \"integer\" }},\n      \"message\": {{ \"type\": \"string\" }}\n    }}\n  }}\n}}\n"
    );
    let robots = "get:\n  summary: List robots\n  parameters:\n    - $ref: ../components/parameters.yaml#/limit\n  \
                  responses:\n    \"200\":\n      description: The robots of the fleet\n";
    let robot = "get:\n  summary: One robot\n  responses:\n    \"200\":\n      description: The robot\n    \
                 \"404\":\n      description: No such robot\n";
    let parameters =
        "limit:\n  name: limit\n  in: query\n  schema:\n    type: integer\n    maximum: 1000\n";
    json!({
        "openapi.yaml": root,
        "components": {"schemas.json": schemas, "parameters.yaml": parameters},
        "paths": {"robots.yaml": robots, "robot.yaml": robot},
    })
}

fn spec_location(shared: &Shared, spec: &Spec) -> String {
    format!(
        "{}/orgs/{}/openapi/{}",
        shared.api_url, spec.organization, spec.slug
    )
}

fn render(world: &World, shared: &Shared, spec: &Spec, role: Role) -> Value {
    let mut value = json!({
        "object": "openapi-spec",
        "id": spec.id,
        "createdAt": spec.created_at,
        "updatedAt": spec.updated_at,
        "slug": spec.slug,
        "sourceURL": spec.source_url,
        "processingState": state(world, spec),
        "visibility": if spec.public { "public" } else { "private" },
        "lastProcessedErrors": spec.errors.iter().map(|(message, code)| json!({"message": message, "code": code})).collect::<Vec<_>>(),
        "lastProcessedErrorCount": spec.errors.len(),
        "permissions": {"view": true, "edit": role == Role::Admin},
        "urls": {
            "location": spec_location(shared, spec),
            "app": format!("{APP_URL}/o/{}/openapi/{}", spec.organization, spec.slug),
        },
    });
    if spec.public {
        value["urls"]["published"] = json!(format!(
            "https://openapi.acme-robotics.example/{}",
            spec.slug
        ));
    }
    if let Some(version) = spec.versions.last() {
        value["lastVersion"] = json!(version.id);
    }
    if let Some(at) = &spec.last_processed_at {
        value["lastProcessedAt"] = json!(at);
    }
    if let Some(code) = spec.error_code {
        value["lastProcessErrorCode"] = json!(code);
    }
    value
}

fn render_version(shared: &Shared, spec: &Spec, version: &Version) -> Value {
    json!({
        "object": "openapi-spec-version",
        "id": version.id,
        "createdAt": version.created_at,
        "url": format!("https://files.acme-robotics.example/openapi/{}/{}.yaml", spec.slug, version.id),
        "urls": {"location": format!("{}/versions/{}", spec_location(shared, spec), version.id)},
    })
}

/// `source`: the URL variant `{url}` (the text variant is not offered by the sandbox).
fn source_url(body: &Body) -> Result<String, ApiError> {
    let source = match body.get("source") {
        Some(Value::Object(source)) => source,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"source\": expected {\"url\": <address>}",
            ));
        }
        None => {
            return Err(ApiError::bad_request(
                "\"source\" is required: {\"url\": <address>}",
            ));
        }
    };
    let url = validate::required_text(source, "url", 1, 2048).map_err(|_| {
        ApiError::bad_request(
            "Invalid \"source.url\": expected an address of at most 2048 characters",
        )
    })?;
    let parsed = url::Url::parse(&url)
        .ok()
        .filter(|address| matches!(address.scheme(), "http" | "https"))
        .filter(|address| address.host_str().is_some());
    let Some(parsed) = parsed else {
        return Err(ApiError::bad_request(
            "Invalid \"source.url\": expected an http(s) address",
        ));
    };
    if scheme_typed_twice(&parsed) {
        return Err(ApiError::bad_request(
            "Invalid \"source.url\": the scheme is there twice (https://https://…)",
        ));
    }
    Ok(url)
}

/// `https://https://host/…` (an address pasted after a typed scheme) parses with the host
/// `https` and an empty port: no server answers there, and the service refuses it.
fn scheme_typed_twice(address: &url::Url) -> bool {
    matches!(address.host_str(), Some("http" | "https"))
}

fn valid_slug(slug: &str) -> bool {
    (1..=100).contains(&slug.chars().count())
        && slug
            .split('-')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric()))
}

fn new_spec(world: &mut World, organization: &str, slug: &str, url: String) -> Spec {
    world.openapi.created += 1;
    let now = iso(world.now());
    Spec {
        id: format!("oas-{}", world.openapi.created),
        organization: organization.to_string(),
        slug: slug.to_string(),
        source_url: url,
        public: false,
        created_at: now.clone(),
        updated_at: now.clone(),
        submitted_at: Some(now),
        last_processed_at: None,
        error_code: None,
        errors: Vec::new(),
        versions: Vec::new(),
    }
}

async fn list(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let mut world = shared.world.write().await;
    let role = require_member(&world, &organization, &context.user)?;
    settle(&mut world);
    let items: Vec<Value> = world
        .openapi
        .items
        .iter()
        .filter(|spec| spec.organization == organization)
        .map(|spec| render(&world, &shared, spec, role))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?).into_response())
}

async fn create(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user)?;
    let body = body_of(body)?;
    validate::reject_unknown(&body, &["slug", "source"])?;
    let slug = match body.get("slug").and_then(Value::as_str) {
        Some(slug) if valid_slug(slug) => slug.to_string(),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"slug\": expected 1 to 100 letters or digits, with single hyphens \
                 between them",
            ));
        }
        None => return Err(ApiError::bad_request("\"slug\" is required")),
    };
    let url = source_url(&body)?;
    if position(&world, &organization, &slug).is_some() {
        return Err(ApiError::bad_request(format!(
            "Invalid \"slug\": a spec \"{slug}\" already exists"
        )));
    }
    let spec = new_spec(&mut world, &organization, &slug, url);
    let value = render(&world, &shared, &spec, Role::Admin);
    let location = spec_location(&shared, &spec);
    world.openapi.items.push(spec);
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(value)).into_response())
}

async fn read(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, slug)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let role = require_member(&world, &organization, &context.user)?;
    settle(&mut world);
    let index = find(&world, &organization, &slug)?;
    Ok(Json(render(&world, &shared, &world.openapi.items[index], role)).into_response())
}

/// A new source: processed again (a new version once complete). Creates the spec when the
/// slug is new (201), else 200.
async fn replace(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, slug)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user)?;
    settle(&mut world);
    let body = body_of(body)?;
    validate::reject_unknown(&body, &["source"])?;
    let url = source_url(&body)?;
    let now = iso(world.now());
    match position(&world, &organization, &slug) {
        Some(index) => {
            let spec = &mut world.openapi.items[index];
            spec.source_url = url;
            spec.submitted_at = Some(now.clone());
            spec.updated_at = now;
            let value = render(&world, &shared, &world.openapi.items[index], Role::Admin);
            Ok(Json(value).into_response())
        }
        None => {
            if !valid_slug(&slug) {
                return Err(ApiError::bad_request(
                    "Invalid \"slug\": expected 1 to 100 letters or digits, with single \
                     hyphens between them",
                ));
            }
            let spec = new_spec(&mut world, &organization, &slug, url);
            let value = render(&world, &shared, &spec, Role::Admin);
            world.openapi.items.push(spec);
            Ok((StatusCode::CREATED, Json(value)).into_response())
        }
    }
}

async fn set_visibility(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, slug)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user)?;
    settle(&mut world);
    let index = find(&world, &organization, &slug)?;
    let body = body_of(body)?;
    validate::reject_unknown(&body, &["visibility"])?;
    let visibility = validate::choice(&body, "visibility", &["private", "public"])?
        .ok_or_else(|| ApiError::bad_request("\"visibility\" is required: private or public"))?;
    let now = iso(world.now());
    let spec = &mut world.openapi.items[index];
    spec.public = visibility == "public";
    spec.updated_at = now;
    let value = render(&world, &shared, &world.openapi.items[index], Role::Admin);
    Ok(Json(value).into_response())
}

async fn remove(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, slug)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user)?;
    world
        .openapi
        .items
        .retain(|spec| !(spec.organization == organization && spec.slug == slug));
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn list_versions(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, slug)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_member(&world, &organization, &context.user)?;
    settle(&mut world);
    let spec = &world.openapi.items[find(&world, &organization, &slug)?];
    // Newest first.
    let items: Vec<Value> = spec
        .versions
        .iter()
        .rev()
        .map(|version| render_version(&shared, spec, version))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?).into_response())
}

fn version<'a>(spec: &'a Spec, id: &str) -> Result<&'a Version, ApiError> {
    let found = if id == "latest" {
        spec.versions.last()
    } else {
        spec.versions.iter().find(|version| version.id == id)
    };
    found.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("No version \"{id}\" of OpenAPI spec \"{}\"", spec.slug),
        )
    })
}

async fn read_version(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, slug, id)): Path<(String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_member(&world, &organization, &context.user)?;
    settle(&mut world);
    let spec = &world.openapi.items[find(&world, &organization, &slug)?];
    let version = version(spec, &id)?;
    Ok(Json(render_version(&shared, spec, version)).into_response())
}

async fn read_content(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, slug, id)): Path<(String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_member(&world, &organization, &context.user)?;
    settle(&mut world);
    let spec = &world.openapi.items[find(&world, &organization, &slug)?];
    let version = version(spec, &id)?;
    let url = render_version(&shared, spec, version)["url"].clone();
    Ok(Json(json!({
        "filesystem": version.filesystem,
        "url": url,
        "urls": {"source": spec.source_url, "public": if spec.public { url.clone() } else { Value::Null }},
    }))
    .into_response())
}

/// The demo's specs in Acme: `fleet-api` (public, three versions) and `telemetry` (private,
/// one version, and its last processing found errors).
pub(crate) fn populate(world: &mut World) {
    let stamp = |days, minutes| super::demo::dates::timestamp(days, minutes);
    let mut fleet = Spec {
        id: "oas-fleet-api".to_string(),
        organization: "org-acme-robotics".to_string(),
        slug: "fleet-api".to_string(),
        source_url: "https://raw.githubusercontent.com/acme-robotics/fleet-api/main/openapi.yaml"
            .to_string(),
        public: true,
        created_at: stamp(120, 0),
        updated_at: stamp(200, 0),
        submitted_at: None,
        last_processed_at: Some(stamp(200, 0)),
        error_code: None,
        errors: Vec::new(),
        versions: Vec::new(),
    };
    for (number, day) in [(1, 120), (2, 160), (3, 200)] {
        fleet.versions.push(Version {
            id: format!("ver-fleet-api-{number}"),
            created_at: stamp(day, 0),
            filesystem: filesystem("fleet-api", number),
        });
    }
    let telemetry = Spec {
        id: "oas-telemetry".to_string(),
        organization: "org-acme-robotics".to_string(),
        slug: "telemetry".to_string(),
        source_url: "https://specs.acme-robotics.example/telemetry/invalid-draft.yaml".to_string(),
        public: false,
        created_at: stamp(180, 0),
        updated_at: stamp(210, 0),
        submitted_at: None,
        last_processed_at: Some(stamp(210, 0)),
        error_code: Some("PARSE_ERROR"),
        errors: parse_errors(),
        versions: vec![Version {
            id: "ver-telemetry-1".to_string(),
            created_at: stamp(180, 0),
            filesystem: filesystem("telemetry", 1),
        }],
    };
    world.openapi.items.push(fleet);
    world.openapi.items.push(telemetry);
    world.openapi.created = 2;
}

//! The integrations endpoints. The catalogue filters by name search, category,
//! scope, target, block domain, has-blocks, has-content-sources and owner, and pages. A name
//! outside `^[a-zA-Z0-9-_.]+$` is a 400; an unknown name a 404. Publishing names the
//! organization by id or hostname (404 when there is none), needs its admin role (403) and a
//! body whose every field is right (400 naming the field).

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::{Map, Value, json};

use super::StoredIntegration;
use crate::context::{Context, Shared, boolean_parameter};
use crate::error::ApiError;
use crate::model::Role;
use crate::paging::envelope;
use crate::render::APP_URL;
use crate::validate::{self, Body};
use crate::world::World;

type Parameters = HashMap<String, String>;

const CATEGORIES: [&str; 6] = [
    "analytics",
    "collaboration",
    "content",
    "marketing",
    "visitor-auth",
    "other",
];
const TARGETS: [&str; 4] = ["all", "site", "space", "organization"];
const VISIBILITIES: [&str; 3] = ["public", "private", "unlisted"];
const SCOPES: [&str; 17] = [
    "space:content:read",
    "space:content:write",
    "space:metadata:read",
    "space:metadata:write",
    "space:git:sync",
    "page:feedback:read",
    "site:metadata:read",
    "site:views:read",
    "site:script:inject",
    "site:script:cookies",
    "site:visitor:auth",
    "site:visitor:claims",
    "site:adaptive:read",
    "site:adaptive:write",
    "conversations:ingest",
    "openapi:read",
    "openapi:write",
];
/// Public fields kept from a publish, rendered as sent.
const PUBLIC_FIELDS: [&str; 13] = [
    "title",
    "description",
    "summary",
    "previewImages",
    "visibility",
    "target",
    "scopes",
    "categories",
    "blocks",
    "contentSources",
    "externalLinks",
    "configurations",
    "contentSecurityPolicy",
];

pub fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/integrations", get(list_integrations))
        .route(
            "/v1/integrations/{name}",
            get(get_integration).post(publish),
        )
}

/// `^[a-zA-Z0-9-_.]+$`, at most 100 characters.
fn check_name(field: &str, name: &str) -> Result<(), ApiError> {
    let fine = !name.is_empty()
        && name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if fine {
        return Ok(());
    }
    Err(ApiError::bad_request(format!(
        "Invalid \"{field}\": expected 1 to 100 of a-z, A-Z, 0-9, '-', '_', '.'"
    )))
}

fn one_of<'a>(
    query: &'a Parameters,
    name: &str,
    allowed: &[&str],
) -> Result<Option<&'a str>, ApiError> {
    match query.get(name).map(String::as_str) {
        None | Some("") => Ok(None),
        Some(value) if allowed.contains(&value) => Ok(Some(value)),
        Some(_) => Err(ApiError::bad_request(format!(
            "Invalid \"{name}\": expected one of {}",
            allowed.join(", ")
        ))),
    }
}

async fn list_integrations(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Query(query): Query<Parameters>,
) -> Result<Json<Value>, ApiError> {
    let category = one_of(&query, "category", &CATEGORIES)?;
    let scope = one_of(&query, "scope", &SCOPES)?;
    let target = one_of(&query, "target", &TARGETS)?;
    let block_domain = query.get("blockDomain").filter(|domain| !domain.is_empty());
    if let Some(domain) = block_domain {
        check_name("blockDomain", domain)?;
    }
    let blocks = query
        .contains_key("blocks")
        .then(|| boolean_parameter(&query, "blocks", false))
        .transpose()?;
    let content_sources = query
        .contains_key("contentSources")
        .then(|| boolean_parameter(&query, "contentSources", false))
        .transpose()?;
    let search = query
        .get("search")
        .map(|search| search.trim().to_lowercase())
        .filter(|search| !search.is_empty());
    let owner = query.get("owner").filter(|owner| !owner.is_empty());
    let world = shared.world.read().await;
    let mut integrations: Vec<&StoredIntegration> = world
        .integrations
        .items
        .iter()
        .filter(|integration| {
            search.as_ref().is_none_or(|search| {
                integration.name.to_lowercase().contains(search)
                    || integration.text("title").to_lowercase().contains(search)
            })
        })
        .filter(|integration| {
            category.is_none_or(|c| integration.strings("categories").contains(&c))
        })
        .filter(|integration| scope.is_none_or(|s| integration.strings("scopes").contains(&s)))
        .filter(|integration| {
            target.is_none_or(|t| integration.target() == t || integration.target() == "all")
        })
        .filter(|integration| blocks.is_none_or(|b| integration.has_items("blocks") == b))
        .filter(|integration| {
            content_sources.is_none_or(|c| integration.has_items("contentSources") == c)
        })
        .filter(|integration| owner.is_none_or(|o| &integration.owner == o))
        .filter(|integration| block_domain.is_none_or(|domain| unfurls(integration, domain)))
        .collect();
    integrations.sort_by(|left, right| left.text("title").cmp(right.text("title")));
    let items = integrations
        .into_iter()
        .map(|integration| render(&world, integration, &context.user, &shared.api_url))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

/// Whether one of its blocks unfurls links of `domain`.
fn unfurls(integration: &StoredIntegration, domain: &str) -> bool {
    integration
        .fields
        .get("blocks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|block| block.get("urlUnfurl").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .any(|pattern| pattern.contains(domain))
}

async fn get_integration(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    check_name("integrationName", &name)?;
    let world = shared.world.read().await;
    let integration = world
        .integrations
        .get(&name)
        .ok_or_else(|| ApiError::not_found("integration", &name))?;
    Ok(Json(render(
        &world,
        integration,
        &context.user,
        &shared.api_url,
    )))
}

async fn publish(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(name): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    check_name("integrationName", &name)?;
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let body = validate::object_body(&bytes, false)?;
    let mut world = shared.world.write().await;
    let organization = validate::required_text(&body, "organization", 1, 256)?;
    let owner = world
        .organizations
        .iter()
        .find(|candidate| candidate.id == organization || candidate.hostname == organization)
        .map(|found| found.id.clone())
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("No organization found for \"{organization}\""),
            )
        })?;
    if world.role_in(&owner, &context.user) != Some(Role::Admin) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("Publishing an integration needs the admin role in organization \"{owner}\""),
        ));
    }
    if let Some(existing) = world.integrations.get(&name)
        && existing.owner != owner
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("The integration \"{name}\" belongs to another organization"),
        ));
    }
    let fields = checked_publish(&body)?;
    let secret_names = body
        .get("secrets")
        .and_then(Value::as_object)
        .map(|secrets| secrets.keys().cloned().collect())
        .unwrap_or_default();
    let version = world
        .integrations
        .get(&name)
        .map_or(1, |old| old.version + 1);
    let verified = world
        .integrations
        .get(&name)
        .is_some_and(|old| old.verified);
    world.integrations.items.retain(|old| old.name != name);
    world.integrations.items.push(StoredIntegration {
        name: name.clone(),
        owner,
        version,
        verified,
        fields,
        secret_names,
    });
    let integration = world
        .integrations
        .get(&name)
        .ok_or_else(|| ApiError::not_found("integration", &name))?;
    Ok(Json(render(
        &world,
        integration,
        &context.user,
        &shared.api_url,
    )))
}

/// The publish body's checks, field by field; the public fields to keep.
fn checked_publish(body: &Body) -> Result<Map<String, Value>, ApiError> {
    let mut allowed = PUBLIC_FIELDS.to_vec();
    allowed.extend(["runtime", "icon", "script", "organization", "secrets"]);
    validate::reject_unknown(body, &allowed)?;
    validate::required_text(body, "title", 2, 30)?;
    validate::required_text(body, "description", 0, 100)?;
    validate::text(body, "summary", 0, 2048)?;
    validate::required_text(body, "script", 0, 10_000_000)?;
    validate::choice(body, "runtime", &["v1", "v2"])?;
    validate::choice(body, "visibility", &VISIBILITIES)?;
    validate::choice(body, "target", &TARGETS)?;
    strings_from(body, "scopes", &SCOPES, true)?;
    strings_from(body, "categories", &CATEGORIES, false)?;
    if let Some(links) = body.get("externalLinks") {
        let fine = links.as_array().is_some_and(|links| {
            links.len() <= 5
                && links.iter().all(|link| {
                    link.get("label").is_some_and(Value::is_string)
                        && link
                            .get("url")
                            .and_then(Value::as_str)
                            .is_some_and(|url| url::Url::parse(url).is_ok() && url.len() <= 2048)
                })
        });
        if !fine {
            return Err(ApiError::bad_request(
                "Invalid \"externalLinks\": expected at most 5 {url, label}",
            ));
        }
    }
    if let Some(secrets) = body.get("secrets") {
        let fine = secrets
            .as_object()
            .is_some_and(|secrets| secrets.values().all(Value::is_string));
        if !fine {
            return Err(ApiError::bad_request(
                "Invalid \"secrets\": expected an object of name → string",
            ));
        }
    }
    Ok(PUBLIC_FIELDS
        .iter()
        .filter_map(|field| Some((field.to_string(), body.get(*field)?.clone())))
        .collect())
}

fn strings_from(
    body: &Body,
    field: &str,
    allowed: &[&str],
    required: bool,
) -> Result<(), ApiError> {
    match body.get(field) {
        None if required => Err(ApiError::bad_request(format!(
            "\"{field}\" is required: a list of {field}"
        ))),
        None => Ok(()),
        Some(Value::Array(items))
            if items
                .iter()
                .all(|item| item.as_str().is_some_and(|text| allowed.contains(&text))) =>
        {
            Ok(())
        }
        Some(_) => Err(ApiError::bad_request(format!(
            "Invalid \"{field}\": expected a list of {}",
            allowed.join(", ")
        ))),
    }
}

fn render(world: &World, integration: &StoredIntegration, user: &str, api_url: &str) -> Value {
    let mut value = json!({
        "object": "integration",
        "name": integration.name,
        "version": integration.version,
        "title": integration.text("title"),
        "previewImages": [],
        "target": integration.target(),
        "verified": integration.verified,
        "visibility": "public",
        "scopes": [],
        "categories": [],
        "externalLinks": [],
        "urls": {
            "location": format!("{api_url}/integrations/{}", integration.name),
            "icon": format!("{APP_URL}/integrations/{}/icon.png", integration.name),
            "app": format!("{APP_URL}/integrations/{}", integration.name),
            "assets": format!("{APP_URL}/integrations/{}/assets", integration.name),
            "publicEndpoint": format!("https://integrations.example/v1/{}", integration.name),
            "publicContentEndpoint": format!("https://integrations.example/c/{}", integration.name),
        },
        "permissions": {
            "admin": world.role_in(&integration.owner, user) == Some(Role::Admin),
        },
    });
    if let Some(object) = value.as_object_mut() {
        for (field, field_value) in &integration.fields {
            object.insert(field.clone(), field_value.clone());
        }
        if let Some(owner) = world.organization(&integration.owner) {
            object.insert(
                "owner".into(),
                json!({
                    "object": "organization",
                    "id": owner.id,
                    "title": owner.title,
                    "createdAt": owner.created_at,
                }),
            );
        }
    }
    value
}

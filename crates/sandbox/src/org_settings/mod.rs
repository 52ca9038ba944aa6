//! Organization settings: `PATCH /orgs/{org}` with every field checked, revoking
//! an invite link, joining by email domain, and the agent instructions. Only admins change
//! anything; joining needs a verified email whose domain the organization allows.

pub(crate) mod state;
pub(crate) use state::AgentInstructions;

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};
use serde_json::{Map, Value, json};

use super::error::ApiError;
use super::model::{Membership, Organization, iso};
use super::sso::{require_admin, role_or_null};
use super::world::World;
use crate::context::{Context, Shared};
use crate::validate;

/// Demo users outside every organization: one whose email domain Acme allows (joining works)
/// and one whose domain no organization allows (joining is refused).
pub const NEWCOMER_TOKEN: &str = "demo-newcomer";
pub const OUTSIDER_TOKEN: &str = "demo-outsider";

pub(crate) fn populate(world: &mut World) {
    let acme = super::demo_ids::ACME.to_string();
    let lumen = super::demo_ids::LUMEN.to_string();
    let settings = &mut world.org_settings;
    settings.invite_links.insert(
        acme.clone(),
        vec!["inv-acme-contractors".into(), "inv-acme-summit".into()],
    );
    settings
        .invite_links
        .insert(lumen, vec!["inv-lumen-contributors".into()]);
    settings.agent_instructions.insert(
        acme.clone(),
        AgentInstructions {
            document: demo_instructions(),
            updated_at: super::demo::dates::timestamp(780, 300),
            updated_by: super::demo_ids::USER_ADMIN.into(),
        },
    );
    settings
        .merge_rules
        .insert(acme, json!({ "type": "rules", "rules": [] }));
    for (id, name, email, token) in [
        (
            "usr-noor-haddad",
            "Noor Haddad",
            "noor.haddad@acme-robotics.example",
            NEWCOMER_TOKEN,
        ),
        (
            "usr-sam-rivera",
            "Sam Rivera",
            "sam.rivera@freelance.example",
            OUTSIDER_TOKEN,
        ),
    ] {
        world.users.push(super::model::User {
            id: id.into(),
            display_name: name.into(),
            email: email.into(),
            photo_url: None,
        });
        world.tokens.insert(token.into(), id.into());
    }
}

fn paragraph(text: &str) -> Value {
    json!({"object": "block", "type": "paragraph", "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}]})
}

fn demo_instructions() -> Value {
    let heading = json!({"object": "block", "type": "heading-2", "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": "How our docs speak", "marks": []}]}]});
    let item =
        |text: &str| json!({"object": "block", "type": "list-item", "nodes": [paragraph(text)]});
    let list = json!({"object": "block", "type": "list-unordered", "nodes": [
        item("Write in the second person and the present tense."),
        item("Call the product Fleet, never FleetOS."),
        item("Link every API field to the Fleet API Reference."),
    ]});
    json!({
        "object": "document",
        "data": {"schemaVersion": 1},
        "nodes": [
            heading,
            paragraph("Answer robotics questions with the safety notes first."),
            list,
        ]
    })
}

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route(
            "/v1/orgs/{organization}",
            axum::routing::patch(update_organization),
        )
        .route(
            "/v1/orgs/{organization}/link-invites/{invite}",
            delete(revoke_invite),
        )
        .route("/v1/orgs/{organization}/join", post(join))
        .route(
            "/v1/orgs/{organization}/agent-instructions",
            get(get_instructions).put(put_instructions),
        )
        // Not part of the API: the invite links still valid, for tests.
        .route(
            "/_sandbox/orgs/{organization}/link-invites",
            get(list_invites),
        )
}

const FIELDS: [&str; 10] = [
    "title",
    "emailDomains",
    "hostname",
    "defaultRole",
    "defaultContent",
    "logo",
    "sso",
    "ai",
    "inviteLinks",
    "mergeRules",
];

fn invalid(name: &str, expected: &str) -> ApiError {
    ApiError::bad_request(format!("Invalid \"{name}\": expected {expected}"))
}

async fn update_organization(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(
        &world,
        &id,
        &context.user,
        "change the organization's settings",
    )?;
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let body = validate::object_body(&bytes, false)?;
    validate::reject_unknown(&body, &FIELDS)?;
    let patch = checked_patch(&world, &id, &body)?;
    patch.apply(&mut world, &id);
    let organization = world
        .organization(&id)
        .ok_or_else(|| ApiError::not_found("organization", &id))?;
    let view = crate::context::view(&world, &shared, &context);
    Ok(Json(view.organization(organization)).into_response())
}

/// A checked PATCH: `None` = not sent.
struct Patch {
    title: Option<String>,
    email_domains: Option<Vec<String>>,
    hostname: Option<String>,
    default_role: Option<Option<super::model::Role>>,
    default_content: Option<Option<String>>,
    logo: Option<Option<String>>,
    sso: Option<bool>,
    ai: Option<bool>,
    invite_links: Option<bool>,
    merge_rules: Option<Value>,
}

fn checked_patch(
    world: &World,
    organization: &str,
    body: &Map<String, Value>,
) -> Result<Patch, ApiError> {
    let title = validate::text(body, "title", 2, 255)?;
    if title.as_deref().is_some_and(|title| title.trim() != title) {
        return Err(invalid("title", "no spaces at either end"));
    }
    let email_domains = validate::string_list(body, "emailDomains")?;
    if let Some(domain) = email_domains
        .iter()
        .flatten()
        .find(|domain| !is_domain(domain))
    {
        return Err(invalid(
            "emailDomains",
            &format!(
                "domains such as example.com, not \"{}\"",
                domain.escape_default()
            ),
        ));
    }
    let hostname = validate::text(body, "hostname", 3, 32)?;
    if hostname.as_deref().is_some_and(|name| !is_hostname(name)) {
        return Err(invalid("hostname", "lowercase letters, digits and -"));
    }
    let logo = validate::nullable_text(body, "logo", 2048)?;
    if let Some(Some(address)) = &logo {
        super::sso::check_url(address)
            .map_err(|_| invalid("logo", "an http(s) address or null"))?;
    }
    Ok(Patch {
        title,
        email_domains,
        hostname,
        default_role: role_or_null(body, "defaultRole")?,
        default_content: default_content(world, organization, body)?,
        logo,
        sso: validate::boolean(body, "sso")?,
        ai: validate::boolean(body, "ai")?,
        invite_links: validate::boolean(body, "inviteLinks")?,
        merge_rules: merge_rules(body)?,
    })
}

impl Patch {
    fn apply(self, world: &mut World, id: &str) {
        if let Some(organization) = world.organizations.iter_mut().find(|o| o.id == id) {
            apply_to_record(&self, organization);
        }
        let settings = &mut world.org_settings;
        match self.default_content {
            Some(Some(site)) => {
                settings.default_content.insert(id.to_string(), site);
            }
            Some(None) => {
                settings.default_content.remove(id);
            }
            None => {}
        }
        if let Some(rules) = self.merge_rules {
            settings.merge_rules.insert(id.to_string(), rules);
        }
    }
}

fn apply_to_record(patch: &Patch, organization: &mut Organization) {
    if let Some(title) = &patch.title {
        organization.title = title.clone();
    }
    if let Some(domains) = &patch.email_domains {
        organization.email_domains = domains.clone();
    }
    if let Some(hostname) = &patch.hostname {
        organization.hostname = hostname.clone();
    }
    if let Some(role) = patch.default_role {
        organization.default_role = role;
    }
    if let Some(logo) = &patch.logo {
        organization.logo = logo.clone();
    }
    if let Some(sso) = patch.sso {
        organization.sso = sso;
    }
    if let Some(ai) = patch.ai {
        organization.ai = ai;
    }
    if let Some(invite_links) = patch.invite_links {
        organization.invite_links = invite_links;
    }
}

fn is_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
}

fn is_hostname(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `{type:'site', site}` naming one of the organization's sites, or null.
fn default_content(
    world: &World,
    organization: &str,
    body: &Map<String, Value>,
) -> Result<Option<Option<String>>, ApiError> {
    let expected = "{\"type\":\"site\",\"site\":<a site of this organization>} or null";
    match body.get("defaultContent") {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(Value::Object(object)) => {
            if object.get("type").and_then(Value::as_str) != Some("site") {
                return Err(invalid("defaultContent.type", "\"site\""));
            }
            let site = object
                .get("site")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid("defaultContent.site", expected))?;
            if world.sites.site(organization, site).is_none() {
                return Err(invalid(
                    "defaultContent.site",
                    &format!(
                        "a site of this organization; \"{}\" is none",
                        site.escape_default()
                    ),
                ));
            }
            Ok(Some(Some(site.to_string())))
        }
        Some(_) => Err(invalid("defaultContent", expected)),
    }
}

/// `{type:'none'}` or `{type:'rules', rules:[{rule, …}]}`.
fn merge_rules(body: &Map<String, Value>) -> Result<Option<Value>, ApiError> {
    let Some(value) = body.get("mergeRules") else {
        return Ok(None);
    };
    match value.get("type").and_then(Value::as_str) {
        Some("none") => Ok(Some(json!({ "type": "none" }))),
        Some("rules") => {
            let rules = value
                .get("rules")
                .and_then(Value::as_array)
                .ok_or_else(|| invalid("mergeRules.rules", "an array of rules"))?;
            if let Some(index) = rules
                .iter()
                .position(|rule| rule.get("rule").and_then(Value::as_str).is_none())
            {
                return Err(invalid(
                    &format!("mergeRules.rules[{index}].rule"),
                    "a rule name",
                ));
            }
            Ok(Some(value.clone()))
        }
        _ => Err(invalid("mergeRules.type", "\"rules\" or \"none\"")),
    }
}

/// 204 whether or not the link existed.
async fn revoke_invite(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, invite)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user, "revoke invite links")?;
    if let Some(links) = world.org_settings.invite_links.get_mut(&organization) {
        links.retain(|link| *link != invite);
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn list_invites(
    State(shared): State<Arc<Shared>>,
    Path(organization): Path<String>,
) -> Answer {
    let world = shared.world.read().await;
    let links = world
        .org_settings
        .invite_links
        .get(&organization)
        .cloned()
        .unwrap_or_default();
    Ok(Json(json!({ "items": links })).into_response())
}

/// Joins as a member with the organization's default role when the caller's email domain is
/// one it allows; 204 also for someone already in.
async fn join(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let mut world = shared.world.write().await;
    let organization = world
        .organization(&id)
        .ok_or_else(|| ApiError::not_found("organization", &id))?
        .clone();
    if world.membership(&id, &context.user).is_some() {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    let email = world
        .user(&context.user)
        .map(|user| user.email.clone())
        .unwrap_or_default();
    let domain = email
        .rsplit_once('@')
        .map(|(_, domain)| domain.to_lowercase());
    let allowed = domain
        .as_deref()
        .is_some_and(|domain| organization.email_domains.iter().any(|d| d == domain));
    if !allowed {
        let takes = match organization.email_domains.as_slice() {
            [] => "it takes no one by email domain".to_string(),
            domains => format!("it takes people from {}", domains.join(", ")),
        };
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "Your email domain {} may not join {}: {takes}",
                domain.unwrap_or_else(|| "(none)".into()),
                organization.title
            ),
        ));
    }
    let now = iso(world.now());
    world.memberships.push(Membership {
        organization: id,
        user: context.user.clone(),
        role: organization.default_role,
        disabled: false,
        joined_at: now.clone(),
        last_seen_at: Some(now),
        sso: false,
        spaces: 0,
        teams: 0,
    });
    Ok(StatusCode::NO_CONTENT.into_response())
}

fn render_instructions(world: &World, organization: &str, api_url: &str) -> Value {
    let stored = world.org_settings.agent_instructions.get(organization);
    let created = world
        .organization(organization)
        .map(|o| o.created_at.clone())
        .unwrap_or_default();
    json!({
        "object": "agent-instructions",
        "instructions": stored.map_or_else(
            || json!({"object": "document", "data": {}, "nodes": []}),
            |stored| stored.document.clone()
        ),
        "updatedAt": stored.map_or(created, |stored| stored.updated_at.clone()),
        "updatedBy": stored.map(|stored| stored.updated_by.clone()).unwrap_or_default(),
        "urls": { "location": format!("{api_url}/orgs/{organization}/agent-instructions") },
    })
}

async fn get_instructions(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let world = shared.world.read().await;
    if world.organization(&id).is_none() {
        return Err(ApiError::not_found("organization", &id));
    }
    if world.role_in(&id, &context.user).is_none() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("You are not a member of organization \"{id}\""),
        ));
    }
    Ok(Json(render_instructions(&world, &id, &shared.api_url)).into_response())
}

async fn put_instructions(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &id, &context.user, "change the agent instructions")?;
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let body = validate::object_body(&bytes, false)?;
    validate::reject_unknown(&body, &["instructions"])?;
    let document = body
        .get("instructions")
        .ok_or_else(|| ApiError::bad_request("\"instructions\" is required: a Document"))?;
    let is_document = document.get("object").and_then(Value::as_str) == Some("document")
        && document.get("nodes").is_some_and(Value::is_array);
    if !is_document {
        return Err(invalid(
            "instructions",
            "a Document {object:\"document\", nodes:[…]}",
        ));
    }
    let stored = AgentInstructions {
        document: document.clone(),
        updated_at: iso(world.now()),
        updated_by: context.user.clone(),
    };
    world
        .org_settings
        .agent_instructions
        .insert(id.clone(), stored);
    Ok(Json(render_instructions(&world, &id, &shared.api_url)).into_response())
}

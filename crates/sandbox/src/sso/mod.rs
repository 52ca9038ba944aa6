//! Single sign-on: an organization's SAML providers and its SSO login
//! infos. Anyone in the organization reads them; only admins create, change or delete one.
//! A provider is `active` once it has an entity ID, a certificate and an SSO URL, else
//! `pending`. Deleting answers 204, also for a provider that is not there.

pub(crate) mod state;
pub(crate) use state::SamlProvider;

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use base64::Engine;
use serde_json::{Value, json};

use super::error::ApiError;
use super::model::{Role, iso};
use super::render::APP_URL;
use super::world::World;
use crate::context::{Context, Shared};
use crate::validate::{self, Body};

/// A self-signed certificate (CN idp.acme-robotics.example, valid until 2036), used by the
/// demo's Okta provider and by tests that need a certificate the service takes.
pub const DEMO_CERTIFICATE: &str = "-----BEGIN CERTIFICATE-----
MIICQTCCAaqgAwIBAgIBKjANBgkqhkiG9w0BAQsFADA8MSIwIAYDVQQDDBlpZHAu
YWNtZS1yb2JvdGljcy5leGFtcGxlMRYwFAYDVQQKDA1BY21lIFJvYm90aWNzMB4X
DTI2MTEyMzExMjAwMloXDTM2MTEyMDExMjAwMlowPDEiMCAGA1UEAwwZaWRwLmFj
bWUtcm9ib3RpY3MuZXhhbXBsZTEWMBQGA1UECgwNQWNtZSBSb2JvdGljczCBnzAN
BgkqhkiG9w0BAQEFAAOBjQAwgYkCgYEAsrnD1JAiSXiqHDZzv+6vliJrw6o8AJ3e
sEP1aTGCj/ZNMwH7cTohZP9LyS+WUGdRHiQ/jJx9sjmFxAxqISIUmsVVDzxYJVBw
dGQNJZhvrvqRPTXsZdAlDzPR+ktjLB5KeNQO/EskeICPEToSQ5af52vxQJ3Sa7Va
gjn+sh3HExcCAwEAAaNTMFEwHQYDVR0OBBYEFC1x9xE4pW2LkvbWOzjWxCBatTse
MB8GA1UdIwQYMBaAFC1x9xE4pW2LkvbWOzjWxCBatTseMA8GA1UdEwEB/wQFMAMB
Af8wDQYJKoZIhvcNAQELBQADgYEAsTaln/+h/FCjSGQtxR8LdmjKMWTDNZTkl6mV
CNzVJqnocqYDlHegUrPzP2WxJ1NpVTbjo2S0O7Pj4E5D2ya94x4kbnzltvPwzskH
5ZKjZk6qAE0sIVVWFqV8Xjuf+ULJnfYxCeG1rTOmtSGyShMNkBRz9t+8PdmQcff0
b2yJHZ4=
-----END CERTIFICATE-----
";

/// The demo: Acme signs in through Okta (active) and is trying Azure AD (pending).
pub(crate) fn populate(world: &mut World) {
    let acme = super::demo_ids::ACME.to_string();
    world.sso.providers = vec![
        SamlProvider {
            id: "saml-acme-okta".into(),
            organization: acme.clone(),
            label: "Okta".into(),
            entity_id: "http://www.okta.com/exk1acme".into(),
            certificate: DEMO_CERTIFICATE.into(),
            sso_url: "https://acme-robotics.okta.example/app/quire/sso/saml".into(),
            default_team: Some("team-platform".into()),
            default_role: Some(Role::Read),
            created_at: super::demo::dates::timestamp(200, 540),
        },
        SamlProvider {
            id: "saml-acme-azure".into(),
            organization: acme,
            label: "Azure AD (staging)".into(),
            entity_id: "https://sts.windows.example/acme-staging/".into(),
            certificate: String::new(),
            sso_url: String::new(),
            default_team: None,
            default_role: None,
            created_at: super::demo::dates::timestamp(790, 600),
        },
    ];
}

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route(
            "/v1/orgs/{organization}/saml",
            get(list_providers).post(create_provider),
        )
        .route(
            "/v1/orgs/{organization}/saml/{provider}",
            get(get_provider)
                .patch(update_provider)
                .delete(delete_provider),
        )
        .route("/v1/orgs/{organization}/sso", get(list_logins))
}

/// The organization must exist and the caller must belong to it.
fn member_role(world: &World, organization: &str, user: &str) -> Result<Role, ApiError> {
    if world.organization(organization).is_none() {
        return Err(ApiError::not_found("organization", organization));
    }
    world.role_in(organization, user).ok_or_else(|| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!("You are not a member of organization \"{organization}\""),
        )
    })
}

/// Writes need the admin role.
pub(crate) fn require_admin(
    world: &World,
    organization: &str,
    user: &str,
    what: &str,
) -> Result<(), ApiError> {
    match member_role(world, organization, user)? {
        Role::Admin => Ok(()),
        role => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "Only organization admins may {what}; your role is {}",
                role.as_str()
            ),
        )),
    }
}

fn render(provider: &SamlProvider, api_url: &str) -> Value {
    let service = format!("{APP_URL}/saml/{}/{}", provider.organization, provider.id);
    let mut object = json!({
        "object": "saml-provider",
        "id": provider.id,
        "label": provider.label,
        "ssoURL": provider.sso_url,
        "entityID": provider.entity_id,
        "certificate": provider.certificate,
        "defaultRole": provider.default_role.map(Role::as_str),
        "createdAt": provider.created_at,
        "status": provider.status(),
        "service": {
            "acsURL": format!("{service}/acs"),
            "startURL": format!("{service}/start"),
            "entityID": service,
        },
        "urls": {
            "location": format!("{api_url}/orgs/{}/saml/{}", provider.organization, provider.id),
        },
    });
    if let Some(team) = &provider.default_team {
        object["defaultTeam"] = json!({ "object": "team", "id": team });
    }
    object
}

async fn list_providers(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    RawQuery(query): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    member_role(&world, &organization, &context.user)?;
    let items: Vec<Value> = world
        .sso
        .providers
        .iter()
        .filter(|provider| provider.organization == organization)
        .map(|provider| render(provider, &shared.api_url))
        .collect();
    let query = crate::context::query_map(query);
    let envelope = super::paging::envelope(items, &query, &context.faults)?;
    Ok(Json(envelope).into_response())
}

async fn get_provider(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    member_role(&world, &organization, &context.user)?;
    let provider = find(&world, &organization, &id)?;
    Ok(Json(render(provider, &shared.api_url)).into_response())
}

fn find<'a>(world: &'a World, organization: &str, id: &str) -> Result<&'a SamlProvider, ApiError> {
    world
        .sso
        .providers
        .iter()
        .find(|provider| provider.organization == organization && provider.id == id)
        .ok_or_else(|| ApiError::not_found("SAML provider", id))
}

const FIELDS: [&str; 6] = [
    "label",
    "entityID",
    "certificate",
    "ssoURL",
    "defaultTeam",
    "defaultRole",
];

/// The fields of a create or an update, checked; `None` = not sent.
#[derive(Default)]
struct Changes {
    label: Option<String>,
    entity_id: Option<String>,
    certificate: Option<String>,
    sso_url: Option<String>,
    default_team: Option<String>,
    default_role: Option<Option<Role>>,
}

fn checked(bytes: &[u8], creating: bool) -> Result<Changes, ApiError> {
    let body = validate::object_body(bytes, false)?;
    validate::reject_unknown(&body, &FIELDS)?;
    let label = if creating {
        Some(validate::required_text(&body, "label", 1, 30)?)
    } else {
        validate::text(&body, "label", 1, 30)?
    };
    let certificate = validate::text(&body, "certificate", 0, 10_000)?;
    if let Some(text) = certificate
        .as_deref()
        .filter(|text| !text.trim().is_empty())
    {
        check_pem(text)?;
    }
    let sso_url = validate::text(&body, "ssoURL", 0, 2048)?;
    if let Some(address) = sso_url.as_deref().filter(|text| !text.is_empty()) {
        check_url(address)?;
    }
    Ok(Changes {
        label,
        entity_id: validate::text(&body, "entityID", 0, 1024)?,
        certificate,
        sso_url,
        default_team: validate::text(&body, "defaultTeam", 1, 128)?,
        default_role: role_or_null(&body, "defaultRole")?,
    })
}

/// A member role or null; `None` when absent.
pub(crate) fn role_or_null(body: &Body, name: &str) -> Result<Option<Option<Role>>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(Value::String(text)) if Role::parse(text).is_some() => Ok(Some(Role::parse(text))),
        Some(_) => Err(ApiError::bad_request(format!(
            "Invalid \"{name}\": expected one of admin, create, edit, review, comment, read or null"
        ))),
    }
}

/// A PEM block whose body is base64: enough to tell a certificate from a typo.
fn check_pem(text: &str) -> Result<(), ApiError> {
    let refused = || {
        ApiError::bad_request(
            "Invalid \"certificate\": expected a PEM certificate \
             (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)",
        )
    };
    let body = text
        .trim()
        .strip_prefix("-----BEGIN CERTIFICATE-----")
        .and_then(|rest| rest.trim_end().strip_suffix("-----END CERTIFICATE-----"))
        .ok_or_else(refused)?;
    let base64: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    match base64::engine::general_purpose::STANDARD.decode(base64) {
        Ok(der) if der.len() > 16 && der[0] == 0x30 => Ok(()),
        _ => Err(refused()),
    }
}

/// An absolute http(s) address.
pub(crate) fn check_url(address: &str) -> Result<(), ApiError> {
    match url::Url::parse(address) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host_str().is_some() => Ok(()),
        _ => Err(ApiError::bad_request(format!(
            "Invalid \"ssoURL\": expected an http(s) address, got \"{}\"",
            address.escape_default()
        ))),
    }
}

async fn create_provider(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user, "add SAML providers")?;
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let changes = checked(&bytes, true)?;
    let id = world.sso.next_id();
    let provider = SamlProvider {
        id,
        organization,
        label: changes.label.unwrap_or_default(),
        entity_id: changes.entity_id.unwrap_or_default(),
        certificate: changes.certificate.unwrap_or_default(),
        sso_url: changes.sso_url.unwrap_or_default(),
        default_team: changes.default_team,
        default_role: changes.default_role.flatten(),
        created_at: iso(world.now()),
    };
    let rendered = render(&provider, &shared.api_url);
    world.sso.providers.push(provider);
    let location = rendered["urls"]["location"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(rendered)).into_response())
}

async fn update_provider(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(
        &world,
        &organization,
        &context.user,
        "change SAML providers",
    )?;
    find(&world, &organization, &id)?;
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let changes = checked(&bytes, false)?;
    let Some(provider) = world
        .sso
        .providers
        .iter_mut()
        .find(|provider| provider.organization == organization && provider.id == id)
    else {
        return Err(ApiError::not_found("SAML provider", &id));
    };
    if let Some(label) = changes.label {
        provider.label = label;
    }
    if let Some(entity_id) = changes.entity_id {
        provider.entity_id = entity_id;
    }
    if let Some(certificate) = changes.certificate {
        provider.certificate = certificate;
    }
    if let Some(sso_url) = changes.sso_url {
        provider.sso_url = sso_url;
    }
    if let Some(team) = changes.default_team {
        provider.default_team = Some(team);
    }
    if let Some(role) = changes.default_role {
        provider.default_role = role;
    }
    let rendered = render(provider, &shared.api_url);
    Ok(Json(rendered).into_response())
}

async fn delete_provider(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(
        &world,
        &organization,
        &context.user,
        "delete SAML providers",
    )?;
    world
        .sso
        .providers
        .retain(|provider| !(provider.organization == organization && provider.id == id));
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `{items:[{id, label, startURL}]}`: the active providers, the ways to sign in.
async fn list_logins(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
) -> Answer {
    let world = shared.world.read().await;
    if world.organization(&organization).is_none() {
        return Err(ApiError::not_found("organization", &organization));
    }
    let _ = &context;
    let items: Vec<Value> = world
        .sso
        .providers
        .iter()
        .filter(|provider| provider.organization == organization && provider.status() == "active")
        .map(|provider| {
            let rendered = render(provider, &shared.api_url);
            json!({
                "id": provider.id,
                "label": provider.label,
                "startURL": rendered["service"]["startURL"],
            })
        })
        .collect();
    Ok(Json(json!({ "items": items })).into_response())
}

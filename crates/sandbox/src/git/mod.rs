//! Git sync of a space: its info, import and export (answered 204 as "started";
//! the sandbox finishes them at once and records the operation), and removing a legacy
//! installation. Every change needs the admin role in the space's organization (the role that
//! gets `permissions.triggerGitSync`).

pub(crate) mod state;
pub(crate) use state::{GitState, Operation};

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::model::{Role, Space, iso};
use super::world::World;
use crate::context::{Context, Shared};
use crate::validate::{self, Body};

/// The demo's git sync: every space with a repository, on GitHub; Fleet API Reference through
/// a legacy installation, so that removing one can be tried.
pub(crate) fn populate(world: &mut World) {
    let states: Vec<(String, GitState)> = world
        .spaces
        .iter()
        .filter_map(|space| {
            let repository = space.git_repository.as_ref()?;
            let provider = if space.id == "spc-fleet-api" {
                "github-legacy"
            } else {
                "github"
            };
            Some((
                space.id.clone(),
                GitState {
                    provider: provider.to_string(),
                    repo_name: repository.clone(),
                    url: format!("https://github.com/{repository}"),
                    installation_id: format!("inst-{}", space.id),
                    updated_at: space.updated_at.clone(),
                    git_ref: "refs/heads/main".to_string(),
                    operation: None,
                },
            ))
        })
        .collect();
    world.git.spaces.extend(states);
}

type Answer = Result<Response, ApiError>;
type RequestBody = Result<Bytes, BytesRejection>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/spaces/{space}/git/info", get(git_info))
        .route("/v1/spaces/{space}/git/import", post(git_import))
        .route("/v1/spaces/{space}/git/export", post(git_export))
        .route(
            "/v1/spaces/{space}/git/legacy-installation",
            delete(remove_legacy_installation),
        )
        // Not part of the API: what the last import or export sent as `url`.
        .route("/_sandbox/spaces/{space}/git/last-url", get(last_url_sent))
        // Not part of the API: the link prefixes and host the last import or export sent.
        .route(
            "/_sandbox/spaces/{space}/git/last-links",
            get(last_links_sent),
        )
}

fn find_space<'a>(world: &'a World, id: &str) -> Result<&'a Space, ApiError> {
    world
        .space(id)
        .ok_or_else(|| ApiError::not_found("space", id))
}

fn require_admin(world: &World, space: &Space, user: &str) -> Result<(), ApiError> {
    match world.role_in(&space.organization, user) {
        Some(Role::Admin) => Ok(()),
        role => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "Git sync of space \"{}\" needs the admin role in its organization; your role \
                 is {}",
                space.id,
                role.map_or("guest", Role::as_str)
            ),
        )),
    }
}

async fn git_info(
    State(shared): State<Arc<Shared>>,
    Extension(_context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let world = shared.world.read().await;
    let space = find_space(&world, &id)?;
    let info = world.git.info(&space.id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("No git provider is set up on space \"{id}\""),
        )
    })?;
    Ok(Json(info).into_response())
}

async fn git_import(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    run(&shared, &context, &id, body, "import").await
}

async fn git_export(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    body: RequestBody,
) -> Answer {
    run(&shared, &context, &id, body, "export").await
}

/// Fields both directions take (the service also lets export send `standalone`).
const COMMON_FIELDS: [&str; 11] = [
    "url",
    "ref",
    "repoCacheID",
    "repoTreeURL",
    "repoCommitURL",
    "repoProjectDirectory",
    "timestamp",
    "force",
    "standalone",
    "gitInfo",
    "commitMessage",
];

/// Checks an import or export and records it as done.
async fn run(
    shared: &Shared,
    context: &Context,
    id: &str,
    body: RequestBody,
    direction: &'static str,
) -> Answer {
    let mut world = shared.world.write().await;
    let space = find_space(&world, id)?;
    require_admin(&world, space, &context.user)?;
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let body = validate::object_body(&bytes, false)?;
    let allowed: &[&str] = if direction == "import" {
        &COMMON_FIELDS[..10]
    } else {
        &COMMON_FIELDS
    };
    validate::reject_unknown(&body, allowed)?;
    let request = checked_request(&body, direction)?;
    let now = iso(world.now());
    let previous = world.git.spaces.get(id).cloned();
    let state = GitState {
        provider: provider_of(&request.address, previous.as_ref()),
        repo_name: request
            .address
            .path()
            .trim_matches('/')
            .trim_end_matches(".git")
            .to_string(),
        url: without_credentials(&request.address),
        installation_id: previous.as_ref().map_or_else(
            || format!("inst-{id}"),
            |state| state.installation_id.clone(),
        ),
        updated_at: now.clone(),
        // A standalone import makes a revision aside: the primary content stays on its ref.
        git_ref: match (&previous, request.standalone) {
            (Some(previous), true) => previous.git_ref.clone(),
            _ => request.git_ref,
        },
        operation: Some(Operation {
            direction,
            started_at: now,
        }),
    };
    world.git.spaces.insert(id.to_string(), state);
    world
        .git
        .last_url_sent
        .insert(id.to_string(), request.address.to_string());
    let links = json!({
        "repoTreeURL": body.get("repoTreeURL"),
        "repoCommitURL": body.get("repoCommitURL"),
        "repoProjectDirectory": body.get("repoProjectDirectory"),
        "gitInfo": body.get("gitInfo"),
    });
    world.git.last_links_sent.insert(id.to_string(), links);
    Ok(StatusCode::NO_CONTENT.into_response())
}

struct GitRequest {
    address: url::Url,
    git_ref: String,
    standalone: bool,
}

fn checked_request(body: &Body, direction: &str) -> Result<GitRequest, ApiError> {
    let url = validate::required_text(body, "url", 1, 2048)?;
    let address = url::Url::parse(url.trim())
        .ok()
        .filter(|address| matches!(address.scheme(), "https" | "http" | "ssh" | "git"))
        .filter(|address| address.host_str().is_some())
        .ok_or_else(|| {
            ApiError::bad_request(
                "Invalid \"url\": expected a repository address such as \
                 https://github.com/owner/repository",
            )
        })?;
    let git_ref = validate::required_text(body, "ref", 1, 255)?;
    let branch = git_ref.strip_prefix("refs/heads/").unwrap_or_default();
    if branch.is_empty() || branch.contains(char::is_whitespace) || branch.contains("..") {
        return Err(ApiError::bad_request(
            "Invalid \"ref\": expected refs/heads/<branch>",
        ));
    }
    if direction == "export" {
        validate::required_text(body, "commitMessage", 1, 4096)?;
    }
    validate::text(body, "timestamp", 1, 64)?
        .filter(|time| chrono::DateTime::parse_from_rfc3339(time).is_err())
        .map_or(Ok(()), |_| {
            Err(ApiError::bad_request(
                "Invalid \"timestamp\": expected a date-time",
            ))
        })?;
    for name in ["repoProjectDirectory", "repoCacheID"] {
        validate::text(body, name, 1, 2048)?;
    }
    for name in ["repoTreeURL", "repoCommitURL"] {
        check_link_prefix(body, name)?;
    }
    check_git_info(body)?;
    validate::boolean(body, "force")?;
    let standalone = validate::boolean(body, "standalone")?.unwrap_or(false);
    Ok(GitRequest {
        address,
        git_ref,
        standalone,
    })
}

/// A prefix links are made from (`repoTreeURL`, `repoCommitURL`), when sent: a web address.
fn check_link_prefix(body: &Body, name: &str) -> Result<(), ApiError> {
    let Some(prefix) = validate::text(body, name, 1, 2048)? else {
        return Ok(());
    };
    let web = url::Url::parse(prefix.trim())
        .ok()
        .filter(|address| matches!(address.scheme(), "https" | "http"))
        .is_some_and(|address| address.host_str().is_some());
    if web {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "Invalid \"{name}\": expected a web address such as https://github.com/owner/repository/…"
        )))
    }
}

/// `gitInfo`, when sent: `{provider, url}`, the host being `github` or `gitlab`.
fn check_git_info(body: &Body) -> Result<(), ApiError> {
    let Some(info) = body.get("gitInfo") else {
        return Ok(());
    };
    let provider = info.get("provider").and_then(Value::as_str);
    let url = info.get("url").and_then(Value::as_str);
    match (provider, url) {
        (Some("github" | "gitlab"), Some(url)) if !url.trim().is_empty() => Ok(()),
        _ => Err(ApiError::bad_request(
            "Invalid \"gitInfo\": expected {\"provider\": \"github\" or \"gitlab\", \"url\"}",
        )),
    }
}

fn provider_of(address: &url::Url, previous: Option<&GitState>) -> String {
    match address.host_str() {
        Some(host) if host.contains("gitlab") => "gitlab".into(),
        Some("github.com") => "github".into(),
        _ => previous.map_or_else(|| "github".into(), |state| state.provider.clone()),
    }
}

/// The address as kept and shown back: never with the user name or password it was sent with.
fn without_credentials(address: &url::Url) -> String {
    let mut clean = address.clone();
    let _ = clean.set_username("");
    let _ = clean.set_password(None);
    clean.to_string()
}

/// 204 whether or not there was a legacy installation; a space synced through one has no git
/// provider afterwards.
async fn remove_legacy_installation(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
) -> Answer {
    let mut world = shared.world.write().await;
    let space = find_space(&world, &id)?;
    require_admin(&world, space, &context.user)?;
    if world
        .git
        .spaces
        .get(&id)
        .is_some_and(|state| state.provider == "github-legacy")
    {
        world.git.spaces.remove(&id);
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn last_links_sent(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> Answer {
    let world = shared.world.read().await;
    let links = world.git.last_links_sent.get(&id).cloned();
    Ok(Json(links.unwrap_or(Value::Null)).into_response())
}

async fn last_url_sent(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> Answer {
    let world = shared.world.read().await;
    let url = world.git.last_url_sent.get(&id).cloned();
    Ok(Json(json!({ "url": url })).into_response())
}

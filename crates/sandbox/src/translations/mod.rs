//! Translations of spaces. Reading needs membership of the organization; every
//! change needs its admin role (403 otherwise). Validation failures are 400s naming the field.
//!
//! A run changes the status over time: `POST …/run` answers 204 and sets the translation
//! `running`; the first read [`RUN_SECONDS`] or more later finds it `completed`, with the run
//! counted in `stats`. The first completed run creates the result space (a copy of the source
//! space, beside it, in the target language); later runs update that space's revision.

pub(crate) mod state;
pub(crate) use state::{Stats, Translation};

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::model::{Role, iso};
use super::paging::envelope;
use super::world::World;
use crate::context::{Context, Shared};
use crate::validate::{self, Body};

/// How long a run takes in the sandbox, in seconds.
pub const RUN_SECONDS: i64 = 2;

/// `TranslationLanguage` codes (the sandbox's own copy of the contract's list).
pub(crate) const LANGUAGES: [&str; 39] = [
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar",
    "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms",
    "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
];

/// An empty instructions Document.
pub(crate) fn empty_document() -> Value {
    json!({"object": "document", "data": {}, "nodes": []})
}

/// A Document of one paragraph per line of `text`.
pub(crate) fn paragraphs(text: &str) -> Value {
    let nodes: Vec<Value> = text
        .lines()
        .map(|line| {
            json!({"object": "block", "type": "paragraph", "data": {}, "nodes": [
                {"object": "text", "leaves": [{"object": "leaf", "text": line, "marks": []}]}
            ]})
        })
        .collect();
    json!({"object": "document", "data": {}, "nodes": nodes})
}

type Answer = Result<Response, ApiError>;
pub(super) type RequestBody = Result<Bytes, BytesRejection>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route(
            "/v1/orgs/{organization}/translations",
            get(list).post(create),
        )
        .route(
            "/v1/orgs/{organization}/translations/{id}",
            get(read).put(update).delete(remove),
        )
        .route("/v1/orgs/{organization}/translations/{id}/run", post(run))
}

/// 404 for an unknown organization, 403 for someone outside it. Also used by the OpenAPI
/// routes, which have the same rule.
pub(super) fn require_member(
    world: &World,
    organization: &str,
    user: &str,
) -> Result<Role, ApiError> {
    world
        .organization(organization)
        .ok_or_else(|| ApiError::not_found("organization", organization))?;
    world.role_in(organization, user).ok_or_else(|| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!("You are not a member of organization \"{organization}\""),
        )
    })
}

/// [`require_member`], then 403 unless an admin; `doing` names the change ("Changing
/// translations").
pub(super) fn require_admin_to(
    doing: &str,
    world: &World,
    organization: &str,
    user: &str,
) -> Result<(), ApiError> {
    match require_member(world, organization, user)? {
        Role::Admin => Ok(()),
        role => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "{doing} needs the admin role in organization \"{organization}\"; your role \
                 is {}",
                role.as_str()
            ),
        )),
    }
}

fn require_admin(world: &World, organization: &str, user: &str) -> Result<(), ApiError> {
    require_admin_to("Changing translations", world, organization, user)
}

/// The JSON object body of a write; 400 when it is not one.
pub(super) fn body_of(body: RequestBody) -> Result<Body, ApiError> {
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    validate::object_body(&bytes, false)
}

fn position(world: &World, organization: &str, id: &str) -> Result<usize, ApiError> {
    world
        .translations
        .items
        .iter()
        .position(|item| item.organization == organization && item.id == id)
        .ok_or_else(|| ApiError::not_found("translation", id))
}

/// Finishes the runs that have taken their time (see the module's note).
pub(crate) fn settle(world: &mut World) {
    let now = world.now();
    let due: Vec<usize> = world
        .translations
        .items
        .iter()
        .enumerate()
        .filter(|(_, item)| {
            item.running_since
                .as_deref()
                .and_then(|since| chrono::DateTime::parse_from_rfc3339(since).ok())
                .is_some_and(|since| {
                    now - since.with_timezone(&chrono::Utc)
                        >= chrono::Duration::seconds(RUN_SECONDS)
                })
        })
        .map(|(index, _)| index)
        .collect();
    for index in due {
        complete_run(world, index);
    }
}

fn complete_run(world: &mut World, index: usize) {
    let Some(item) = world.translations.items.get(index).cloned() else {
        return;
    };
    let Some(source) = world.space(&item.source_space).cloned() else {
        // The source went away: the run ends without a result.
        world.translations.items[index].running_since = None;
        return;
    };
    let pages = source.revision.flatten().len() as u64;
    let words = pages * 420;
    let duration = 1_500 + pages * 900;
    let now = iso(world.now());
    let result_id = item
        .result_space
        .clone()
        .unwrap_or_else(|| format!("{}-{}", source.id, item.language));
    let revision_id = format!("rev-{}-{}", result_id, item.stats.runs + 1);
    match world.spaces.iter_mut().find(|space| space.id == result_id) {
        Some(space) => {
            space.revision.id = revision_id.clone();
            space.updated_at = now.clone();
        }
        None => {
            let mut space = source.clone();
            space.id = result_id.clone();
            space.title = format!("{} ({})", source.title, item.language);
            space.language = LANGUAGES
                .iter()
                .find(|code| **code == item.language)
                .copied()
                .unwrap_or("en");
            space.created_at = now.clone();
            space.updated_at = now.clone();
            space.git_repository = None;
            space.published_url = None;
            space.comments = 0;
            space.change_requests = 0;
            space.change_requests_open = 0;
            space.change_requests_draft = 0;
            space.revision.id = revision_id.clone();
            translate_pages(&mut space.revision.pages, &item.language);
            world.spaces.push(space);
        }
    }
    let item = &mut world.translations.items[index];
    item.running_since = None;
    item.result_space = Some(result_id);
    item.result_revision = Some(revision_id);
    item.updated_at = now;
    let stats = &mut item.stats;
    stats.runs += 1;
    stats.latest_pages = pages;
    stats.latest_words = words;
    stats.latest_run_duration = duration;
    stats.total_pages += pages;
    stats.total_words += words;
    stats.total_duration += duration;
}

/// The result space's pages: the source's tree, each document saying what it stands for. The
/// sandbox translates nothing, and copying the text would double every search hit.
fn translate_pages(pages: &mut [super::model::Page], language: &str) {
    for page in pages {
        if let super::model::PageKind::Document { markdown } = &mut page.kind {
            *markdown = format!(
                "# {}\n\nThis page, translated into `{language}`, would be here: the sandbox \
                 does not translate text.\n",
                page.title
            );
        }
        translate_pages(&mut page.children, language);
    }
}

fn status(item: &Translation) -> &'static str {
    match (&item.running_since, item.stats.runs) {
        (Some(_), _) => "running",
        (None, 0) => "pending",
        (None, _) => "completed",
    }
}

fn render(shared: &Shared, item: &Translation, role: Role) -> Value {
    let mut value = json!({
        "object": "translation",
        "id": item.id,
        "status": status(item),
        "source": {"space": item.source_space, "language": item.source_language},
        "language": item.language,
        "instructions": item.instructions,
        "createdAt": item.created_at,
        "updatedAt": item.updated_at,
        "stats": {
            "runs": item.stats.runs,
            "totalWords": item.stats.total_words,
            "totalPages": item.stats.total_pages,
            "totalDuration": item.stats.total_duration,
            "latestRunDuration": item.stats.latest_run_duration,
            "latestPages": item.stats.latest_pages,
            "latestWords": item.stats.latest_words,
        },
        "permissions": {"view": true, "edit": role == Role::Admin},
        "urls": {"location": location(shared, &item.organization, &item.id)},
    });
    if let (Some(space), Some(revision)) = (&item.result_space, &item.result_revision) {
        value["result"] = json!({"space": space, "revision": revision, "language": item.language});
    }
    value
}

fn location(shared: &Shared, organization: &str, id: &str) -> String {
    format!("{}/orgs/{organization}/translations/{id}", shared.api_url)
}

fn language(body: &Body, name: &str, field: &str) -> Result<String, ApiError> {
    match body.get(name).and_then(Value::as_str) {
        Some(code) if LANGUAGES.contains(&code) => Ok(code.to_string()),
        Some(_) => Err(ApiError::bad_request(format!(
            "Invalid \"{field}\": expected a language code such as en, fr, de, ja, pt-br"
        ))),
        None => Err(ApiError::bad_request(format!(
            "\"{field}\" is required: a language code such as fr"
        ))),
    }
}

fn instructions(body: &Body) -> Result<Option<Value>, ApiError> {
    match body.get("instructions") {
        None => Ok(None),
        Some(value) if value.get("object").and_then(Value::as_str) == Some("document") => {
            if value.get("nodes").is_some_and(|nodes| !nodes.is_array()) {
                return Err(ApiError::bad_request(
                    "Invalid \"instructions.nodes\": expected an array of blocks",
                ));
            }
            Ok(Some(value.clone()))
        }
        Some(_) => Err(ApiError::bad_request(
            "Invalid \"instructions\": expected a Document ({\"object\": \"document\", \"nodes\": […]})",
        )),
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
        .translations
        .items
        .iter()
        .filter(|item| item.organization == organization)
        .map(|item| render(&shared, item, role))
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
    validate::reject_unknown(&body, &["language", "source", "instructions"])?;
    let target = language(&body, "language", "language")?;
    let source = match body.get("source") {
        Some(Value::Object(source)) => source.clone(),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"source\": expected {\"space\": …, \"language\": …}",
            ));
        }
        None => {
            return Err(ApiError::bad_request(
                "\"source\" is required: {\"space\": …, \"language\": …}",
            ));
        }
    };
    let space = validate::required_text(&source, "space", 1, 128)
        .map_err(|_| ApiError::bad_request("\"source.space\" is required: a space id"))?;
    let source_language = language(&source, "language", "source.language")?;
    let known = world
        .space(&space)
        .is_some_and(|found| found.organization == organization && found.deleted_at.is_none());
    if !known {
        return Err(ApiError::bad_request(format!(
            "Invalid \"source.space\": no space \"{space}\" in organization \"{organization}\""
        )));
    }
    if target == source_language {
        return Err(ApiError::bad_request(
            "Invalid \"language\": the target language is the source language",
        ));
    }
    let instructions = instructions(&body)?.unwrap_or_else(empty_document);
    world.translations.created += 1;
    let now = iso(world.now());
    let item = Translation {
        id: format!("trn-{}-{}", target, world.translations.created),
        organization: organization.clone(),
        source_space: space,
        source_language,
        language: target,
        instructions,
        result_space: None,
        result_revision: None,
        created_at: now.clone(),
        updated_at: now,
        running_since: None,
        stats: Stats::default(),
    };
    let value = render(&shared, &item, Role::Admin);
    let location = location(&shared, &organization, &item.id);
    world.translations.items.push(item);
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(value)).into_response())
}

async fn read(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let role = require_member(&world, &organization, &context.user)?;
    settle(&mut world);
    let index = position(&world, &organization, &id)?;
    Ok(Json(render(&shared, &world.translations.items[index], role)).into_response())
}

async fn update(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
    body: RequestBody,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user)?;
    settle(&mut world);
    let index = position(&world, &organization, &id)?;
    let body = body_of(body)?;
    validate::reject_unknown(&body, &["instructions"])?;
    let instructions = instructions(&body)?
        .ok_or_else(|| ApiError::bad_request("\"instructions\" is required: a Document"))?;
    let now = iso(world.now());
    let item = &mut world.translations.items[index];
    item.instructions = instructions;
    item.updated_at = now;
    Ok(Json(render(&shared, item, Role::Admin)).into_response())
}

/// 204 whether or not the translation was there.
async fn remove(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user)?;
    world
        .translations
        .items
        .retain(|item| !(item.organization == organization && item.id == id));
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// 204: the run is started; a run already under way is left to finish.
async fn run(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path((organization, id)): Path<(String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    require_admin(&world, &organization, &context.user)?;
    settle(&mut world);
    let index = position(&world, &organization, &id)?;
    let now = iso(world.now());
    let item = &mut world.translations.items[index];
    if item.running_since.is_none() {
        item.running_since = Some(now.clone());
        item.updated_at = now;
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The demo's translations: Rust SDK (English) into French (three runs) and German (one run),
/// each with its result space beside the source, and into Japanese (never run, pending).
pub(crate) fn populate(world: &mut World) {
    let demo = [
        (
            "trn-rust-sdk-fr",
            "fr",
            3,
            20,
            "Keep code, crate names and CLI flags in English.\nUse « vous », never « tu ».",
        ),
        (
            "trn-rust-sdk-de",
            "de",
            1,
            40,
            "Use the formal « Sie ».\nKeep [product names] and 2*3*4 as written.",
        ),
        ("trn-rust-sdk-ja", "ja", 0, 60, ""),
    ];
    for (id, language, runs, days, instructions) in demo {
        let created_at = super::demo::dates::timestamp(days + 150, 0);
        world.translations.items.push(Translation {
            id: id.to_string(),
            organization: "org-acme-robotics".to_string(),
            source_space: "spc-rust-sdk".to_string(),
            source_language: "en".to_string(),
            language: language.to_string(),
            instructions: if instructions.is_empty() {
                empty_document()
            } else {
                paragraphs(instructions)
            },
            result_space: None,
            result_revision: None,
            created_at: created_at.clone(),
            updated_at: created_at,
            running_since: None,
            stats: Stats::default(),
        });
        let index = world.translations.items.len() - 1;
        for _ in 0..runs {
            complete_run(world, index);
        }
        // Stable demo dates rather than the time the sandbox started.
        let stamp = super::demo::dates::timestamp(days + 160, 30);
        let item = &mut world.translations.items[index];
        item.updated_at = stamp.clone();
        if let Some(space) = item.result_space.clone()
            && let Some(space) = world.spaces.iter_mut().find(|found| found.id == space)
        {
            space.created_at = stamp.clone();
            space.updated_at = stamp;
            // Beside the source, in the collection of the Robotics SDK.
        }
    }
}

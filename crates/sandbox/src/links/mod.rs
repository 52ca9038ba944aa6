//! Links and backlinks (`GET /spaces/{id}/links`, a page's links, a
//! page's or a file's backlinks). Links are read from the pages' markdown, so they follow every
//! edit: a relative link to a page that does not exist is `broken`, a link to the platform's own
//! app is `in-app`, anything else is `ok`. Each item is one target with every page linking to it.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::routing::get;
use axum::{Extension, Json, Router};
use pulldown_cmark::{Event, Parser, Tag};
use serde_json::{Value, json};

use super::change_requests::content::apply;
use super::change_requests::model::Status;
use super::error::ApiError;
use super::model::{Page, PageKind, Space};
use super::paging::envelope;
use super::render::{APP_URL, FILES_URL};
use super::world::World;
use crate::context::{Context, Shared, query_map, require_space};

type Answer = Result<Json<Value>, ApiError>;

const CHANGE_REQUEST_CONTENT: &str = "/v1/spaces/{space}/change-requests/{change_request}/content";

pub(crate) fn router() -> Router<Arc<Shared>> {
    let in_change_request = |suffix: &str| format!("{CHANGE_REQUEST_CONTENT}{suffix}");
    Router::new()
        .route("/v1/spaces/{space}/links", get(space_links))
        .route(
            "/v1/spaces/{space}/content/page/{page}/links",
            get(page_links),
        )
        .route(
            "/v1/spaces/{space}/content/page/{page}/backlinks",
            get(page_backlinks),
        )
        .route(
            "/v1/spaces/{space}/content/files/{file}/backlinks",
            get(file_backlinks),
        )
        .route(&in_change_request("/page/{page}/links"), get(page_links))
        .route(
            &in_change_request("/page/{page}/backlinks"),
            get(page_backlinks),
        )
        .route(
            &in_change_request("/files/{file}/backlinks"),
            get(file_backlinks),
        )
}

/// The content a request reads: a space's live pages or a change request's.
pub(super) struct Content<'a> {
    pub space: &'a Space,
    pub pages: Vec<Page>,
    pub revision: String,
}

/// The space's content, or the change request's (by id or number) when one is named.
pub(super) fn content<'a>(
    world: &'a World,
    space: &str,
    change_request: Option<&str>,
) -> Result<Content<'a>, ApiError> {
    let found = require_space(world, space)?;
    let Some(change_request) = change_request else {
        return Ok(Content {
            space: found,
            pages: found.revision.pages.clone(),
            revision: found.revision.id.clone(),
        });
    };
    let index = world
        .change_requests
        .find(space, change_request)
        .ok_or_else(|| ApiError::not_found("change request", change_request))?;
    let record = &world.change_requests.items[index];
    Ok(Content {
        space: found,
        pages: apply(&record.base_pages, &record.edits, &record.updated_at),
        revision: record.revision.clone(),
    })
}

/// The status filter: absent, or one of the three statuses.
fn status_filter(query: &HashMap<String, String>) -> Result<Option<&'static str>, ApiError> {
    match query.get("status").map(|status| status.trim()) {
        None | Some("") => Ok(None),
        Some(status) => STATUS_ORDER
            .iter()
            .find(|known| **known == status)
            .map(|known| Some(*known))
            .ok_or_else(|| {
                ApiError::bad_request("Invalid \"status\": expected ok, broken or in-app")
            }),
    }
}

/// Broken links first, then in-app, then the rest: what needs fixing comes first.
const STATUS_ORDER: [&str; 3] = ["broken", "in-app", "ok"];

/// One link target and the pages it is written on.
#[derive(Debug, Clone, PartialEq)]
struct Found {
    status: &'static str,
    relation: &'static str,
    target: Value,
    /// Page ids, in tree order, each once.
    locations: Vec<String>,
}

/// Every link of `pages`, one item per target, broken first.
fn links_of(content: &Content) -> Vec<Found> {
    let every_page = flatten(&content.pages);
    let mut found: Vec<Found> = Vec::new();
    for page in &every_page {
        let PageKind::Document { markdown } = &page.kind else {
            continue;
        };
        for (relation, address) in addresses(markdown) {
            let (status, target) = resolve(&address, page, &every_page, content.space);
            match found.iter_mut().find(|item| item.target == target) {
                Some(item) if !item.locations.contains(&page.id) => {
                    item.locations.push(page.id.clone());
                }
                Some(_) => {}
                None => found.push(Found {
                    status,
                    relation,
                    target,
                    locations: vec![page.id.clone()],
                }),
            }
        }
    }
    found.sort_by_key(|item| {
        STATUS_ORDER
            .iter()
            .position(|status| *status == item.status)
    });
    found
}

fn flatten(pages: &[Page]) -> Vec<&Page> {
    let mut flat = Vec::new();
    for page in pages {
        flat.push(page);
        flat.extend(flatten(&page.children));
    }
    flat
}

/// The addresses of the links and images written in `markdown`.
fn addresses(markdown: &str) -> Vec<(&'static str, String)> {
    Parser::new(markdown)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. }) => Some(("link", dest_url.to_string())),
            Event::Start(Tag::Image { dest_url, .. }) => Some(("image", dest_url.to_string())),
            _ => None,
        })
        .collect()
}

/// Where an address written on `page` leads, and whether it gets there.
fn resolve(address: &str, page: &Page, pages: &[&Page], space: &Space) -> (&'static str, Value) {
    let url = |status| (status, json!({ "kind": "url", "url": address }));
    if address.starts_with(APP_URL) {
        return url("in-app");
    }
    let files_prefix = format!("{FILES_URL}/{}/", space.id);
    if let Some(rest) = address.strip_prefix(&files_prefix) {
        let file = rest.split('/').next().unwrap_or_default();
        let exists = space.revision.files.iter().any(|known| known.id == file);
        let status = if exists { "ok" } else { "broken" };
        return (
            status,
            json!({ "kind": "file", "file": file, "space": space.id }),
        );
    }
    if address.contains("://") || address.starts_with("mailto:") {
        return url("ok");
    }
    let (path, anchor) = match address.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (address, None),
    };
    let target = if path.is_empty() {
        Some(page)
    } else {
        let wanted = page_name(path);
        pages
            .iter()
            .copied()
            .find(|candidate| candidate.slug == wanted || candidate.path == wanted)
    };
    match (target, anchor) {
        (None, _) => url("broken"),
        (Some(target), Some(anchor)) => (
            "ok",
            json!({ "kind": "anchor", "anchor": anchor, "page": target.id, "space": space.id }),
        ),
        (Some(target), None) => (
            "ok",
            json!({ "kind": "page", "page": target.id, "space": space.id }),
        ),
    }
}

/// `../guides/install.md` → `install`, `guides/README.md` → `guides`: the slug a relative
/// markdown address names.
fn page_name(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    let trimmed = trimmed
        .strip_suffix("/README.md")
        .or_else(|| trimmed.strip_suffix(".md"))
        .unwrap_or(trimmed);
    trimmed
        .rsplit('/')
        .find(|part| !part.is_empty() && *part != "." && *part != "..")
        .unwrap_or_default()
        .to_string()
}

fn location(content: &Content, page: &str) -> Value {
    json!({
        "kind": "page",
        "organization": content.space.organization,
        "space": content.space.id,
        "page": page,
        "versionContext": { "type": "revision", "revision": content.revision },
    })
}

fn render(content: &Content, item: &Found, only_page: Option<&str>) -> Value {
    let locations: Vec<Value> = item
        .locations
        .iter()
        .filter(|page| only_page.is_none_or(|only| only == page.as_str()))
        .map(|page| location(content, page))
        .collect();
    json!({
        "status": item.status,
        "relation": item.relation,
        "targetReference": item.target,
        "locationReferences": locations,
    })
}

/// A links list: the envelope of `found` (those of `status` only when given) plus the
/// totals of all of them.
fn link_list(
    content: &Content,
    found: &[Found],
    only_page: Option<&str>,
    broken_in_change_requests: usize,
    query: &HashMap<String, String>,
    context: &Context,
) -> Answer {
    let status = status_filter(query)?;
    let items = found
        .iter()
        .filter(|item| status.is_none_or(|status| item.status == status))
        .map(|item| render(content, item, only_page))
        .collect();
    let mut answer = envelope(items, query, &context.faults)?;
    answer["stats"] = json!({
        "total": found.len(),
        "broken": {
            "total": found.iter().filter(|item| item.status == "broken").count(),
            "changeRequest": broken_in_change_requests,
        },
    });
    Ok(Json(answer))
}

/// Broken link targets that open change requests of the space would add.
fn broken_in_open_change_requests(world: &World, space: &Space, main: &[Found]) -> usize {
    let mut added: Vec<Value> = Vec::new();
    for record in world.change_requests.items.iter().filter(|record| {
        record.space == space.id && matches!(record.status, Status::Open | Status::Draft)
    }) {
        let content = Content {
            space,
            pages: apply(&record.base_pages, &record.edits, &record.updated_at),
            revision: record.revision.clone(),
        };
        for item in links_of(&content) {
            let in_main = main.iter().any(|known| known.target == item.target);
            if item.status == "broken" && !in_main && !added.contains(&item.target) {
                added.push(item.target);
            }
        }
    }
    added.len()
}

async fn space_links(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(space): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let query = query_map(raw);
    let world = shared.world.read().await;
    let content = content(&world, &space, None)?;
    let found = links_of(&content);
    let in_change_requests = broken_in_open_change_requests(&world, content.space, &found);
    link_list(&content, &found, None, in_change_requests, &query, &context)
}

/// The links written on one page of `content`.
fn links_on_page(
    content: &Content,
    page: &str,
    query: &HashMap<String, String>,
    context: &Context,
) -> Answer {
    require_page(content, page)?;
    let found: Vec<Found> = links_of(content)
        .into_iter()
        .filter(|item| item.locations.iter().any(|location| location == page))
        .collect();
    link_list(content, &found, Some(page), 0, query, context)
}

fn require_page(content: &Content, page: &str) -> Result<(), ApiError> {
    flatten(&content.pages)
        .iter()
        .any(|known| known.id == page)
        .then_some(())
        .ok_or_else(|| ApiError::not_found("page", page))
}

/// Where links to `target` (a page or a file reference) are written: one location per page.
fn backlinks(
    content: &Content,
    points_here: impl Fn(&Value) -> bool,
    query: &HashMap<String, String>,
    context: &Context,
) -> Answer {
    let mut pages: Vec<String> = Vec::new();
    for item in links_of(content) {
        if item.status != "broken" && points_here(&item.target) {
            for page in item.locations {
                if !pages.contains(&page) {
                    pages.push(page);
                }
            }
        }
    }
    let order: Vec<String> = flatten(&content.pages)
        .iter()
        .map(|page| page.id.clone())
        .collect();
    pages.sort_by_key(|page| order.iter().position(|known| known == page));
    let items = pages.iter().map(|page| location(content, page)).collect();
    Ok(Json(envelope(items, query, &context.faults)?))
}

fn page_backlinks_of(
    content: &Content,
    page: &str,
    query: &HashMap<String, String>,
    context: &Context,
) -> Answer {
    require_page(content, page)?;
    let points_here = |target: &Value| target["page"] == page && target["kind"] != "file";
    backlinks(content, points_here, query, context)
}

fn file_backlinks_of(
    content: &Content,
    file: &str,
    query: &HashMap<String, String>,
    context: &Context,
) -> Answer {
    if !content
        .space
        .revision
        .files
        .iter()
        .any(|known| known.id == file)
    {
        return Err(ApiError::not_found("file", file));
    }
    let points_here = |target: &Value| target["kind"] == "file" && target["file"] == file;
    backlinks(content, points_here, query, context)
}

/// Path parameters: `space`, `page` or `file`, and `change_request` for a change request's
/// content, so each handler serves both sources.
type Params = Path<HashMap<String, String>>;

fn param<'a>(params: &'a HashMap<String, String>, name: &str) -> &'a str {
    params.get(name).map(String::as_str).unwrap_or_default()
}

/// The content the path names: a space's, or one of its change requests'.
fn content_of<'a>(
    world: &'a World,
    params: &HashMap<String, String>,
) -> Result<Content<'a>, ApiError> {
    let change_request = params.get("change_request").map(String::as_str);
    content(world, param(params, "space"), change_request)
}

async fn page_links(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(params): Params,
    RawQuery(raw): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    let content = content_of(&world, &params)?;
    links_on_page(&content, param(&params, "page"), &query_map(raw), &context)
}

async fn page_backlinks(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(params): Params,
    RawQuery(raw): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    let content = content_of(&world, &params)?;
    page_backlinks_of(&content, param(&params, "page"), &query_map(raw), &context)
}

async fn file_backlinks(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(params): Params,
    RawQuery(raw): RawQuery,
) -> Answer {
    let world = shared.world.read().await;
    let content = content_of(&world, &params)?;
    file_backlinks_of(&content, param(&params, "file"), &query_map(raw), &context)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_addresses_name_a_slug() {
        assert_eq!(page_name("quickstart.md"), "quickstart");
        assert_eq!(page_name("../guides/install.md"), "install");
        assert_eq!(page_name("guides/README.md"), "guides");
        assert_eq!(page_name("./faq"), "faq");
        assert_eq!(page_name(".."), "");
    }

    #[test]
    fn links_and_images_are_found() {
        let found = addresses("See [a](a.md) and ![b](https://x/b.png).\n\n`[not](code)`");
        assert_eq!(
            found,
            vec![
                ("link", "a.md".to_string()),
                ("image", "https://x/b.png".to_string())
            ]
        );
    }
}

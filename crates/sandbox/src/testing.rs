//! Sandbox-only routes for tests and people trying things out. NOT part of the API: the real
//! service has nothing under `/_sandbox`, and the client never calls these.
//!
//! - `PUT /_sandbox/spaces/{space}/pages/{page}/markdown` — replaces a document page's
//!   markdown with the request body (plain text), so a test can plant any content, hostile
//!   bytes included, and then read it back through the ordinary `GET …/content/page/{page}`.
//! - `PUT /_sandbox/spaces/{space}/change-requests/{cr}/pages/{page}/markdown` — the same for
//!   a page of a change request: a new edit, and a new revision of the change request (as an
//!   author's edit makes), so a test can change a change request after someone reviewed it.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::put;

use super::error::ApiError;
use super::model::{Page, PageKind};
use crate::context::Shared;

pub fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route(
            "/_sandbox/spaces/{space}/pages/{page}/markdown",
            put(set_page_markdown),
        )
        .route(
            "/_sandbox/spaces/{space}/change-requests/{change_request}/pages/{page}/markdown",
            put(set_change_request_page_markdown),
        )
}

/// Answers 204 once the change request's page reads `body`, under a new revision.
async fn set_change_request_page_markdown(
    State(shared): State<Arc<Shared>>,
    Path((space_id, change_request_id, page_id)): Path<(String, String, String)>,
    body: String,
) -> Result<StatusCode, ApiError> {
    use super::change_requests::content::{apply, find};
    use super::change_requests::model::PageEdit;
    let mut world = shared.world.write().await;
    let index = world
        .change_requests
        .find(&space_id, &change_request_id)
        .ok_or_else(|| ApiError::not_found("change request", &change_request_id))?;
    let revision = world.change_requests.new_id("rev");
    let change_request = &mut world.change_requests.items[index];
    let content = apply(&change_request.base_pages, &change_request.edits, "t");
    if find(&content, &page_id).is_none() {
        return Err(ApiError::not_found("page", &page_id));
    }
    change_request.edits.push(PageEdit::Edit {
        page: page_id,
        title: None,
        markdown: Some(body),
    });
    change_request.revision = revision;
    change_request.updated_at = chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string();
    Ok(StatusCode::NO_CONTENT)
}

/// Answers 204 once the page's markdown is `body`. Group and link pages have no markdown: 400.
async fn set_page_markdown(
    State(shared): State<Arc<Shared>>,
    Path((space_id, page_id)): Path<(String, String)>,
    body: String,
) -> Result<StatusCode, ApiError> {
    let mut world = shared.world.write().await;
    let space = world
        .spaces
        .iter_mut()
        .find(|space| space.id == space_id)
        .ok_or_else(|| ApiError::not_found("space", &space_id))?;
    let page = find_page_mut(&mut space.revision.pages, &page_id)
        .ok_or_else(|| ApiError::not_found("page", &page_id))?;
    match &mut page.kind {
        PageKind::Document { markdown } => {
            *markdown = body;
            Ok(StatusCode::NO_CONTENT)
        }
        PageKind::Group | PageKind::Link { .. } => Err(ApiError::bad_request(format!(
            "page {page_id} is not a document page"
        ))),
    }
}

fn find_page_mut<'a>(pages: &'a mut [Page], id: &str) -> Option<&'a mut Page> {
    for page in pages {
        if page.id == id {
            return Some(page);
        }
        if let Some(found) = find_page_mut(&mut page.children, id) {
            return Some(found);
        }
    }
    None
}

//! Sandbox-only routes for tests and people trying things out. NOT part of the API: the real
//! service has nothing under `/_sandbox`, and the client never calls these.
//!
//! - `PUT /_sandbox/spaces/{space}/pages/{page}/markdown` — replaces a document page's
//!   markdown with the request body (plain text), so a test can plant any content, hostile
//!   bytes included, and then read it back through the ordinary `GET …/content/page/{page}`.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::put;

use super::error::ApiError;
use super::model::{Page, PageKind};
use super::routes::Shared;

pub fn router() -> Router<Arc<Shared>> {
    Router::new().route(
        "/_sandbox/spaces/{space}/pages/{page}/markdown",
        put(set_page_markdown),
    )
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

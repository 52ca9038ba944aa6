//! A change request's content: its semantic changes against its base, its page tree and pages,
//! and where its PDF would be downloaded.

use axum::Extension;
use axum::extract::{Path, RawQuery, State};
use serde_json::{Value, json};

use super::{Answer, SharedState, first, json_response, locate, query_pairs, renderer, space_of};
use crate::change_requests::content::{apply, changes, find};
use crate::change_requests::model::ChangeRequest;
use crate::context::Context;
use crate::error::ApiError;

/// `limit` of the semantic changes list when none is given.
const DEFAULT_CHANGES_LIMIT: usize = 10;

/// The change request's page tree: its base with its edits applied.
pub(super) fn content_of(change_request: &ChangeRequest) -> Vec<crate::model::Page> {
    apply(
        &change_request.base_pages,
        &change_request.edits,
        &change_request.updated_at,
    )
}

/// `GET …/change-requests/{cr}/pdf`: where the PDF of the change request (or, with `page`, of
/// that page; `only` is accepted as a boolean) would be downloaded. `page` is a page id of the
/// change request's content: 404 for one it does not have.
pub(super) async fn get_pdf(
    State(shared): SharedState,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    if let Some(only) = first(&pairs, "only")
        && !matches!(only, "true" | "false")
    {
        return Err(ApiError::bad_request(
            "Invalid \"only\": expected true or false",
        ));
    }
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let mut url = format!(
        "https://files.docs.example/pdf/{space_id}/{}.pdf",
        change_request.id
    );
    if let Some(page) = first(&pairs, "page").filter(|page| !page.is_empty()) {
        if find(&content_of(change_request), page).is_none() {
            return Err(ApiError::not_found("page", page));
        }
        url.push_str(&format!("?page={page}"));
    }
    json_response(json!({ "url": url }))
}

pub(super) async fn list_changes(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let limit = match first(&pairs, "limit") {
        None => DEFAULT_CHANGES_LIMIT,
        Some(text) => text
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|limit| *limit <= crate::MAX_LIMIT)
            .ok_or_else(|| ApiError::bad_request("Invalid \"limit\": expected 0 to 1000"))?,
    };
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let content = content_of(change_request);
    let all = changes(&change_request.base_pages, &content);
    let renderer = renderer(&world, &shared, &context, space);
    let listed: Vec<Value> = all
        .iter()
        .take(limit)
        .map(|change| renderer.change(change))
        .collect();
    let mut body = json!({ "changes": listed });
    if all.len() > limit {
        body["more"] = json!(all.len() - limit);
    }
    json_response(body)
}

pub(super) async fn get_content(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let mut as_revision = space.clone();
    as_revision.revision.id = change_request.revision.clone();
    as_revision.revision.parents = vec![change_request.base_revision.clone()];
    as_revision.revision.created_at = change_request.updated_at.clone();
    as_revision.revision.pages = content_of(change_request);
    let renderer = renderer(&world, &shared, &context, space);
    json_response(renderer.view.revision(&as_revision))
}

pub(super) async fn list_content_pages(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
) -> Answer {
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let content = content_of(change_request);
    let renderer = renderer(&world, &shared, &context, space);
    json_response(json!({ "pages": renderer.view.page_tree(space, &content) }))
}

pub(super) async fn get_content_page(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, page_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let markdown_format = match first(&pairs, "format") {
        None | Some("document") => false,
        Some("markdown") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"format\": expected document or markdown",
            ));
        }
    };
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let content = content_of(change_request);
    let page = find(&content, &page_id).ok_or_else(|| ApiError::not_found("page", &page_id))?;
    let renderer = renderer(&world, &shared, &context, space);
    json_response(renderer.view.page_with_body(space, page, markdown_format))
}

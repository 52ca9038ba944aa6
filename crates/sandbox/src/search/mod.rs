//! Full-text search: a space's pages, or every space of an organization,
//! matched case-insensitively on page titles and on sections (a heading and the text below it).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::model::{Page, PageKind, Space};
use super::paging::envelope;
use super::render::{View, slugify};
use crate::context::{Context, Shared, query_map, require_organization, require_space, view};

type Answer = Result<Json<Value>, ApiError>;
type Query = HashMap<String, String>;

/// The longest query the contract allows (organization search; the service says the same of
/// space search).
const MAX_QUERY_LENGTH: usize = 512;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/v1/spaces/{space}/search", get(search_space))
        .route("/v1/orgs/{organization}/search", get(search_organization))
}

async fn search_space(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let query = query_map(raw);
    let text = search_text(&query)?;
    let world = shared.world.read().await;
    let space = require_space(&world, &id)?;
    let items = page_hits(&view(&world, &shared, &context), space, &text);
    Ok(Json(envelope(items, &query, &context.faults)?))
}

/// `GET /orgs/{org}/search`: every space of the organization with its matching pages, spaces
/// without a match left out.
async fn search_organization(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let query = query_map(raw);
    let text = search_text(&query)?;
    let world = shared.world.read().await;
    require_organization(&world, &id)?;
    let view = view(&world, &shared, &context);
    let items: Vec<Value> = world
        .spaces
        .iter()
        .filter(|space| space.organization == id)
        .filter_map(|space| {
            let pages = page_hits(&view, space, &text);
            (!pages.is_empty()).then(|| {
                json!({
                    "type": "space",
                    "id": space.id,
                    "title": space.title,
                    "score": pages.len() as f64,
                    "pages": pages,
                })
            })
        })
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

/// The `query` parameter, lower-cased: required, at most [`MAX_QUERY_LENGTH`] characters.
fn search_text(query: &Query) -> Result<String, ApiError> {
    let text = query
        .get("query")
        .map(|text| text.trim().to_lowercase())
        .unwrap_or_default();
    if text.is_empty() || text.chars().count() > MAX_QUERY_LENGTH {
        return Err(ApiError::bad_request(format!(
            "\"query\" is required, 1 to {MAX_QUERY_LENGTH} characters"
        )));
    }
    Ok(text)
}

/// The pages of a space whose title or sections contain `text`, ranked in tree order.
fn page_hits(view: &View, space: &Space, text: &str) -> Vec<Value> {
    let mut hits = Vec::new();
    for (page, ancestors) in space.revision.flatten() {
        if page.hidden || matches!(page.kind, PageKind::Link { .. }) {
            continue;
        }
        let sections = matching_sections(page, text);
        if page.title.to_lowercase().contains(text) || !sections.is_empty() {
            hits.push(view.search_hit(space, page, &ancestors, sections, hits.len() + 1));
        }
    }
    hits
}

/// Sections (heading + following text) of a document page whose text contains `needle`
/// (already lower-case). Text before the first heading counts as a section named after the page.
fn matching_sections(page: &Page, needle: &str) -> Vec<(String, String)> {
    let PageKind::Document { markdown } = &page.kind else {
        return Vec::new();
    };
    let mut sections: Vec<(String, String)> = vec![(page.title.clone(), String::new())];
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') && trimmed.trim_start_matches('#').starts_with(' ') {
            sections.push((
                trimmed.trim_start_matches('#').trim().to_string(),
                String::new(),
            ));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections
        .into_iter()
        .filter(|(title, body)| {
            title.to_lowercase().contains(needle) || body.to_lowercase().contains(needle)
        })
        .map(|(title, body)| (title, excerpt(&body, needle)))
        .filter(|(title, _)| !slugify(title).is_empty())
        .collect()
}

/// A short piece of `body` around the first occurrence of `needle`.
fn excerpt(body: &str, needle: &str) -> String {
    let flat: Vec<char> = body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .collect();
    let lower: String = flat
        .iter()
        .flat_map(|character| character.to_lowercase())
        .collect();
    let position = lower
        .find(needle)
        .map(|byte| lower[..byte].chars().count())
        .unwrap_or(0)
        .min(flat.len());
    let mut start = position.saturating_sub(60);
    // Start on a word boundary so the excerpt does not open mid-word.
    while start > 0 && start < position && !flat[start - 1].is_whitespace() {
        start += 1;
    }
    let end = (position + needle.chars().count() + 100).min(flat.len());
    flat[start..end]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_is_char_safe() {
        let text = "Ünïcödé ".repeat(40) + "needle here";
        let piece = excerpt(&text, "needle");
        assert!(piece.contains("needle"));
        assert_eq!(excerpt("", "x"), "");
    }
}

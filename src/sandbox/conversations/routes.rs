//! `GET /orgs/{org}/conversations-clusters` (seed §4.16): the organization's clusters, paged,
//! ordered by `sort` (`updatedAt` by default, or `createdAt`) in `order` (`desc` by default).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::{Value, json};

use super::Cluster;
use crate::sandbox::error::ApiError;
use crate::sandbox::paging::envelope;
use crate::sandbox::render::APP_URL;
use crate::sandbox::routes::{Context, Shared};

pub fn router() -> Router<Arc<Shared>> {
    Router::new().route(
        "/v1/orgs/{organization}/conversations-clusters",
        get(list_clusters),
    )
}

async fn list_clusters(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let ascending = match query.get("order").map(String::as_str) {
        None | Some("desc") => false,
        Some("asc") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"order\": expected asc or desc",
            ));
        }
    };
    let by_created = match query.get("sort").map(String::as_str) {
        None | Some("updatedAt") => false,
        Some("createdAt") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"sort\": expected updatedAt or createdAt",
            ));
        }
    };
    let world = shared.world.read().await;
    world
        .organization(&organization)
        .ok_or_else(|| ApiError::not_found("organization", &organization))?;
    let mut clusters: Vec<&Cluster> = world
        .conversations
        .clusters
        .iter()
        .filter(|cluster| cluster.organization == organization)
        .collect();
    clusters.sort_by(|left, right| {
        let key = |cluster: &Cluster| {
            if by_created {
                cluster.created_at.clone()
            } else {
                cluster.updated_at.clone()
            }
        };
        let ordering = key(left).cmp(&key(right));
        if ascending {
            ordering
        } else {
            ordering.reverse()
        }
    });
    let items = clusters
        .into_iter()
        .map(|cluster| render(cluster, &shared.api_url))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

fn render(cluster: &Cluster, api_url: &str) -> Value {
    let sources: serde_json::Map<String, Value> = cluster
        .sources
        .iter()
        .map(|(name, count)| (name.clone(), json!(count)))
        .collect();
    json!({
        "object": "issues-cluster",
        "id": cluster.id,
        "label": cluster.label,
        "createdAt": cluster.created_at,
        "updatedAt": cluster.updated_at,
        "icon": cluster.icon,
        "summary": cluster.summary,
        "weeklyPulse": cluster.weekly_pulse,
        "sources": sources,
        "stats": {
            "issues": cluster.issues,
            "conversations": cluster.conversations,
            "tasksTotal": 0,
            "tasksBacklog": 0,
            "tasksStarted": 0,
            "tasksCompleted": 0,
            "tasksCancelled": 0,
        },
        "urls": {
            "location": format!(
                "{api_url}/orgs/{}/conversations-clusters/{}",
                cluster.organization, cluster.id
            ),
            "app": format!("{APP_URL}/o/{}/insights/clusters/{}", cluster.organization, cluster.id),
        },
    })
}

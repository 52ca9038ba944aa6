//! The conversations endpoints. Lists are paged; clusters are ordered by `sort`
//! (`updatedAt` by default, or `createdAt`) in `order` (`desc` by default), of one `status`
//! (`active` or `archived`) when asked; conversations filter
//! by `source`, issues by `cluster` and `conversation`. Unknown organizations, clusters,
//! conversations and issues answer 404. Ingesting needs the admin role (403 otherwise) and a
//! body whose every field is right (400 naming the field).

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::{Map, Value, json};

use super::{Cluster, Issue, StoredConversation};
use crate::context::{Context, Shared};
use crate::error::ApiError;
use crate::model::Role;
use crate::paging::envelope;
use crate::render::APP_URL;
use crate::validate::{self, Body};
use crate::world::World;

type Parameters = HashMap<String, String>;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route(
            "/v1/orgs/{organization}/conversations-clusters",
            get(list_clusters),
        )
        .route(
            "/v1/orgs/{organization}/conversations",
            get(list_conversations).post(ingest),
        )
        .route(
            "/v1/orgs/{organization}/conversations/{conversation}",
            get(get_conversation),
        )
        .route(
            "/v1/orgs/{organization}/conversations-issues",
            get(list_issues),
        )
        .route(
            "/v1/orgs/{organization}/conversations-issues/{issue}",
            get(get_issue),
        )
}

fn require_organization(world: &World, organization: &str) -> Result<(), ApiError> {
    world
        .organization(organization)
        .map(|_| ())
        .ok_or_else(|| ApiError::not_found("organization", organization))
}

async fn list_clusters(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    Query(query): Query<Parameters>,
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
    let status = query.get("status").map(String::as_str);
    if let Some(status) = status.filter(|status| !super::CLUSTER_STATUSES.contains(status)) {
        return Err(ApiError::bad_request(format!(
            "Invalid \"status\" {status:?}: expected active or archived"
        )));
    }
    let world = shared.world.read().await;
    require_organization(&world, &organization)?;
    let mut clusters: Vec<&Cluster> = world
        .conversations
        .clusters
        .iter()
        .filter(|cluster| cluster.organization == organization)
        .filter(|cluster| status.is_none_or(|status| cluster.status() == status))
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
        .map(|cluster| render_cluster(cluster, &shared.api_url))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

async fn list_conversations(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    Query(query): Query<Parameters>,
) -> Result<Json<Value>, ApiError> {
    let world = shared.world.read().await;
    require_organization(&world, &organization)?;
    let source = query.get("source").filter(|source| !source.is_empty());
    let mut conversations: Vec<&StoredConversation> = world
        .conversations
        .conversations
        .iter()
        .filter(|conversation| conversation.organization == organization)
        .filter(|conversation| source.is_none_or(|source| &conversation.source == source))
        .collect();
    // Newest first, as an inbox reads.
    conversations.sort_by(|left, right| right.created_at.cmp(&left.created_at));
    let items = conversations
        .into_iter()
        .map(|conversation| render_conversation(conversation, &shared.api_url))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

async fn get_conversation(
    State(shared): State<Arc<Shared>>,
    Path((organization, id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let world = shared.world.read().await;
    require_organization(&world, &organization)?;
    let conversation = world
        .conversations
        .conversation(&organization, &id)
        .ok_or_else(|| ApiError::not_found("conversation", &id))?;
    let parts: Vec<Value> = conversation
        .messages
        .iter()
        .map(|(role, body)| json!({"type": "message", "role": role, "body": body}))
        .collect();
    let attributes: Map<String, Value> = conversation
        .attributes
        .iter()
        .map(|(name, value)| (name.clone(), json!(value)))
        .collect();
    Ok(Json(json!({
        "conversation": render_conversation(conversation, &shared.api_url),
        "parts": parts,
        "metadata": {
            "url": conversation.metadata_url,
            "attributes": attributes,
            "createdAt": conversation.metadata_created_at,
        },
    })))
}

async fn ingest(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<StatusCode, ApiError> {
    let mut world = shared.world.write().await;
    require_organization(&world, &organization)?;
    if world.role_in(&organization, &context.user) != Some(Role::Admin) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "Ingesting conversations needs the admin role in organization \"{organization}\""
            ),
        ));
    }
    let bytes = body.map_err(|_| ApiError::bad_request("The request body could not be read"))?;
    let body = validate::object_body(&bytes, false)?;
    let now = crate::model::iso(world.now());
    let conversation = checked_conversation(&body, &organization, &now)?;
    let conversations = &mut world.conversations.conversations;
    // The same id again replaces the earlier copy: ingesting is idempotent per id.
    conversations.retain(|old| !(old.organization == organization && old.id == conversation.id));
    conversations.push(conversation);
    Ok(StatusCode::NO_CONTENT)
}

/// The ingest body, checked in the order of its fields; the first wrong one is named.
fn checked_conversation(
    body: &Body,
    organization: &str,
    now: &str,
) -> Result<StoredConversation, ApiError> {
    validate::reject_unknown(body, &["id", "metadata", "subject", "parts"])?;
    let id = validate::required_text(body, "id", 1, 256)?;
    let subject = validate::required_text(body, "subject", 1, 1024)?;
    let Some(Value::Array(parts)) = body.get("parts") else {
        return Err(ApiError::bad_request(
            "\"parts\" is required: a list of {type: 'message', role, body}",
        ));
    };
    if parts.is_empty() {
        return Err(ApiError::bad_request(
            "\"parts\" needs at least one message",
        ));
    }
    let mut messages = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let Some(part) = part.as_object() else {
            return Err(ApiError::bad_request(format!(
                "Invalid \"parts[{index}]\": expected an object"
            )));
        };
        if part.get("type").and_then(Value::as_str) != Some("message") {
            return Err(ApiError::bad_request(format!(
                "Invalid \"parts[{index}].type\": expected \"message\""
            )));
        }
        let text = |name: &str| {
            part.get(name)
                .and_then(Value::as_str)
                .filter(|text| !text.trim().is_empty())
                .map(str::to_string)
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "Invalid \"parts[{index}].{name}\": expected a non-empty string"
                    ))
                })
        };
        messages.push((text("role")?, text("body")?));
    }
    let mut conversation = StoredConversation {
        id,
        organization: organization.to_string(),
        subject,
        created_at: now.to_string(),
        processed_at: None,
        source: "api".to_string(),
        messages,
        ..StoredConversation::default()
    };
    match body.get("metadata") {
        None | Some(Value::Null) => {}
        Some(Value::Object(metadata)) => read_metadata(metadata, &mut conversation)?,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"metadata\": expected an object",
            ));
        }
    }
    Ok(conversation)
}

fn read_metadata(metadata: &Body, conversation: &mut StoredConversation) -> Result<(), ApiError> {
    validate::reject_unknown(metadata, &["url", "attributes", "createdAt"])?;
    let invalid = |name: &str, expected: &str| {
        ApiError::bad_request(format!("Invalid \"metadata.{name}\": expected {expected}"))
    };
    if let Some(url) = metadata.get("url") {
        let url = url
            .as_str()
            .filter(|url| {
                url::Url::parse(url).is_ok_and(|parsed| parsed.scheme().starts_with("http"))
            })
            .ok_or_else(|| invalid("url", "an http(s) address"))?;
        conversation.metadata_url = Some(url.to_string());
    }
    if let Some(created_at) = metadata.get("createdAt") {
        let created_at = created_at
            .as_str()
            .filter(|text| chrono::DateTime::parse_from_rfc3339(text).is_ok())
            .ok_or_else(|| invalid("createdAt", "an ISO 8601 date-time"))?;
        conversation.metadata_created_at = Some(created_at.to_string());
        conversation.created_at = created_at.to_string();
    }
    match metadata.get("attributes") {
        None => {}
        Some(Value::Object(attributes)) => {
            for (name, value) in attributes {
                let value = value.as_str().ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "Invalid \"metadata.attributes.{name}\": expected a string"
                    ))
                })?;
                conversation
                    .attributes
                    .push((name.clone(), value.to_string()));
            }
        }
        Some(_) => return Err(invalid("attributes", "an object of strings")),
    }
    Ok(())
}

async fn list_issues(
    State(shared): State<Arc<Shared>>,
    Extension(context): Extension<Context>,
    Path(organization): Path<String>,
    Query(query): Query<Parameters>,
) -> Result<Json<Value>, ApiError> {
    let world = shared.world.read().await;
    require_organization(&world, &organization)?;
    let cluster = query.get("cluster").filter(|id| !id.is_empty());
    let conversation = query.get("conversation").filter(|id| !id.is_empty());
    if let Some(cluster) = cluster
        && world
            .conversations
            .cluster(&organization, cluster)
            .is_none()
    {
        return Err(ApiError::not_found("cluster", cluster));
    }
    if let Some(conversation) = conversation
        && world
            .conversations
            .conversation(&organization, conversation)
            .is_none()
    {
        return Err(ApiError::not_found("conversation", conversation));
    }
    let mut issues: Vec<&Issue> = world
        .conversations
        .issues
        .iter()
        .filter(|issue| issue.organization == organization)
        .filter(|issue| cluster.is_none_or(|id| issue.cluster.as_ref() == Some(id)))
        .filter(|issue| conversation.is_none_or(|id| &issue.conversation == id))
        .collect();
    issues.sort_by(|left, right| right.created_at.cmp(&left.created_at));
    let items = issues
        .into_iter()
        .filter_map(|issue| render_issue_item(&world, issue, &shared.api_url))
        .collect();
    Ok(Json(envelope(items, &query, &context.faults)?))
}

async fn get_issue(
    State(shared): State<Arc<Shared>>,
    Path((organization, id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let world = shared.world.read().await;
    require_organization(&world, &organization)?;
    world
        .conversations
        .issues
        .iter()
        .find(|issue| issue.organization == organization && issue.id == id)
        .and_then(|issue| render_issue_item(&world, issue, &shared.api_url))
        .map(Json)
        .ok_or_else(|| ApiError::not_found("issue", &id))
}

/// `{issue, conversation}`; an issue whose conversation is gone is left out.
fn render_issue_item(world: &World, issue: &Issue, api_url: &str) -> Option<Value> {
    let conversation = world
        .conversations
        .conversation(&issue.organization, &issue.conversation)?;
    Some(json!({
        "issue": {
            "object": "conversation-issue",
            "id": issue.id,
            "title": issue.title,
            "summary": issue.summary,
            "createdAt": issue.created_at,
            "ingestedAt": issue.ingested_at,
            "conversation": issue.conversation,
            "cluster": issue.cluster,
            "urls": {
                "location": format!(
                    "{api_url}/orgs/{}/conversations-issues/{}",
                    issue.organization, issue.id
                ),
            },
        },
        "conversation": render_conversation(conversation, api_url),
    }))
}

fn render_conversation(conversation: &StoredConversation, api_url: &str) -> Value {
    json!({
        "object": "conversation",
        "id": conversation.id,
        "subject": conversation.subject,
        "createdAt": conversation.created_at,
        "processedAt": conversation.processed_at,
        "source": conversation.source,
        "urls": {
            "location": format!(
                "{api_url}/orgs/{}/conversations/{}",
                conversation.organization, conversation.id
            ),
            "source": conversation.metadata_url,
        },
    })
}

fn render_cluster(cluster: &Cluster, api_url: &str) -> Value {
    let sources: Map<String, Value> = cluster
        .sources
        .iter()
        .map(|(name, count)| (name.clone(), json!(count)))
        .collect();
    let [backlog, started, completed, cancelled] = cluster.tasks;
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
            "tasksTotal": backlog + started + completed + cancelled,
            "tasksBacklog": backlog,
            "tasksStarted": started,
            "tasksCompleted": completed,
            "tasksCancelled": cancelled,
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

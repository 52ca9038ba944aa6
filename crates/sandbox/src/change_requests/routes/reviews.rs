//! Reviews of a change request and its requested reviewers.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::IntoResponse;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    Answer, MarkdownBody, SharedState, body_format, conflict, first, json_response, locate, now,
    paging_query, parse_body, query_pairs, renderer, require_role, role_of, space_of,
};
use crate::change_requests::model::{Comment, RequestedReviewer, Review, ReviewStatus, Status};
use crate::change_requests::render::BodyFormat;
use crate::context::Context;
use crate::error::ApiError;
use crate::model::Role;
use crate::paging::envelope;

pub(super) async fn list_reviews(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let format = body_format(&pairs)?;
    let outdated_filter = match first(&pairs, "outdated") {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"outdated\": expected true or false",
            ));
        }
    };
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let items = change_request
        .reviews
        .iter()
        .filter(|review| outdated_filter.is_none_or(|wanted| review.outdated == wanted))
        .map(|review| renderer.review(change_request, review, format))
        .collect();
    json_response(envelope(items, &paging_query(&pairs), &context.faults)?)
}

pub(super) async fn get_review(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, review_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let format = body_format(&query_pairs(raw))?;
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let review = change_request
        .reviews
        .iter()
        .find(|review| review.id == review_id)
        .ok_or_else(|| ApiError::not_found("review", &review_id))?;
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).review(change_request, review, format))
}

#[derive(Debug, Deserialize)]
struct PostReview {
    status: Option<String>,
    comment: Option<MarkdownBody>,
}

pub(super) async fn post_review(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> Answer {
    let body: PostReview = parse_body(&bytes)?;
    let status = body
        .status
        .as_deref()
        .and_then(ReviewStatus::parse)
        .ok_or_else(|| {
            ApiError::bad_request("\"status\" is required: approved or changes-requested")
        })?;
    let comment_text = body
        .comment
        .and_then(|comment| comment.markdown)
        .filter(|markdown| !markdown.trim().is_empty());
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    require_role(role, Role::Review, "Reviewing a change request")?;
    let current_status = world.change_requests.items[index].status;
    if matches!(current_status, Status::Merged | Status::Archived) {
        return Err(conflict(format!(
            "A {} change request cannot be reviewed",
            current_status.as_str()
        )));
    }
    let review_id = world.change_requests.new_id("rvw");
    let comment_id = comment_text
        .as_ref()
        .map(|_| world.change_requests.new_id("cmt"));
    let stamp = now();
    let caller = context.user.clone();
    let change_request = &mut world.change_requests.items[index];
    for earlier in change_request
        .reviews
        .iter_mut()
        .filter(|review| review.reviewer == caller)
    {
        earlier.outdated = true;
    }
    let requested_by = change_request
        .requested_reviewers
        .iter()
        .find(|requested| requested.user == caller)
        .map(|requested| requested.requested_by.clone());
    change_request
        .requested_reviewers
        .retain(|requested| requested.user != caller);
    if let (Some(comment_id), Some(markdown)) = (&comment_id, comment_text) {
        change_request.comments.push(Comment {
            id: comment_id.clone(),
            author: caller.clone(),
            posted_at: stamp.clone(),
            edited_at: None,
            markdown,
            page: None,
            node: None,
            table_cell: None,
            review: Some(review_id.clone()),
            revision: change_request.revision.clone(),
            resolved: None,
            reactions: Vec::new(),
            replies: Vec::new(),
        });
    }
    change_request.reviews.push(Review {
        id: review_id,
        reviewer: caller,
        requested_by,
        status,
        revision: change_request.revision.clone(),
        outdated: false,
        comment: comment_id,
        created_at: stamp.clone(),
        updated_at: stamp.clone(),
    });
    change_request.updated_at = stamp;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let review = change_request.reviews.last().ok_or_else(|| {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "The review was not kept")
    })?;
    let location = renderer.review_location(change_request, review);
    let body = renderer.review(change_request, review, BodyFormat::Markdown);
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(body)).into_response())
}

pub(super) async fn list_requested_reviewers(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let items = change_request
        .requested_reviewers
        .iter()
        .map(|requested| renderer.requested_reviewer(requested))
        .collect();
    json_response(envelope(items, &paging_query(&pairs), &context.faults)?)
}

#[derive(Debug, Deserialize)]
struct PostRequestedReviewers {
    users: Option<Vec<String>>,
    /// Accepted and ignored (the real service may update the change request with them).
    #[allow(dead_code)]
    subject: Option<String>,
    #[allow(dead_code)]
    description: Option<Value>,
}

pub(super) async fn post_requested_reviewers(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> Answer {
    let body: PostRequestedReviewers = parse_body(&bytes)?;
    let users = body
        .users
        .ok_or_else(|| ApiError::bad_request("\"users\" is required: an array of user ids"))?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let space = space_of(&world, &space_id)?;
    let role = role_of(&world, space, &context.user);
    require_role(role, Role::Edit, "Requesting reviewers")?;
    for user in &users {
        let can_review = world
            .role_in(&space.organization, user)
            .is_some_and(|role| role >= Role::Review);
        if !can_review {
            return Err(ApiError::bad_request(format!(
                "User {user:?} is not a member who can review in this organization"
            )));
        }
    }
    let stamp = now();
    let change_request = &mut world.change_requests.items[index];
    for user in &users {
        if !change_request
            .requested_reviewers
            .iter()
            .any(|requested| &requested.user == user)
        {
            change_request.requested_reviewers.push(RequestedReviewer {
                user: user.clone(),
                requested_by: context.user.clone(),
                created_at: stamp.clone(),
                revision: change_request.revision.clone(),
            });
        }
    }
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let answered: Vec<Value> = change_request
        .requested_reviewers
        .iter()
        .filter(|requested| users.contains(&requested.user))
        .map(|requested| renderer.requested_reviewer(requested))
        .collect();
    json_response(json!({ "users": answered }))
}

pub(super) async fn delete_requested_reviewer(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, user)): Path<(String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    if user != context.user {
        require_role(role, Role::Edit, "Removing a requested reviewer")?;
    }
    let requested = &mut world.change_requests.items[index].requested_reviewers;
    let before = requested.len();
    requested.retain(|requested| requested.user != user);
    if requested.len() < before {
        Ok(StatusCode::RESET_CONTENT.into_response())
    } else {
        Ok(StatusCode::NO_CONTENT.into_response())
    }
}

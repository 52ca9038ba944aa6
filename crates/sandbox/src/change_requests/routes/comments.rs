//! Review comments of a change request with their replies and reactions (reactions are
//! changed through a comment's or reply's update), and the list of who commented.

use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::Value;

use super::content::content_of;
use super::{
    Answer, MarkdownBody, SharedState, body_format, every, first, json_response, locate, now,
    paging_query, parse_body, query_pairs, renderer, require_role, required_markdown, role_of,
    space_of,
};
use crate::change_requests::content::find;
use crate::change_requests::model::{ChangeRequest, Comment, Reply, Resolution, apply_reactions};
use crate::change_requests::render::BodyFormat;
use crate::context::Context;
use crate::error::ApiError;
use crate::model::Role;
use crate::paging::{envelope, envelope_of_page, page_window};

fn comment_index(change_request: &ChangeRequest, id: &str) -> Result<usize, ApiError> {
    change_request
        .comments
        .iter()
        .position(|comment| comment.id == id)
        .ok_or_else(|| ApiError::not_found("comment", id))
}

pub(super) async fn list_comments(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let format = body_format(&pairs)?;
    let ascending = match first(&pairs, "order") {
        None | Some("desc") => false,
        Some("asc") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"order\": expected asc or desc",
            ));
        }
    };
    let wanted_status = match first(&pairs, "status") {
        None | Some("all") => None,
        Some("open") => Some(false),
        Some("resolved") => Some(true),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Invalid \"status\": expected all, open or resolved",
            ));
        }
    };
    let target_page = first(&pairs, "targetPage").filter(|page| !page.is_empty());
    let authors = every(&pairs, "authors");
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let mut selected: Vec<&Comment> = change_request
        .comments
        .iter()
        .filter(|comment| {
            wanted_status.is_none_or(|resolved| comment.resolved.is_some() == resolved)
        })
        .filter(|comment| target_page.is_none_or(|page| comment.page.as_deref() == Some(page)))
        .filter(|comment| authors.is_empty() || authors.contains(&comment.author.as_str()))
        .collect();
    // A stable sort keeps comments posted in the same millisecond in posting order.
    selected.sort_by(|left, right| left.posted_at.cmp(&right.posted_at));
    if !ascending {
        selected.reverse();
    }
    let renderer = renderer(&world, &shared, &context, space);
    // Only the requested page is rendered: rendering is the costly part with 2,000 comments.
    let query = paging_query(&pairs);
    let count = selected.len();
    let items = selected[page_window(count, &query)?]
        .iter()
        .map(|comment| renderer.comment(change_request, comment, format))
        .collect();
    json_response(envelope_of_page(items, count, &query, &context.faults)?)
}

#[derive(Debug, Deserialize)]
struct PostComment {
    body: Option<MarkdownBody>,
    page: Option<String>,
    node: Option<String>,
    /// `{record, definition}`: a cell of the table block `node`.
    #[serde(rename = "tableCell")]
    table_cell: Option<Value>,
}

/// The `tableCell` of a new comment, checked: a row and a column of the table block `node`
/// of `page`, as the page's document names them.
fn checked_table_cell(
    cell: Option<&Value>,
    page: Option<&crate::model::Page>,
    node: Option<&str>,
) -> Result<Option<(String, String)>, ApiError> {
    let Some(cell) = cell else {
        return Ok(None);
    };
    let text = |name: &str| {
        cell.get(name)
            .and_then(Value::as_str)
            .filter(|v| !v.is_empty())
    };
    let (Some(record), Some(definition)) = (text("record"), text("definition")) else {
        return Err(ApiError::bad_request(
            "Invalid \"tableCell\": expected {\"record\", \"definition\"}",
        ));
    };
    let (Some(page), Some(node)) = (page, node) else {
        return Err(ApiError::bad_request(
            "\"tableCell\" needs the \"page\" and the table block (\"node\") it is in",
        ));
    };
    let markdown = crate::change_requests::content::markdown_of(page).unwrap_or_default();
    let document = crate::render::markdown_to_document(markdown);
    if !crate::render::table_has_cell(&document, node, record, definition) {
        return Err(ApiError::bad_request(format!(
            "\"tableCell\": the block {node:?} has no cell in row {record:?}, column {definition:?}"
        )));
    }
    Ok(Some((record.to_string(), definition.to_string())))
}

pub(super) async fn post_comment(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> Answer {
    let body: PostComment = parse_body(&bytes)?;
    let markdown = required_markdown(body.body, "body")?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    require_role(role, Role::Comment, "Commenting")?;
    let content = content_of(&world.change_requests.items[index]);
    let page = body
        .page
        .as_deref()
        .map(|page| (page, find(&content, page)));
    if let Some((page, None)) = page {
        return Err(ApiError::bad_request(format!(
            "\"page\": no page {page:?} in this change request"
        )));
    }
    let table_cell = checked_table_cell(
        body.table_cell.as_ref(),
        page.and_then(|(_, found)| found),
        body.node.as_deref(),
    )?;
    let comment_id = world.change_requests.new_id("cmt");
    let change_request = &mut world.change_requests.items[index];
    let comment = Comment {
        id: comment_id,
        author: context.user.clone(),
        posted_at: now(),
        edited_at: None,
        markdown,
        page: body.page,
        node: body.node,
        table_cell,
        review: None,
        revision: change_request.revision.clone(),
        resolved: None,
        reactions: Vec::new(),
        replies: Vec::new(),
    };
    change_request.comments.push(comment);
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    let comment = change_request.comments.last().ok_or_else(|| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The comment was not kept",
        )
    })?;
    json_response(renderer(&world, &shared, &context, space).comment(
        change_request,
        comment,
        BodyFormat::Markdown,
    ))
}

pub(super) async fn get_comment(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let format = body_format(&query_pairs(raw))?;
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[comment_index(change_request, &comment_id)?];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).comment(
        change_request,
        comment,
        format,
    ))
}

/// `UpdateCommentSchema`, used for comments and replies alike (`resolved` is ignored on replies).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UpdateComment {
    resolved: Option<bool>,
    body: Option<MarkdownBody>,
    #[serde(default)]
    added_reactions: Vec<String>,
    #[serde(default)]
    removed_reactions: Vec<String>,
}

/// Who may do what in an update: any change needs the comment role; a new body also needs the
/// caller to be the author.
fn check_update(
    update: &UpdateComment,
    role: Role,
    author: &str,
    caller: &str,
) -> Result<Option<String>, ApiError> {
    require_role(
        role,
        Role::Comment,
        "Updating, resolving or reacting to a comment",
    )?;
    let Some(body) = &update.body else {
        return Ok(None);
    };
    if author != caller {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "Only the author can edit the text of a comment or reply",
        ));
    }
    match &body.markdown {
        Some(markdown) if !markdown.trim().is_empty() => Ok(Some(markdown.clone())),
        _ => Err(ApiError::bad_request("\"body.markdown\" must not be empty")),
    }
}

pub(super) async fn put_comment(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
    bytes: Bytes,
) -> Answer {
    let update: UpdateComment = parse_body(&bytes)?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let position = comment_index(&world.change_requests.items[index], &comment_id)?;
    let stamp = now();
    let comment = &mut world.change_requests.items[index].comments[position];
    let new_text = check_update(&update, role, &comment.author, &context.user)?;
    if let Some(markdown) = new_text {
        comment.markdown = markdown;
        comment.edited_at = Some(stamp.clone());
    }
    match update.resolved {
        Some(true) if comment.resolved.is_none() => {
            comment.resolved = Some(Resolution {
                at: stamp.clone(),
                by: context.user.clone(),
            });
        }
        Some(false) => comment.resolved = None,
        _ => {}
    }
    apply_reactions(
        &mut comment.reactions,
        &context.user,
        &stamp,
        &update.added_reactions,
        &update.removed_reactions,
    );
    let change_request = &world.change_requests.items[index];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).comment(
        change_request,
        &change_request.comments[position],
        BodyFormat::Markdown,
    ))
}

/// Author or admin; anyone else gets 403.
fn require_author_or_admin(role: Role, author: &str, caller: &str) -> Result<(), ApiError> {
    if (author == caller && role >= Role::Comment) || role == Role::Admin {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "Only the author or an organization admin can delete this",
        ))
    }
}

pub(super) async fn delete_comment(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let change_request = &mut world.change_requests.items[index];
    let Some(position) = change_request
        .comments
        .iter()
        .position(|comment| comment.id == comment_id)
    else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    require_author_or_admin(
        role,
        &change_request.comments[position].author,
        &context.user,
    )?;
    change_request.comments.remove(position);
    for review in &mut change_request.reviews {
        if review.comment.as_deref() == Some(comment_id.as_str()) {
            review.comment = None;
        }
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

// ---------------------------------------------------------------------------------------------
// Replies

pub(super) async fn list_replies(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let pairs = query_pairs(raw);
    let format = body_format(&pairs)?;
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[comment_index(change_request, &comment_id)?];
    let space = space_of(&world, &space_id)?;
    let renderer = renderer(&world, &shared, &context, space);
    let items = comment
        .replies
        .iter()
        .map(|reply| renderer.reply(change_request, comment, reply, format))
        .collect();
    json_response(envelope(items, &paging_query(&pairs), &context.faults)?)
}

#[derive(Debug, Deserialize)]
struct PostReply {
    body: Option<MarkdownBody>,
}

pub(super) async fn post_reply(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id)): Path<(String, String, String)>,
    RawQuery(raw): RawQuery,
    bytes: Bytes,
) -> Answer {
    let format = body_format(&query_pairs(raw))?;
    let body: PostReply = parse_body(&bytes)?;
    let markdown = required_markdown(body.body, "body")?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let position = comment_index(&world.change_requests.items[index], &comment_id)?;
    require_role(role, Role::Comment, "Replying to a comment")?;
    let reply_id = world.change_requests.new_id("rpl");
    world.change_requests.items[index].comments[position]
        .replies
        .push(Reply {
            id: reply_id,
            author: context.user.clone(),
            posted_at: now(),
            edited_at: None,
            markdown,
            reactions: Vec::new(),
        });
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[position];
    let space = space_of(&world, &space_id)?;
    let reply = comment.replies.last().ok_or_else(|| {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "The reply was not kept")
    })?;
    json_response(renderer(&world, &shared, &context, space).reply(
        change_request,
        comment,
        reply,
        format,
    ))
}

fn reply_index(comment: &Comment, id: &str) -> Result<usize, ApiError> {
    comment
        .replies
        .iter()
        .position(|reply| reply.id == id)
        .ok_or_else(|| ApiError::not_found("comment reply", id))
}

pub(super) async fn get_reply(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id, reply_id)): Path<(String, String, String, String)>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let format = body_format(&query_pairs(raw))?;
    let world = shared.world.read().await;
    let index = locate(&world, &space_id, &id)?;
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[comment_index(change_request, &comment_id)?];
    let reply = &comment.replies[reply_index(comment, &reply_id)?];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).reply(
        change_request,
        comment,
        reply,
        format,
    ))
}

pub(super) async fn put_reply(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id, reply_id)): Path<(String, String, String, String)>,
    bytes: Bytes,
) -> Answer {
    let update: UpdateComment = parse_body(&bytes)?;
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let position = comment_index(&world.change_requests.items[index], &comment_id)?;
    let reply_position = reply_index(
        &world.change_requests.items[index].comments[position],
        &reply_id,
    )?;
    let stamp = now();
    let reply = &mut world.change_requests.items[index].comments[position].replies[reply_position];
    let new_text = check_update(&update, role, &reply.author, &context.user)?;
    if let Some(markdown) = new_text {
        reply.markdown = markdown;
        reply.edited_at = Some(stamp.clone());
    }
    apply_reactions(
        &mut reply.reactions,
        &context.user,
        &stamp,
        &update.added_reactions,
        &update.removed_reactions,
    );
    let change_request = &world.change_requests.items[index];
    let comment = &change_request.comments[position];
    let space = space_of(&world, &space_id)?;
    json_response(renderer(&world, &shared, &context, space).reply(
        change_request,
        comment,
        &comment.replies[reply_position],
        BodyFormat::Markdown,
    ))
}

pub(super) async fn delete_reply(
    State(shared): SharedState,
    Extension(context): Extension<Context>,
    Path((space_id, id, comment_id, reply_id)): Path<(String, String, String, String)>,
) -> Answer {
    let mut world = shared.world.write().await;
    let index = locate(&world, &space_id, &id)?;
    let role = role_of(&world, space_of(&world, &space_id)?, &context.user);
    let change_request = &mut world.change_requests.items[index];
    let Some(comment) = change_request
        .comments
        .iter_mut()
        .find(|comment| comment.id == comment_id)
    else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    let Some(position) = comment
        .replies
        .iter()
        .position(|reply| reply.id == reply_id)
    else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    require_author_or_admin(role, &comment.replies[position].author, &context.user)?;
    comment.replies.remove(position);
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub(super) async fn list_commenters(
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
    let mut users: Vec<&str> = Vec::new();
    for comment in &change_request.comments {
        let authors = std::iter::once(&comment.author)
            .chain(comment.replies.iter().map(|reply| &reply.author));
        for author in authors {
            if !users.contains(&author.as_str()) {
                users.push(author);
            }
        }
    }
    let renderer = renderer(&world, &shared, &context, space);
    let items = users
        .into_iter()
        .filter_map(|user| world.membership(&space.organization, user))
        .map(|membership| renderer.view.member(membership))
        .collect();
    json_response(envelope(items, &paging_query(&pairs), &context.faults)?)
}

//! A comment or reply that could not reach the server goes to the outbox instead of being lost
//! or sent blindly later. One that went out and got no answer (read back found nothing sure)
//! is queued as attempted, so the outbox reads it back before sending it again.

use crate::api::models::{ChangeRequest, Comment};
use crate::api::outbox::{About, Target, Write};
use crate::api::read_back::Before;
use crate::api::{ApiError, Client, CommentFilter, CommentUpdate};
use crate::vocabulary::change_requests::ChangeRequestsResponse;

/// `answer` of the result, unless the server could not be reached and the outbox took the
/// write: then the screen is told it is queued. `before` is what the user had there before
/// the send, kept with a write whose outcome is unknown.
pub async fn or_queue<T>(
    client: &Client,
    (target, write): (Target, Write),
    before: Option<Before>,
    result: Result<T, ApiError>,
    answer: fn(Result<T, ApiError>) -> ChangeRequestsResponse,
) -> ChangeRequestsResponse {
    let error = match result {
        Err(error) if error.is_unreachable() => error,
        other => return answer(other),
    };
    let Some(outbox) = client.outbox() else {
        return answer(Err(error));
    };
    let never_sent = !error.outcome_unknown();
    let about = about_in_cache(client, &target, &write).await;
    let queued = outbox
        .in_background(move |outbox| {
            if never_sent {
                outbox.enqueue_about(&target, &write, &about)
            } else {
                outbox.enqueue_unsure_about(&target, &write, before.as_ref(), &about)
            }
        })
        .await;
    match queued {
        Ok(queued) => ChangeRequestsResponse::Queued(queued),
        Err(failure) => {
            tracing::warn!(%failure, "a write could not be queued");
            answer(Err(error))
        }
    }
}

/// What the cache knows of the write's place (the screen it was made on read it there): the
/// space's and change request's titles and the thread's author and first words, so that the
/// outbox can name them while the server is out of reach.
async fn about_in_cache(client: &Client, target: &Target, write: &Write) -> About {
    let (cached, _) = client.cache_only();
    let (space, change_request) = (&target.space, &target.change_request);
    let thread = async {
        let (comment, _) = write.place()?;
        thread_in_cache(&cached, target, comment).await
    };
    let (space, change_request, thread) = tokio::join!(
        cached.get_space(space),
        cached.get_change_request(space, change_request),
        thread,
    );
    About {
        space_title: space.ok().map(|space| space.title),
        change_request_title: change_request.ok().as_ref().map(numbered_title),
        thread_author: thread
            .as_ref()
            .and_then(|thread| thread.posted_by.as_ref())
            .map(|user| user.display_name.clone()),
        thread_excerpt: thread
            .as_ref()
            .and_then(|thread| thread.body.markdown())
            .map(About::excerpt),
    }
}

/// "#12 Fix the install steps", or the subject alone when it has no number.
pub fn numbered_title(change_request: &ChangeRequest) -> String {
    match change_request.number {
        Some(number) => format!("#{number} {}", change_request.subject),
        None => change_request.subject.clone(),
    }
}

/// The thread's first comment as read last: alone, or in the change request's list of threads.
async fn thread_in_cache(cached: &Client, target: &Target, comment: &str) -> Option<Comment> {
    let (space, change_request) = (&target.space, &target.change_request);
    if let Ok(found) = cached.get_comment(space, change_request, comment).await {
        return Some(found);
    }
    let filter = CommentFilter::default();
    let first = cached
        .first_comments_page(space, change_request, &filter)
        .await
        .ok()?;
    if let Some(found) = first.items.iter().find(|thread| thread.id == comment) {
        return Some(found.clone());
    }
    first.next_page.as_ref()?;
    let already_read: Vec<String> = first.items.into_iter().map(|thread| thread.id).collect();
    let rest = cached
        .rest_of_comments(
            space,
            change_request,
            &filter,
            &already_read,
            super::change_requests::COMMENT_PAGES,
        )
        .await
        .ok()?;
    rest.items.into_iter().find(|thread| thread.id == comment)
}

/// The outbox's form of an edit of a comment or reply: a new text, resolve/reopen (threads
/// only) or one reaction. None for anything else, which is not queued.
pub fn write_of_update(
    comment: &str,
    reply: Option<&str>,
    update: &CommentUpdate,
) -> Option<Write> {
    let (comment, reply) = (comment.to_string(), reply.map(str::to_string));
    if let Some(markdown) = &update.markdown {
        return Some(Write::Edit {
            comment,
            reply,
            markdown: markdown.clone(),
        });
    }
    if let (Some(resolved), None) = (update.resolved, &reply) {
        return Some(Write::Resolve { comment, resolved });
    }
    match (
        update.added_reactions.as_slice(),
        update.removed_reactions.as_slice(),
    ) {
        ([emoji], []) | ([], [emoji]) => Some(Write::Reaction {
            comment,
            reply,
            emoji: emoji.clone(),
            add: !update.added_reactions.is_empty(),
        }),
        _ => None,
    }
}

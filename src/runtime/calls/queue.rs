//! A comment or reply that could not reach the server goes to the outbox instead of being lost
//! or sent blindly later. One that went out and got no answer (read back found nothing sure)
//! is queued as attempted, so the outbox reads it back before sending it again.

use crate::api::outbox::{Target, Write};
use crate::api::read_back::Before;
use crate::api::{ApiError, Client, CommentUpdate};
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
    let queued = outbox
        .in_background(move |outbox| {
            if never_sent {
                outbox.enqueue(&target, &write)
            } else {
                outbox.enqueue_unsure(&target, &write, before.as_ref())
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

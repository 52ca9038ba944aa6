//! Sending what waits in the outbox, never twice. A write is marked attempted on disk before
//! it goes out; one that was attempted before (its answer lost, quire killed while waiting) is
//! read back first and sent only when the server does not have it. Writes that set a value
//! (an edit, resolve/reopen, a reaction) give the same result sent twice, so they are resent
//! as they are; comments, replies and reviews would be doubled, so they are read back.

use std::sync::Arc;

use super::read_back;
use crate::api::models::ReviewStatus;
use crate::api::outbox::{Outbox, OutboxError, Queued, Target, Write};
use crate::api::{ApiError, Client, CommentUpdate, ReviewVerdict};

/// What became of one queued write.
#[derive(Debug)]
pub enum Sent {
    /// Sent now, and the server took it.
    Sent,
    /// Reading back found it already there: it was not sent again.
    AlreadyThere,
    /// Not sent, or its outcome unknown: it stays in the outbox with the reason.
    Kept(ApiError),
    /// The outbox itself failed; nothing was sent.
    Outbox(OutboxError),
}

/// Sends `queued` unless reading back finds it there, and takes it out of the outbox once the
/// server has it.
pub async fn send_queued(client: &Client, outbox: &Arc<Outbox>, queued: &Queued) -> Sent {
    // `--offline`: nothing goes out, so nothing is marked as maybe sent.
    if client.is_offline_only() {
        return Sent::Kept(ApiError::Offline {
            endpoint: "the outbox".to_string(),
        });
    }
    if queued.attempted {
        match already_there(client, queued).await {
            Ok(true) => return finish(outbox, queued.id, Sent::AlreadyThere).await,
            Ok(false) => {}
            Err(error) => return Sent::Kept(error),
        }
    }
    let id = queued.id;
    let marked = outbox
        .in_background(move |outbox| outbox.mark_attempted(id))
        .await;
    if let Err(error) = marked {
        return Sent::Outbox(error);
    }
    match send(client, &queued.target, &queued.write).await {
        Ok(()) => finish(outbox, id, Sent::Sent).await,
        Err(error) if error.outcome_unknown() => match already_there(client, queued).await {
            Ok(true) => finish(outbox, id, Sent::Sent).await,
            _ => Sent::Kept(error),
        },
        Err(error) => {
            if !queued.attempted {
                // Surely not landed: editable again, and no read-back next time.
                let _ = outbox
                    .in_background(move |outbox| outbox.clear_attempted(id))
                    .await;
            }
            Sent::Kept(error)
        }
    }
}

async fn finish(outbox: &Arc<Outbox>, id: i64, sent: Sent) -> Sent {
    match outbox
        .in_background(move |outbox| outbox.mark_sent(id))
        .await
    {
        Ok(_) => sent,
        Err(error) => Sent::Outbox(error),
    }
}

async fn send(client: &Client, target: &Target, write: &Write) -> Result<(), ApiError> {
    let (space, change_request) = (target.space.as_str(), target.change_request.as_str());
    match write {
        Write::Comment {
            markdown,
            page,
            node,
        } => client
            .post_comment_on_block(
                space,
                change_request,
                markdown,
                page.as_deref(),
                node.as_deref(),
            )
            .await
            .map(drop),
        Write::Reply { comment, markdown } => client
            .post_reply(space, change_request, comment, markdown)
            .await
            .map(drop),
        Write::Review { approve, markdown } => client
            .submit_review(
                space,
                change_request,
                verdict(*approve),
                markdown.as_deref(),
            )
            .await
            .map(drop),
        Write::Edit { comment, reply, .. } | Write::Reaction { comment, reply, .. } => {
            let update = update_of(write);
            match reply {
                Some(reply) => client
                    .update_reply(space, change_request, comment, reply, &update)
                    .await
                    .map(drop),
                None => client
                    .update_comment(space, change_request, comment, &update)
                    .await
                    .map(drop),
            }
        }
        Write::Resolve { comment, .. } => client
            .update_comment(space, change_request, comment, &update_of(write))
            .await
            .map(drop),
    }
}

fn update_of(write: &Write) -> CommentUpdate {
    match write {
        Write::Edit { markdown, .. } => CommentUpdate::edit(markdown.clone()),
        Write::Reaction { emoji, add, .. } => CommentUpdate::react(emoji.clone(), *add),
        Write::Resolve { resolved, .. } => CommentUpdate::resolve(*resolved),
        _ => CommentUpdate::default(),
    }
}

fn verdict(approve: bool) -> ReviewVerdict {
    if approve {
        ReviewVerdict::Approved
    } else {
        ReviewVerdict::ChangesRequested
    }
}

/// True when the server already has the write; an error when that cannot be told.
async fn already_there(client: &Client, queued: &Queued) -> Result<bool, ApiError> {
    let (space, change_request) = (
        queued.target.space.as_str(),
        queued.target.change_request.as_str(),
    );
    let unknown = || ApiError::Network {
        endpoint: "the outbox".to_string(),
        message: "an earlier send got no answer".to_string(),
        never_sent: false,
    };
    let since = queued.queued_at;
    let found = match &queued.write {
        Write::Comment { markdown, .. } => {
            read_back::posted_comment(client, (space, change_request), markdown, Err(unknown()))
                .await
                .map(|comment| posted_since(comment.posted_at.as_deref(), since))
        }
        Write::Reply { comment, markdown } => read_back::posted_reply(
            client,
            (space, change_request, comment),
            markdown,
            Err(unknown()),
        )
        .await
        .map(|reply| posted_since(reply.posted_at.as_deref(), since)),
        Write::Review { approve, .. } => {
            return reviewed(client, (space, change_request), *approve, since).await;
        }
        // Sent twice, these give the same result: sending again is the read back.
        Write::Edit { .. } | Write::Reaction { .. } | Write::Resolve { .. } => return Ok(false),
    };
    match found {
        Ok(there) => Ok(there),
        Err(ApiError::NotSaved { .. }) => Ok(false),
        Err(error) => Err(error),
    }
}

/// How far the server's clock may be behind ours and a write still count as posted after it
/// was queued.
const CLOCK_SKEW: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// True when something the server says was posted at `posted_at` can be the write queued at
/// `queued_at`: not older than the queue (give or take the clocks). The same text posted
/// earlier ("LGTM") is another comment, and the queued one still has to go. Without a time,
/// the text alone decides.
fn posted_since(posted_at: Option<&str>, queued_at: std::time::SystemTime) -> bool {
    let Some(posted_at) = posted_at.and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok())
    else {
        return true;
    };
    let earliest = chrono::DateTime::<chrono::Utc>::from(queued_at - CLOCK_SKEW);
    posted_at.with_timezone(&chrono::Utc) >= earliest
}

/// True when the signed-in user has a review of the change request with this verdict, not
/// outdated and made after the review was queued: the queued review is there.
async fn reviewed(
    client: &Client,
    (space, change_request): (&str, &str),
    approve: bool,
    since: std::time::SystemTime,
) -> Result<bool, ApiError> {
    let me = client.current_user().await?;
    let reviews = client.list_reviews(space, change_request, None).await?;
    let wanted = if approve {
        ReviewStatus::Approved
    } else {
        ReviewStatus::ChangesRequested
    };
    Ok(reviews.items.iter().any(|review| {
        review.reviewer.as_ref().is_some_and(|by| by.id == me.id)
            && !review.outdated
            && review.status.as_ref() == Some(&wanted)
            && posted_since(
                review
                    .updated_at
                    .as_ref()
                    .or(review.created_at.as_ref())
                    .map(String::as_str),
                since,
            )
    }))
}

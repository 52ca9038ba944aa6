//! Sending what waits in the outbox, exactly once, whatever runs beside it. A write is claimed
//! first (another quire sending it is skipped), then marked attempted on disk before it goes
//! out, with what the user had on the change request before it; one that was attempted before
//! (its answer lost, quire killed while waiting) is read back first and sent only when the
//! server does not have it. Writes that set a value (an edit, resolve/reopen, a reaction) give
//! the same result sent twice, so they are resent as they are; comments, replies and reviews
//! would be doubled, so they are read back.

use std::sync::Arc;

use super::outbox::{Claim, Outbox, OutboxError, Queued, Target, Write};
use super::read_back::{self, Before};
use crate::{ApiError, Client, CommentUpdate, ReviewVerdict};

/// What became of one queued write.
#[derive(Debug)]
pub enum Sent {
    /// Sent now, and the server took it.
    Sent,
    /// Reading back found it already there: it was not sent again.
    AlreadyThere,
    /// Another quire is sending it, or has sent or dropped it: left to that one.
    Elsewhere,
    /// Not sent, or its outcome unknown: it stays in the outbox with the reason.
    Kept(ApiError),
    /// The outbox itself failed; nothing was sent.
    Outbox(OutboxError),
}

/// Sends the write `id` unless another quire is sending it or reading back finds it there, and
/// takes it out of the outbox once the server has it. `by_name`: the user chose this write
/// (not "send everything"); only then is a write whose outcome is unknown sent again.
pub async fn send_queued(client: &Client, outbox: &Arc<Outbox>, id: i64, by_name: bool) -> Sent {
    // `--offline`: nothing goes out, so nothing is marked as maybe sent.
    if client.is_offline_only() {
        return Sent::Kept(ApiError::Offline {
            endpoint: "the outbox".to_string(),
            by_flag: true,
        });
    }
    let queued = match outbox.in_background(move |outbox| outbox.claim(id)).await {
        Ok(Claim::Mine(queued)) => *queued,
        Ok(Claim::Elsewhere | Claim::Gone) => return Sent::Elsewhere,
        Err(error) => return Sent::Outbox(error),
    };
    let sent = if queued.held && !by_name {
        Sent::Kept(ApiError::MaybeSaved {
            endpoint: "the outbox".to_string(),
            first: "an earlier send got no answer".to_string(),
        })
    } else {
        send_claimed(client, outbox, &queued).await
    };
    if matches!(sent, Sent::Kept(_) | Sent::Outbox(_)) {
        let _ = outbox.in_background(move |outbox| outbox.release(id)).await;
    }
    sent
}

async fn send_claimed(client: &Client, outbox: &Arc<Outbox>, queued: &Queued) -> Sent {
    let id = queued.id;
    if queued.attempted {
        match already_there(client, queued, queued.before.as_ref()).await {
            Ok(true) => return finish(outbox, id, Sent::AlreadyThere).await,
            Ok(false) => {}
            Err(error) => return kept_unknown(outbox, id, error).await,
        }
    }
    let before = match what_was_there(client, queued).await {
        Ok(before) => before,
        // Out of reach: nothing went out, the write waits as it was.
        Err(error) if error.is_unreachable() => {
            return Sent::Kept(read_back::surely_not_sent(error));
        }
        // Not known: sent all the same, and a lost answer then stays unknown.
        Err(_) => None,
    };
    let marked_before = before.clone();
    let marked = outbox
        .in_background(move |outbox| outbox.mark_attempted(id, marked_before.as_ref()))
        .await;
    if let Err(error) = marked {
        return Sent::Outbox(error);
    }
    match send(client, &queued.target, &queued.write).await {
        Ok(()) => finish(outbox, id, Sent::Sent).await,
        Err(error) if error.outcome_unknown() => {
            match already_there(client, queued, before.as_ref()).await {
                Ok(true) => finish(outbox, id, Sent::Sent).await,
                Ok(false) => Sent::Kept(error.not_saved()),
                Err(unknown) => kept_unknown(outbox, id, unknown).await,
            }
        }
        Err(error) => {
            // Surely not landed: editable again, and no read-back next time.
            let _ = outbox
                .in_background(move |outbox| outbox.clear_attempted(id))
                .await;
            Sent::Kept(error)
        }
    }
}

/// Kept with an unknown outcome. When something like it is there but may be older, the user
/// was told to send it again or drop it: it is held for that choice, and sent (without reading
/// back, which would only find the same thing again) only when the user names it.
async fn kept_unknown(outbox: &Arc<Outbox>, id: i64, error: ApiError) -> Sent {
    if matches!(error, ApiError::MaybeSaved { .. }) {
        let _ = outbox.in_background(move |outbox| outbox.hold(id)).await;
    }
    Sent::Kept(error)
}

/// What the user has on the write's change request (or thread) now, before it is sent, for
/// reading back should its answer be lost; None for writes that are simply sent again.
async fn what_was_there(client: &Client, queued: &Queued) -> Result<Option<Before>, ApiError> {
    let target = (
        queued.target.space.as_str(),
        queued.target.change_request.as_str(),
    );
    let before = match &queued.write {
        Write::Comment { .. } => read_back::comments_before(client, target).await?,
        Write::Reply { comment, .. } => {
            read_back::replies_before(client, (target.0, target.1, comment)).await?
        }
        Write::Review { .. } => read_back::reviews_before(client, target).await?,
        Write::Edit { .. } | Write::Reaction { .. } | Write::Resolve { .. } => return Ok(None),
    };
    Ok(Some(before))
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
            table_cell,
        } => client
            .post_comment_on_cell(
                space,
                change_request,
                markdown,
                page.as_deref(),
                node.as_deref(),
                table_cell.as_ref(),
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

/// True when the server already has the write (one that was not there `before`); false when
/// it surely does not; an error when that cannot be told.
async fn already_there(
    client: &Client,
    queued: &Queued,
    before: Option<&Before>,
) -> Result<bool, ApiError> {
    let (space, change_request) = (
        queued.target.space.as_str(),
        queued.target.change_request.as_str(),
    );
    let unknown = || ApiError::Network {
        endpoint: "the outbox".to_string(),
        message: "an earlier send got no answer".to_string(),
        never_sent: false,
    };
    let found = match &queued.write {
        Write::Comment { markdown, .. } => read_back::posted_comment(
            client,
            (space, change_request),
            markdown,
            before,
            Err(unknown()),
        )
        .await
        .map(drop),
        Write::Reply { comment, markdown } => read_back::posted_reply(
            client,
            (space, change_request, comment),
            markdown,
            before,
            Err(unknown()),
        )
        .await
        .map(drop),
        Write::Review { approve, .. } => read_back::submitted_review(
            client,
            (space, change_request),
            *approve,
            before,
            Err(unknown()),
        )
        .await
        .map(drop),
        // Sent twice, these give the same result: sending again is the read back.
        Write::Edit { .. } | Write::Reaction { .. } | Write::Resolve { .. } => return Ok(false),
    };
    match found {
        Ok(()) => Ok(true),
        Err(ApiError::NotSaved { .. }) => Ok(false),
        Err(error) => Err(error),
    }
}

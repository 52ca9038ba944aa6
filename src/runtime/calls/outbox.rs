//! The outbox screen's calls: list (with what changed meanwhile on the server), send
//! (through `send_queued`, never twice), drop and edit.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use futures::future::join_all;

use crate::api::Client;
use crate::api::models::ChangeRequestStatus;
use crate::api::outbox::{Outbox, OutboxError, Queued, Target, Write};
use crate::api::outbox_send::{Sent, send_queued};
use crate::vocabulary::outbox::{
    ChangeRequestNews, Listing, OutboxCall, OutboxResponse, SendOutcome,
};

/// One outbox send at a time in one quire (the automatic one when the server is back, and the
/// screen's), and no drop or edit while a send runs: it could be sending that very write. The
/// executor holds one and passes it to every call; clones share the turn.
#[derive(Debug, Clone, Default)]
pub struct SendTurn(Arc<tokio::sync::Mutex<()>>);

impl SendTurn {
    async fn take(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.0.lock().await
    }
}

const NO_OUTBOX: &str = "No outbox: quire runs without a cache here.";

pub async fn call_outbox(client: &Client, turn: &SendTurn, call: OutboxCall) -> OutboxResponse {
    let Some(outbox) = client.outbox() else {
        return match call {
            OutboxCall::List => OutboxResponse::Listed(Err(NO_OUTBOX.to_string())),
            OutboxCall::Send { .. } | OutboxCall::SendAll => OutboxResponse::Sent(Vec::new()),
            OutboxCall::Drop { .. } => OutboxResponse::Dropped(Err(NO_OUTBOX.to_string())),
            OutboxCall::Edit { .. } => OutboxResponse::Edited(Err(NO_OUTBOX.to_string())),
        };
    };
    match call {
        OutboxCall::List => OutboxResponse::Listed(listing(client, &outbox).await),
        OutboxCall::Drop { id } => {
            let _one_at_a_time = turn.take().await;
            OutboxResponse::Dropped(
                outbox
                    .in_background(move |o| o.drop_write(id))
                    .await
                    .map_err(said),
            )
        }
        OutboxCall::Edit { id, markdown } => {
            let _one_at_a_time = turn.take().await;
            OutboxResponse::Edited(edit(&outbox, id, markdown).await)
        }
        OutboxCall::Send { ids } => {
            OutboxResponse::Sent(send_chosen(client, turn, &outbox, Some(ids)).await)
        }
        OutboxCall::SendAll => OutboxResponse::Sent(send_chosen(client, turn, &outbox, None).await),
    }
}

/// The writes, and what the server says of their change requests and threads now. Those reads
/// go out together; one that fails (offline, say) leaves its note out rather than guessing.
async fn listing(client: &Client, outbox: &Arc<Outbox>) -> Result<Listing, String> {
    let writes = outbox.in_background(Outbox::list).await.map_err(said)?;
    let targets: BTreeSet<&Target> = writes.iter().map(|queued| &queued.target).collect();
    let threads: BTreeSet<(&Target, &str)> = writes
        .iter()
        .filter_map(|queued| Some((&queued.target, thread_of(&queued.write)?)))
        .collect();
    let asked_offline = client.is_offline_only() || client.seems_offline();
    let change_requests = join_all(targets.into_iter().map(|target| async move {
        (
            target.clone(),
            change_request_news(client, target, asked_offline).await,
        )
    }));
    let threads = join_all(threads.into_iter().map(|(target, comment)| async move {
        let state = thread_state(client, target, comment, asked_offline).await;
        ((target.clone(), comment.to_string()), state)
    }));
    let replies: BTreeSet<(&Target, &str, &str)> = writes
        .iter()
        .filter_map(|queued| {
            let (comment, reply) = reply_of(&queued.write)?;
            Some((&queued.target, comment, reply))
        })
        .collect();
    let replies = join_all(
        replies
            .into_iter()
            .map(|(target, comment, reply)| async move {
                let gone = reply_gone(client, target, comment, reply, asked_offline).await;
                ((target.clone(), reply.to_string()), gone)
            }),
    );
    let (change_requests, threads, replies) = futures::join!(change_requests, threads, replies);
    let threads: BTreeMap<(Target, String), ThreadState> = threads
        .into_iter()
        .filter_map(|(thread, state)| Some((thread, state?)))
        .collect();
    let gone_replies: BTreeSet<(Target, String)> = replies
        .into_iter()
        .filter_map(|(reply, gone)| gone.then_some(reply))
        .collect();
    let notes = writes
        .iter()
        .filter_map(|queued| {
            let comment = thread_of(&queued.write)?;
            let state = threads.get(&(queued.target.clone(), comment.to_string()));
            let thread_note = state.and_then(|state| note_for(&queued.write, *state));
            let reply_gone = reply_of(&queued.write).is_some_and(|(_, reply)| {
                gone_replies.contains(&(queued.target.clone(), reply.to_string()))
            });
            let note = thread_note
                .or_else(|| reply_gone.then(|| "the reply was deleted meanwhile".to_string()))?;
            Some((queued.id, note))
        })
        .collect();
    Ok(Listing {
        writes,
        change_requests: change_requests.into_iter().collect(),
        notes,
    })
}

/// The thread a write goes to, for the ones that answer or change one.
fn thread_of(write: &Write) -> Option<&str> {
    match write {
        Write::Reply { comment, .. }
        | Write::Edit { comment, .. }
        | Write::Reaction { comment, .. }
        | Write::Resolve { comment, .. } => Some(comment),
        Write::Comment { .. } | Write::Review { .. } => None,
    }
}

/// The reply a write edits or reacts to, with its thread.
fn reply_of(write: &Write) -> Option<(&str, &str)> {
    match write {
        Write::Edit {
            comment,
            reply: Some(reply),
            ..
        }
        | Write::Reaction {
            comment,
            reply: Some(reply),
            ..
        } => Some((comment, reply)),
        _ => None,
    }
}

/// True when the server says the reply is no longer there; an answer that tells nothing (or
/// none asked, offline) is not taken for gone.
async fn reply_gone(
    client: &Client,
    target: &Target,
    comment: &str,
    reply: &str,
    asked_offline: bool,
) -> bool {
    if asked_offline {
        return false;
    }
    let answer = client
        .get_reply(&target.space, &target.change_request, comment, reply)
        .await;
    answer.is_err_and(|error| error.is_not_found())
}

async fn change_request_news(
    client: &Client,
    target: &Target,
    asked_offline: bool,
) -> ChangeRequestNews {
    let (change_request, space) = futures::join!(
        client.get_change_request(&target.space, &target.change_request),
        client.get_space(&target.space),
    );
    let space_title = space.ok().map(|space| space.title);
    let Ok(change_request) = change_request else {
        return ChangeRequestNews {
            space_title,
            ..ChangeRequestNews::default()
        };
    };
    let title = super::queue::numbered_title(&change_request);
    // From the cache the status is as it was, not news.
    let meanwhile = match change_request.status {
        _ if asked_offline => None,
        Some(ChangeRequestStatus::Merged) => Some("merged meanwhile".to_string()),
        Some(ChangeRequestStatus::Archived) => Some("archived meanwhile".to_string()),
        _ => None,
    };
    ChangeRequestNews {
        title: Some(title),
        space_title,
        meanwhile,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ThreadState {
    Open,
    Resolved,
    Deleted,
}

async fn thread_state(
    client: &Client,
    target: &Target,
    comment: &str,
    asked_offline: bool,
) -> Option<ThreadState> {
    if asked_offline {
        return None;
    }
    match client
        .get_comment(&target.space, &target.change_request, comment)
        .await
    {
        Ok(comment) if comment.is_resolved() => Some(ThreadState::Resolved),
        Ok(_) => Some(ThreadState::Open),
        Err(error) if error.is_not_found() => Some(ThreadState::Deleted),
        Err(_) => None,
    }
}

/// What the user should know before sending `write` to a thread now in `state`.
fn note_for(write: &Write, state: ThreadState) -> Option<String> {
    let note = match (state, write) {
        (ThreadState::Deleted, _) => "the comment was deleted meanwhile",
        (ThreadState::Resolved, Write::Resolve { resolved: true, .. }) => {
            "the thread was resolved meanwhile: nothing left to do"
        }
        (
            ThreadState::Open,
            Write::Resolve {
                resolved: false, ..
            },
        ) => "the thread was reopened meanwhile: nothing left to do",
        (ThreadState::Resolved, Write::Resolve { .. }) | (ThreadState::Open, _) => return None,
        (ThreadState::Resolved, _) => "the thread was resolved meanwhile",
    };
    Some(note.to_string())
}

async fn edit(outbox: &Arc<Outbox>, id: i64, markdown: String) -> Result<(), String> {
    let queued = outbox.in_background(Outbox::list).await.map_err(said)?;
    let Some(write) = queued.into_iter().find(|queued| queued.id == id) else {
        return Err("That write is no longer in the outbox.".to_string());
    };
    let Some(edited) = with_text(write.write, markdown) else {
        return Err("That write has no text to edit.".to_string());
    };
    outbox
        .in_background(move |outbox| outbox.replace(id, &edited))
        .await
        .map_err(said)
}

/// `write` saying `markdown` instead; None for a write without text.
fn with_text(write: Write, markdown: String) -> Option<Write> {
    Some(match write {
        Write::Comment {
            page,
            node,
            table_cell,
            ..
        } => Write::Comment {
            markdown,
            page,
            node,
            table_cell,
        },
        Write::Reply { comment, .. } => Write::Reply { comment, markdown },
        Write::Edit { comment, reply, .. } => Write::Edit {
            comment,
            reply,
            markdown,
        },
        Write::Review { approve, .. } => Write::Review {
            approve,
            markdown: Some(markdown).filter(|text| !text.trim().is_empty()),
        },
        Write::Reaction { .. } | Write::Resolve { .. } => return None,
    })
}

/// Sends the writes `ids` names, or all of them.
async fn send_chosen(
    client: &Client,
    turn: &SendTurn,
    outbox: &Arc<Outbox>,
    ids: Option<Vec<i64>>,
) -> Vec<(i64, SendOutcome)> {
    // One send at a time (the automatic one when the server is back, and the screen's), and
    // the list read inside it: a write the other sent is gone from it, not sent again.
    let _one_at_a_time = turn.take().await;
    let queued = match outbox.in_background(Outbox::list).await.map_err(said) {
        Ok(queued) => queued,
        Err(why) => {
            return ids
                .unwrap_or_default()
                .into_iter()
                .map(|id| (id, SendOutcome::Kept(why.clone())))
                .collect();
        }
    };
    let chosen = |write: &&Queued| ids.as_ref().is_none_or(|ids| ids.contains(&write.id));
    if client.is_offline_only() {
        let why = "Started with --offline, so nothing is sent: start quire without it to send.";
        return queued
            .iter()
            .filter(chosen)
            .map(|write| (write.id, SendOutcome::Kept(why.to_string())))
            .collect();
    }
    let mut outcomes = Vec::new();
    // One after another, oldest first: a reply must not arrive before its thread's resolve
    // was undone, nor a review before the comments written ahead of it.
    let by_name = ids.is_some();
    for write in queued.iter().filter(chosen) {
        outcomes.push((write.id, outcome(client, outbox, write, by_name).await));
    }
    outcomes
}

async fn outcome(
    client: &Client,
    outbox: &Arc<Outbox>,
    write: &Queued,
    by_name: bool,
) -> SendOutcome {
    match send_queued(client, outbox, write.id, by_name).await {
        Sent::Sent => SendOutcome::Sent,
        Sent::AlreadyThere => SendOutcome::AlreadyThere,
        Sent::Elsewhere => SendOutcome::Elsewhere,
        Sent::Kept(error) => SendOutcome::Kept(error.user_message()),
        Sent::Outbox(error) => SendOutcome::Kept(error.to_string()),
    }
}

/// An outbox failure in words, for the screen.
fn said(error: OutboxError) -> String {
    error.to_string()
}

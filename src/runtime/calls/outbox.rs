//! The outbox screen's calls: list, send (through `send_queued`, never twice) and drop.

use super::outbox_send::{Sent, send_queued};
use crate::api::Client;
use crate::api::outbox::Outbox;
use crate::app::outbox::{OutboxCall, OutboxResponse, SendOutcome};

const NO_OUTBOX: &str = "No outbox: quire runs without a cache here.";

pub async fn call_outbox(client: &Client, call: OutboxCall) -> OutboxResponse {
    let Some(outbox) = client.outbox() else {
        return match call {
            OutboxCall::List => OutboxResponse::Listed(Err(NO_OUTBOX.to_string())),
            OutboxCall::Send { .. } => OutboxResponse::Sent(Vec::new()),
            OutboxCall::Drop { .. } => OutboxResponse::Dropped(Err(NO_OUTBOX.to_string())),
        };
    };
    match call {
        OutboxCall::List => OutboxResponse::Listed(blocking(&outbox, Outbox::list).await),
        OutboxCall::Drop { id } => {
            OutboxResponse::Dropped(blocking(&outbox, move |o| o.drop_write(id)).await)
        }
        OutboxCall::Send { ids } => OutboxResponse::Sent(send_chosen(client, &outbox, ids).await),
    }
}

async fn send_chosen(
    client: &Client,
    outbox: &std::sync::Arc<Outbox>,
    ids: Vec<i64>,
) -> Vec<(i64, SendOutcome)> {
    let queued = match blocking(outbox, Outbox::list).await {
        Ok(queued) => queued,
        Err(why) => {
            return ids
                .into_iter()
                .map(|id| (id, SendOutcome::Kept(why.clone())))
                .collect();
        }
    };
    let mut outcomes = Vec::new();
    for write in queued.iter().filter(|write| ids.contains(&write.id)) {
        let outcome = match send_queued(client, outbox, write).await {
            Sent::Sent => SendOutcome::Sent,
            Sent::AlreadyThere => SendOutcome::AlreadyThere,
            Sent::Kept(error) => SendOutcome::Kept(error.user_message()),
            Sent::Outbox(error) => SendOutcome::Kept(error.to_string()),
        };
        outcomes.push((write.id, outcome));
    }
    outcomes
}

async fn blocking<T: Send + 'static>(
    outbox: &std::sync::Arc<Outbox>,
    work: impl FnOnce(&Outbox) -> Result<T, crate::api::outbox::OutboxError> + Send + 'static,
) -> Result<T, String> {
    let outbox = outbox.clone();
    match tokio::task::spawn_blocking(move || work(&outbox)).await {
        Ok(result) => result.map_err(|error| error.to_string()),
        Err(_) => Err("The outbox could not be read.".to_string()),
    }
}

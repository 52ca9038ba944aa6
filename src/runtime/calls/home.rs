//! Carries out a [`HomeCall`]: every section in every organization, through
//! [`crate::api::home::gather`].

use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

use crate::api::Client;
use crate::api::change_requests::watch::{Event, Snapshot, changes};
use crate::api::home::{HomeEvent, gather};
use crate::vocabulary::home::{HomeAnswer, HomeCall};
use crate::vocabulary::{ApiResponse, Msg, RequestId};

/// Every event at once: for the cache, which answers without waiting, and for callers that
/// take one answer per call.
pub async fn call_home(client: &Client, call: HomeCall) -> HomeAnswer {
    let sections = match call {
        HomeCall::Gather { sections, .. } => sections,
        HomeCall::Look {
            space,
            change_request,
            seen,
        } => return look(client, space, change_request, seen).await,
        HomeCall::ToggleMark {
            space,
            change_request,
        } => return toggle_mark(client, &space, &change_request).await,
    };
    let (events, mut received) = unbounded_channel();
    let gathering = gather(client, &sections, events);
    let collecting = async {
        let mut all = Vec::new();
        while let Some(event) = received.recv().await {
            all.push(event);
        }
        all
    };
    let ((), all) = tokio::join!(gathering, collecting);
    HomeAnswer::All(all)
}

/// Each event as it comes, answered to `request` on the loop's queue; the last answer is sent
/// when the gathering ends. True when the server was reached (`GET /user` and `GET /orgs`
/// answered).
pub async fn stream_home(
    client: &Client,
    call: HomeCall,
    request: RequestId,
    sender: &UnboundedSender<Msg>,
) -> bool {
    let sections = match call {
        HomeCall::Gather { sections, .. } => sections,
        look_call @ (HomeCall::Look { .. } | HomeCall::ToggleMark { .. }) => {
            let response = ApiResponse::Home(call_home(client, look_call).await);
            return sender.send(Msg::Api { request, response }).is_ok();
        }
    };
    let (events, mut received) = unbounded_channel();
    let gathering = gather(client, &sections, events);
    let forwarding = async {
        let mut reached = true;
        while let Some(event) = received.recv().await {
            if let HomeEvent::Failed(error) = &event {
                reached = error.unreachable_cause().is_none();
            }
            let response = ApiResponse::Home(HomeAnswer::One(Box::new(event)));
            if sender.send(Msg::Api { request, response }).is_err() {
                break;
            }
        }
        reached
    };
    let ((), reached) = tokio::join!(gathering, forwarding);
    reached
}

/// One look at a watched change request, and what changed since `seen`.
async fn look(
    client: &Client,
    space: String,
    change_request: String,
    seen: Option<Box<Snapshot>>,
) -> HomeAnswer {
    let looked = async {
        let now = Snapshot::read(client, &space, &change_request).await?;
        let events = match &seen {
            Some(seen) => changes(client, &space, &change_request, seen, &now).await?,
            None => Vec::new(),
        };
        Ok((
            Box::new(now),
            claimed(client, &space, &change_request, events).await,
        ))
    };
    HomeAnswer::Looked {
        looked: looked.await,
        space,
        change_request,
    }
}

/// The events of a look this quire is the first to claim: another quire on the same account
/// and cache (another terminal window) that saw them first tells them, this one does not.
async fn claimed(client: &Client, space: &str, id: &str, events: Vec<Event>) -> Vec<Event> {
    if events.is_empty() {
        return events;
    }
    let ids = events.iter().map(|event| event.id.clone()).collect();
    let mine = client.claim_pings(space, id, ids).await;
    events
        .into_iter()
        .filter(|event| mine.contains(&event.id))
        .collect()
}

/// `W`: unmarks a marked change request, marks any other; true when it is watched now.
async fn toggle_mark(client: &Client, space: &str, id: &str) -> HomeAnswer {
    let marked = client
        .watch_marks()
        .await
        .iter()
        .any(|(mark_space, mark_id)| mark_space == space && mark_id == id);
    let set = client.set_watch_mark(space, id, !marked).await;
    HomeAnswer::Marked(set.map(|()| !marked))
}

//! API calls with the cache: a browsing read shows its cached answer at once and then the
//! server's; a read that finds the server unreachable is answered from the cache (saying what
//! is not there), and so is every read after it at once, until the server is back; `--offline`
//! reads the cache alone. While the server cannot be reached, one background check asks it
//! again with a growing wait, and says when it is back. A read whose own path alone gets no
//! answer, while the server answers a check at once, shows its error and quire stays online.

use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use super::call_api;
use super::calls::outbox::SendTurn;
use crate::api::Client;
use crate::api::retry::{FIRST_DELAY, MAX_TOTAL};
use crate::app::{ApiCall, ApiResponse, Msg, RequestId};
use crate::vocabulary::change_requests::{ChangeRequestsCall, ChangeRequestsResponse};
use crate::vocabulary::home::HomeCall;

/// Runs `call` and sends its answer(s) for `request`. Whether the call writes is asked of
/// [`ApiCall::writes`] alone: a write is never answered from the cache while quire seems
/// offline. (With `--offline` every call runs against the cache: a write is refused there, or
/// queued by its area.)
pub(super) async fn answer(
    client: &Client,
    turn: &SendTurn,
    sender: &UnboundedSender<Msg>,
    request: RequestId,
    call: ApiCall,
) {
    if client.is_offline_only() {
        let response = from_cache(client, turn, request, call).await;
        let _ = sender.send(response);
        return;
    }
    if let ApiCall::Home(home @ HomeCall::Gather { .. }) = &call
        && !client.seems_offline()
    {
        answer_home(client, turn, sender, request, home.clone()).await;
        return;
    }
    if client.cache().is_none() {
        let response = call_answering_early(client, turn, sender, request, call).await;
        let _ = sender.send(Msg::Api { request, response });
        return;
    }
    let writes = call.writes();
    if !writes && client.seems_offline() {
        // Offline already: the read is answered from the cache at once, without waiting for
        // the server's retries again (the background check says when the server is back).
        let _ = sender.send(from_cache(client, turn, request, call).await);
        watch_for_the_server(client, sender);
        return;
    }
    if shows_cache_first(&call) {
        show_cached_first(client, turn, sender, request, call.clone()).await;
    }
    let (network, record) = client.recorded();
    let response = call_answering_early(&network, turn, sender, request, call.clone()).await;
    // A server that answers while this call's requests found no answer (a path whose
    // connections are reset) is not offline: the error stays on screen for `r`, where going
    // offline would read the call again as soon as the server is found back, and fail again.
    let reached = if record.unreachable() {
        client.reach_server().await
    } else {
        Ok(())
    };
    let Err(error) = reached else {
        let _ = sender.send(Msg::Reachable(true));
        let _ = sender.send(Msg::Api { request, response });
        return;
    };
    let _ = sender.send(Msg::Reachable(false));
    watch_for_the_server(client, sender);
    let (answer, nothing_to_show) = if writes {
        (Msg::Api { request, response }, false)
    } else {
        let answer = from_cache(client, turn, request, call).await;
        // Nothing of the read was in the cache: its answer is "not read before".
        let nothing_to_show = matches!(answer, Msg::Api { .. });
        (answer, nothing_to_show)
    };
    let _ = sender.send(answer);
    let _ = sender.send(Msg::CannotReach {
        why: cannot_reach(client, &error),
        nothing_to_show,
    });
}

/// The server's answer to `call`. A review whose threads take several pages first sends its
/// opening (the first page of threads) to the same request, for the screen to draw and to ask
/// for what it shows while the other pages are read, and the first thread's replies as they
/// come.
async fn call_answering_early(
    client: &Client,
    turn: &SendTurn,
    sender: &UnboundedSender<Msg>,
    request: RequestId,
    call: ApiCall,
) -> ApiResponse {
    let ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(target)) = &call else {
        return call_api(client, turn, call).await;
    };
    let early = |response| {
        let response = ApiResponse::ChangeRequests(response);
        let _ = sender.send(Msg::Api { request, response });
    };
    let review = crate::runtime::calls::change_requests::load_review(client, target, early);
    ApiResponse::ChangeRequests(ChangeRequestsResponse::Review(review.await))
}

/// Home: the last one from the cache at once ("as of …"), then each section's answers from the
/// server as they come; a server out of reach is said as for any read.
async fn answer_home(
    client: &Client,
    turn: &SendTurn,
    sender: &UnboundedSender<Msg>,
    request: RequestId,
    call: HomeCall,
) {
    if client.cache().is_some() {
        show_cached_first(client, turn, sender, request, ApiCall::Home(call.clone())).await;
    }
    let (network, _record) = client.recorded();
    let reached = crate::runtime::calls::home::stream_home(&network, call, request, sender).await;
    if reached {
        let _ = sender.send(Msg::Reachable(true));
    } else if client.cache().is_some() {
        let _ = sender.send(Msg::Reachable(false));
        watch_for_the_server(client, sender);
    }
}

/// "cannot reach http://127.0.0.1:1: connection refused": the address as the user gives it
/// (without the API's `/v1`), and why.
fn cannot_reach(client: &Client, error: &crate::api::ApiError) -> String {
    let root = client.api_root();
    let address = root.strip_suffix("/v1").unwrap_or(root);
    let cause = error
        .unreachable_cause()
        .unwrap_or_else(|| "no answer".to_string());
    format!("cannot reach {address}: {cause}")
}

/// The reads whose screens take a provisional answer and then the server's to the same
/// request (`app::AnswerKind::Provisional`): the lists and pages one browses, the first page
/// of change requests, and a change request's review.
fn shows_cache_first(call: &ApiCall) -> bool {
    matches!(
        call,
        ApiCall::ListOrganizations { .. }
            | ApiCall::OrganizationTree { .. }
            | ApiCall::ListPages { .. }
            | ApiCall::GetPageMarkdown { .. }
            | ApiCall::ChangeRequests(
                ChangeRequestsCall::LoadReview(_)
                    | ChangeRequestsCall::ListChangeRequests { page: None, .. }
            )
    )
}

/// Sends the cached answer to `call`, to be replaced by the server's, when every read of it is
/// in the cache.
async fn show_cached_first(
    client: &Client,
    turn: &SendTurn,
    sender: &UnboundedSender<Msg>,
    request: RequestId,
    call: ApiCall,
) {
    let (cache_only, record) = client.cache_only();
    let response = call_api(&cache_only, turn, call).await;
    if record.missed() {
        return;
    }
    if let Some(as_of) = record.as_of() {
        let _ = sender.send(Msg::FromCache {
            request,
            response,
            as_of,
            revalidating: true,
        });
    }
}

/// The answer the cache gives to `call`: what is there, and for what is not, an error saying
/// it was not read before (a write there is refused).
async fn from_cache(client: &Client, turn: &SendTurn, request: RequestId, call: ApiCall) -> Msg {
    let (cache_only, record) = client.cache_only();
    let response: ApiResponse = call_api(&cache_only, turn, call).await;
    match record.as_of() {
        Some(as_of) => Msg::FromCache {
            request,
            response,
            as_of,
            revalidating: false,
        },
        None => Msg::Api { request, response },
    }
}

/// Asks who is signed in, waiting longer after each failure (as reads are retried, up to the
/// retry budget between tries), until the server answers; then says it is back. One at a time.
fn watch_for_the_server(client: &Client, sender: &UnboundedSender<Msg>) {
    if !client.begin_probe() {
        return;
    }
    let client = client.clone();
    let sender = sender.clone();
    tokio::spawn(async move {
        let mut wait = FIRST_DELAY;
        let mut asked = Box::pin(client.retry_asked());
        loop {
            // `r` asks at once rather than at the end of the wait.
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = asked.as_mut() => {}
            }
            if sender.is_closed() {
                break;
            }
            // Listening from before the server is asked: an `r` pressed while it is being
            // asked is not lost, and skips the wait after a failure.
            asked = Box::pin(client.retry_asked());
            asked.as_mut().enable();
            let (probe, record) = client.recorded();
            let answered = probe.current_user().await.is_ok();
            if answered || !record.unreachable() {
                let _ = sender.send(Msg::Reachable(true));
                break;
            }
            wait = (wait * 2).min(MAX_TOTAL).max(Duration::from_millis(100));
        }
        client.end_probe();
    });
}

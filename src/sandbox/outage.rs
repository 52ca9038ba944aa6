//! The sandbox out of reach, for a while: its port closed (connections refused), every request
//! left hanging, or every request answered 503. Tests switch it with `Sandbox::set_outage`.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::fault_rules::Counters;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outage {
    /// Serving as usual.
    #[default]
    None,
    /// The port is closed: every connection is refused until the outage ends.
    Refuse,
    /// Requests are accepted and get no answer until the outage ends.
    Hang,
    /// Every request is answered 503 Service Unavailable.
    Unavailable,
}

impl Outage {
    /// `none`, `refuse`, `hang` or `503`.
    pub fn parse(text: &str) -> Result<Outage, String> {
        match text.trim() {
            "none" => Ok(Outage::None),
            "refuse" => Ok(Outage::Refuse),
            "hang" => Ok(Outage::Hang),
            "503" | "unavailable" => Ok(Outage::Unavailable),
            other => Err(format!("`{other}` is no outage: none, refuse, hang or 503")),
        }
    }
}

/// Waits while `outage` says to hang; true when the request should then be answered 503.
pub(super) async fn hold(outage: &watch::Receiver<Outage>) -> bool {
    let mut outage = outage.clone();
    let _ = outage.wait_for(|now| *now != Outage::Hang).await;
    let now = *outage.borrow();
    now == Outage::Unavailable
}

/// Serves `app` on `address` until `stop` says so; while the outage refuses connections the
/// listener is closed, and it is bound again (same address) when the outage ends.
pub(super) async fn serve(
    first: TcpListener,
    app: Router,
    counters: Arc<Counters>,
    outage: watch::Receiver<Outage>,
    stop: watch::Receiver<bool>,
) {
    let Ok(address) = first.local_addr() else {
        return;
    };
    let mut listener = Some(first);
    loop {
        let open = match listener.take() {
            Some(open) => open,
            None => match TcpListener::bind(address).await {
                Ok(open) => open,
                Err(error) => {
                    tracing::warn!(%error, "sandbox could not listen again; retrying");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let accepted = counters.clone();
        let open = open.tap_io(move |_| accepted.count_connection());
        let (mut refusing, mut stopping) = (outage.clone(), stop.clone());
        let server = axum::serve(open, app.clone()).with_graceful_shutdown(async move {
            tokio::select! {
                _ = refusing.wait_for(|now| *now == Outage::Refuse) => {}
                // A dropped sender also ends the wait: dropping the Sandbox stops the server.
                _ = stopping.wait_for(|stop| *stop) => {}
            }
        });
        if let Err(error) = server.await {
            tracing::warn!(%error, "sandbox server stopped with an error");
        }
        let (mut refusing, mut stopping) = (outage.clone(), stop.clone());
        tokio::select! {
            _ = refusing.wait_for(|now| *now != Outage::Refuse) => {}
            _ = stopping.wait_for(|stop| *stop) => {}
        }
        if stop.has_changed().is_err() || *stop.borrow() {
            return;
        }
    }
}

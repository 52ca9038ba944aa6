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

/// An outage planned for `quire sandbox --outage MODE:AFTER:FOR`: `mode` from `after` seconds
/// after the start, for `lasting` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutageWindow {
    pub mode: Outage,
    pub after: Duration,
    pub lasting: Duration,
}

impl OutageWindow {
    /// `refuse:30:60`: refuse connections from 30 s after the start, for 60 s.
    pub fn parse(text: &str) -> Result<OutageWindow, String> {
        let mut parts = text.split(':');
        let mode = Outage::parse(parts.next().unwrap_or_default())?;
        let mut seconds = |what: &str| {
            parts
                .next()
                .and_then(|part| part.trim().parse::<u64>().ok())
                .map(Duration::from_secs)
                .ok_or_else(|| format!("`{text}`: {what} in seconds missing (MODE:AFTER:FOR)"))
        };
        let after = seconds("the start")?;
        let lasting = seconds("the length")?;
        Ok(OutageWindow {
            mode,
            after,
            lasting,
        })
    }

    /// Puts `sandbox` out of reach when the window opens and back when it closes.
    pub fn schedule(self, sandbox: &super::Sandbox) {
        let outage = sandbox.outage.clone();
        tokio::spawn(async move {
            tokio::time::sleep(self.after).await;
            outage.send_replace(self.mode);
            tokio::time::sleep(self.lasting).await;
            outage.send_replace(Outage::None);
        });
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
/// `port_closed` says when the port is closed (every connection gone) and when it is open again.
pub(super) async fn serve(
    first: TcpListener,
    app: Router,
    counters: Arc<Counters>,
    (outage, port_closed): (watch::Receiver<Outage>, watch::Sender<bool>),
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
        port_closed.send_replace(false);
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
        port_closed.send_replace(true);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_names_its_mode_start_and_length() {
        let window = OutageWindow::parse("refuse:30:60").unwrap();
        assert_eq!(window.mode, Outage::Refuse);
        assert_eq!(window.after, Duration::from_secs(30));
        assert_eq!(window.lasting, Duration::from_secs(60));
        assert_eq!(
            OutageWindow::parse("503:0:5").unwrap().mode,
            Outage::Unavailable
        );
        assert!(OutageWindow::parse("refuse:30").is_err());
        assert!(OutageWindow::parse("later:1:1").is_err());
    }
}

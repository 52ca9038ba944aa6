//! At most [`MAX_IN_FLIGHT_PER_HOST`] requests in flight to one host. A change request with
//! hundreds of threads would otherwise send hundreds of requests at once: over HTTP/1.1 each
//! needs its own connection (so none is reused), and a server sees a burst it may throttle.
//! Requests past the limit wait their turn, first come first served.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use url::Url;

/// Requests one client has in flight to one host (scheme, host and port), at most.
pub const MAX_IN_FLIGHT_PER_HOST: usize = 16;

/// One semaphore per host, shared by every clone of a client.
#[derive(Default)]
pub struct HostLimits {
    hosts: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl HostLimits {
    /// Waits until `url`'s host has a free slot; the slot is given back when the permit drops.
    /// `None` only if the semaphore was closed, which never happens: the caller goes ahead.
    pub async fn admit(&self, url: &Url) -> Option<OwnedSemaphorePermit> {
        self.semaphore(url).acquire_owned().await.ok()
    }

    fn semaphore(&self, url: &Url) -> Arc<Semaphore> {
        let key = host_key(url);
        // A poisoned lock only means another request panicked while holding it; the map is
        // still whole, so keep using it.
        let mut hosts = self
            .hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        hosts
            .entry(key)
            .or_insert_with(|| Arc::new(Semaphore::new(MAX_IN_FLIGHT_PER_HOST)))
            .clone()
    }
}

/// `https://api.example.com:443`: what a connection pool tells hosts apart by.
fn host_key(url: &Url) -> String {
    format!(
        "{}://{}:{}",
        url.scheme(),
        url.host_str().unwrap_or_default(),
        url.port_or_known_default().unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).expect("test URL")
    }

    #[test]
    fn hosts_are_told_apart_by_scheme_host_and_port() {
        assert_eq!(
            host_key(&url("https://api.example.com/v1/orgs")),
            host_key(&url("https://api.example.com:443/v1/user"))
        );
        assert_ne!(
            host_key(&url("http://127.0.0.1:8080/v1")),
            host_key(&url("http://127.0.0.1:8081/v1"))
        );
    }

    #[tokio::test]
    async fn the_seventeenth_request_to_a_host_waits_and_another_host_does_not() {
        let limits = HostLimits::default();
        let busy = url("http://127.0.0.1:8080/v1/orgs");
        let mut permits = Vec::new();
        for _ in 0..MAX_IN_FLIGHT_PER_HOST {
            permits.push(limits.admit(&busy).await);
        }
        let waiting =
            tokio::time::timeout(std::time::Duration::from_millis(20), limits.admit(&busy)).await;
        assert!(waiting.is_err(), "a 17th request must wait");
        let other = limits.admit(&url("http://127.0.0.1:9090/v1/orgs")).await;
        assert!(other.is_some(), "another host has its own slots");
        permits.pop();
        assert!(
            limits.admit(&busy).await.is_some(),
            "a freed slot is reused"
        );
    }
}

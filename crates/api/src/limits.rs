//! At most [`MAX_IN_FLIGHT_PER_HOST`] requests in flight to one host. A change request with
//! hundreds of threads would otherwise send hundreds of requests at once: over HTTP/1.1 each
//! needs its own connection (so none is reused), and a server sees a burst it may throttle.
//! Requests past the limit wait their turn by [`Priority`]: a [`Priority::FirstScreen`] request
//! before every [`Priority::OnScreen`] one, and those before every [`Priority::Background`]
//! one, first come first served within each, so what draws the screen never queues behind a
//! review's hundreds of reply lists, nor the replies on screen behind those of threads further
//! down.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;
use url::Url;

/// Requests one client has in flight to one host (scheme, host and port), at most.
pub const MAX_IN_FLIGHT_PER_HOST: usize = 16;

/// Which requests take a free slot first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Priority {
    /// Work the screen can draw without (the replies of a review's threads off screen): it
    /// waits while any other request waits.
    Background,
    /// Filling in what is already drawn (the replies of the threads on screen): before the
    /// background, behind what draws the screen.
    OnScreen,
    /// What the screen is drawn from: it takes a slot before any other waiting request.
    #[default]
    FirstScreen,
}

impl Priority {
    const LEVELS: usize = 3;

    /// Where the waiters of this priority queue: the highest first.
    fn rank(self) -> usize {
        match self {
            Priority::FirstScreen => 0,
            Priority::OnScreen => 1,
            Priority::Background => 2,
        }
    }
}

/// One queue per host, shared by every clone of a client.
#[derive(Default)]
pub struct HostLimits {
    hosts: Mutex<HashMap<String, Arc<HostQueue>>>,
}

/// A host's free slots and who waits for one, by priority.
#[derive(Default)]
struct HostQueue {
    state: Mutex<QueueState>,
}

struct QueueState {
    free: usize,
    /// Waiters by [`Priority::rank`].
    waiting: [VecDeque<oneshot::Sender<()>>; Priority::LEVELS],
}

impl QueueState {
    /// True when a request of `priority` may take a free slot now: none of its own priority
    /// or a higher one waits.
    fn may_take(&self, priority: Priority) -> bool {
        self.free > 0
            && self.waiting[..=priority.rank()]
                .iter()
                .all(VecDeque::is_empty)
    }
}

impl Default for QueueState {
    fn default() -> QueueState {
        QueueState {
            free: MAX_IN_FLIGHT_PER_HOST,
            waiting: Default::default(),
        }
    }
}

/// A slot held: given to the next waiter (the highest priority first) when dropped.
pub struct Slot {
    queue: Arc<HostQueue>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.queue.release();
    }
}

impl HostLimits {
    /// Waits until `url`'s host has a slot for a request of `priority`; the slot is handed on
    /// when the returned [`Slot`] drops.
    pub async fn admit(&self, url: &Url, priority: Priority) -> Slot {
        let queue = self.queue(url);
        let receiver = {
            let mut state = queue.lock();
            if state.may_take(priority) {
                state.free -= 1;
                None
            } else {
                let (sender, receiver) = oneshot::channel();
                state.waiting[priority.rank()].push_back(sender);
                Some(receiver)
            }
        };
        if let Some(receiver) = receiver {
            Waiting {
                receiver: Some(receiver),
                queue: &queue,
            }
            .granted()
            .await;
        }
        Slot { queue }
    }

    /// Requests waiting for a slot, every host together.
    pub fn waiting(&self) -> usize {
        let hosts = self
            .hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        hosts
            .values()
            .map(|queue| {
                let state = queue.lock();
                state.waiting.iter().map(VecDeque::len).sum::<usize>()
            })
            .sum()
    }

    fn queue(&self, url: &Url) -> Arc<HostQueue> {
        let key = host_key(url);
        // A poisoned lock only means another request panicked while holding it; the map is
        // still whole, so keep using it.
        let mut hosts = self
            .hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        hosts.entry(key).or_default().clone()
    }
}

impl HostQueue {
    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A slot came free: the longest-waiting request of the highest priority waiting gets it,
    /// else it is free. A waiter that gave up is skipped.
    fn release(&self) {
        let mut state = self.lock();
        loop {
            let next = state.waiting.iter_mut().find_map(VecDeque::pop_front);
            match next {
                Some(waiter) => {
                    if waiter.send(()).is_ok() {
                        return;
                    }
                }
                None => {
                    state.free += 1;
                    return;
                }
            }
        }
    }
}

/// A request waiting for its slot. Dropped before it was polled to the end (the request was
/// cancelled), a slot already handed to it is handed on.
struct Waiting<'a> {
    receiver: Option<oneshot::Receiver<()>>,
    queue: &'a HostQueue,
}

impl Waiting<'_> {
    async fn granted(mut self) {
        if let Some(receiver) = self.receiver.as_mut() {
            // The sender is only dropped unsent when the queue itself goes, with its client.
            let _ = receiver.await;
        }
        self.receiver = None;
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if let Some(mut receiver) = self.receiver.take() {
            receiver.close();
            if receiver.try_recv().is_ok() {
                self.queue.release();
            }
        }
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
    use futures::FutureExt;

    /// Takes every slot of `host`'s, as requests of `priority`.
    async fn fill(limits: &HostLimits, host: &Url, priority: Priority) -> Vec<Slot> {
        let mut slots = Vec::new();
        for _ in 0..MAX_IN_FLIGHT_PER_HOST {
            slots.push(limits.admit(host, priority).await);
        }
        slots
    }

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
        let mut slots = fill(&limits, &busy, Priority::FirstScreen).await;
        let mut waiting = Box::pin(limits.admit(&busy, Priority::FirstScreen));
        assert!(
            (&mut waiting).now_or_never().is_none(),
            "a 17th request must wait"
        );
        let other = limits
            .admit(&url("http://127.0.0.1:9090/v1/orgs"), Priority::Background)
            .now_or_never();
        assert!(other.is_some(), "another host has its own slots");
        slots.pop();
        assert!(
            waiting.now_or_never().is_some(),
            "a freed slot goes to the request waiting"
        );
    }

    #[tokio::test]
    async fn a_freed_slot_goes_to_a_waiting_first_screen_request_before_earlier_background_ones() {
        let limits = HostLimits::default();
        let host = url("http://127.0.0.1:8080/v1/orgs");
        let mut slots = fill(&limits, &host, Priority::Background).await;
        let mut background = Box::pin(limits.admit(&host, Priority::Background));
        assert!((&mut background).now_or_never().is_none());
        let mut first_screen = Box::pin(limits.admit(&host, Priority::FirstScreen));
        assert!((&mut first_screen).now_or_never().is_none());
        slots.pop();
        assert!(
            (&mut background).now_or_never().is_none(),
            "the background request still waits"
        );
        let taken = (&mut first_screen).now_or_never();
        assert!(taken.is_some(), "the first-screen request went first");
        drop(taken);
        assert!(
            background.now_or_never().is_some(),
            "then the background one"
        );
    }

    #[tokio::test]
    async fn a_background_request_does_not_pass_a_waiting_first_screen_one() {
        let limits = HostLimits::default();
        let host = url("http://127.0.0.1:8080/v1/orgs");
        let mut slots = fill(&limits, &host, Priority::FirstScreen).await;
        let mut first_screen = Box::pin(limits.admit(&host, Priority::FirstScreen));
        assert!((&mut first_screen).now_or_never().is_none());
        slots.pop();
        let mut background = Box::pin(limits.admit(&host, Priority::Background));
        assert!((&mut background).now_or_never().is_none());
        assert!(first_screen.now_or_never().is_some());
    }

    #[tokio::test]
    async fn a_cancelled_wait_hands_its_slot_on() {
        let limits = HostLimits::default();
        let host = url("http://127.0.0.1:8080/v1/orgs");
        let mut slots = fill(&limits, &host, Priority::FirstScreen).await;
        let mut given_up = Box::pin(limits.admit(&host, Priority::FirstScreen));
        assert!((&mut given_up).now_or_never().is_none());
        let mut next = Box::pin(limits.admit(&host, Priority::Background));
        assert!((&mut next).now_or_never().is_none());
        slots.pop();
        drop(given_up);
        assert!(
            next.now_or_never().is_some(),
            "the slot handed to a request that gave up is handed on"
        );
    }

    #[tokio::test]
    async fn freed_slots_go_to_first_screen_then_on_screen_then_background_requests() {
        let limits = HostLimits::default();
        let host = url("http://127.0.0.1:8080/v1/orgs");
        let mut slots = fill(&limits, &host, Priority::Background).await;
        let mut background = Box::pin(limits.admit(&host, Priority::Background));
        let mut on_screen = Box::pin(limits.admit(&host, Priority::OnScreen));
        let mut first_screen = Box::pin(limits.admit(&host, Priority::FirstScreen));
        assert!((&mut background).now_or_never().is_none());
        assert!((&mut on_screen).now_or_never().is_none());
        assert!((&mut first_screen).now_or_never().is_none());
        slots.pop();
        let first_slot = (&mut first_screen).now_or_never();
        assert!(first_slot.is_some(), "first-screen first");
        assert!((&mut on_screen).now_or_never().is_none());
        slots.pop();
        assert!(
            (&mut background).now_or_never().is_none(),
            "the background request still waits"
        );
        let on_screen_slot = (&mut on_screen).now_or_never();
        assert!(on_screen_slot.is_some(), "then on-screen");
        slots.pop();
        assert!(background.now_or_never().is_some(), "then the background");
    }
}

//! The loop's timers (a preview's rest, a watch's refresh, a retry), kept by the loop itself:
//! one goes off as a wake of the loop's own thread, where a task per timer would cost a spawn
//! and a wake of another thread first. Keys such as `j` in a page tree set one each.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::time::Instant;

use crate::app::RequestId;

#[derive(Debug, Default)]
pub(super) struct Timers {
    /// By when each goes off; the second key keeps timers set for the same instant apart.
    due: BTreeMap<(Instant, u64), RequestId>,
    set: u64,
}

impl Timers {
    pub(super) fn set(&mut self, id: RequestId, after: Duration) {
        self.set += 1;
        self.due.insert((Instant::now() + after, self.set), id);
    }

    pub(super) fn cancel(&mut self, id: RequestId) {
        self.due.retain(|_, set| *set != id);
    }

    pub(super) fn is_empty(&self) -> bool {
        self.due.is_empty()
    }

    /// When the next one goes off, if any is set.
    pub(super) fn next_due(&self) -> Option<Instant> {
        self.due.keys().next().map(|(at, _)| *at)
    }

    /// The first timer whose time has come, taken off the list.
    pub(super) fn take_due(&mut self, now: Instant) -> Option<RequestId> {
        let entry = self.due.first_entry()?;
        if entry.key().0 > now {
            return None;
        }
        Some(entry.remove())
    }
}

/// Waits until `at`, or for ever when there is no timer.
pub(super) async fn until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_go_off_in_the_order_of_their_time_and_only_once_due() {
        let mut timers = Timers::default();
        let now = Instant::now();
        timers.set(RequestId(1), Duration::from_secs(60));
        timers.set(RequestId(2), Duration::ZERO);
        timers.set(RequestId(3), Duration::ZERO);
        let later = now + Duration::from_secs(1);
        assert_eq!(timers.take_due(later), Some(RequestId(2)));
        assert_eq!(timers.take_due(later), Some(RequestId(3)));
        assert_eq!(timers.take_due(later), None);
        assert!(!timers.is_empty());
        assert_eq!(
            timers.take_due(now + Duration::from_secs(61)),
            Some(RequestId(1))
        );
        assert!(timers.is_empty());
    }

    #[test]
    fn a_cancelled_timer_never_goes_off() {
        let mut timers = Timers::default();
        timers.set(RequestId(1), Duration::ZERO);
        timers.set(RequestId(2), Duration::ZERO);
        timers.cancel(RequestId(1));
        let later = Instant::now() + Duration::from_secs(1);
        assert_eq!(timers.take_due(later), Some(RequestId(2)));
        assert_eq!(timers.take_due(later), None);
        assert!(timers.is_empty());
    }
}

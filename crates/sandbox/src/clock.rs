//! The sandbox's clock: the real time unless a test moves it. What takes time on the server
//! (an OpenAPI source processed, a translation's run) is judged by it, so a test advances it
//! instead of waiting for the real seconds to pass.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use chrono::{DateTime, Utc};

/// A handle on the clock; clones share it (the world's and the test's are the same clock).
#[derive(Clone, Debug, Default)]
pub struct Clock {
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    /// Where the clock stands while it is stopped; `None` while it follows the real time.
    stopped_at: Option<DateTime<Utc>>,
    /// How far it was moved ahead of the real time while it followed it.
    ahead: chrono::Duration,
}

impl Clock {
    pub fn now(&self) -> DateTime<Utc> {
        let state = self.state();
        state.stopped_at.unwrap_or_else(|| Utc::now() + state.ahead)
    }

    /// Stops the clock where it stands: from then on only [`Clock::advance`] moves it, so what
    /// a test sees does not depend on how fast the machine runs it.
    pub fn stop(&self) {
        let now = self.now();
        self.state().stopped_at = Some(now);
    }

    /// Moves the clock `by` ahead at once.
    pub fn advance(&self, by: Duration) {
        let by = chrono::Duration::from_std(by).unwrap_or(chrono::Duration::MAX);
        let mut state = self.state();
        match &mut state.stopped_at {
            Some(at) => *at = at.checked_add_signed(by).unwrap_or(*at),
            None => state.ahead = state.ahead.checked_add(&by).unwrap_or(state.ahead),
        }
    }

    /// A panic elsewhere while the lock was held leaves the time itself intact: go on with it.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_clock_moves_only_when_advanced() {
        let clock = Clock::default();
        clock.stop();
        let stopped = clock.now();
        assert_eq!(clock.now(), stopped);
        clock.advance(Duration::from_secs(2));
        assert_eq!(clock.now() - stopped, chrono::Duration::seconds(2));
    }

    #[test]
    fn a_running_clock_advanced_runs_ahead_of_the_real_time() {
        let clock = Clock::default();
        clock.advance(Duration::from_secs(3600));
        assert!(clock.now() - Utc::now() > chrono::Duration::minutes(59));
    }
}

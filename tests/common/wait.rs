//! The one way a test waits: for a condition that an event makes true, checked again and again
//! until a generous deadline. A test never sleeps for a fixed time and then looks: on two busy
//! cores any fixed time is sometimes too short.

use std::time::{Duration, Instant};

/// How long an event may take before a test fails: far beyond what it needs on an idle
/// machine, so that a slow one only makes the test slower.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// How long to let the condition's side run between two checks.
const BETWEEN_CHECKS: Duration = Duration::from_millis(10);

/// Checks `done` until it holds (true) or `deadline` has passed (false).
pub fn wait_until(deadline: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if done() {
            return true;
        }
        if start.elapsed() > deadline {
            return false;
        }
        // The thing waited for happens in another thread or process, which tells nobody:
        // polling is the wait, and this pause only keeps the poll from taking a core.
        std::thread::sleep(BETWEEN_CHECKS);
    }
}

/// [`wait_until`] inside a tokio task: the runtime goes on with other tasks between checks.
pub async fn wait_until_async(deadline: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if done() {
            return true;
        }
        if start.elapsed() > deadline {
            return false;
        }
        // As in `wait_until`, yielding to the runtime rather than blocking its thread.
        tokio::time::sleep(BETWEEN_CHECKS).await;
    }
}

//! The one way a test waits: for a condition that an event makes true. Whatever the condition
//! looks at says when it moves (the terminal's reader when bytes arrive, the sandbox when a
//! request arrives or is answered, the loop when it draws), and the waiter sleeps until then and
//! looks again. A generous deadline ends a wait whose event never comes. A test never sleeps
//! for a fixed time and then looks: on two busy cores any fixed time is sometimes too short.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::watch;

/// How long an event may take before a test fails: far beyond what it needs on an idle
/// machine, so that a slow one only makes the test slower.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// Things that happened, counted: a thread or a task sleeps until the count moves.
#[derive(Clone)]
pub struct Events {
    shared: Arc<Shared>,
}

struct Shared {
    count: Mutex<u64>,
    moved: Condvar,
    /// The same count for async waiters.
    changes: watch::Sender<u64>,
}

impl Default for Events {
    fn default() -> Events {
        Events::new()
    }
}

impl Events {
    pub fn new() -> Events {
        Events {
            shared: Arc::new(Shared {
                count: Mutex::new(0),
                moved: Condvar::new(),
                changes: watch::Sender::new(0),
            }),
        }
    }

    /// Something happened: every waiter looks again.
    pub fn happened(&self) {
        let mut count = self.shared.count.lock().unwrap_or_else(|e| e.into_inner());
        *count += 1;
        self.shared.changes.send_replace(*count);
        self.shared.moved.notify_all();
    }

    /// A receiver for [`wait_until_async`].
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.shared.changes.subscribe()
    }

    /// Counts every change of `changes` (the sandbox's activity, say) as an event here too, for
    /// a thread that waits on this and on a server at once. The forwarding task runs on
    /// `runtime` until the sender is gone.
    pub fn follow(&self, runtime: &tokio::runtime::Handle, mut changes: watch::Receiver<u64>) {
        let events = self.clone();
        runtime.spawn(async move {
            while changes.changed().await.is_ok() {
                events.happened();
            }
        });
    }

    /// Waits until nothing has happened for `quiet` (true), or `deadline` has passed first
    /// (false). Only for a source that never says it is done: a program drawing in a terminal
    /// writes a frame at once, so a pause in its output is taken for the frame's end.
    pub fn wait_for_quiet(&self, quiet: Duration, deadline: Duration) -> bool {
        let until = Instant::now() + deadline;
        loop {
            let seen = self.count();
            let window_ends = Instant::now() + quiet;
            if !self.wait_past(seen, window_ends.min(until)) {
                return window_ends <= until;
            }
        }
    }

    fn count(&self) -> u64 {
        *self.shared.count.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sleeps until the count is past `seen`; false when `until` came first.
    fn wait_past(&self, seen: u64, until: Instant) -> bool {
        let mut count = self.shared.count.lock().unwrap_or_else(|e| e.into_inner());
        while *count == seen {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            count = self
                .shared
                .moved
                .wait_timeout(count, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

/// Checks `done` now and after each of `events` until it holds (true) or `deadline` has passed
/// (false).
pub fn wait_until(deadline: Duration, events: &Events, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + deadline;
    loop {
        // Read before looking: an event during the look is not missed.
        let seen = events.count();
        if done() {
            return true;
        }
        if !events.wait_past(seen, until) {
            return done();
        }
    }
}

/// [`wait_until`] inside a tokio task, on a watch channel's changes (the sandbox's
/// `activity()`, [`Events::subscribe`]): the runtime goes on with other tasks meanwhile.
pub async fn wait_until_async(
    deadline: Duration,
    mut changes: watch::Receiver<u64>,
    mut done: impl FnMut() -> bool,
) -> bool {
    let until = tokio::time::Instant::now() + deadline;
    loop {
        changes.borrow_and_update();
        if done() {
            return true;
        }
        match tokio::time::timeout_at(until, changes.changed()).await {
            Ok(Ok(())) => {}
            // Nothing can happen any more (the source is gone), or the deadline came.
            Ok(Err(_)) | Err(_) => return done(),
        }
    }
}

/// Waits until the file at `path` (a log quire appends to) holds `text`, at most `deadline`;
/// whether it does. The file changing is the event (inotify), so it is read again only after a
/// write. For what quire does that only its log tells, such as waiting for a child it started.
pub fn wait_for_text_in_file(path: &std::path::Path, text: &str, deadline: Duration) -> bool {
    let holds = || std::fs::read_to_string(path).is_ok_and(|content| content.contains(text));
    let Some(changes) = FileChanges::watch(path) else {
        return holds();
    };
    let until = Instant::now() + deadline;
    loop {
        // Watching before looking: a write during the look is not missed.
        if holds() {
            return true;
        }
        if !changes.wait(until.saturating_duration_since(Instant::now())) {
            return holds();
        }
    }
}

/// An inotify watch on one file's writes.
struct FileChanges {
    fd: std::os::fd::OwnedFd,
}

impl FileChanges {
    fn watch(path: &std::path::Path) -> Option<FileChanges> {
        use std::os::fd::FromRawFd;
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
        // SAFETY: inotify_init1 takes flags and returns a new descriptor or -1.
        let raw = unsafe { libc::inotify_init1(libc::IN_CLOEXEC | libc::IN_NONBLOCK) };
        if raw < 0 {
            return None;
        }
        // SAFETY: `raw` is a descriptor just opened and owned by nothing else.
        let fd = unsafe { std::os::fd::OwnedFd::from_raw_fd(raw) };
        // SAFETY: a valid inotify descriptor and a NUL-terminated path.
        let watch = unsafe { libc::inotify_add_watch(raw, path.as_ptr(), libc::IN_MODIFY) };
        (watch >= 0).then_some(FileChanges { fd })
    }

    /// Sleeps until the file is written to or `left` has passed; false at the deadline.
    fn wait(&self, left: Duration) -> bool {
        use std::os::fd::AsRawFd;
        let mut poll = libc::pollfd {
            fd: self.fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let timeout = i32::try_from(left.as_millis()).unwrap_or(i32::MAX);
        // SAFETY: one `pollfd` for a descriptor this value owns.
        let ready = unsafe { libc::poll(&mut poll, 1, timeout) };
        if ready <= 0 {
            // The deadline, or a signal: the caller looks once more either way.
            return ready < 0 && !left.is_zero();
        }
        // Take the events off the queue so the next poll sleeps until the next write.
        let mut buffer = [0u8; 4096];
        // SAFETY: reads at most the buffer's length into it.
        while unsafe { libc::read(poll.fd, buffer.as_mut_ptr().cast(), buffer.len()) } > 0 {}
        true
    }
}

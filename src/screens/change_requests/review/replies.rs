//! Which threads' replies are fetched, and when. The review arrives without replies; the threads
//! on screen and the triage targets get theirs first, in one call; the rest follow behind in
//! small batches, a few calls at a time, nearest the selection first. Pure bookkeeping: the
//! screen turns the plan into `Cmd`s.

use std::collections::{HashMap, HashSet};

use crate::vocabulary::RequestId;
use crate::vocabulary::change_requests::{ReviewBundle, Thread, ThreadReplies};

/// Background calls in flight at once, and threads per call. 2 × 7 keeps 14 reply requests
/// going, under the client's 16 per host, so replies for a thread that comes on screen find a
/// free slot at once instead of queueing behind the whole change request.
pub const BACKGROUND_CALLS: usize = 2;
pub const BACKGROUND_BATCH: usize = 7;

/// The reply requests of one review.
#[derive(Debug, Default)]
pub struct ReplyLoading {
    /// What each unanswered call asked for.
    in_flight: HashMap<RequestId, Asked>,
    /// Threads whose replies did not load; not asked for again until the review reloads.
    failed: HashSet<String>,
    /// The review request whose opening (first page of threads) is on screen: its whole
    /// answer keeps the replies loaded and asked for meanwhile.
    opening: Option<RequestId>,
}

#[derive(Debug, Clone, PartialEq)]
struct Asked {
    comments: Vec<String>,
    background: bool,
}

/// The calls to send now: one for what is on screen, batches for the rest.
#[derive(Debug, Default, PartialEq)]
pub struct Plan {
    pub on_screen: Vec<String>,
    pub background: Vec<Vec<String>>,
}

impl ReplyLoading {
    /// A new review arrived: answers to earlier calls are stale, and earlier failures may
    /// succeed now.
    pub fn reset(&mut self) {
        self.in_flight.clear();
        self.failed.clear();
        self.opening = None;
    }

    /// The opening of review `request` is on screen; its replies are asked for from now on.
    pub fn opened(&mut self, request: RequestId) {
        self.reset();
        self.opening = Some(request);
    }

    /// True when `request`'s opening was on screen (once).
    pub fn take_opening(&mut self, request: RequestId) -> bool {
        self.opening
            .take_if(|opening| *opening == request)
            .is_some()
    }

    pub fn has_failed(&self, comment: &str) -> bool {
        self.failed.contains(comment)
    }

    /// Records a call sent for `comments`.
    pub fn sent(&mut self, request: RequestId, comments: Vec<String>, background: bool) {
        self.in_flight.insert(
            request,
            Asked {
                comments,
                background,
            },
        );
    }

    /// True when `request` is a reply call of the current review (an answer to look at).
    pub fn take_answer(&mut self, request: RequestId) -> bool {
        self.in_flight.remove(&request).is_some()
    }

    /// What to ask for now: replies of `first` (thread indices: on screen, triage targets) that
    /// are neither here nor asked for, then background batches while calls are free, taking
    /// threads from `nearest` onwards (wrapping).
    pub fn plan(&self, threads: &[Thread], first: &[usize], nearest: usize) -> Plan {
        let asked: HashSet<&str> = self
            .in_flight
            .values()
            .flat_map(|asked| asked.comments.iter().map(String::as_str))
            .collect();
        let wanted = |thread: &&Thread| {
            !thread.replies_loaded
                && !asked.contains(thread.comment.id.as_str())
                && !self.failed.contains(&thread.comment.id)
        };
        let mut on_screen: Vec<String> = Vec::new();
        for thread in first.iter().filter_map(|index| threads.get(*index)) {
            if wanted(&thread) && !on_screen.contains(&thread.comment.id) {
                on_screen.push(thread.comment.id.clone());
            }
        }
        let busy = self.in_flight.values().filter(|a| a.background).count();
        let room = BACKGROUND_CALLS.saturating_sub(busy) * BACKGROUND_BATCH;
        let start = nearest.min(threads.len());
        let rest: Vec<String> = threads[start..]
            .iter()
            .chain(&threads[..start])
            .filter(wanted)
            .map(|thread| thread.comment.id.clone())
            .filter(|id| !on_screen.contains(id))
            .take(room)
            .collect();
        Plan {
            on_screen,
            background: rest
                .chunks(BACKGROUND_BATCH)
                .map(<[String]>::to_vec)
                .collect(),
        }
    }

    /// Puts the answers into `bundle`; failed threads are remembered. Returns the first error
    /// and how many threads failed, for the notice.
    pub fn apply(
        &mut self,
        bundle: &mut ReviewBundle,
        answers: &[ThreadReplies],
    ) -> Option<(usize, crate::api::ApiError)> {
        let mut failure: Option<(usize, crate::api::ApiError)> = None;
        for answer in answers {
            match &answer.replies {
                Ok(replies) => fill(bundle, &answer.comment, replies),
                Err(error) => {
                    self.failed.insert(answer.comment.clone());
                    match failure.as_mut() {
                        Some((count, _)) => *count += 1,
                        None => failure = Some((1, error.clone())),
                    }
                }
            }
        }
        failure
    }
}

/// The replies of one thread, now known.
pub fn fill(
    bundle: &mut ReviewBundle,
    comment: &str,
    replies: &[crate::api::models::CommentReply],
) {
    if let Some(thread) = bundle.threads.iter_mut().find(|t| t.comment.id == comment) {
        thread.replies = replies.to_vec();
        thread.comment.replies = Some(replies.len() as u64);
        thread.replies_loaded = true;
    }
}

/// The whole review after its opening: the replies that came meanwhile stay, loaded.
pub fn keep_loaded_replies(fresh: &mut ReviewBundle, opening: &ReviewBundle) {
    let loaded: HashMap<&str, &Thread> = opening
        .threads
        .iter()
        .filter(|thread| thread.replies_loaded)
        .map(|thread| (thread.comment.id.as_str(), thread))
        .collect();
    for thread in &mut fresh.threads {
        if let Some(opened) = loaded.get(thread.comment.id.as_str()) {
            thread.replies = opened.replies.clone();
            thread.comment.replies = opened.comment.replies;
            thread.replies_loaded = true;
        }
    }
}

/// While a reloaded review's replies are fetched again, each thread shows the replies it had
/// (so nothing blinks away); the fresh ones replace them as they come.
pub fn keep_earlier_replies(fresh: &mut ReviewBundle, earlier: &ReviewBundle) {
    let earlier: HashMap<&str, &Thread> = earlier
        .threads
        .iter()
        .filter(|thread| !thread.replies.is_empty())
        .map(|thread| (thread.comment.id.as_str(), thread))
        .collect();
    for thread in fresh.threads.iter_mut().filter(|t| !t.replies_loaded) {
        if let Some(before) = earlier.get(thread.comment.id.as_str()) {
            thread.replies = before.replies.clone();
        }
    }
}

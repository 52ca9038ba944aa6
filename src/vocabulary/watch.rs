//! Watching: an open review and the change-request lists refresh on a calm interval, and the
//! header counts the open change requests that wait for your review. Off when the interval is
//! zero or the link is metered: then no timer is ever set, so an idle quire stays silent.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::api::ChangeRequestFilter;
use crate::api::models::{ChangeRequest, ChangeRequestStatus};
use crate::screens::step::Ctx;
use crate::vocabulary::change_requests::{
    ChangeRequestScope, ChangeRequestsCall, ChangeRequestsResponse, ReviewBundle,
};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, RequestId};

/// The default refresh interval, in seconds (config `watch_interval_secs`).
pub const DEFAULT_INTERVAL_SECS: u64 = 120;

/// The default interval while the terminal reports that it lost focus (config
/// `watch_unfocused_interval_secs`), unless the focused one is longer: someone in another tmux
/// window still hears of a moved change request within minutes, at fewer requests an hour.
pub const DEFAULT_UNFOCUSED_INTERVAL_SECS: u64 = 300;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Watch {
    /// The interval in effect now: None when watching is off (or, unfocused, paused).
    pub interval: Option<Duration>,
    /// The interval while the terminal has focus (or never said it lost it).
    pub focused_interval: Option<Duration>,
    /// The interval while the terminal says it lost focus.
    pub unfocused_interval: Option<Duration>,
    /// Open change requests of the current organization with review requested from me; None
    /// while unknown (the header then shows nothing).
    pub review_requested: Option<usize>,
}

impl Watch {
    /// From the settings: an interval set explicitly wins; otherwise a metered link is not
    /// watched and any other is, every [`DEFAULT_INTERVAL_SECS`]. `0` seconds means off.
    /// Unfocused, the interval grows to `unfocused_secs` (default
    /// [`DEFAULT_UNFOCUSED_INTERVAL_SECS`], never shorter than the focused one); `0` pauses.
    pub fn from_settings(
        interval_secs: Option<u64>,
        unfocused_secs: Option<u64>,
        metered: bool,
    ) -> Watch {
        let seconds = match interval_secs {
            Some(seconds) => seconds,
            None if metered => 0,
            None => DEFAULT_INTERVAL_SECS,
        };
        let focused = (seconds > 0).then(|| Duration::from_secs(seconds));
        let unfocused = focused.and_then(|focused| {
            let seconds = unfocused_secs.unwrap_or(DEFAULT_UNFOCUSED_INTERVAL_SECS);
            (seconds > 0).then(|| Duration::from_secs(seconds).max(focused))
        });
        Watch {
            interval: focused,
            focused_interval: focused,
            unfocused_interval: unfocused,
            review_requested: None,
        }
    }

    /// The terminal gained or lost focus: the interval of timers armed from now on.
    pub fn set_focused(&mut self, focused: bool) {
        if self.focused_interval.is_none() && self.interval.is_some() {
            // Set directly (tests, older callers): that interval holds while focused.
            self.focused_interval = self.interval;
        }
        self.interval = if focused {
            self.focused_interval
        } else {
            self.unfocused_interval
        };
    }
}

/// One screen's refresh timer: at most one is set at a time, and none when watching is off.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ticker {
    timer: Option<RequestId>,
    /// Asked to arm while watching was paused (unfocused with an interval of 0): regaining
    /// focus arms it.
    paused: bool,
}

impl Ticker {
    /// Sets the next refresh unless one is set already or watching is off.
    pub fn arm(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(after) = ctx.watch.interval else {
            self.paused = ctx.watch.focused_interval.is_some();
            return Cmd::None;
        };
        self.paused = false;
        if self.timer.is_some() {
            return Cmd::None;
        }
        let id = ctx.requests.issue();
        self.timer = Some(id);
        Cmd::Timer { id, after }
    }

    /// Back in focus: the pending refresh, armed with the longer unfocused interval, is also
    /// set to go off after the focused one (the same timer: whichever goes off first refreshes,
    /// the other finds it spent).
    pub fn hasten(&mut self, ctx: &mut Ctx) -> Cmd {
        match (self.timer, ctx.watch.interval) {
            (Some(id), Some(after)) => Cmd::Timer { id, after },
            (None, Some(_)) if self.paused => self.arm(ctx),
            _ => Cmd::None,
        }
    }

    /// True when `id` is this ticker's timer going off (it is then spent).
    pub fn fired(&mut self, id: RequestId) -> bool {
        if self.timer == Some(id) {
            self.timer = None;
            return true;
        }
        false
    }
}

/// What is new in a review since the previous refresh: threads never seen, and threads whose
/// reply count grew. Marked until the next refresh.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReviewNews {
    pub new_threads: HashSet<String>,
    pub new_replies: HashSet<String>,
}

impl ReviewNews {
    pub fn between(before: &ReviewBundle, after: &ReviewBundle) -> ReviewNews {
        let replies: HashMap<&str, u64> = before
            .threads
            .iter()
            .map(|t| (t.comment.id.as_str(), t.comment.replies.unwrap_or(0)))
            .collect();
        let mut news = ReviewNews::default();
        for thread in &after.threads {
            let id = thread.comment.id.as_str();
            match replies.get(id) {
                None => {
                    news.new_threads.insert(id.to_string());
                }
                Some(count) if thread.comment.replies.unwrap_or(0) > *count => {
                    news.new_replies.insert(id.to_string());
                }
                Some(_) => {}
            }
        }
        news
    }

    pub fn is_empty(&self) -> bool {
        self.new_threads.is_empty() && self.new_replies.is_empty()
    }

    /// "● new" or "● new replies" for a thread, or None.
    pub fn mark(&self, thread: &str) -> Option<&'static str> {
        if self.new_threads.contains(thread) {
            Some("● new")
        } else if self.new_replies.contains(thread) {
            Some("● new replies")
        } else {
            None
        }
    }

    /// "2 new threads, 1 with new replies since the last refresh".
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.new_threads.is_empty() {
            parts.push(crate::ui::time::plural(
                self.new_threads.len(),
                "new thread",
                "new threads",
            ));
        }
        if !self.new_replies.is_empty() {
            parts.push(format!(
                "{} with new replies",
                crate::ui::time::plural(self.new_replies.len(), "thread", "threads")
            ));
        }
        format!("{} since the last refresh (marked ●).", parts.join(", "))
    }
}

/// Change requests of a list that are new or updated since the previous refresh, by id;
/// marked until the row is selected. A new comment counts as an update even where the server
/// leaves `updatedAt` alone.
pub fn fresh_change_requests(before: &[ChangeRequest], after: &[ChangeRequest]) -> Vec<String> {
    let state = |cr: &ChangeRequest| (cr.updated_at.clone(), cr.comments);
    let seen: HashMap<&str, (Option<String>, Option<u64>)> = before
        .iter()
        .map(|cr| (cr.id.as_str(), state(cr)))
        .collect();
    after
        .iter()
        .filter(|cr| seen.get(cr.id.as_str()) != Some(&state(cr)))
        .map(|cr| cr.id.clone())
        .collect()
}

/// Keeps the header's "N review requested" of one organization: asks who you are once, then
/// counts, again on every watch tick.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RequestedCount {
    organization: String,
    me: Option<String>,
    waiting: Option<RequestId>,
    ticker: Ticker,
}

impl RequestedCount {
    pub fn new(organization: &str) -> RequestedCount {
        RequestedCount {
            organization: organization.to_string(),
            ..RequestedCount::default()
        }
    }

    /// Counts now (first asking who you are when that is not known). Only while watching:
    /// with watching off (a metered link) the count is not asked for and the header shows none.
    pub fn start(&mut self, ctx: &mut Ctx) -> Cmd {
        if ctx.watch.interval.is_none() {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.waiting = Some(request);
        let call = match &self.me {
            None => ChangeRequestsCall::CurrentUser,
            Some(me) => ChangeRequestsCall::ListChangeRequests {
                scope: ChangeRequestScope::Organization(self.organization.clone()),
                filter: ChangeRequestFilter {
                    statuses: vec![ChangeRequestStatus::Open],
                    requested_reviewer: Some(me.clone()),
                    ..ChangeRequestFilter::default()
                },
                page: None,
            },
        };
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(call),
        }
    }

    /// None when the answer is not this counter's.
    pub fn on_response(
        &mut self,
        request: RequestId,
        response: &ApiResponse,
        ctx: &mut Ctx,
    ) -> Option<Cmd> {
        if self.waiting != Some(request) {
            return None;
        }
        self.waiting = None;
        let ApiResponse::ChangeRequests(response) = response else {
            return Some(Cmd::None);
        };
        match response {
            ChangeRequestsResponse::CurrentUser(Ok(user)) => {
                self.me = Some(user.id.clone());
                Some(self.start(ctx))
            }
            ChangeRequestsResponse::ChangeRequests(Ok(page)) => {
                let count = page.count.map_or(page.items.len(), |c| c as usize);
                ctx.watch.review_requested = Some(count);
                Some(self.ticker.arm(ctx))
            }
            // A failed count hides the segment rather than showing a stale number.
            _ => {
                ctx.watch.review_requested = None;
                Some(self.ticker.arm(ctx))
            }
        }
    }

    pub fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Cmd> {
        self.ticker.fired(id).then(|| self.start(ctx))
    }

    /// Back in focus: see [`Ticker::hasten`].
    pub fn hasten(&mut self, ctx: &mut Ctx) -> Cmd {
        self.ticker.hasten(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_or_metered_turns_watching_off() {
        assert_eq!(Watch::from_settings(Some(0), None, false).interval, None);
        assert_eq!(Watch::from_settings(None, None, true).interval, None);
        assert_eq!(
            Watch::from_settings(None, None, false).interval,
            Some(Duration::from_secs(DEFAULT_INTERVAL_SECS))
        );
        assert_eq!(
            Watch::from_settings(Some(30), None, true).interval,
            Some(Duration::from_secs(30))
        );
    }

    #[test]
    fn losing_focus_slows_watching_and_regaining_it_restores_the_interval() {
        let seconds = |s: u64| Some(Duration::from_secs(s));
        let mut watch = Watch::from_settings(Some(2), Some(3600), false);
        watch.set_focused(false);
        assert_eq!(watch.interval, seconds(3600));
        watch.set_focused(true);
        assert_eq!(watch.interval, seconds(2));

        let mut default = Watch::from_settings(None, None, false);
        default.set_focused(false);
        assert_eq!(default.interval, seconds(DEFAULT_UNFOCUSED_INTERVAL_SECS));
        // Never faster unfocused than focused.
        let mut slow = Watch::from_settings(Some(900), None, false);
        slow.set_focused(false);
        assert_eq!(slow.interval, seconds(900));
        // 0 pauses watching while unfocused.
        let mut paused = Watch::from_settings(Some(2), Some(0), false);
        paused.set_focused(false);
        assert_eq!(paused.interval, None);
        paused.set_focused(true);
        assert_eq!(paused.interval, seconds(2));
    }
}

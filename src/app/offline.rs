//! Working from the cache: answers read from disk are applied like the server's (provisionally
//! while the server is still asked), the header says "offline · as of …" while the server
//! cannot be reached, and the screen on top is read again when it can.

use std::collections::BTreeMap;
use std::time::SystemTime;

use super::update::{answer_to_the_screen_waiting, on_api, run_action};
use super::{Action, AnswerKind, ApiResponse, Cmd, Model, RequestId};
use crate::ui::notice::Notice;

/// Cached answers under a minute old are as good as new: the header does not mention them.
const WORTH_SAYING_SECS: u64 = 60;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct OfflineState {
    /// The server could not be reached lately (or quire started with `--offline`).
    pub offline: bool,
    /// Started with `--offline`: nothing loads or is sent in this run, whatever the server.
    pub by_flag: bool,
    /// When the cached answer applied last was received from the server.
    pub as_of: Option<SystemTime>,
    /// Why the server could not be reached ("cannot reach ADDRESS: connection refused"), said
    /// while nothing from the cache is shown: a wrong address on a first start names itself.
    pub cannot_reach: Option<String>,
    /// Cached answers on screen whose requests the server has not answered yet, with when
    /// each was received.
    revalidating: BTreeMap<RequestId, SystemTime>,
}

impl OfflineState {
    /// Starts offline, as `--offline` asks.
    pub fn started_offline() -> OfflineState {
        OfflineState {
            offline: true,
            by_flag: true,
            ..OfflineState::default()
        }
    }

    /// The server answered `request`: the cached answer it replaced is gone from the screen.
    pub(super) fn answered(&mut self, request: RequestId) {
        self.revalidating.remove(&request);
    }

    /// The header's note: "offline · as of 3 h ago" while offline, "offline · cannot reach
    /// ADDRESS: CAUSE" while nothing cached is shown, "as of 3 h ago" while an old cached answer
    /// waits for the server's; None when there is nothing to say.
    pub fn header_note(&self, now: SystemTime) -> Option<String> {
        if self.offline {
            return Some(match (self.as_of, &self.cannot_reach) {
                (Some(as_of), _) => format!("offline · as of {}", age(as_of, now)),
                (None, Some(why)) => format!("offline · {why}"),
                (None, None) => "offline".to_string(),
            });
        }
        let oldest = self.revalidating.values().min()?;
        let old = now.duration_since(*oldest).unwrap_or_default().as_secs() >= WORTH_SAYING_SECS;
        old.then(|| format!("as of {}", age(*oldest, now)))
    }
}

/// "just now", "5 min ago", "3 h ago", "yesterday", …
pub fn age(at: SystemTime, now: SystemTime) -> String {
    let elapsed = now.duration_since(at).unwrap_or_default();
    let elapsed = chrono::TimeDelta::from_std(elapsed).unwrap_or(chrono::TimeDelta::MAX);
    let now = chrono::DateTime::<chrono::Utc>::from(now);
    crate::ui::time::ago_or_raw(&(now - elapsed).to_rfc3339(), now)
}

/// An answer from the cache. While the server is still asked, it is applied provisionally where
/// nothing is shown yet (its request stays awaited and in flight); otherwise it is the answer,
/// as the server's would be.
pub(super) fn on_cached(
    model: &mut Model,
    request: RequestId,
    response: ApiResponse,
    as_of: SystemTime,
    revalidating: bool,
) -> Cmd {
    if !revalidating {
        model.offline.as_of = Some(as_of);
        return on_api(model, request, response);
    }
    if !model.in_flight.contains(&request) {
        return Cmd::None;
    }
    let shown = answer_to_the_screen_waiting(model, request, &response, AnswerKind::Provisional);
    let Some(cmd) = shown else {
        return Cmd::None;
    };
    model.offline.as_of = Some(as_of);
    model.offline.revalidating.insert(request, as_of);
    cmd
}

/// Why the server cannot be reached. When a read had nothing read before to show (a first
/// start with a wrong address), the footer says it until the server answers: "offline" alone
/// would hide a mistyped address or host name.
pub(super) fn on_cannot_reach(model: &mut Model, why: String, nothing_to_show: bool) -> Cmd {
    // A late answer of a call that began before the server came back says nothing now.
    if !model.offline.offline {
        return Cmd::None;
    }
    let new = model.offline.cannot_reach.as_ref() != Some(&why);
    if new && nothing_to_show {
        model.toast = Some(Notice::error(cannot_reach_sentence(&why)));
    }
    model.offline.cannot_reach = Some(why);
    Cmd::None
}

fn cannot_reach_sentence(why: &str) -> String {
    let mut letters = why.chars();
    let capital: String = letters
        .next()
        .into_iter()
        .flat_map(char::to_uppercase)
        .collect();
    format!(
        "{capital}{}. Check the address; quire keeps asking, and what was not read \
         before loads when the server answers.",
        letters.as_str()
    )
}

/// The server was found unreachable, or reachable again: back online, the screen on top is
/// read again, so what was "not read before" loads.
pub(super) fn on_reachable(model: &mut Model, reachable: bool) -> Cmd {
    let was_offline = model.offline.offline;
    model.offline.offline = !reachable;
    let gone_reason = reachable
        .then(|| model.offline.cannot_reach.take())
        .flatten();
    if let Some(why) = gone_reason
        && model
            .toast
            .as_ref()
            .is_some_and(|toast| toast.text == cannot_reach_sentence(&why))
    {
        model.toast = None;
    }
    if reachable && was_offline {
        model.offline.as_of = None;
        let refreshed = run_action(model, Action::Refresh);
        return Cmd::batch([refreshed, super::outbox::on_back_online(model)]);
    }
    if reachable {
        return super::outbox::on_reachable(model);
    }
    Cmd::None
}

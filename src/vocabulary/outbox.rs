//! The outbox screen's calls and results, joined to the core through `ApiCall::Outbox` and
//! `ApiResponse::Outbox`, and what the whole app knows of the outbox: how many writes wait (the
//! header shows it) and whether they are sent when the server is back without a look
//! (`outbox_send = "auto"`). Results carry plain text for failures: the outbox's own errors
//! are not comparable, and the screen only shows them.

use std::collections::BTreeMap;

use crate::api::outbox::{Queued, Target, Write};
use crate::ui::notice::Notice;
use crate::ui::sanitize::sanitize;
use crate::vocabulary::RequestId;

#[derive(Debug, Clone, PartialEq)]
pub enum OutboxCall {
    /// Every queued write, oldest first, with what changed meanwhile on the server.
    List,
    /// Sends these writes, each read back first when its outcome was unknown.
    Send { ids: Vec<i64> },
    /// Sends every write waiting (`outbox_send = "auto"`, when the server is back).
    SendAll,
    /// Takes one write out without sending it.
    Drop { id: i64 },
    /// A new text for a write not sent yet.
    Edit { id: i64, markdown: String },
}

impl OutboxCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            OutboxCall::List => false,
            OutboxCall::Send { .. }
            | OutboxCall::SendAll
            | OutboxCall::Drop { .. }
            | OutboxCall::Edit { .. } => true,
        }
    }
}

/// What became of one write the user chose to send.
#[derive(Debug, Clone, PartialEq)]
pub enum SendOutcome {
    Sent,
    AlreadyThere,
    /// Another quire on this account is sending it, or sent or dropped it meanwhile.
    Elsewhere,
    /// Still in the outbox, with the reason in words.
    Kept(String),
}

/// A change request with writes waiting: what it is called, and what happened to it since.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChangeRequestNews {
    /// "#12 Fix the install steps", when the server (or the cache) told.
    pub title: Option<String>,
    /// Its space's title, when the server (or the cache) told.
    pub space_title: Option<String>,
    /// "merged meanwhile", "archived meanwhile"; None when nothing worth saying changed or
    /// the server could not be asked.
    pub meanwhile: Option<String>,
}

/// The writes waiting, and what the server says changed since they were written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    pub writes: Vec<Queued>,
    pub change_requests: BTreeMap<Target, ChangeRequestNews>,
    /// Per write id: "the thread was resolved meanwhile", "the comment was deleted meanwhile".
    pub notes: BTreeMap<i64, String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OutboxResponse {
    /// The queued writes; `Err` says why the outbox could not be read (none without a cache).
    Listed(Result<Listing, String>),
    Sent(Vec<(i64, SendOutcome)>),
    Dropped(Result<bool, String>),
    Edited(Result<(), String>),
}

/// `outbox_send` in the config: whether the writes waiting are sent by themselves when the
/// server is back, or only from the outbox screen after a look (the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SendWhenBack {
    #[default]
    Ask,
    Auto,
}

/// The app's view of the outbox, beside the screens.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OutboxState {
    /// Writes waiting, as last counted; the header shows it when not zero.
    pub waiting: usize,
    pub send_when_back: SendWhenBack,
    /// The app's own send, whose answer no screen waits for.
    pub(crate) own_request: Option<RequestId>,
    /// The first count of the session came: what an earlier session left was said.
    pub(crate) told_at_start: bool,
    /// `outbox_send = "auto"` with writes left by an earlier run: sent once the server has
    /// answered something, not at launch when whether it can be reached is not known yet.
    pub(crate) send_once_reachable: bool,
}

/// "reply: Looks good": the kind of write, then `qualifier` (" (read back first)", or
/// nothing), then its text on one line, made safe for the screen. The review's pending lines
/// and the Outbox's rows say a write the same way.
pub fn write_line(write: &Write, qualifier: &str) -> String {
    let kind = write.describe();
    let line = match write.markdown() {
        Some(markdown) => {
            let one_line = markdown.split_whitespace().collect::<Vec<_>>().join(" ");
            format!("{kind}{qualifier}: {one_line}")
        }
        None => format!("{kind}{qualifier}"),
    };
    // The whole line: a reaction's emoji came from the server's list too.
    sanitize(&line).into_owned()
}

/// "Sent 3 queued writes.", or an error saying what was kept and why.
pub fn sent_notice(outcomes: &[(i64, SendOutcome)]) -> Notice {
    let kept: Vec<&String> = outcomes
        .iter()
        .filter_map(|(_, outcome)| match outcome {
            SendOutcome::Kept(why) => Some(why),
            _ => None,
        })
        .collect();
    let there = outcomes
        .iter()
        .filter(|(_, outcome)| *outcome == SendOutcome::AlreadyThere)
        .count();
    let elsewhere = outcomes
        .iter()
        .filter(|(_, outcome)| *outcome == SendOutcome::Elsewhere)
        .count();
    let sent = outcomes.len() - kept.len() - there - elsewhere;
    let mut sentences = Vec::new();
    // "Sent 0" only when there is nothing else to say.
    if sent > 0 || there + elsewhere + kept.len() == 0 {
        sentences.push(match sent {
            1 => "Sent 1 queued write.".to_string(),
            n => format!("Sent {n} queued writes."),
        });
    }
    if there > 0 {
        sentences.push(format!(
            "{there} had arrived already and {} not sent again.",
            if there == 1 { "was" } else { "were" }
        ));
    }
    if elsewhere > 0 {
        let (writes, them) = match elsewhere {
            1 => ("1 write".to_string(), "it"),
            n => (format!("{n} writes"), "them"),
        };
        sentences.push(format!(
            "{writes} left to another quire, which sent or is sending {them}."
        ));
    }
    let said = sentences.join(" ");
    match kept.first() {
        None => Notice::info(said),
        Some(why) => {
            let kept = format!("{} kept: {why}", kept.len());
            Notice::error([said, kept].join(" ").trim_start().to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_left_to_another_quire_are_said_apart_from_sent_ones() {
        let alone = sent_notice(&[(1, SendOutcome::Elsewhere)]);
        assert_eq!(
            alone.text,
            "1 write left to another quire, which sent or is sending it."
        );
        let mixed = sent_notice(&[
            (1, SendOutcome::Sent),
            (2, SendOutcome::Elsewhere),
            (3, SendOutcome::Elsewhere),
        ]);
        assert_eq!(
            mixed.text,
            "Sent 1 queued write. 2 writes left to another quire, which sent or is sending them."
        );
        assert_eq!(sent_notice(&[]).text, "Sent 0 queued writes.");
        let kept = sent_notice(&[(1, SendOutcome::Kept("Outcome unknown".into()))]);
        assert_eq!(kept.text, "1 kept: Outcome unknown");
    }
}

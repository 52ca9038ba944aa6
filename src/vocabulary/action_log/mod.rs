//! Every write of the session that the server accepted, newest last, each with the plain API
//! call that takes it back (built when the write was made) or the reason none exists. The log
//! view lists it newest first and `u` applies an inverse.
//!
//! Screens log their writes in their own words. The log also sees every write sent (see
//! [`ActionLog::sent`]) and its answer ([`ActionLog::settle`]): a write no screen logged is
//! logged in plain words, and an entry whose inverse a later write already made (a deleted
//! space restored from the Trash tab) is marked so, and `u` then sends nothing.

pub mod writes;

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::vocabulary::command::ApiCall;
use crate::vocabulary::{ApiResponse, RequestId};
use writes::Answer;

/// How a logged write can be taken back.
#[derive(Debug, Clone, PartialEq)]
pub enum Undo {
    /// The call that restores what was there, and how it reads as a question ("remove your 👍").
    Inverse {
        call: Box<ApiCall>,
        describe: String,
    },
    /// Why nothing can take it back ("a merge cannot be undone").
    Impossible { why: String },
}

impl Undo {
    pub fn inverse(call: ApiCall, describe: impl Into<String>) -> Undo {
        Undo::Inverse {
            call: Box::new(call),
            describe: describe.into(),
        }
    }

    pub fn impossible(why: impl Into<String>) -> Undo {
        Undo::Impossible { why: why.into() }
    }
}

/// What a screen knows about a write while it is in flight: logged once the server accepts it.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingEntry {
    pub what: String,
    pub place: String,
    pub undo: Undo,
}

impl PendingEntry {
    pub fn new(what: impl Into<String>, place: impl Into<String>, undo: Undo) -> PendingEntry {
        PendingEntry {
            what: what.into(),
            place: place.into(),
            undo,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct LoggedAction {
    pub id: u64,
    pub at: DateTime<Utc>,
    /// In words: "Reacted 👍 to Ada's comment".
    pub what: String,
    /// Where it happened: "change request #3 · Product docs".
    pub place: String,
    pub undo: Undo,
    /// Set once the inverse was applied, so it is not applied twice.
    pub undone: bool,
    /// Why the inverse can no longer be applied although it was never applied from here: a
    /// later write made it already ("it was restored from the trash").
    pub overtaken: Option<String>,
}

/// Whether `u` can take a logged write back, and if not why.
#[derive(Debug, Clone, PartialEq)]
pub enum UndoState<'a> {
    /// The inverse, described ("Restores “Handbook” from the trash").
    Possible(&'a str),
    Undone,
    /// A later write made the inverse already.
    Overtaken(&'a str),
    /// No inverse exists.
    Impossible(&'a str),
}

impl LoggedAction {
    pub fn undo_state(&self) -> UndoState<'_> {
        if self.undone {
            return UndoState::Undone;
        }
        if let Some(why) = &self.overtaken {
            return UndoState::Overtaken(why);
        }
        match &self.undo {
            Undo::Inverse { describe, .. } => UndoState::Possible(describe),
            Undo::Impossible { why } => UndoState::Impossible(why),
        }
    }

    /// The inverse call, while it can still be applied.
    fn pending_inverse(&self) -> Option<&ApiCall> {
        match (&self.undo, self.undone, &self.overtaken) {
            (Undo::Inverse { call, .. }, false, None) => Some(call),
            _ => None,
        }
    }
}

/// A write on its way, to be logged when its screen does not log it.
#[derive(Debug, Clone, PartialEq)]
pub struct SentWrite {
    call: ApiCall,
    /// The screen it was sent from, as the log names the place.
    place: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActionLog {
    entries: Vec<LoggedAction>,
    next_id: u64,
    /// Counts the undos applied: a screen that remembers the count sees that the server's data
    /// changed behind it and reloads when it shows again.
    undos: u64,
    /// Writes sent and not answered yet.
    sent: HashMap<RequestId, SentWrite>,
}

impl ActionLog {
    /// Appends a write the server accepted; returns its id.
    pub fn record(&mut self, entry: PendingEntry) -> u64 {
        self.next_id += 1;
        self.entries.push(LoggedAction {
            id: self.next_id,
            at: Utc::now(),
            what: entry.what,
            place: entry.place,
            undo: entry.undo,
            undone: false,
            overtaken: None,
        });
        self.next_id
    }

    /// A call was sent from the screen titled `place`: remembered when it is a write.
    pub fn sent(&mut self, request: RequestId, call: &ApiCall, place: &str) {
        if call.writes() {
            self.sent.insert(
                request,
                SentWrite {
                    call: call.clone(),
                    place: place.to_string(),
                },
            );
        }
    }

    /// The write `request` carried, if it was one; forgotten from then on.
    pub fn answered(&mut self, request: RequestId) -> Option<SentWrite> {
        self.sent.remove(&request)
    }

    /// How many entries were ever recorded: compared before and after a screen handled an
    /// answer, it tells whether the screen logged the write.
    pub fn recorded(&self) -> u64 {
        self.next_id
    }

    /// The answer to a write came and the screens have seen it (`recorded_before` is
    /// [`ActionLog::recorded`] from before). When it went through, it is logged in plain words
    /// unless a screen logged it, and entries whose inverse it was are marked as taken back.
    pub fn settle(&mut self, write: SentWrite, response: &ApiResponse, recorded_before: u64) {
        if writes::answer(response) != Some(Answer::Done) {
            return;
        }
        if self.next_id == recorded_before
            && let Some(what) = writes::in_words(&write.call)
        {
            self.record(PendingEntry::new(
                what,
                write.place,
                Undo::impossible(
                    "quire knows no inverse for this; change it back where it was made",
                ),
            ));
        }
        self.overtaken_by(&write.call);
    }

    /// Every earlier entry whose inverse is `call` can no longer be undone: `call` did it.
    fn overtaken_by(&mut self, call: &ApiCall) {
        let Some(newest) = self.entries.last() else {
            return;
        };
        let why = format!("a later write took it back ({})", newest.what);
        let newest_id = newest.id;
        for entry in self
            .entries
            .iter_mut()
            .filter(|entry| entry.id != newest_id)
        {
            if entry.pending_inverse() == Some(call) {
                entry.overtaken = Some(why.clone());
            }
        }
    }

    /// The inverse of `id` can no longer be applied, for the reason `why`.
    pub fn overtaken(&mut self, id: u64, why: impl Into<String>) {
        if let Some(entry) = self.entries.iter_mut().find(|entry| entry.id == id) {
            entry.overtaken = Some(why.into());
        }
    }

    /// Newest first, as the log view lists them.
    pub fn newest_first(&self) -> impl Iterator<Item = &LoggedAction> {
        self.entries.iter().rev()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, id: u64) -> Option<&LoggedAction> {
        self.entries.iter().find(|entry| entry.id == id)
    }

    /// The inverse of `id` went through: mark it and log the undo itself.
    pub fn undone(&mut self, id: u64) {
        let Some(entry) = self.entries.iter_mut().find(|entry| entry.id == id) else {
            return;
        };
        entry.undone = true;
        let what = format!("Undid: {}", entry.what);
        let place = entry.place.clone();
        self.undos += 1;
        self.record(PendingEntry::new(
            what,
            place,
            Undo::impossible("this was an undo: do the action again to redo it"),
        ));
    }

    pub fn undos(&self) -> u64 {
        self.undos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undo_is_logged_and_marks_its_entry() {
        let mut log = ActionLog::default();
        let id = log.record(PendingEntry::new(
            "Merged",
            "#1",
            Undo::impossible("a merge cannot be undone"),
        ));
        log.undone(id);
        assert!(log.get(id).unwrap().undone);
        let newest = log.newest_first().next().unwrap();
        assert_eq!(newest.what, "Undid: Merged");
        assert_eq!(log.undos(), 1);
        assert_eq!(log.len(), 2);
    }

    fn delete_team() -> ApiCall {
        ApiCall::Teams(crate::vocabulary::teams::TeamsCall::Delete {
            organization: "o".into(),
            team: "t".into(),
        })
    }

    fn deleted(result: Result<(), crate::api::ApiError>) -> ApiResponse {
        ApiResponse::Teams(crate::vocabulary::teams::TeamsResponse::Deleted(result))
    }

    #[test]
    fn a_write_no_screen_logged_is_logged_and_takes_the_inverse_it_made() {
        let mut log = ActionLog::default();
        let created = log.record(PendingEntry::new(
            "Created team “Docs”",
            "organization teams",
            Undo::inverse(delete_team(), "Deletes it"),
        ));
        let request = RequestId(7);
        log.sent(request, &delete_team(), "Acme Robotics");
        let write = log.answered(request).expect("a write");
        let before = log.recorded();
        log.settle(write, &deleted(Ok(())), before);
        let newest = log.newest_first().next().unwrap();
        assert_eq!(newest.what, "Deleted a team");
        assert_eq!(newest.place, "Acme Robotics");
        assert_eq!(
            log.get(created).unwrap().undo_state(),
            UndoState::Overtaken("a later write took it back (Deleted a team)")
        );
    }

    #[test]
    fn a_refused_write_and_a_read_log_nothing() {
        let mut log = ActionLog::default();
        log.sent(
            RequestId(1),
            &ApiCall::ListPages { space: "s".into() },
            "Space",
        );
        assert_eq!(log.answered(RequestId(1)), None, "a read is not a write");
        log.sent(RequestId(2), &delete_team(), "Acme Robotics");
        let write = log.answered(RequestId(2)).unwrap();
        let refused = crate::api::ApiError::Network {
            endpoint: "DELETE /orgs/o/teams/t".into(),
            message: "down".into(),
            never_sent: true,
        };
        log.settle(write, &deleted(Err(refused)), log.recorded());
        assert!(log.is_empty());
    }
}

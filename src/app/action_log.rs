//! Every write of the session that the server accepted, newest last, each with the plain API
//! call that takes it back (built when the write was made) or the reason none exists. The log
//! view lists it newest first and `u` applies an inverse.

use chrono::{DateTime, Utc};

use crate::app::command::ApiCall;

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
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActionLog {
    entries: Vec<LoggedAction>,
    next_id: u64,
    /// Counts the undos applied: a screen that remembers the count sees that the server's data
    /// changed behind it and reloads when it shows again.
    undos: u64,
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
        });
        self.next_id
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
}

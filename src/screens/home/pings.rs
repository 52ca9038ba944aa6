//! Pings: when a change request Home watches for the user (theirs, or one waiting for their
//! review) gets a review, a comment or a reply from someone else, is merged, or falls behind
//! main (where it may conflict: the API says no more than `outdated`), quire says it
//! once on the status line and rings the terminal (`Cmd::Notify`). The first look at each is
//! what later ones are measured from, so nothing from before quire started is told; an event
//! is told once however often it is seen (and, through the cache's database, once between
//! two quire processes on one account); the user's own acts are never told.

use std::collections::{HashMap, HashSet};

use crate::api::ApiError;
use crate::api::change_requests::watch::{Actor, Event, Snapshot};
use crate::api::home::HomeRow;
use crate::vocabulary::home::HomeCall;
use crate::vocabulary::requests::RequestIds;
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// A change request by (space, id).
type Key = (String, String);

#[derive(Debug, Default)]
pub struct Pings {
    /// The last look at each watched change request.
    seen: HashMap<Key, Snapshot>,
    /// Looks under way.
    looking: HashMap<RequestId, Key>,
    /// Events told, by change request and event.
    told: HashSet<(Key, String)>,
    /// Watched change requests that left Home's sections (merged, archived, no longer waiting
    /// for the user): looked at once more, for what took them away, then no longer.
    leaving: HashSet<Key>,
    /// The last ping, for the status line.
    pub last: Option<String>,
}

impl Pings {
    /// The looks a board asks for: a first one at each watched change request not seen yet,
    /// one at each that moved since the last board and, once the board is `whole`, a last one
    /// at each seen before that is no longer on it.
    pub fn looks<'a>(
        &mut self,
        watched: impl Iterator<Item = &'a HomeRow>,
        moved: &HashSet<Key>,
        whole: bool,
        requests: &mut RequestIds,
    ) -> Cmd {
        let mut asked = Vec::new();
        let watched: Vec<Key> = watched
            .map(|row| (row.space.id.clone(), row.id.clone()))
            .collect();
        if whole {
            let gone: Vec<Key> = self
                .seen
                .keys()
                .filter(|key| !watched.contains(key) && !self.leaving.contains(*key))
                .cloned()
                .collect();
            for key in gone {
                asked.push(self.look(key, true, requests));
            }
        }
        for key in watched {
            if self.looking.values().any(|under_way| *under_way == key) {
                continue;
            }
            match self.seen.get(&key) {
                Some(_) if !moved.contains(&key) => continue,
                _ => asked.push(self.look(key, false, requests)),
            }
        }
        Cmd::Batch(asked)
    }

    /// A look at `key`, measured from its last look (none: this is the first).
    fn look(&mut self, key: Key, last: bool, requests: &mut RequestIds) -> Cmd {
        let seen = self
            .seen
            .get(&key)
            .map(|snapshot| Box::new(snapshot.clone()));
        if last {
            self.leaving.insert(key.clone());
        }
        let request = requests.issue();
        self.looking.insert(request, key.clone());
        let call = HomeCall::Look {
            space: key.0,
            change_request: key.1,
            seen,
        };
        Cmd::Api {
            request,
            call: ApiCall::Home(call),
        }
    }

    /// True when `request` is a look of these pings.
    pub fn asked(&self, request: RequestId) -> bool {
        self.looking.contains_key(&request)
    }

    /// A look's answer: the events someone else caused, told once each, as notifications.
    /// `me` is the signed-in user; `row` what Home shows of the change request.
    pub fn on_looked(
        &mut self,
        request: RequestId,
        looked: &Result<(Box<Snapshot>, Vec<Event>), ApiError>,
        me: Option<&str>,
        row: Option<&HomeRow>,
    ) -> Cmd {
        let Some(key) = self.looking.remove(&request) else {
            return Cmd::None;
        };
        let leaving = self.leaving.remove(&key);
        let Ok((snapshot, events)) = looked else {
            // The next move asks again; a failed look tells nothing.
            return Cmd::None;
        };
        let first_look = !self.seen.contains_key(&key);
        if leaving {
            self.seen.remove(&key);
        } else {
            self.seen.insert(key.clone(), snapshot.as_ref().clone());
        }
        if first_look {
            return Cmd::None;
        }
        let author = snapshot
            .change_request
            .created_by
            .as_ref()
            .map(|user| user.id.as_str());
        let mut told = Vec::new();
        for event in events {
            if !self.told.insert((key.clone(), event.id.clone())) {
                continue;
            }
            if !by_someone_else(event, me, author) {
                continue;
            }
            let line = ping_line(row, &snapshot.change_request.subject, &event.what);
            self.last = Some(line.clone());
            told.push(Cmd::Notify {
                title: "quire".to_string(),
                body: line,
            });
        }
        Cmd::Batch(told)
    }
}

/// An event the user did not cause. A revision says nobody's name: it is the author's when the
/// user is the author, someone else's otherwise.
fn by_someone_else(event: &Event, me: Option<&str>, author: Option<&str>) -> bool {
    match (&event.actor, me) {
        (Actor::Person(actor), Some(me)) => actor != me,
        (Actor::Unsaid, Some(me)) => author != Some(me),
        (Actor::Main, _) | (_, None) => true,
    }
}

/// "Getting Started #2 “Document gateway…”: review by Jonas Berg: approved".
fn ping_line(row: Option<&HomeRow>, subject: &str, what: &str) -> String {
    let place = row
        .map(|row| {
            let number = row.number.map(|n| format!(" #{n}")).unwrap_or_default();
            format!("{}{number}", row.space.title)
        })
        .unwrap_or_default();
    let subject: String = subject.chars().take(40).collect();
    format!("{place} “{subject}”: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(actor: Option<&str>) -> Event {
        Event {
            at: String::new(),
            what: String::new(),
            actor: actor.map_or(Actor::Unsaid, |actor| Actor::Person(actor.to_string())),
            id: "comment:1".to_string(),
        }
    }

    #[test]
    fn own_acts_are_never_told() {
        assert!(!by_someone_else(&event(Some("me")), Some("me"), None));
        assert!(by_someone_else(&event(Some("you")), Some("me"), None));
        // A revision of the user's own change request is theirs.
        assert!(!by_someone_else(&event(None), Some("me"), Some("me")));
        assert!(by_someone_else(&event(None), Some("me"), Some("you")));
        // Main moving on is nobody's act here: told to the author too.
        let behind = Event {
            actor: Actor::Main,
            ..event(None)
        };
        assert!(by_someone_else(&behind, Some("me"), Some("me")));
    }
}

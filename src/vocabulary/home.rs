//! The Home view's sections as they fill: [`HomeBoard`] takes each [`HomeEvent`] of
//! [`crate::api::home::gather`] and keeps, per section, the rows of every organization that
//! answered (merged, ordered as the section asks, cut to its limit), how many organizations
//! are still to answer, and what failed. `quire status` prints it once every answer came; a
//! screen can draw it after each one.

use crate::api::change_requests::watch::{Event, Snapshot};
use crate::api::home::{HomeError, HomeEvent, HomeRow, Named, SectionQuery};
use crate::api::{ApiError, User};

/// One section as far as it is known.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionState {
    pub query: SectionQuery,
    /// Every answered organization's rows, ordered by the section's order, at most its limit.
    pub rows: Vec<HomeRow>,
    /// Organizations still to answer; None until [`HomeEvent::Started`] says how many.
    pub waiting: Option<usize>,
    /// What failed: an organization's read (with the organization), or a name that found
    /// nothing (without one).
    pub problems: Vec<(Option<Named>, HomeError)>,
}

impl SectionState {
    /// True once every organization answered.
    pub fn is_complete(&self) -> bool {
        self.waiting == Some(0)
    }
}

/// Every section, filled as the answers come.
#[derive(Debug, Clone, PartialEq)]
pub struct HomeBoard {
    pub sections: Vec<SectionState>,
    /// The signed-in user, once known.
    pub me: Option<User>,
    /// `GET /user` or `GET /orgs` failed: no section will fill.
    pub failed: Option<ApiError>,
}

impl HomeBoard {
    pub fn new(queries: Vec<SectionQuery>) -> HomeBoard {
        HomeBoard {
            sections: queries
                .into_iter()
                .map(|query| SectionState {
                    query,
                    rows: Vec::new(),
                    waiting: None,
                    problems: Vec::new(),
                })
                .collect(),
            me: None,
            failed: None,
        }
    }

    /// Takes one event; returns the section it changed, if any.
    pub fn apply(&mut self, event: HomeEvent) -> Option<usize> {
        match event {
            HomeEvent::Started { me, expected, .. } => {
                self.me = Some(me);
                for (section, count) in self.sections.iter_mut().zip(expected) {
                    section.waiting = Some(count);
                }
                None
            }
            HomeEvent::Answer {
                section,
                organization,
                rows,
            } => {
                let state = self.sections.get_mut(section)?;
                state.waiting = state.waiting.map(|left| left.saturating_sub(1));
                match rows {
                    Ok(rows) => merge_rows(state, rows),
                    Err(problem) => state.problems.push((Some(organization), problem)),
                }
                Some(section)
            }
            HomeEvent::NotFound { section, problem } => {
                let state = self.sections.get_mut(section)?;
                state.problems.push((None, problem));
                Some(section)
            }
            HomeEvent::Failed(error) => {
                self.failed = Some(error);
                None
            }
        }
    }

    /// True once every section has every answer, or nothing more can come.
    pub fn is_complete(&self) -> bool {
        self.failed.is_some() || self.sections.iter().all(SectionState::is_complete)
    }
}

/// What the Home screen asks of the server: every section, in every organization it covers.
#[derive(Debug, Clone, PartialEq)]
pub enum HomeCall {
    Gather {
        sections: Vec<SectionQuery>,
        /// Asked by the watch, not by the user: no spinner turns for it, so a Home where
        /// nothing changed writes nothing to the terminal.
        quiet: bool,
    },
    /// A watched change request, read whole, and what happened since `seen` (nothing on the
    /// first look, which is what later ones are measured from).
    Look {
        space: String,
        change_request: String,
        seen: Option<Box<Snapshot>>,
    },
    /// `W`: marks the change request to watch, or unmarks it when it is marked. Kept in the
    /// cache's database, never sent to the server.
    ToggleMark {
        space: String,
        change_request: String,
    },
}

impl HomeCall {
    /// Home only reads.
    pub fn writes(&self) -> bool {
        match self {
            HomeCall::Gather { .. } | HomeCall::Look { .. } | HomeCall::ToggleMark { .. } => false,
        }
    }

    /// Work in the background that the spinner does not show.
    pub fn is_quiet(&self) -> bool {
        match self {
            HomeCall::Gather { quiet, .. } => *quiet,
            HomeCall::Look { .. } | HomeCall::ToggleMark { .. } => true,
        }
    }
}

/// The answers to [`HomeCall::Gather`]: on a live server each event as it comes, so a section
/// is drawn as soon as its first organization answered; from the cache (and where the
/// answers cannot be streamed) every event at once.
#[derive(Debug, Clone, PartialEq)]
pub enum HomeAnswer {
    One(Box<HomeEvent>),
    All(Vec<HomeEvent>),
    Looked {
        space: String,
        change_request: String,
        looked: Result<(Box<Snapshot>, Vec<Event>), ApiError>,
    },
    /// Whether the change request is watched now, or why it could not be marked.
    Marked(Result<bool, String>),
}

/// Adds one organization's rows to the section's, newest first by the section's order, one
/// row per change request, at most the limit.
fn merge_rows(state: &mut SectionState, rows: Vec<HomeRow>) {
    state.rows.extend(rows);
    let order_by = state.query.order_by.clone();
    state.rows.sort_by(|left, right| {
        right
            .order_key(&order_by)
            .cmp(&left.order_key(&order_by))
            .then_with(|| left.id.cmp(&right.id))
    });
    state
        .rows
        .dedup_by(|one, other| one.id == other.id && one.space.id == other.space.id);
    state
        .rows
        .truncate(usize::try_from(state.query.limit).unwrap_or(usize::MAX));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::home::SectionQuery;

    fn row(id: &str, updated: &str) -> HomeRow {
        let named = |id: &str| Named {
            id: id.into(),
            title: id.into(),
        };
        HomeRow {
            organization: named("org"),
            space: named("spc"),
            id: id.into(),
            number: None,
            subject: id.into(),
            author: None,
            status: None,
            review: None,
            may_merge: None,
            created_at: None,
            updated_at: Some(updated.into()),
            open_threads: None,
            outdated: false,
            url: None,
        }
    }

    #[test]
    fn answers_merge_newest_first_up_to_the_limit() {
        let query = SectionQuery {
            limit: 2,
            ..SectionQuery::open("Open")
        };
        let mut board = HomeBoard::new(vec![query]);
        let named = |id: &str| Named {
            id: id.into(),
            title: id.into(),
        };
        board.apply(HomeEvent::Started {
            me: serde_json::from_value(serde_json::json!({"id": "me"})).unwrap(),
            organizations: vec![named("a"), named("b")],
            expected: vec![2],
        });
        assert!(!board.is_complete());
        board.apply(HomeEvent::Answer {
            section: 0,
            organization: named("a"),
            rows: Ok(vec![row("old", "2024-01-01"), row("mid", "2024-02-01")]),
        });
        board.apply(HomeEvent::Answer {
            section: 0,
            organization: named("b"),
            rows: Ok(vec![row("new", "2024-03-01")]),
        });
        let ids: Vec<&str> = board.sections[0]
            .rows
            .iter()
            .map(|row| row.id.as_str())
            .collect();
        assert_eq!(ids, ["new", "mid"]);
        assert!(board.is_complete());
    }
}

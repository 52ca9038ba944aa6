//! The Home view's data, after gh-dash's sections and `gh status`: each section is a filter
//! over the change requests of every organization the user belongs to. [`gather`] resolves
//! `@me`, lists the organizations, asks each organization's list once per section (first page
//! only) and sends each answer as it comes ([`HomeEvent`]), so a screen draws a section as soon
//! as its first organization answered. What the API cannot filter (the review state, whether
//! the user may merge) is filtered here, on the rows read.

mod gather;
pub mod marks;
mod review_state;
pub mod told;

use serde::Serialize;

use super::error::ApiError;
use super::models::{ChangeRequestOrderBy, ChangeRequestStatus, User};

pub use gather::{MAX_IN_FLIGHT, gather};
pub use review_state::review_state;

/// A person in a section's filter: the signed-in user, or a user id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Person {
    /// `@me`, resolved from `GET /user` before any list is read.
    Me,
    User(String),
}

impl Person {
    /// `@me` or a user id; None for an empty text.
    pub fn parse(text: &str) -> Option<Person> {
        match text.trim() {
            "" => None,
            "@me" => Some(Person::Me),
            id => Some(Person::User(id.to_owned())),
        }
    }

    fn id<'a>(&'a self, me: &'a str) -> &'a str {
        match self {
            Person::Me => me,
            Person::User(id) => id,
        }
    }
}

/// Where a change request's reviews stand: only the reviews of its current revision count
/// (an outdated one was about older content), the latest per reviewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReviewState {
    /// Someone approved and no current review asks for changes.
    Approved,
    /// A current review asks for changes.
    ChangesRequested,
    /// No current verdict yet.
    Pending,
}

impl ReviewState {
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewState::Approved => "approved",
            ReviewState::ChangesRequested => "changes-requested",
            ReviewState::Pending => "pending",
        }
    }

    /// `approved`, `changes-requested` or `pending`.
    pub fn parse(text: &str) -> Option<ReviewState> {
        [
            ReviewState::Approved,
            ReviewState::ChangesRequested,
            ReviewState::Pending,
        ]
        .into_iter()
        .find(|state| state.as_str() == text)
    }
}

/// One section: what the organization lists are asked, and what is then kept of their rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionQuery {
    pub title: String,
    /// Organization ids or titles; empty: every organization the user belongs to.
    pub organizations: Vec<String>,
    /// Space ids or titles; empty: every space of the organizations asked.
    pub spaces: Vec<String>,
    /// Sent as the list's `status` (repeated); empty sends none (the API's default, open).
    pub statuses: Vec<ChangeRequestStatus>,
    pub creator: Option<Person>,
    pub requested_reviewer: Option<Person>,
    pub contributor: Option<Person>,
    /// Rows kept per section (each organization's first page asks for this many).
    pub limit: u32,
    pub order_by: ChangeRequestOrderBy,
    /// Kept only with this review state. The list has no such filter: the state is read from
    /// each row's reviews.
    pub review: Option<ReviewState>,
    /// Kept only where the user may merge: the change request's `permissions.merge` when the
    /// server sends it, else its space's.
    pub mergeable: bool,
    /// The change requests the user marked to watch (`W`), read one by one, instead of the
    /// organizations' lists; the filters above still apply to them.
    pub marked: bool,
}

impl SectionQuery {
    /// A section of open change requests titled `title`, 20 rows, newest update first.
    pub fn open(title: &str) -> SectionQuery {
        SectionQuery {
            title: title.to_owned(),
            organizations: Vec::new(),
            spaces: Vec::new(),
            statuses: vec![ChangeRequestStatus::Open],
            creator: None,
            requested_reviewer: None,
            contributor: None,
            limit: DEFAULT_SECTION_LIMIT,
            order_by: ChangeRequestOrderBy::UpdatedAt,
            review: None,
            mergeable: false,
            marked: false,
        }
    }

    /// True when rows are dropped after reading (review state, merge permission): the list is
    /// then asked for more than the limit, so that the limit is still likely to be filled.
    pub fn filters_rows(&self) -> bool {
        self.review.is_some() || self.mergeable
    }
}

/// Rows a section keeps unless its `limit` says otherwise.
pub const DEFAULT_SECTION_LIMIT: u32 = 20;

/// The sections shown when the config file names none.
pub fn default_sections() -> Vec<SectionQuery> {
    vec![
        SectionQuery {
            requested_reviewer: Some(Person::Me),
            ..SectionQuery::open("Review requested from me")
        },
        SectionQuery {
            creator: Some(Person::Me),
            ..SectionQuery::open("Mine, open")
        },
        // The organization list filters by neither review nor permission: the gathering reads
        // more open change requests than the limit, keeps those the user may merge (the change
        // request's `permissions.merge`, else its space's), reads their reviews and keeps the
        // approved ones (see `review_state`).
        SectionQuery {
            review: Some(ReviewState::Approved),
            mergeable: true,
            ..SectionQuery::open("Ready to merge")
        },
        SectionQuery {
            statuses: vec![ChangeRequestStatus::Merged],
            ..SectionQuery::open("Recently merged")
        },
        watching(),
    ]
}

/// The change requests marked with `W`, whatever their status.
pub fn watching() -> SectionQuery {
    SectionQuery {
        statuses: Vec::new(),
        marked: true,
        ..SectionQuery::open("Watching")
    }
}

/// An id with the title a person reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Named {
    pub id: String,
    pub title: String,
}

/// One change request of a section, with where it lives.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HomeRow {
    pub organization: Named,
    /// The space's title is its id when the space could not be read.
    pub space: Named,
    pub id: String,
    pub number: Option<u64>,
    pub subject: String,
    pub author: Option<User>,
    pub status: Option<ChangeRequestStatus>,
    /// Read for open and draft change requests only; None for the others, or when the reviews
    /// could not be read.
    pub review: Option<ReviewState>,
    /// Whether the user may merge it; None when neither it nor its space said.
    pub may_merge: Option<bool>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    /// Open threads, as the list answer counts them: a new comment moves it where the update
    /// time may stay.
    pub open_threads: Option<u64>,
    /// Main moved on since it was made or last updated from main (where a merge may conflict).
    pub outdated: bool,
    pub url: Option<String>,
}

impl HomeRow {
    /// The time a section orders by.
    pub fn order_key(&self, order_by: &ChangeRequestOrderBy) -> Option<&str> {
        match order_by {
            ChangeRequestOrderBy::CreatedAt => self.created_at.as_deref(),
            _ => self.updated_at.as_deref(),
        }
    }
}

/// Why a section's organization gave no rows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HomeError {
    #[error(transparent)]
    Api(#[from] ApiError),
    /// A section names an organization the user does not belong to.
    #[error("no organization of yours has the id or title “{0}”")]
    UnknownOrganization(String),
    /// A section names a space found in none of its organizations.
    #[error("no space of the section's organizations has the id or title “{0}”")]
    UnknownSpace(String),
}

/// What [`gather`] tells as it goes. The receiver's end (the channel closing) means every
/// answer came.
#[derive(Debug, Clone, PartialEq)]
pub enum HomeEvent {
    /// `@me` is `me`; `expected[section]` answers will come for each section (one per
    /// organization asked).
    Started {
        me: User,
        organizations: Vec<Named>,
        expected: Vec<usize>,
    },
    /// One section's rows in one organization, or why there are none.
    Answer {
        section: usize,
        organization: Named,
        rows: Result<Vec<HomeRow>, HomeError>,
    },
    /// A name in a section's filter found nothing; counts as none of the expected answers.
    NotFound { section: usize, problem: HomeError },
    /// `GET /user` or `GET /orgs` failed: nothing else comes.
    Failed(ApiError),
}

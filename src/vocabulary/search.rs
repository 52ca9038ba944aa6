//! The search area's API call and result, joined to `ApiCall` / `ApiResponse` through one
//! variant each.

use crate::api::models::SearchSpace;
use crate::api::{ApiError, ListPage};

/// What is searched: one space, or every space of an organization.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchScope {
    Space { id: String, title: String },
    Organization { id: String, title: String },
}

impl SearchScope {
    pub fn title(&self) -> &str {
        match self {
            SearchScope::Space { title, .. } | SearchScope::Organization { title, .. } => title,
        }
    }

    pub fn is_organization(&self) -> bool {
        matches!(self, SearchScope::Organization { .. })
    }
}

/// One page of results for `query`.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchCall {
    pub scope: SearchScope,
    pub query: String,
    pub page: Option<String>,
}

impl SearchCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        // One shape, a read: a search that changed something would be a new call.
        let SearchCall { .. } = self;
        false
    }
}

/// Results as groups of pages by space: a space search's pages come back as groups of one
/// page in that space, so both scopes are shown the same way.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResults {
    pub query: String,
    pub result: Result<ListPage<SearchSpace>, ApiError>,
}

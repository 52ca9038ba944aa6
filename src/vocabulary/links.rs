//! The links area's API calls (links reports, backlinks) and their results.

use crate::api::models::{ContentRef, LinkPage, LinkStatus, Page};
use crate::api::{ApiError, BacklinkTarget, ContentSource, ListPage};

#[derive(Debug, Clone, PartialEq)]
pub enum LinksCall {
    /// A space's links report (`page: None`) or the links of one page.
    Links {
        source: ContentSource,
        page: Option<String>,
        status: Option<LinkStatus>,
        cursor: Option<String>,
    },
    Backlinks {
        source: ContentSource,
        target: BacklinkTarget,
        cursor: Option<String>,
    },
    /// The page tree, to name the pages that links point at or sit on.
    Pages { source: ContentSource },
}

impl LinksCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            LinksCall::Links { .. } | LinksCall::Backlinks { .. } | LinksCall::Pages { .. } => {
                false
            }
        }
    }
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum LinksResponse {
    Links(Result<LinkPage, ApiError>),
    Backlinks(Result<ListPage<ContentRef>, ApiError>),
    Pages(Result<Vec<Page>, ApiError>),
}

/// Which list of links the links screen shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkList {
    /// The space's links report.
    Space,
    /// The links written on one page.
    Page { id: String, title: String },
    /// What links to a page.
    PageBacklinks { id: String, title: String },
    /// What links to a file.
    FileBacklinks { id: String, name: String },
}

impl LinkList {
    /// What links to a page or a file, rather than the links written somewhere.
    pub fn is_backlinks(&self) -> bool {
        matches!(
            self,
            LinkList::PageBacklinks { .. } | LinkList::FileBacklinks { .. }
        )
    }
}

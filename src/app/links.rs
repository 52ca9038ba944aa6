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

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum LinksResponse {
    Links(Result<LinkPage, ApiError>),
    Backlinks(Result<ListPage<ContentRef>, ApiError>),
    Pages(Result<Vec<Page>, ApiError>),
}

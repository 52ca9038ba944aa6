//! Where a screen asks to go: the screen to open, said as plain data. The app builds the screen
//! from it (`app::routes`), so a screen that opens another needs none of that screen's code,
//! and no two screen areas import each other.

use crate::api::ContentSource;
use crate::api::models::{ChangeRequest, Space};
use crate::ui::page_tree::PageNode;
use crate::vocabulary::DocKey;
use crate::vocabulary::change_requests::{ChangeRequestRef, Siblings};
use crate::vocabulary::links::LinkList;
use crate::vocabulary::search::SearchScope;

/// A screen to open, with what it opens on.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// A page read at full width; `known` is its parsed document when one is cached already.
    Page {
        space: Space,
        page: PageNode,
        known: Option<DocKey>,
    },
    /// The links report, a page's links, or what links to a page or a file.
    Links {
        source: ContentSource,
        space: Space,
        list: LinkList,
    },
    /// The files of a space or of a change request; `owner` names whose.
    Files {
        source: ContentSource,
        space: Space,
        owner: String,
    },
    Search(SearchScope),
    /// Git sync of a space.
    Git(Space),
    /// The change requests of a space.
    ChangeRequests(Space),
    /// The review of one change request; `siblings` is the list it was opened from, for `]c`.
    Review {
        target: ChangeRequestRef,
        summary: Option<ChangeRequest>,
        siblings: Option<Siblings>,
    },
}

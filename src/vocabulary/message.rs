//! Everything that can happen to the model: input from the terminal and results of commands,
//! all arriving on one queue.

use ratatui::crossterm::event::KeyEvent;

use crate::api::models::{Collection, Organization, Page, Space};
use crate::api::{ApiError, ListPage, RetryNotice, UnreadableItem, WholeList};
use crate::vocabulary::command::{DocHandle, DocKey};
use crate::vocabulary::loadable::RequestId;

// Messages are moved once, from a task to `update`; boxing them would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    Key(KeyEvent),
    Paste(String),
    Resize {
        width: u16,
        height: u16,
    },
    /// The spinner's clock; sent only while a request is in flight.
    Tick,
    /// The terminal gained (true) or lost (false) focus; terminals that report it do so once
    /// quire asks (`ESC [ ? 1004 h`).
    Focus(bool),
    /// Back from Ctrl-Z: everything must be drawn again.
    Resumed,
    /// Opening `url` in a browser failed (no display over SSH, no opener installed …).
    BrowserFailed {
        url: String,
        reason: String,
    },
    Api {
        request: RequestId,
        response: ApiResponse,
    },
    /// An answer read from the cache, received from the server at `as_of`. While
    /// `revalidating`, the server is still asked and its answer to `request` replaces this one;
    /// otherwise this is the answer (the server could not be reached).
    FromCache {
        request: RequestId,
        response: ApiResponse,
        as_of: std::time::SystemTime,
        revalidating: bool,
    },
    /// Whether the server can be reached: false after a request found it unreachable, true
    /// when one gets through again.
    Reachable(bool),
    /// Why the server cannot be reached, in words naming it ("cannot reach
    /// http://127.0.0.1:1: connection refused"), after the `Reachable(false)` and the answer
    /// from the cache; `nothing_to_show` when that answer had nothing read before.
    CannotReach {
        why: String,
        nothing_to_show: bool,
    },
    /// A read failed in a passing way and waits to be retried, or its wait is over.
    Retry(RetryNotice),
    /// The client found that this server does not offer an operation.
    Lack(crate::api::capabilities::Lack),
    /// A `Cmd::Timer` went off.
    Timer(RequestId),
    MarkdownParsed {
        key: DocKey,
        doc: DocHandle,
        highlighted: bool,
    },
    /// Drafts found on disk whose keys start with `prefix`.
    DraftsLoaded {
        prefix: String,
        drafts: Vec<(String, String)>,
    },
    /// Draft `key` was written to disk (`None`), or could not be (`Some(reason)`: a full disk,
    /// a folder that cannot be made).
    DraftSaved {
        key: String,
        failure: Option<String>,
    },
    /// Back from `$EDITOR` with the text of draft `key`.
    EditedExternally {
        key: String,
        text: String,
    },
    /// A mouse event, with when it happened (two clicks close together open a row).
    Mouse {
        event: ratatui::crossterm::event::MouseEvent,
        at: std::time::Instant,
    },
    /// Who the token belongs to (`GET /user`), for the header; asked once at start.
    SignedInAs(crate::api::models::User),
    /// How many writes wait in the outbox: counted at start and after every call that may
    /// have queued, sent or dropped one.
    OutboxWaiting(usize),
    /// Another quire on this account sent, queued or dropped writes: how many wait now.
    OutboxChangedElsewhere(usize),
}

/// The organization's collections and spaces, fetched together to build the tree.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrganizationTree {
    pub collections: Vec<Collection>,
    pub spaces: Vec<Space>,
    /// Items of either list that could not be read (the rest of the tree still shows).
    pub unreadable: Vec<UnreadableItem>,
    /// Set when a list did not end within the cap: the pages fetched of the longer one.
    pub stopped_after_pages: Option<usize>,
    /// Why the organization's spaces could not be read, when the collections could: the tree
    /// then shows the collections, and opening one reads its own spaces.
    pub spaces_unread: Option<String>,
}

impl OrganizationTree {
    /// Both lists as fetched, with what was lost or cut short.
    pub fn from_lists(collections: WholeList<Collection>, spaces: WholeList<Space>) -> Self {
        let stopped_after = |stopped: bool, pages: usize| stopped.then_some(pages);
        let stopped_after_pages = stopped_after(collections.stopped.is_some(), collections.pages)
            .max(stopped_after(spaces.stopped.is_some(), spaces.pages));
        let mut unreadable = collections.unreadable;
        unreadable.extend(spaces.unreadable);
        OrganizationTree {
            collections: collections.items,
            spaces: spaces.items,
            unreadable,
            stopped_after_pages,
            spaces_unread: None,
        }
    }

    /// The collections alone, the organization's spaces having failed for `reason`.
    pub fn without_spaces(collections: WholeList<Collection>, reason: String) -> Self {
        OrganizationTree {
            spaces_unread: Some(reason),
            ..Self::from_lists(collections, WholeList::default())
        }
    }
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ApiResponse {
    Organizations(Result<ListPage<Organization>, ApiError>),
    OrganizationTree(Result<OrganizationTree, ApiError>),
    /// A space's page tree, built as the answer was read (see `ui::page_tree::PageTreeSeed`).
    PageTree(
        Result<
            crate::vocabulary::handoff::Handoff<
                crate::ui::tree::Tree<crate::ui::page_tree::PageNode>,
            >,
            ApiError,
        >,
    ),
    PageMarkdown(Result<Page, ApiError>),
    ChangeRequests(crate::vocabulary::change_requests::ChangeRequestsResponse),
    Sites(crate::vocabulary::sites::SitesResponse),
    Search(crate::vocabulary::search::SearchResults),
    Links(crate::vocabulary::links::LinksResponse),
    Files(crate::vocabulary::files::FilesResponse),
    Collections(crate::vocabulary::collections::CollectionsResponse),
    Spaces(crate::vocabulary::spaces::SpacesResponse),
    Git(crate::vocabulary::git::GitResponse),
    Outbox(crate::vocabulary::outbox::OutboxResponse),
    Members(crate::vocabulary::members::MembersResponse),
    Teams(crate::vocabulary::teams::TeamsResponse),
    Sso(crate::vocabulary::sso::SsoResponse),
    OrgSettings(crate::vocabulary::org_settings::OrgSettingsResponse),
    Translations(crate::vocabulary::translations::TranslationsResponse),
    OpenApi(crate::vocabulary::openapi::OpenApiResponse),
    Conversations(crate::vocabulary::conversations::ConversationsResponse),
    Integrations(crate::vocabulary::integrations::IntegrationsResponse),
    Reader(crate::vocabulary::reader_links::ReaderResponse),
    Home(crate::vocabulary::home::HomeAnswer),
}

/// Terminal size in cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Size {
    pub width: u16,
    pub height: u16,
}

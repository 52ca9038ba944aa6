//! What `update` asks the runtime to do. Plain data, never closures, so tests can compare it.

use std::sync::Arc;

pub use crate::ui::markdown::docs::{DocHandle, DocKey};
use crate::vocabulary::loadable::RequestId;

#[derive(Debug, Clone, PartialEq)]
pub enum ApiCall {
    ListOrganizations {
        page: Option<String>,
    },
    /// Every collection and every space of an organization, fetched in parallel.
    OrganizationTree {
        organization: String,
    },
    ListPages {
        space: String,
    },
    GetPageMarkdown {
        space: String,
        page: String,
    },
    ChangeRequests(crate::vocabulary::change_requests::ChangeRequestsCall),
    Sites(crate::vocabulary::sites::SitesCall),
    Search(crate::vocabulary::search::SearchCall),
    Links(crate::vocabulary::links::LinksCall),
    Files(crate::vocabulary::files::FilesCall),
    Collections(crate::vocabulary::collections::CollectionsCall),
    Spaces(crate::vocabulary::spaces::SpacesCall),
    Git(crate::vocabulary::git::GitCall),
    Outbox(crate::vocabulary::outbox::OutboxCall),
    Members(crate::vocabulary::members::MembersCall),
    Teams(crate::vocabulary::teams::TeamsCall),
    Sso(crate::vocabulary::sso::SsoCall),
    OrgSettings(crate::vocabulary::org_settings::OrgSettingsCall),
    Translations(crate::vocabulary::translations::TranslationsCall),
    OpenApi(crate::vocabulary::openapi::OpenApiCall),
    Conversations(crate::vocabulary::conversations::ConversationsCall),
    Integrations(crate::vocabulary::integrations::IntegrationsCall),
    Reader(crate::vocabulary::reader_links::ReaderCall),
    Home(crate::vocabulary::home::HomeCall),
}

impl ApiCall {
    /// Whether the call changes something on the server (or in the outbox). The one place
    /// that says so: the cache answers only reads, a write goes out (or to the outbox) even
    /// while quire seems offline, the outbox is counted again after one, and the action log
    /// notes it. Each area lists its calls variant by variant, so a new call is placed on one
    /// side where it is declared.
    pub fn writes(&self) -> bool {
        match self {
            ApiCall::ListOrganizations { .. }
            | ApiCall::OrganizationTree { .. }
            | ApiCall::ListPages { .. }
            | ApiCall::GetPageMarkdown { .. } => false,
            ApiCall::ChangeRequests(call) => call.writes(),
            ApiCall::Sites(call) => call.writes(),
            ApiCall::Search(call) => call.writes(),
            ApiCall::Links(call) => call.writes(),
            ApiCall::Files(call) => call.writes(),
            ApiCall::Collections(call) => call.writes(),
            ApiCall::Spaces(call) => call.writes(),
            ApiCall::Git(call) => call.writes(),
            ApiCall::Outbox(call) => call.writes(),
            ApiCall::Members(call) => call.writes(),
            ApiCall::Teams(call) => call.writes(),
            ApiCall::Sso(call) => call.writes(),
            ApiCall::OrgSettings(call) => call.writes(),
            ApiCall::Translations(call) => call.writes(),
            ApiCall::OpenApi(call) => call.writes(),
            ApiCall::Conversations(call) => call.writes(),
            ApiCall::Integrations(call) => call.writes(),
            ApiCall::Reader(call) => call.writes(),
            ApiCall::Home(call) => call.writes(),
        }
    }
}

impl ApiCall {
    /// Whether the call's requests take a free slot of the host before others, or wait
    /// behind those (see [`crate::api::limits`]). Each area says so where its calls are
    /// declared; only a review's reply lists go behind for now.
    pub fn priority(&self) -> crate::api::limits::Priority {
        match self {
            ApiCall::ChangeRequests(call) => call.priority(),
            _ => crate::api::limits::Priority::FirstScreen,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub enum Cmd {
    #[default]
    None,
    Batch(Vec<Cmd>),
    Api {
        request: RequestId,
        call: ApiCall,
    },
    /// Parse markdown off the UI thread.
    ParseMarkdown {
        key: DocKey,
        markdown: Arc<str>,
    },
    /// Parse the start of a page (cut by `ui::markdown::preview_source`) for its preview, off
    /// the UI thread; the document comes back marked incomplete.
    ParsePreview {
        key: DocKey,
        markdown: Arc<str>,
    },
    /// Highlight a parsed document's code blocks off the UI thread.
    HighlightMarkdown {
        key: DocKey,
        doc: DocHandle,
    },
    /// Write a draft to disk (it survives a failed post, a crash and a quit).
    SaveDraft {
        key: String,
        text: String,
    },
    /// The server accepted the text (or the user threw it away): forget the draft.
    DiscardDraft {
        key: String,
    },
    LoadDrafts {
        prefix: String,
    },
    /// Hand the text to `$EDITOR`; the result comes back as `Msg::EditedExternally`.
    EditExternally {
        key: String,
        text: String,
    },
    /// Answer with `Msg::Timer(id)` after `after`: the loop's one timer, e.g. to debounce a
    /// preview while the selection moves. Ids come from `RequestIds`, so a screen recognises
    /// its latest timer and drops stale ones.
    Timer {
        id: RequestId,
        after: std::time::Duration,
    },
    /// The timer `id` is no longer wanted (a newer one took its place): it need not go off.
    /// One that goes off all the same is dropped by its screen as stale.
    CancelTimer(RequestId),
    /// Put text on the clipboard with OSC 52 (works over SSH).
    CopyToClipboard(String),
    /// Tell a user looking at another window: a desktop notification or the bell, as the
    /// terminal and the config file (`notify`) allow. The status line says it too, apart.
    Notify {
        title: String,
        body: String,
    },
    OpenInBrowser(String),
    Suspend,
    /// End every retry wait under way: those reads are tried again now.
    RetryNow,
    /// Tell the server the user is here (`POST /orgs/{org}/ping`), so their "last seen" is
    /// true. Nothing comes back: a failure is only logged.
    PingOrganization {
        organization: String,
    },
    Quit,
    /// Write the palette's history (most recent first) to `path`, private to the user.
    SavePaletteHistory {
        path: std::path::PathBuf,
        entries: Vec<String>,
    },
    /// Read what was seen of a change request at the last visit (see `change_requests::memory`); the
    /// answer comes as `Msg::DraftsLoaded` with `prefix` = `key` and at most one entry.
    LoadReviewMemory {
        key: String,
    },
    /// Remember what was seen of a change request (a small JSON text).
    SaveReviewMemory {
        key: String,
        text: String,
    },
}

impl Cmd {
    /// Calls off the timer kept in `slot`, if one is set: it is stale (see `CancelTimer`).
    pub fn cancel_timer(slot: &mut Option<RequestId>) -> Cmd {
        slot.take().map_or(Cmd::None, Cmd::CancelTimer)
    }

    /// Sets timer `id` to go off after `after` and keeps it in `slot`, calling off the timer it
    /// replaces there (typing that waits for a pause sets one per key).
    pub fn restart_timer(
        slot: &mut Option<RequestId>,
        id: RequestId,
        after: std::time::Duration,
    ) -> Cmd {
        let stale = Cmd::cancel_timer(slot);
        *slot = Some(id);
        Cmd::batch([stale, Cmd::Timer { id, after }])
    }

    pub fn batch(commands: impl IntoIterator<Item = Cmd>) -> Cmd {
        let mut flat: Vec<Cmd> = commands.into_iter().filter(|c| *c != Cmd::None).collect();
        match flat.len() {
            0 => Cmd::None,
            1 => flat.remove(0),
            _ => Cmd::Batch(flat),
        }
    }

    /// Every API call inside this command with its request id, for tests and benchmarks.
    pub fn api_calls(&self) -> Vec<(RequestId, ApiCall)> {
        match self {
            Cmd::Api { request, call } => vec![(*request, call.clone())],
            Cmd::Batch(commands) => commands.iter().flat_map(Cmd::api_calls).collect(),
            _ => Vec::new(),
        }
    }
}

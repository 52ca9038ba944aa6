//! One folder per API area: its screens (state and update in `mod.rs`, drawing in `view.rs`) and
//! its organization tab (`tab.rs`). Screens never touch the network; they return `Cmd`s.

pub mod access_audit;
pub mod change_requests;
pub mod conversations;
pub mod form_draft;
pub mod git;
pub mod home;
pub mod integrations;
pub mod look;
pub mod members;
pub mod org_settings;
pub mod organization;
pub mod organizations;
pub mod page;
pub mod page_doc;
pub mod roles;
pub mod route;
pub mod step;
pub mod teams;
pub mod templates;
// Finding things: search, links and backlinks, files.
pub mod action_log;
pub mod files;
pub mod links;
pub mod list_pane;
pub mod openapi;
pub mod outbox;
pub mod search;
pub mod site;
pub mod sites;
pub mod space;
pub mod sso;
pub mod translations;
pub mod trash;
pub mod welcome;

pub use roles::role_noun;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::notice::Notice;
use crate::vocabulary::{Cmd, DocKey, RequestId};

/// What every screen can do; defaults are "nothing to do here".
/// A change request `W` can mark to watch, and how the status line names it.
#[derive(Debug, Clone, PartialEq)]
pub struct Watchable {
    pub space: String,
    pub change_request: String,
    /// "#2 “Document gateway install…”".
    pub label: String,
}

impl Watchable {
    pub fn of(space: &str, change_request: &crate::api::models::ChangeRequest) -> Watchable {
        Watchable::new(
            space,
            &change_request.id,
            change_request.number,
            &change_request.subject,
        )
    }

    pub fn new(space: &str, id: &str, number: Option<u64>, subject: &str) -> Watchable {
        let number = number.map(|n| format!("#{n} ")).unwrap_or_default();
        let subject: String = subject.chars().take(40).collect();
        Watchable {
            space: space.to_owned(),
            change_request: id.to_owned(),
            label: crate::ui::sanitize::sanitize(&format!("{number}“{subject}”")).into_owned(),
        }
    }
}

pub trait ScreenState {
    fn enter(&mut self, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }
    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.enter(ctx)
    }
    fn title(&self) -> String;
    fn key_contexts(&self) -> &'static [KeyContext] {
        &[]
    }
    fn hints(&self) -> Vec<(Action, &'static str)> {
        Vec::new()
    }
    fn on_raw_key(&mut self, _key: &KeyEvent, _ctx: &mut Ctx) -> Option<Step> {
        None
    }
    fn on_action(&mut self, _action: Action, _ctx: &mut Ctx) -> Option<Step> {
        None
    }
    /// Bracketed paste; may ask for something (a text being written is saved as a draft).
    fn on_paste(&mut self, _text: &str, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }
    fn on_resize(&mut self, _ctx: &mut Ctx) {}
    fn on_response(&mut self, _answered: Answered, _ctx: &mut Ctx) -> Option<Step> {
        None
    }
    fn on_document(&mut self, _key: &DocKey, _ctx: &mut Ctx) {}
    /// `None` when the timer is not this screen's (or no longer wanted), and then the screen
    /// is left as it was: a timer no screen claims is not drawn.
    fn on_timer(&mut self, _id: RequestId, _ctx: &mut Ctx) -> Option<Step> {
        None
    }
    /// The screen above was closed and this one shows again.
    fn resumed(&mut self, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }
    /// Drafts from disk, answering `Cmd::LoadDrafts`.
    fn on_drafts(&mut self, _prefix: &str, _drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }
    /// Text back from `$EDITOR`.
    fn on_external_edit(&mut self, _key: &str, _text: String, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }
    /// Work that would be lost by quitting now, said in a few words ("unsaved site settings").
    fn unsaved_work(&self) -> Option<String> {
        None
    }
    /// Footer hints that are shown but not allowed here (drawn struck through).
    fn disabled_actions(&self) -> Vec<Action> {
        Vec::new()
    }
    /// Why a disabled action is not allowed, for the help to show beside it; None when the
    /// struck-through key says enough.
    fn disabled_reason(
        &self,
        _action: Action,
        _now: chrono::DateTime<chrono::Utc>,
    ) -> Option<String> {
        None
    }
    /// The operation area a key needs here that a server may not offer (a page's backlinks),
    /// so a server found without it strikes the key through.
    fn needed_area(&self, action: Action) -> Option<&'static str> {
        crate::vocabulary::capabilities::area_of(action, self.key_contexts())
    }
    fn link(&self) -> Option<String> {
        None
    }
    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look);
    /// The messages the screen shows now (notices, errors, what a link did), so they can be
    /// read whole when the screen cuts them.
    fn messages(&self) -> Vec<Notice> {
        Vec::new()
    }
    /// Opening `_url` in a browser failed (the footer says so): a line announcing it goes.
    fn on_browser_failed(&mut self, _url: &str) {}
    /// The review above moved on to change request `_id` (`]c`): select it here.
    fn reveal_change_request(&mut self, _id: &str) {}
    /// The change request `W` marks to watch here: the selected one, or the one shown.
    fn watchable(&self) -> Option<Watchable> {
        None
    }
    /// The terminal has focus again: pending refreshes armed with the unfocused interval are
    /// set to go off after the focused one.
    fn hasten_watch(&mut self, _ctx: &mut Ctx) -> Cmd {
        Cmd::None
    }
}

// A handful of screens on a stack: their sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Screen {
    Welcome(welcome::Welcome),
    Home(Box<home::HomeScreen>),
    Organizations(organizations::Organizations),
    Organization(organization::Organization),
    Space(space::SpaceScreen),
    Page(page::PageScreen),
    ChangeRequests(change_requests::ChangeRequestList),
    Review(Box<change_requests::review::ReviewScreen>),
    Site(Box<site::SiteScreen>),
    AccessAudit(access_audit::AccessAudit),
    Search(search::SearchScreen),
    Links(links::LinksScreen),
    Files(files::FilesScreen),
    Git(Box<git::GitScreen>),
    Team(Box<teams::TeamScreen>),
    SpecVersions(Box<openapi::VersionsScreen>),
    SpecContent(Box<openapi::ContentScreen>),
    ClusterIssues(conversations::ClusterIssuesScreen),
    Conversation(Box<conversations::ConversationScreen>),
    Integration(Box<integrations::IntegrationScreen>),
    ActionLog(action_log::ActionLogScreen),
    Outbox(outbox::OutboxScreen),
}

macro_rules! dispatch {
    ($self:expr, $screen:ident => $body:expr) => {
        match $self {
            Screen::Welcome($screen) => $body,
            Screen::Home($screen) => $body,
            Screen::Organizations($screen) => $body,
            Screen::Organization($screen) => $body,
            Screen::Space($screen) => $body,
            Screen::Page($screen) => $body,
            Screen::ChangeRequests($screen) => $body,
            Screen::Review($screen) => $body,
            Screen::Site($screen) => $body,
            Screen::AccessAudit($screen) => $body,
            Screen::Search($screen) => $body,
            Screen::Links($screen) => $body,
            Screen::Files($screen) => $body,
            Screen::Git($screen) => $body,
            Screen::Team($screen) => $body,
            Screen::SpecVersions($screen) => $body,
            Screen::SpecContent($screen) => $body,
            Screen::ClusterIssues($screen) => $body,
            Screen::Conversation($screen) => $body,
            Screen::Integration($screen) => $body,
            Screen::ActionLog($screen) => $body,
            Screen::Outbox($screen) => $body,
        }
    };
}

impl Screen {
    /// Called when the screen is pushed: returns what it needs loaded.
    pub fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        dispatch!(self, s => s.enter(ctx))
    }

    pub fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        dispatch!(self, s => s.refresh(ctx))
    }

    pub fn title(&self) -> String {
        dispatch!(self, s => s.title())
    }

    /// Key contexts searched before the global one.
    pub fn key_contexts(&self) -> &'static [KeyContext] {
        dispatch!(self, s => s.key_contexts())
    }

    /// Footer hints: the actions most worth knowing here.
    pub fn hints(&self) -> Vec<(Action, &'static str)> {
        dispatch!(self, s => s.hints())
    }

    /// Raw keys for a text input that is open; None lets the keymap decide.
    pub fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        dispatch!(self, s => s.on_raw_key(key, ctx))
    }

    /// None when the screen does not handle the action, so the global handler may.
    pub fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        dispatch!(self, s => s.on_action(action, ctx))
    }

    pub fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        dispatch!(self, s => s.on_paste(text, ctx))
    }

    pub fn on_resize(&mut self, ctx: &mut Ctx) {
        dispatch!(self, s => s.on_resize(ctx))
    }

    /// Some when this screen was waiting for the result.
    pub fn on_response(&mut self, answered: Answered, ctx: &mut Ctx) -> Option<Step> {
        dispatch!(self, s => s.on_response(answered, ctx))
    }

    /// Some when this screen set the timer (see `Cmd::Timer`).
    pub fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        dispatch!(self, s => s.on_timer(id, ctx))
    }

    /// A parsed (or newly highlighted) document is in the cache.
    pub fn on_document(&mut self, key: &DocKey, ctx: &mut Ctx) {
        dispatch!(self, s => s.on_document(key, ctx))
    }

    /// The address of what is selected, for `y` (copy) and `o` (open).
    pub fn link(&self) -> Option<String> {
        dispatch!(self, s => s.link())
    }

    pub fn resumed(&mut self, ctx: &mut Ctx) -> Cmd {
        dispatch!(self, s => s.resumed(ctx))
    }

    pub fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], ctx: &mut Ctx) -> Cmd {
        dispatch!(self, s => s.on_drafts(prefix, drafts, ctx))
    }

    pub fn on_external_edit(&mut self, key: &str, text: String, ctx: &mut Ctx) -> Cmd {
        dispatch!(self, s => s.on_external_edit(key, text, ctx))
    }

    pub fn disabled_actions(&self) -> Vec<Action> {
        dispatch!(self, s => s.disabled_actions())
    }

    pub fn disabled_reason(
        &self,
        action: Action,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<String> {
        dispatch!(self, s => s.disabled_reason(action, now))
    }

    pub fn needed_area(&self, action: Action) -> Option<&'static str> {
        dispatch!(self, s => s.needed_area(action))
    }

    pub fn unsaved_work(&self) -> Option<String> {
        dispatch!(self, s => s.unsaved_work())
    }

    pub fn messages(&self) -> Vec<Notice> {
        dispatch!(self, s => s.messages())
    }

    pub fn on_browser_failed(&mut self, url: &str) {
        dispatch!(self, s => s.on_browser_failed(url))
    }

    pub fn reveal_change_request(&mut self, id: &str) {
        dispatch!(self, s => s.reveal_change_request(id))
    }

    pub fn hasten_watch(&mut self, ctx: &mut Ctx) -> Cmd {
        dispatch!(self, s => s.hasten_watch(ctx))
    }

    pub fn watchable(&self) -> Option<Watchable> {
        dispatch!(self, s => s.watchable())
    }

    pub fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        dispatch!(self, s => s.draw(frame, area, look))
    }
}

//! An organization: a Spaces tab (nested collections and spaces as a tree, with a details pane)
//! and tabs for the rest (members, teams, sites …), most of them panes: `ScreenState`s the screen hands keys, responses and its area.
//!
//! This folder hosts the tabs (`Tab`, the dispatch here, the tab bar in `view.rs`) and holds
//! the Spaces tab: its tree (`tree.rs`, `spaces.rs`, `spaces_view.rs`) and what it changes
//! (`content_ops/`, `space_ops.rs`). The other tabs live in their areas' folders
//! (`screens/members/`, `screens/teams/tab.rs`, `screens/trash/` …).

mod change_requests_tab;
mod collection_spaces;
mod content_ops;
pub mod pane;
pub mod server_filter;
mod space_log;
pub mod space_ops;
mod space_template;
mod spaces;
mod spaces_view;
mod tree;
mod view;

use crate::screens::look::Look;
use crate::screens::search::SearchScreen;
use crate::vocabulary::search::SearchScope;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::models::Organization as OrganizationModel;
use crate::screens::sites::SitesTab;
use crate::screens::step::{Answered, Ctx, Step};
use crate::screens::trash::Trash;
use crate::screens::{Screen, ScreenState};
use crate::screens::{
    conversations, integrations, members, openapi, org_settings, sso, teams, translations,
};
use crate::ui::input::{Filter, InputOutcome};
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::tree::{Tree, TreeRows};
use crate::vocabulary::{ApiResponse, Cmd, Loadable, RequestId};

use crate::ui::hit::Canvas;
pub use change_requests_tab::ChangeRequestsTab;
pub use content_ops::{Confirmed, ContentModal, ContentOps, PickPurpose, TextPurpose};
use pane::notice_modal_esc;
pub use tree::{OrgNode, build_tree};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    #[default]
    Spaces,
    ChangeRequests,
    Members,
    Teams,
    Sites,
    Trash,
    Translations,
    OpenApi,
    Clusters,
    Integrations,
    Sso,
    Settings,
}

impl Tab {
    pub const ALL: [Tab; 12] = [
        Tab::Spaces,
        Tab::ChangeRequests,
        Tab::Members,
        Tab::Teams,
        Tab::Sites,
        Tab::Trash,
        Tab::Translations,
        Tab::OpenApi,
        Tab::Clusters,
        Tab::Integrations,
        Tab::Sso,
        Tab::Settings,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Tab::Spaces => "Spaces",
            Tab::ChangeRequests => "Change requests",
            Tab::Members => "Members",
            Tab::Teams => "Teams",
            Tab::Sites => "Sites",
            Tab::Trash => "Trash",
            Tab::Translations => "Translations",
            Tab::OpenApi => "OpenAPI",
            Tab::Clusters => "Clusters",
            Tab::Integrations => "Integrations",
            Tab::Sso => "SSO",
            Tab::Settings => "Settings",
        }
    }
}

/// The tabs that are panes keeping their own state (all but Spaces), in the order of
/// `Organization::panes`.
const PANE_TABS: [Tab; 11] = [
    Tab::ChangeRequests,
    Tab::Trash,
    Tab::Members,
    Tab::Sites,
    Tab::Teams,
    Tab::Sso,
    Tab::Settings,
    Tab::Translations,
    Tab::OpenApi,
    Tab::Clusters,
    Tab::Integrations,
];

#[derive(Debug)]
pub struct Organization {
    pub organization: OrganizationModel,
    pub tab: Tab,
    pub tree: Loadable<Tree<OrgNode>>,
    /// What the tree lacks: a list cut short after N pages, items that could not be read.
    pub tree_note: Option<String>,
    /// The rows shown of `tree`: its open nodes and the filter, kept up to date as they
    /// change. A reload opens the same nodes again by their stable key (`OrgNode::key`).
    pub tree_rows: TreeRows,
    pub tree_selection: Selection,
    pub tree_filter: Filter,
    pub members: members::MembersTab,
    /// The organization-wide change-request inbox, read when its tab is first shown.
    pub change_requests: ChangeRequestsTab,
    pub sites: SitesTab,
    /// Creating, changing, moving and transferring collections and spaces (content_ops/).
    pub content: ContentOps,
    /// Changing the selected space: its popup, notice and request in flight.
    pub space_ops: space_ops::SpaceOps,
    /// Collections opened alone when the tree lacks spaces (`collection_spaces.rs`).
    collection_spaces: collection_spaces::CollectionSpaces,
    pub trash: Trash,
    pub teams: teams::TeamsTab,
    pub sso: sso::SsoTab,
    pub settings: org_settings::SettingsTab,
    pub translations: translations::TranslationsTab,
    pub openapi: openapi::OpenApiTab,
    pub clusters: conversations::ClustersTab,
    pub integrations: integrations::IntegrationsTab,
    /// Keeps the header's "N review requested" of this organization.
    pub requested_count: crate::vocabulary::watch::RequestedCount,
    /// The action log's undo count when last shown: an undo made from the log reloads the tab.
    undos_seen: u64,
}

impl Organization {
    pub fn new(organization: OrganizationModel) -> Organization {
        Organization {
            sites: SitesTab::new(&organization.id, &organization.title),
            tab: Tab::Spaces,
            tree: Loadable::NotAsked,
            tree_note: None,
            tree_rows: TreeRows::default(),
            tree_selection: Selection::default(),
            tree_filter: Filter::default(),
            members: members::tab::new(&organization),
            change_requests: ChangeRequestsTab::new(&organization),
            content: ContentOps::default(),
            space_ops: Default::default(),
            collection_spaces: Default::default(),
            trash: Default::default(),
            teams: teams::tab::new(&organization),
            sso: sso::new(&organization),
            settings: org_settings::new(&organization),
            translations: translations::tab::new(&organization),
            openapi: openapi::tab::new(&organization),
            clusters: conversations::tab::new(&organization),
            integrations: integrations::tab::new(&organization),
            requested_count: crate::vocabulary::watch::RequestedCount::new(&organization.id),
            undos_seen: 0,
            organization,
        }
    }

    /// The shown tab when it is a pane that keeps its own state.
    pub fn pane(&self) -> Option<&dyn ScreenState> {
        let index = PANE_TABS.iter().position(|tab| *tab == self.tab)?;
        self.panes().into_iter().nth(index)
    }

    pub fn pane_mut(&mut self) -> Option<&mut dyn ScreenState> {
        let index = PANE_TABS.iter().position(|tab| *tab == self.tab)?;
        self.panes_mut().into_iter().nth(index)
    }

    /// The organization as the Settings tab last read or saved it: a new title shows in the
    /// header and breadcrumb at once.
    fn adopt_saved_settings(&mut self) {
        let saved = &self.settings.organization;
        if saved.id == self.organization.id && *saved != self.organization {
            self.organization = saved.clone();
        }
    }

    /// Every pane, shown or not (responses arrive after a tab switch too), in the order of
    /// [`PANE_TABS`].
    fn panes(&self) -> [&dyn ScreenState; 11] {
        [
            &self.change_requests,
            &self.trash,
            &self.members,
            &self.sites,
            &self.teams,
            &self.sso,
            &self.settings,
            &self.translations,
            &self.openapi,
            &self.clusters,
            &self.integrations,
        ]
    }

    fn panes_mut(&mut self) -> [&mut dyn ScreenState; 11] {
        [
            &mut self.change_requests,
            &mut self.trash,
            &mut self.members,
            &mut self.sites,
            &mut self.teams,
            &mut self.sso,
            &mut self.settings,
            &mut self.translations,
            &mut self.openapi,
            &mut self.clusters,
            &mut self.integrations,
        ]
    }

    /// Shows `tab` (chosen in the palette), read as a tab is when first shown.
    pub fn show_tab(&mut self, tab: Tab, ctx: &mut Ctx) -> Cmd {
        if self.tab == tab {
            return Cmd::None;
        }
        self.tab = tab;
        self.pane_mut().map_or(Cmd::None, |pane| pane.enter(ctx))
    }

    fn switch_tab(&mut self, forward: bool, ctx: &mut Ctx) -> Cmd {
        let index = Tab::ALL.iter().position(|t| *t == self.tab).unwrap_or(0);
        let count = Tab::ALL.len();
        let step = if forward { 1 } else { count - 1 };
        self.tab = Tab::ALL[(index + step) % count];
        self.pane_mut().map_or(Cmd::None, |pane| pane.enter(ctx))
    }

    /// The notice rule for this screen's own notices, then the space popup if one is open.
    fn on_notice_or_modal_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let space_modal = |screen: &mut Self| {
            space_ops::has_modal(&screen.space_ops).then(|| screen.on_space_modal_key(key, ctx))
        };
        if !space_ops::has_modal(&self.space_ops) && self.tab != Tab::Spaces {
            return None;
        }
        notice_modal_esc(self, key, |s| &mut s.space_ops.notice, space_modal)
            .break_value()
            .flatten()
    }

    /// The Spaces tab's actions: a collection's, a space's, then the tree's. The tab shows one
    /// message at a time, so what one kind of action says replaces what the other said last
    /// (a space's refusal must not stay on screen under a collection's).
    fn on_spaces_tab_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_content_action(action, ctx) {
            self.space_ops.notice = None;
            return Some(step);
        }
        if let Some(step) = self
            .on_template_action(action)
            .or_else(|| self.on_space_action(action, ctx))
        {
            self.content.notice = None;
            return Some(step);
        }
        self.on_tree_action(action, ctx)
    }
}

impl ScreenState for Organization {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        if let Some(pane) = self.pane() {
            return pane.messages();
        }
        [&self.space_ops.notice, &self.content.notice]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        ctx.watch.review_requested = None;
        self.undos_seen = ctx.action_log.undos();
        let count = self.requested_count.start(ctx);
        let ping = Cmd::PingOrganization {
            organization: self.organization.id.clone(),
        };
        Cmd::batch([self.load_tree(ctx), count, ping])
    }

    /// The Trash tab lists what the organization's listing says was deleted: it is read again.
    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.tab == Tab::Spaces
            && let Some(OrgNode::Collection(collection)) = self.selected_node()
        {
            let (id, title) = (collection.id.clone(), collection.title.clone());
            let tree = self.load_tree(ctx);
            return Cmd::Batch(vec![tree, self.reread_collection(id, &title, ctx)]);
        }
        if matches!(self.tab, Tab::Spaces | Tab::Trash) {
            return self.load_tree(ctx);
        }
        self.pane_mut().map_or(Cmd::None, |pane| pane.refresh(ctx))
    }

    fn resumed(&mut self, ctx: &mut Ctx) -> Cmd {
        if ctx.action_log.undos() != self.undos_seen {
            self.undos_seen = ctx.action_log.undos();
            // The undo may have deleted or restored a space: the trash follows the listing.
            let listing = if matches!(self.tab, Tab::Spaces | Tab::Trash) {
                Cmd::None
            } else {
                self.load_tree(ctx)
            };
            return Cmd::batch([self.refresh(ctx), listing]);
        }
        self.pane_mut().map_or(Cmd::None, |pane| pane.resumed(ctx))
    }

    fn title(&self) -> String {
        self.organization.title.clone()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        if let Some(pane) = self.pane() {
            return pane.key_contexts();
        }
        &[
            KeyContext::Tabs,
            KeyContext::ContentTree,
            KeyContext::Tree,
            KeyContext::List,
        ]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        if let Some(pane) = self.pane() {
            return pane.hints();
        }
        // The content actions once there is content to act on.
        [(Action::Open, "open")]
            .into_iter()
            .chain(
                content_ops::HINTS
                    .into_iter()
                    .filter(|_| self.tree.value().is_some()),
            )
            .chain([
                (Action::Expand, "expand"),
                (Action::Collapse, "collapse"),
                (Action::Filter, "filter"),
                (Action::NextTab, "tab"),
                (Action::SearchContent, "search"),
                (Action::ToggleLock, "lock"),
                (Action::Duplicate, "duplicate"),
                (Action::Back, "back"),
                (Action::Help, "keys"),
            ])
            .collect()
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_notice_or_modal_key(key, ctx) {
            return Some(step);
        }
        if let Some(pane) = self.pane_mut() {
            return pane.on_raw_key(key, ctx);
        }
        if let Some(step) = self.on_content_key(key, ctx) {
            return Some(step);
        }
        let outcome = self.tree_filter.handle_key(key)?;
        self.follow_tree_filter(outcome == InputOutcome::Changed);
        self.tree_selection.clamp(self.visible_rows().len());
        Some(Step::default())
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        if let Some(pane) = self.pane_mut() {
            return pane.on_paste(text, ctx);
        }
        if !self.on_template_paste(text) && !self.on_content_paste(text) {
            self.tree_filter.paste(text);
            self.follow_tree_filter(false);
        }
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if !matches!(action, Action::NextTab | Action::PreviousTab)
            && let Some(pane) = self.pane_mut()
        {
            return pane.on_action(action, ctx);
        }
        match action {
            Action::NextTab => return Some(Step::cmd(self.switch_tab(true, ctx))),
            Action::SearchContent => {
                return Some(Step::push(Screen::Search(SearchScreen::new(
                    SearchScope::Organization {
                        id: self.organization.id.clone(),
                        title: self.organization.title.clone(),
                    },
                ))));
            }
            Action::PreviousTab => return Some(Step::cmd(self.switch_tab(false, ctx))),
            Action::Filter => {
                self.tree_filter.open();
                return Some(Step::default());
            }
            Action::Back if self.dismiss_content_error() => return Some(Step::default()),
            Action::Back if self.tree_filter.is_shown() => {
                self.tree_filter.clear();
                self.follow_tree_filter(false);
                return Some(Step::default());
            }
            _ => {}
        }
        self.on_spaces_tab_action(action, ctx)
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        if let Some(cmd) = self.requested_count.on_response(request, response, ctx) {
            return Some(Step::cmd(cmd));
        }
        match response {
            ApiResponse::OrganizationTree(result) => self
                .on_tree_loaded(request, result, ctx.answer)
                .or_else(|| self.change_requests.on_response((request, response), ctx)),
            ApiResponse::Collections(
                crate::vocabulary::collections::CollectionsResponse::Spaces(result),
            ) => self.on_collection_spaces(request, result),
            ApiResponse::Collections(response) => self
                .on_collection_reread(request, response)
                .or_else(|| self.on_content_response(request, response, ctx)),
            ApiResponse::Spaces(response) => self.on_space_response(request, response, ctx),
            _ => {
                let step = self
                    .panes_mut()
                    .into_iter()
                    .find_map(|pane| pane.on_response((request, response), ctx));
                self.adopt_saved_settings();
                step
            }
        }
    }

    fn link(&self) -> Option<String> {
        if let Some(pane) = self.pane() {
            return pane.link();
        }
        self.selected_node()?.app_url()
    }

    /// A collection's transfer is in the public service; only a space's may be missing.
    fn needed_area(&self, action: Action) -> Option<&'static str> {
        if action == Action::Transfer && !matches!(self.selected_node(), Some(OrgNode::Space(_))) {
            return None;
        }
        crate::vocabulary::capabilities::area_of(action, self.key_contexts())
    }

    fn disabled_actions(&self) -> Vec<Action> {
        if let Some(pane) = self.pane() {
            return pane.disabled_actions();
        }
        let mut disabled = self.content_disabled_actions();
        if space_template::refusal(self.selected_node()).is_some() {
            disabled.push(Action::ApplyTemplate);
        }
        for action in self.space_disabled_actions() {
            if !disabled.contains(&action) {
                disabled.push(action);
            }
        }
        disabled
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if let Some(cmd) = self.requested_count.on_timer(id, ctx) {
            return Some(Step::cmd(cmd));
        }
        self.panes_mut()
            .into_iter()
            .find_map(|pane| pane.on_timer(id, ctx))
    }

    fn watchable(&self) -> Option<crate::screens::Watchable> {
        self.pane()?.watchable()
    }

    fn hasten_watch(&mut self, ctx: &mut Ctx) -> Cmd {
        let count = self.requested_count.hasten(ctx);
        let panes: Vec<Cmd> = self
            .panes_mut()
            .into_iter()
            .map(|pane| pane.hasten_watch(ctx))
            .collect();
        Cmd::batch(std::iter::once(count).chain(panes))
    }

    fn on_document(&mut self, key: &crate::vocabulary::DocKey, ctx: &mut Ctx) {
        for pane in self.panes_mut() {
            pane.on_document(key, ctx);
        }
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], ctx: &mut Ctx) -> Cmd {
        let panes = self.panes_mut().into_iter();
        Cmd::batch(panes.map(|pane| pane.on_drafts(prefix, drafts, ctx)))
    }

    fn on_external_edit(&mut self, key: &str, text: String, ctx: &mut Ctx) -> Cmd {
        let panes = self.panes_mut().into_iter();
        Cmd::batch(panes.map(|pane| pane.on_external_edit(key, text.clone(), ctx)))
    }

    fn unsaved_work(&self) -> Option<String> {
        self.panes()
            .into_iter()
            .find_map(|pane| pane.unsaved_work())
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

//! The organization's Sites tab: the sites of an organization, paged lazily, with a
//! published yes/no/all toggle and a `/` title filter. The filter narrows the loaded rows while
//! typing and, once submitted with enter, is sent as the server's `title` filter so that sites
//! not loaded yet are found too. Enter opens a site; `A` opens the access view.

pub mod new_site;
pub mod role;
pub mod site_ops;
pub mod view;

use crate::ui::hit::Canvas;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::SiteFilter;
use crate::api::models::Site;
use crate::screens::access_audit::AccessAudit;
use crate::screens::look::Look;
use crate::screens::site::SiteScreen;
use crate::screens::step::{Answered, Ctx, Step};
use crate::screens::{Screen, ScreenState};
use crate::ui::input::{Filter, InputOutcome};
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::sites::{SitesCall, SitesResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, RequestId};
pub use role::{MyRole, ROLE_TO_CHANGE_SITES, audience};

/// The address to show for a site: its published URL, else its hostname.
pub fn site_address(site: &Site) -> String {
    site.urls
        .published
        .clone()
        .or_else(|| site.hostname.clone())
        .unwrap_or_default()
}

/// Which sites the list shows by publication.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PublishedFilter {
    #[default]
    All,
    Published,
    Unpublished,
}

impl PublishedFilter {
    pub fn next(self) -> PublishedFilter {
        match self {
            PublishedFilter::All => PublishedFilter::Published,
            PublishedFilter::Published => PublishedFilter::Unpublished,
            PublishedFilter::Unpublished => PublishedFilter::All,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            PublishedFilter::All => "all",
            PublishedFilter::Published => "published",
            PublishedFilter::Unpublished => "not published",
        }
    }

    /// The server's `published` query value.
    pub fn wanted(self) -> Option<bool> {
        match self {
            PublishedFilter::All => None,
            PublishedFilter::Published => Some(true),
            PublishedFilter::Unpublished => Some(false),
        }
    }
}

#[derive(Debug, Default)]
pub struct SitesTab {
    pub organization: String,
    pub organization_title: String,
    pub list: PagedList<Site>,
    pub selection: Selection,
    pub filter: Filter,
    pub published: PublishedFilter,
    /// The title filter sent with the current list, so a changed filter reloads it.
    pub server_title: Option<String>,
    /// A site's title being asked for, or its deletion being confirmed.
    pub modal: Option<site_ops::SitesModal>,
    pub notice: Option<crate::ui::notice::Notice>,
    /// The create or delete in flight.
    writing: Option<(RequestId, site_ops::SiteWrite)>,
    /// A site just created, selected once the list read again holds it.
    select_after_load: Option<String>,
    /// A new site waiting for the organization's spaces, to pick those it starts with.
    spaces_for: Option<(RequestId, crate::api::NewSite)>,
}

impl SitesTab {
    pub fn new(organization: &str, organization_title: &str) -> SitesTab {
        SitesTab {
            organization: organization.to_string(),
            organization_title: organization_title.to_string(),
            ..SitesTab::default()
        }
    }

    /// The sites shown: the loaded ones that pass the filter as typed.
    pub fn visible(&self) -> Vec<&Site> {
        self.list
            .items
            .iter()
            .filter(|site| self.filter.matches(&site.title))
            .collect()
    }

    pub fn selected(&self) -> Option<&Site> {
        self.visible().get(self.selection.selected).copied()
    }

    /// True once a load was asked for, so switching tabs does not reload.
    pub fn started(&self) -> bool {
        self.list.loaded_once() || self.list.is_loading()
    }

    pub fn query(&self) -> SiteFilter {
        SiteFilter {
            space: None,
            title: self.server_title.clone(),
            published: self.published.wanted(),
        }
    }

    fn call(&self, page: Option<String>) -> ApiCall {
        ApiCall::Sites(SitesCall::ListSites {
            organization: self.organization.clone(),
            filter: self.query(),
            page,
        })
    }

    pub fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        self.selection.top();
        self.list.load_first(ctx.requests, self.call(None))
    }

    fn load_more(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| next.ask(|page| self.call(page)))
    }

    /// Reloads from the server when the submitted title filter differs from the one in force.
    fn apply_title_filter(&mut self, ctx: &mut Ctx) -> Cmd {
        let wanted = Some(self.filter.text.trim().to_string()).filter(|text| !text.is_empty());
        if wanted == self.server_title {
            return Cmd::None;
        }
        self.server_title = wanted;
        self.load(ctx)
    }

    /// Selects the site just created once the list holds it.
    fn select_created(&mut self) {
        let Some(id) = self.select_after_load.take() else {
            return;
        };
        let visible = self.visible();
        match visible.iter().position(|site| site.id == id) {
            Some(index) => self.selection.select(index, visible.len()),
            // Not on this page: it stays wanted for the pages that follow.
            None if self.list.has_more() => self.select_after_load = Some(id),
            None => {}
        }
    }
}

impl ScreenState for SitesTab {
    fn title(&self) -> String {
        "Sites".to_string()
    }

    /// Loads once: switching back to the tab keeps what is listed.
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.started() {
            return Cmd::None;
        }
        self.load(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::SiteList, KeyContext::Tabs, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "open"),
            (Action::Create, "new"),
            (Action::Delete, "delete"),
            (Action::Filter, "title"),
            (Action::PublishedFilter, "published"),
            (Action::AccessView, "access"),
            (Action::NextTab, "tab"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_modal_key(key, ctx) {
            return Some(step);
        }
        let outcome = self.filter.handle_key(key)?;
        self.selection.clamp(self.visible().len());
        let cmd = match outcome {
            InputOutcome::Submitted | InputOutcome::Cancelled => self.apply_title_filter(ctx),
            _ => Cmd::None,
        };
        Some(Step::cmd(cmd))
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        self.filter.paste(text);
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.visible().len();
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {}
            Action::Filter => {
                self.filter.open();
                return Some(Step::default());
            }
            Action::Back if self.filter.is_shown() => {
                self.filter.clear();
                return Some(Step::cmd(self.apply_title_filter(ctx)));
            }
            Action::PublishedFilter => {
                self.published = self.published.next();
                return Some(Step::cmd(self.load(ctx)));
            }
            Action::Create => self.ask_for_title(),
            Action::Delete => self.ask_before_deleting(),
            Action::AccessView => {
                return Some(Step::push(Screen::AccessAudit(AccessAudit::new(
                    &self.organization,
                    &self.organization_title,
                ))));
            }
            Action::Open => {
                let site = self.selected()?.clone();
                return Some(Step::push(Screen::Site(Box::new(SiteScreen::new(
                    &self.organization,
                    site,
                )))));
            }
            _ => return None,
        }
        Some(Step::cmd(self.load_more(ctx)))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Sites(response) = response else {
            return None;
        };
        if self.on_spaces_answer(request, response) {
            return Some(Step::default());
        }
        if let Some(step) = self.on_write_answer(request, response, ctx) {
            return Some(step);
        }
        let SitesResponse::Sites(result) = response else {
            return None;
        };
        if !self.list.settle(request, result.clone()) {
            return None;
        }
        self.select_created();
        self.selection.clamp(self.visible().len());
        Some(Step::cmd(self.load_more(ctx)))
    }

    /// The selected site's published address, for `y` and `o`.
    fn link(&self) -> Option<String> {
        let site = self.selected()?;
        site.urls
            .published
            .clone()
            .or_else(|| site.urls.app.clone())
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

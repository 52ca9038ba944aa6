//! The organization's Integrations tab: the integrations catalogue. `/` searches by
//! name as you type (sent to the server once typing pauses), `f` opens the filters (category,
//! scope, target, has blocks, has content sources, owner), `enter` opens an integration's
//! details.

use std::time::Duration;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use super::IntegrationScreen;
use super::filters::{FilterPopup, PopupOutcome};
use crate::api::IntegrationFilter;
use crate::api::models::{Integration, Organization};
use crate::screens::Screen;
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::input::{Filter, InputOutcome};
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::Notice;
use crate::vocabulary::integrations::{IntegrationsCall, IntegrationsResponse};
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, RequestId};

/// How long typing must pause before the search is sent.
pub const SEARCH_DEBOUNCE: Duration = Duration::from_millis(250);

#[derive(Debug)]
pub struct IntegrationsTab {
    pub organization: (String, String),
    /// The filters the list was asked with (the search included).
    pub filter: IntegrationFilter,
    pub list: PagedList<Integration>,
    pub selection: Selection,
    /// The search as typed.
    pub search: Filter,
    /// The latest debounce timer; an older one is stale.
    pub search_timer: Option<RequestId>,
    pub popup: Option<FilterPopup>,
    /// `P`: a publish under way (its path, its question, or its request).
    pub publishing: Option<super::publish::Publishing>,
    pub notice: Option<Notice>,
}

/// `https://slack.com/archives/` → `slack.com`: the domain of a block's unfurl pattern.
fn domain_of(pattern: &str) -> Option<&str> {
    let rest = pattern.split_once("://").map_or(pattern, |(_, rest)| rest);
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty()).then_some(host)
}

impl IntegrationsTab {
    /// The domains the blocks of the integrations listed unfurl links of, and the one the
    /// filter names: what the `Block domain` row offers.
    fn block_domains(&self) -> Vec<String> {
        let unfurled = self
            .list
            .items
            .iter()
            .flat_map(|integration| &integration.blocks)
            .flat_map(|block| &block.url_unfurl)
            .filter_map(|pattern| domain_of(pattern))
            .map(str::to_string);
        let domains: std::collections::BTreeSet<String> =
            unfurled.chain(self.filter.block_domain.clone()).collect();
        domains.into_iter().collect()
    }
}

pub fn new(organization: &Organization) -> IntegrationsTab {
    IntegrationsTab {
        organization: (organization.id.clone(), organization.title.clone()),
        filter: IntegrationFilter::default(),
        list: PagedList::default(),
        selection: Selection::default(),
        search: Filter::default(),
        search_timer: None,
        popup: None,
        publishing: None,
        notice: None,
    }
}

impl IntegrationsTab {
    pub fn selected(&self) -> Option<&Integration> {
        self.list.items.get(self.selection.selected)
    }

    fn call(&self, page: Option<String>) -> ApiCall {
        ApiCall::Integrations(IntegrationsCall::List {
            filter: self.filter.clone(),
            page,
        })
    }

    pub(super) fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        self.selection.top();
        self.list.load_first(ctx.requests, self.call(None))
    }

    fn more(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| next.ask(|page| self.call(page)))
    }

    /// Sends the typed search when it differs from the one the list was asked with.
    fn apply_search(&mut self, ctx: &mut Ctx) -> Cmd {
        self.search_timer = None;
        let wanted = Some(self.search.text.trim().to_string()).filter(|text| !text.is_empty());
        if wanted == self.filter.search {
            return Cmd::None;
        }
        self.filter.search = wanted;
        self.load(ctx)
    }

    fn on_search_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let outcome = self.search.handle_key(key)?;
        let cmd = match outcome {
            InputOutcome::Submitted | InputOutcome::Cancelled => self.apply_search(ctx),
            InputOutcome::Changed => self.debounce(ctx),
            _ => Cmd::None,
        };
        Some(Step::cmd(cmd))
    }

    fn debounce(&mut self, ctx: &mut Ctx) -> Cmd {
        let id = ctx.requests.issue();
        Cmd::restart_timer(&mut self.search_timer, id, SEARCH_DEBOUNCE)
    }
}

impl ScreenState for IntegrationsTab {
    fn title(&self) -> String {
        "Integrations".to_string()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.list.loaded_once() || self.list.is_loading() {
            return Cmd::None;
        }
        self.load(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Integrations, KeyContext::Tabs, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "details"),
            (Action::Filter, "search"),
            (Action::IntegrationFilters, "filters"),
            (Action::PublishIntegration, "publish"),
            (Action::NextTab, "tab"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_publish_key(key, ctx) {
            return Some(step);
        }
        if let Some(mut popup) = self.popup.take() {
            match popup.handle_key(key) {
                PopupOutcome::Pending => self.popup = Some(popup),
                PopupOutcome::Cancel => {}
                PopupOutcome::Apply(filter) => {
                    let search = self.filter.search.clone();
                    self.filter = IntegrationFilter { search, ..filter };
                    return Some(Step::cmd(self.load(ctx)));
                }
            }
            return Some(Step::default());
        }
        self.on_search_key(key, ctx)
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        if !self.search.is_typing() {
            return Cmd::None;
        }
        self.search.paste(text);
        self.debounce(ctx)
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let page = ctx.size.height.saturating_sub(7).max(1) as isize;
        let len = self.list.items.len();
        if crate::screens::step::move_selection(&mut self.selection, action, len, page) {
            return Some(Step::cmd(self.more(ctx)));
        }
        match action {
            Action::Open => {
                let Some(integration) = self.selected() else {
                    return Some(Step::default());
                };
                Some(Step::push(Screen::Integration(Box::new(
                    IntegrationScreen::new(&integration.name),
                ))))
            }
            Action::Filter => {
                self.search.open();
                Some(Step::default())
            }
            Action::PublishIntegration => {
                self.ask_for_manifest();
                Some(Step::default())
            }
            Action::IntegrationFilters => {
                let domains = self.block_domains();
                let popup = FilterPopup::new(&self.filter, self.organization.clone(), domains);
                self.popup = Some(popup);
                Some(Step::default())
            }
            Action::Back if self.search.is_shown() => {
                self.search.clear();
                Some(Step::cmd(self.apply_search(ctx)))
            }
            _ => None,
        }
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Integrations(response) = response else {
            return None;
        };
        if let Some(step) = self.on_publish_answer(request, response, ctx) {
            return Some(step);
        }
        let IntegrationsResponse::List(result) = response else {
            return None;
        };
        if !self.list.settle(request, result.clone()) {
            return None;
        }
        self.selection.clamp(self.list.items.len());
        Some(Step::cmd(self.more(ctx)))
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if self.search_timer != Some(id) {
            return None;
        }
        Some(Step::cmd(self.apply_search(ctx)))
    }

    fn link(&self) -> Option<String> {
        self.selected()?.urls.app.clone()
    }

    fn messages(&self) -> Vec<Notice> {
        self.notice.iter().cloned().collect()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        super::tab_view::draw(self, frame, area, look);
    }
}

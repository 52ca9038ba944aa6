//! The first screen: organizations the token can see, paged lazily.

pub mod join;
mod view;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::models::Organization;
use crate::screens::look::Look;
use crate::screens::organization::Organization as OrganizationScreen;
use crate::screens::step::{Answered, Ctx, Step};
use crate::screens::{Screen, ScreenState};
use crate::ui::hit::Canvas;
use crate::ui::input::Filter;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd};

#[derive(Debug, Default)]
pub struct Organizations {
    pub list: PagedList<Organization>,
    pub selection: Selection,
    pub filter: Filter,
    /// Joining an organization by email domain (`J`).
    pub join: join::Join,
}

impl Organizations {
    /// Indices into `list.items` that pass the filter, in order.
    pub fn visible(&self) -> Vec<usize> {
        self.list
            .items
            .iter()
            .enumerate()
            .filter(|(_, org)| self.filter.matches(&org.title))
            .map(|(index, _)| index)
            .collect()
    }

    pub fn selected(&self) -> Option<&Organization> {
        self.visible()
            .get(self.selection.selected)
            .and_then(|index| self.list.items.get(*index))
    }

    fn load_first_page(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list
            .load_first(ctx.requests, ApiCall::ListOrganizations { page: None })
    }

    /// Fetches the next page when the selection nears the end of what is loaded.
    fn maybe_load_more(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| {
                next.ask(|page| ApiCall::ListOrganizations { page })
            })
    }

    /// True until a first page arrives: there is nothing to open or filter yet.
    fn nothing_listed(&self) -> bool {
        !self.list.loaded_once()
    }

    /// True when the server refused the token outright: joining would be refused the same way.
    fn token_refused(&self) -> bool {
        self.nothing_listed()
            && self
                .list
                .error
                .as_ref()
                .is_some_and(|error| error.is_unauthorized())
    }

    /// Actions that cannot do anything in the list's present state.
    fn useless_now(&self, action: Action) -> bool {
        match action {
            Action::Open | Action::Filter => self.nothing_listed(),
            Action::JoinOrganization => self.token_refused(),
            _ => false,
        }
    }

    fn page_height(ctx: &Ctx) -> isize {
        ctx.size.height.saturating_sub(4).max(1) as isize
    }
}

impl ScreenState for Organizations {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.join.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load_first_page(ctx)
    }

    fn title(&self) -> String {
        "Organizations".to_string()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::OrganizationList, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "open"),
            (Action::Filter, "filter"),
            (Action::Refresh, "refresh"),
            (Action::Help, "keys"),
            (Action::Quit, "quit"),
            (Action::JoinOrganization, "join"),
        ]
        .into_iter()
        .filter(|(action, _)| !self.useless_now(*action))
        .collect()
    }

    fn disabled_actions(&self) -> Vec<Action> {
        [Action::Open, Action::Filter, Action::JoinOrganization]
            .into_iter()
            .filter(|action| self.useless_now(*action))
            .collect()
    }

    fn disabled_reason(
        &self,
        action: Action,
        _now: chrono::DateTime<chrono::Utc>,
    ) -> Option<String> {
        if !self.useless_now(action) {
            return None;
        }
        Some(if self.token_refused() {
            "the server refused the token: set a valid one first".to_string()
        } else {
            "no organizations are listed yet".to_string()
        })
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        crate::ui::notice::on_key(&mut self.join.notice);
        if self.join.modal.is_some() {
            return Some(Step::cmd(self.join.on_key(key, ctx)));
        }
        self.filter.handle_key(key)?;
        self.selection.clamp(self.visible().len());
        Some(Step::default())
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        if self.join.paste(text) {
            return Cmd::None;
        }
        self.filter.paste(text);
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.visible().len();
        let page = Self::page_height(ctx);
        match action {
            _ if self.useless_now(action) => return Some(Step::default()),
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {}
            Action::Filter => {
                self.filter.open();
                return Some(Step::default());
            }
            Action::Back if crate::ui::notice::dismiss_error(&mut self.join.notice) => {
                return Some(Step::default());
            }
            Action::Back if self.filter.is_shown() => {
                self.filter.clear();
                return Some(Step::default());
            }
            Action::JoinOrganization => {
                self.join.open();
                return Some(Step::default());
            }
            Action::Open => {
                let organization = self.selected()?.clone();
                return Some(Step::push(Screen::Organization(OrganizationScreen::new(
                    organization,
                ))));
            }
            _ => return None,
        }
        Some(Step::cmd(self.maybe_load_more(ctx)))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        if let ApiResponse::OrgSettings(answer) = response {
            return match self.join.on_response(request, answer)? {
                join::JoinOutcome::Reload => Some(Step::cmd(self.load_first_page(ctx))),
                join::JoinOutcome::Nothing => Some(Step::default()),
            };
        }
        let ApiResponse::Organizations(result) = response else {
            return None;
        };
        if !self.list.settle_as(request, result.clone(), ctx.answer) {
            return None;
        }
        if let Some(joined) = self.join.name_joined(&self.list.items)
            && let Some(position) = self.visible().iter().position(|index| {
                self.list
                    .items
                    .get(*index)
                    .is_some_and(|org| org.id == joined)
            })
        {
            self.selection.selected = position;
        }
        self.selection.clamp(self.visible().len());
        Some(Step::cmd(self.maybe_load_more(ctx)))
    }

    fn link(&self) -> Option<String> {
        let urls = &self.selected()?.urls;
        urls.app.clone().or_else(|| urls.location.clone())
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

//! Change requests of a space or of a whole organization: status tabs (open, draft, merged,
//! archived; `S` picks several at once), "who" filters (created by me, review requested from
//! me, I contributed), a conversations issues cluster (`I`), lazy paging and `/` filter.
//! `Enter` opens the review; `N` creates a change request in the space.
//!
//! Several statuses of one space: the space's list takes one status, so the organization's
//! list (which takes several) is asked for that space (`space=<id>`), one request per page.

pub mod create;
mod pickers;
pub mod review;
mod view;

use std::collections::HashMap;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::models::{ChangeRequest, ChangeRequestStatus, IssuesCluster, Space, User};
use crate::api::{ChangeRequestFilter, WholeList};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::route::Route;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::input::Filter;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestScope, ChangeRequestsCall, ChangeRequestsResponse, Siblings,
};
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};
use create::InSpace;
use pickers::ListPicker;

pub const STATUSES: [ChangeRequestStatus; 4] = [
    ChangeRequestStatus::Open,
    ChangeRequestStatus::Draft,
    ChangeRequestStatus::Merged,
    ChangeRequestStatus::Archived,
];

/// Whose change requests to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Who {
    #[default]
    Everyone,
    CreatedByMe,
    ReviewRequested,
    Contributed,
}

impl Who {
    const ALL: [Who; 4] = [
        Who::Everyone,
        Who::CreatedByMe,
        Who::ReviewRequested,
        Who::Contributed,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Who::Everyone => "everyone",
            Who::CreatedByMe => "created by me",
            Who::ReviewRequested => "review requested from me",
            Who::Contributed => "I contributed",
        }
    }
}

#[derive(Debug)]
pub struct ChangeRequestList {
    pub scope: ChangeRequestScope,
    /// The space or organization, for the title.
    pub scope_title: String,
    /// The statuses shown, in tab order; never empty.
    pub statuses: Vec<ChangeRequestStatus>,
    pub who: Who,
    /// The organization a space's list belongs to, when known: several statuses and the
    /// clusters are asked of it.
    pub organization: Option<String>,
    /// Whether the space lets this user create change requests; None when not known.
    pub can_create: Option<bool>,
    /// Who the space says the user is ("reader"), for refusals.
    pub role: Option<String>,
    /// The cluster filter: (id, label).
    pub cluster: Option<(String, String)>,
    pub clusters: Loadable<WholeList<IssuesCluster>>,
    pub picker: Option<ListPicker>,
    /// The subject prompt of `N` and the list's notice.
    pub creation: InSpace,
    pub me: Loadable<User>,
    pub list: PagedList<ChangeRequest>,
    pub selection: Selection,
    pub filter: Filter,
    /// The space each change request belongs to, for organization-wide lists without one.
    fallback_space: Option<String>,
    /// Space titles by id, so an organization-wide list names each row's space.
    pub space_titles: HashMap<String, String>,
    /// The organization's spaces being read to name the rows' spaces (none were given).
    space_titles_request: Option<RequestId>,
    /// The change request to select once the list reloads (the one a review showed last).
    reselect: Option<String>,
    /// Watching: the next refresh, the rows before it, and what it brought (marked until seen).
    ticker: crate::vocabulary::watch::Ticker,
    watch_before: Option<Vec<ChangeRequest>>,
    pub fresh: std::collections::HashSet<String>,
}

impl ChangeRequestList {
    pub fn new(scope: ChangeRequestScope, scope_title: impl Into<String>) -> ChangeRequestList {
        let fallback_space = match &scope {
            ChangeRequestScope::Space(space) => Some(space.clone()),
            ChangeRequestScope::Organization(_) => None,
        };
        ChangeRequestList {
            scope,
            scope_title: scope_title.into(),
            statuses: vec![ChangeRequestStatus::Open],
            who: Who::Everyone,
            organization: None,
            can_create: None,
            role: None,
            cluster: None,
            clusters: Loadable::NotAsked,
            picker: None,
            creation: InSpace::default(),
            me: Loadable::NotAsked,
            list: PagedList::default(),
            selection: Selection::default(),
            filter: Filter::default(),
            fallback_space,
            space_titles: HashMap::new(),
            space_titles_request: None,
            reselect: None,
            ticker: crate::vocabulary::watch::Ticker::default(),
            watch_before: None,
            fresh: std::collections::HashSet::new(),
        }
    }

    /// The list of one space, knowing its organization and what the user may do there.
    pub fn for_space(space: &Space) -> ChangeRequestList {
        let mut list = ChangeRequestList::new(
            ChangeRequestScope::Space(space.id.clone()),
            space.title.clone(),
        );
        list.organization = space.organization.clone();
        list.can_create = Some(space.permissions.edit);
        list.role = Some(crate::screens::roles::space_role(space));
        list
    }

    /// The organization to ask for clusters and for several statuses of a space.
    pub fn organization_id(&self) -> Option<&str> {
        match &self.scope {
            ChangeRequestScope::Organization(organization) => Some(organization),
            ChangeRequestScope::Space(_) => self.organization.as_deref(),
        }
    }

    /// The first status shown (the one `s` moves on from).
    pub fn status(&self) -> &ChangeRequestStatus {
        self.statuses.first().unwrap_or(&STATUSES[0])
    }

    /// Several statuses can be asked for at once: always across an organization, for a space
    /// through its organization's list.
    pub fn takes_several_statuses(&self) -> bool {
        self.organization_id().is_some()
    }

    /// Whether rows come from several spaces and so need a space column.
    pub fn is_organization_wide(&self) -> bool {
        matches!(self.scope, ChangeRequestScope::Organization(_))
    }

    /// The space a row belongs to, by title when the organization's tree named it.
    pub fn space_label(&self, change_request: &ChangeRequest) -> String {
        let Some(space) = &change_request.space else {
            return String::new();
        };
        self.space_titles
            .get(space)
            .cloned()
            .unwrap_or_else(|| space.clone())
    }

    /// An organization-wide list opened without the space titles (from a cluster, or before
    /// the organization's tree came) reads the organization's spaces to name its rows' spaces.
    fn ask_space_titles(&mut self, ctx: &mut Ctx) -> Cmd {
        let ChangeRequestScope::Organization(organization) = &self.scope else {
            return Cmd::None;
        };
        if !self.space_titles.is_empty() || self.space_titles_request.is_some() {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.space_titles_request = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::OrganizationTree {
                organization: organization.clone(),
            },
        }
    }

    /// The organization's spaces came: their titles name the rows. Unread, the ids stay.
    fn on_space_titles(
        &mut self,
        request: RequestId,
        result: &Result<crate::vocabulary::OrganizationTree, crate::api::ApiError>,
        answer: crate::vocabulary::AnswerKind,
    ) -> Option<Step> {
        if self.space_titles_request != Some(request) {
            return None;
        }
        // Titles from the cache are kept until the server's answer to the same request.
        if !answer.is_provisional() {
            self.space_titles_request = None;
        }
        if let Ok(tree) = result {
            self.space_titles.extend(
                tree.spaces
                    .iter()
                    .map(|space| (space.id.clone(), space.title.clone())),
            );
        }
        Some(Step::default())
    }

    pub fn visible(&self) -> Vec<&ChangeRequest> {
        self.list
            .items
            .iter()
            .filter(|cr| {
                let number = cr.number.map(|n| format!("#{n} ")).unwrap_or_default();
                let space = self.space_label(cr);
                self.filter
                    .matches(&format!("{number}{} {space}", cr.subject))
            })
            .collect()
    }

    pub fn selected(&self) -> Option<&ChangeRequest> {
        self.visible().get(self.selection.selected).copied()
    }

    /// Where to ask and with which filter: a space's list with several statuses asks the
    /// organization's list for that space.
    fn request(&self) -> Option<(ChangeRequestScope, ChangeRequestFilter)> {
        let filter = self.server_filter()?;
        match (&self.scope, self.organization.as_ref()) {
            (ChangeRequestScope::Space(space), Some(organization)) if filter.statuses.len() > 1 => {
                let filter = ChangeRequestFilter {
                    space: Some(space.clone()),
                    ..filter
                };
                Some((
                    ChangeRequestScope::Organization(organization.clone()),
                    filter,
                ))
            }
            _ => Some((self.scope.clone(), filter)),
        }
    }

    fn server_filter(&self) -> Option<ChangeRequestFilter> {
        let me = self.me.value().map(|user| user.id.clone());
        let mut filter = ChangeRequestFilter {
            statuses: self.statuses.clone(),
            issues_cluster: self.cluster.as_ref().map(|(id, _)| id.clone()),
            ..ChangeRequestFilter::default()
        };
        match self.who {
            Who::Everyone => {}
            Who::CreatedByMe => filter.creator = Some(me?),
            Who::ReviewRequested => filter.requested_reviewer = Some(me?),
            Who::Contributed => filter.contributor = Some(me?),
        }
        Some(filter)
    }

    /// Loads the first page; asks who "me" is first when a filter needs it.
    pub fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some((scope, filter)) = self.request() else {
            return self.load_me(ctx);
        };
        self.selection.top();
        self.list
            .load_first(ctx.requests, list_call(scope, filter, None))
    }

    fn load_me(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.me.is_loading() {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.me.start(request);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::CurrentUser),
        }
    }

    fn load_more(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some((scope, filter)) = self.request() else {
            return Cmd::None;
        };
        self.list
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| {
                next.ask(|page| list_call(scope, filter, page))
            })
    }

    fn open_selected(&self) -> Option<Step> {
        let change_request = self.selected()?.clone();
        let target = self.target_of(&change_request)?;
        let items: Vec<_> = self
            .visible()
            .into_iter()
            .filter_map(|cr| Some((self.target_of(cr)?, cr.clone())))
            .collect();
        let index = items
            .iter()
            .position(|(item, _)| item.change_request == target.change_request)
            .unwrap_or(0);
        Some(Step::open(Route::Review {
            target,
            summary: Some(change_request),
            siblings: Some(Siblings { items, index }),
        }))
    }

    fn target_of(&self, change_request: &ChangeRequest) -> Option<ChangeRequestRef> {
        let space = change_request
            .space
            .clone()
            .or_else(|| self.fallback_space.clone())?;
        Some(ChangeRequestRef {
            space,
            change_request: change_request.id.clone(),
        })
    }
}

impl ScreenState for ChangeRequestList {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.creation.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        let list = self.load(ctx);
        Cmd::batch([list, self.ask_space_titles(ctx)])
    }

    /// Coming back from a review (which may have merged or archived something): reload,
    /// keeping the change request the review showed last selected.
    fn resumed(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.reselect.is_none() {
            self.reselect = self.selected().map(|cr| cr.id.clone());
        }
        self.load(ctx)
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        if !self.ticker.fired(id) {
            return None;
        }
        // Only a calm refresh: not while a page or a filter is being typed or loaded.
        if self.list.is_loading() || self.filter.is_typing() {
            return Some(Step::cmd(self.ticker.arm(ctx)));
        }
        self.watch_before = Some(self.list.items.clone());
        self.reselect = self.selected().map(|cr| cr.id.clone());
        Some(Step::cmd(self.load(ctx)))
    }

    fn hasten_watch(&mut self, ctx: &mut Ctx) -> Cmd {
        self.ticker.hasten(ctx)
    }

    fn watchable(&self) -> Option<crate::screens::Watchable> {
        let change_request = self.selected()?;
        let space = change_request
            .space
            .as_ref()
            .or(self.fallback_space.as_ref())?;
        Some(crate::screens::Watchable::of(space, change_request))
    }

    fn reveal_change_request(&mut self, id: &str) {
        self.reselect = Some(id.to_string());
        if let Some(position) = self.visible().iter().position(|cr| cr.id == id) {
            self.selection.selected = position;
        }
    }

    /// The space's own list names the space; the organization's is a tab of its screen.
    fn title(&self) -> String {
        match &self.scope {
            ChangeRequestScope::Space(_) if !self.scope_title.is_empty() => {
                format!("Change requests · {}", self.scope_title)
            }
            _ => "Change requests".to_string(),
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::ChangeRequests, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "review"),
            (Action::StatusPicker, "statuses"),
            (Action::IssueCluster, "cluster"),
            (Action::NewChangeRequest, "new"),
            (Action::CycleWho, "whose"),
            (Action::Filter, "filter"),
            (Action::CycleStatus, "next status"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn disabled_actions(&self) -> Vec<Action> {
        let mut disabled = Vec::new();
        if self.new_change_request_refusal().is_some() {
            disabled.push(Action::NewChangeRequest);
        }
        if self.organization_id().is_none() {
            disabled.push(Action::IssueCluster);
        }
        disabled
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.creation.on_raw_key(key, ctx) {
            return Some(step);
        }
        if let Some(step) = self.on_picker_key(key, ctx) {
            return Some(step);
        }
        self.filter.handle_key(key)?;
        self.selection.clamp(self.visible().len());
        Some(Step::default())
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        if let Some(keep) = self.creation.on_paste(text) {
            return keep;
        }
        self.filter.paste(text);
        Cmd::None
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        self.creation.on_drafts(prefix, drafts);
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.visible().len();
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {
                self.mark_seen();
            }
            Action::Open => return self.open_selected(),
            Action::CycleStatus => {
                let index = STATUSES
                    .iter()
                    .position(|s| s == self.status())
                    .unwrap_or(0);
                self.statuses = vec![STATUSES[(index + 1) % STATUSES.len()].clone()];
                return Some(Step::cmd(self.load(ctx)));
            }
            Action::StatusPicker => {
                self.open_status_picker();
                return Some(Step::default());
            }
            Action::IssueCluster => return Some(Step::cmd(self.open_cluster_picker(ctx))),
            Action::NewChangeRequest => {
                return Some(Step::cmd(self.start_new_change_request()));
            }
            Action::CycleWho => {
                let index = Who::ALL.iter().position(|w| *w == self.who).unwrap_or(0);
                self.who = Who::ALL[(index + 1) % Who::ALL.len()];
                return Some(Step::cmd(self.load(ctx)));
            }
            Action::Filter => {
                self.filter.open();
                return Some(Step::default());
            }
            Action::Back if self.filter.is_shown() => {
                self.filter.clear();
                return Some(Step::default());
            }
            _ => return None,
        }
        Some(Step::cmd(self.load_more(ctx)))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.creation.on_response(request, response) {
            return Some(step);
        }
        if let Some(step) = self.on_clusters(request, response, ctx) {
            return Some(step);
        }
        if let ApiResponse::OrganizationTree(result) = response {
            return self.on_space_titles(request, result, ctx.answer);
        }
        let ApiResponse::ChangeRequests(response) = response else {
            return None;
        };
        match response {
            ChangeRequestsResponse::CurrentUser(result) => {
                if !self.me.settle(request, result.clone()) {
                    return None;
                }
                // Now the "who" filter can be sent.
                let cmd = if self.me.value().is_some() {
                    self.load(ctx)
                } else {
                    Cmd::None
                };
                Some(Step::cmd(cmd))
            }
            ChangeRequestsResponse::ChangeRequests(result) => {
                if !self.list.settle_as(request, result.clone(), ctx.answer) {
                    return None;
                }
                if let Some(id) = self.reselect.take()
                    && let Some(position) = self.visible().iter().position(|cr| cr.id == id)
                {
                    self.selection.selected = position;
                }
                self.selection.clamp(self.visible().len());
                let watch = self.after_watched_load(ctx);
                Some(Step::cmd(Cmd::batch([self.load_more(ctx), watch])))
            }
            _ => None,
        }
    }

    fn link(&self) -> Option<String> {
        let urls = &self.selected()?.urls;
        urls.app.clone().or_else(|| urls.location.clone())
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

impl ChangeRequestList {
    /// After the first page came: a load the watch started marks rows new or updated since
    /// the one before; the next refresh is set either way (when watching is on).
    fn after_watched_load(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.list.is_loading() {
            return Cmd::None;
        }
        if let Some(before) = self.watch_before.take() {
            let fresh = crate::vocabulary::watch::fresh_change_requests(&before, &self.list.items);
            self.fresh.extend(fresh);
            self.mark_seen();
        }
        self.ticker.arm(ctx)
    }

    /// The selected row has been seen: its mark goes.
    fn mark_seen(&mut self) {
        if let Some(id) = self.selected().map(|cr| cr.id.clone()) {
            self.fresh.remove(&id);
        }
    }

    pub fn is_fresh(&self, id: &str) -> bool {
        self.fresh.contains(id)
    }
}

fn list_call(
    scope: ChangeRequestScope,
    filter: ChangeRequestFilter,
    page: Option<String>,
) -> ApiCall {
    ApiCall::ChangeRequests(ChangeRequestsCall::ListChangeRequests {
        scope,
        filter,
        page,
    })
}

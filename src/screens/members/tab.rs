//! The organization's Members tab: the list with the server's filters (search as you type,
//! role, sort and order), a member's details (their spaces and teams), and the admin's
//! changes: role, SSO membership, removal, each asked first and naming the person (those
//! are in `changes.rs`).

use std::ops::ControlFlow;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use super::changes::{Change, Modal, TeamsTitle};
use crate::api::models::{Member, Organization};
use crate::api::{MemberFilter, MemberRole, MemberRoleFilter, MemberSortKey, SortOrder};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::organization::pane::notice_modal_esc;
use crate::screens::organization::server_filter::ServerFilter;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::Notice;
use crate::ui::prompt::Prompt;
use crate::vocabulary::members::{MemberDetails, MembersCall, MembersResponse};
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

/// The role filter's cycle: every role, then guests, then everyone again.
const ROLE_CYCLE: [MemberRoleFilter; 7] = [
    MemberRoleFilter::Role(MemberRole::Admin),
    MemberRoleFilter::Role(MemberRole::Create),
    MemberRoleFilter::Role(MemberRole::Edit),
    MemberRoleFilter::Role(MemberRole::Review),
    MemberRoleFilter::Role(MemberRole::Comment),
    MemberRoleFilter::Role(MemberRole::Read),
    MemberRoleFilter::Guest,
];

/// The roles a member can be given, most powerful first; `None` is a guest.
pub const ROLE_CHOICES: [(Option<MemberRole>, &str); 7] = [
    (
        Some(MemberRole::Admin),
        "administrate content: create and delete spaces",
    ),
    (Some(MemberRole::Create), "create content"),
    (
        Some(MemberRole::Edit),
        "edit live content or change requests",
    ),
    (Some(MemberRole::Review), "review content"),
    (Some(MemberRole::Comment), "access content and discussions"),
    (Some(MemberRole::Read), "access content, no updates"),
    (None, "no organization role: only what is shared with them"),
];

/// A role as people read it: `null` is "guest".
pub fn role_name(role: Option<&MemberRole>) -> String {
    role.map_or_else(|| "guest".to_string(), |role| role.to_string())
}

/// The role after `current`; `None` (everyone) after the last.
pub fn next_role(current: Option<&MemberRoleFilter>) -> Option<MemberRoleFilter> {
    let Some(current) = current else {
        return Some(ROLE_CYCLE[0].clone());
    };
    let position = ROLE_CYCLE.iter().position(|role| role == current)?;
    ROLE_CYCLE.get(position + 1).cloned()
}

/// Joined newest first (the server's default), joined oldest first, last seen most recent
/// first, last seen longest ago first, then back to the default (nothing sent).
pub fn cycle_sort(filter: &mut MemberFilter) {
    use MemberSortKey::{JoinedAt, LastSeenAt};
    use SortOrder::{Ascending, Descending};
    let next = match (&filter.sort, &filter.order) {
        (None | Some(JoinedAt), None | Some(Descending)) => Some((JoinedAt, Ascending)),
        (None | Some(JoinedAt), Some(Ascending)) => Some((LastSeenAt, Descending)),
        (Some(LastSeenAt), None | Some(Descending)) => Some((LastSeenAt, Ascending)),
        _ => None,
    };
    (filter.sort, filter.order) =
        next.map_or((None, None), |(sort, order)| (Some(sort), Some(order)));
}

/// "joined, newest first" and the like, for the line above the list. Sorting by last seen
/// says that it lists active members only (the service leaves out who was never seen).
pub fn sort_label(filter: &MemberFilter) -> &'static str {
    let last_seen = filter.sort == Some(MemberSortKey::LastSeenAt);
    let ascending = filter.order == Some(SortOrder::Ascending);
    match (last_seen, ascending) {
        (false, false) => "joined, newest first",
        (false, true) => "joined, oldest first",
        (true, false) => "last seen, most recent first (active members only)",
        (true, true) => "last seen, longest ago first (active members only)",
    }
}

/// The filters in force, for the line above the list: `sort: joined, newest first`, `role
/// admin`, `search "ada"`. The sort comes first and gives way last, so that "active members
/// only" is never lost.
pub fn summary_parts(filter: &MemberFilter) -> Vec<String> {
    let mut parts = vec![format!("sort: {}", sort_label(filter))];
    match &filter.role {
        Some(role) => parts.push(format!("role {role}")),
        None => parts.push("every role".to_string()),
    }
    if let Some(search) = &filter.search {
        parts.push(format!("search \"{search}\""));
    }
    parts
}

/// One member's details, opened with enter.
#[derive(Debug, Clone, PartialEq)]
pub struct Details {
    pub member: Member,
    pub loaded: Loadable<MemberDetails>,
    pub scroll: u16,
    /// `O`: their spaces oldest first (the server's `order`).
    pub oldest_first: bool,
    /// `/`: only their teams whose title holds this (the server's `title`).
    pub teams_title: Option<String>,
}

#[derive(Debug)]
pub struct MembersTab {
    pub organization: String,
    /// The caller administers the organization: the changes are theirs to make.
    pub can_admin: bool,
    pub list: PagedList<Member>,
    pub selection: Selection,
    /// What is typed as the search; it narrows the loaded rows at once and goes to the
    /// server as `search` once typing pauses.
    pub filter: ServerFilter,
    /// The server filters the list was requested with.
    pub query: MemberFilter,
    pub details: Option<Details>,
    pub modal: Option<Modal>,
    /// The change in flight: its request, the member and what changes.
    pub(super) sending: Option<(RequestId, Member, Change)>,
    pub notice: Option<Notice>,
}

pub fn new(organization: &Organization) -> MembersTab {
    MembersTab {
        organization: organization.id.clone(),
        can_admin: organization.permissions.admin,
        list: PagedList::default(),
        selection: Selection::default(),
        filter: ServerFilter::default(),
        query: MemberFilter::default(),
        details: None,
        modal: None,
        sending: None,
        notice: None,
    }
}

impl MembersTab {
    /// The loaded members that match what is typed now.
    pub fn visible(&self) -> Vec<&Member> {
        self.list
            .items
            .iter()
            .filter(|member| {
                let name = member.user.display_name.as_str();
                let email = member.user.email.as_deref().unwrap_or("");
                self.filter.input.matches(&format!("{name} {email}"))
            })
            .collect()
    }

    pub fn selected(&self) -> Option<&Member> {
        self.visible().get(self.selection.selected).copied()
    }

    pub fn is_sending(&self) -> bool {
        self.sending.is_some()
    }

    fn list_call(&self, page: Option<String>) -> ApiCall {
        ApiCall::Members(MembersCall::List {
            organization: self.organization.clone(),
            filter: self.query.clone(),
            page,
        })
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list.load_first(ctx.requests, self.list_call(None))
    }

    pub(super) fn more(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| next.ask(|page| self.list_call(page)))
    }

    /// A changed server filter: the list starts over from its first page, at the top.
    fn reload(&mut self, ctx: &mut Ctx) -> Cmd {
        self.selection.top();
        self.load(ctx)
    }

    /// Sends the typed text as `search` when it differs from the one in force.
    fn apply_search(&mut self, ctx: &mut Ctx) -> Cmd {
        let wanted = self.filter.take_wanted();
        if wanted == self.query.search {
            return Cmd::None;
        }
        self.query.search = wanted;
        self.reload(ctx)
    }

    fn open_details(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(member) = self.selected().cloned() else {
            return Cmd::None;
        };
        let request = ctx.requests.issue();
        let mut loaded = Loadable::NotAsked;
        loaded.start(request);
        let user = member.id.clone();
        self.details = Some(Details {
            member,
            loaded,
            scroll: 0,
            oldest_first: false,
            teams_title: None,
        });
        Cmd::Api {
            request,
            call: ApiCall::Members(MembersCall::Details {
                organization: self.organization.clone(),
                user,
                oldest_first: false,
                teams_title: None,
            }),
        }
    }

    fn on_details_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let details = self.details.as_mut()?;
        match action {
            Action::Back => self.details = None,
            Action::MemberSpacesOrder => {
                details.oldest_first = !details.oldest_first;
                return Some(Step::cmd(self.open_details_again(ctx)));
            }
            Action::Filter => {
                let title = details.teams_title.clone().unwrap_or_default();
                let prompt = Prompt::new(
                    "Their teams titled",
                    "part of a team's title; empty shows all",
                    &title,
                    TeamsTitle,
                );
                self.modal = Some(Modal::TeamsTitle(prompt));
            }
            Action::Down => details.scroll = details.scroll.saturating_add(1),
            Action::Up => details.scroll = details.scroll.saturating_sub(1),
            Action::Top => details.scroll = 0,
            Action::ChangeRole | Action::MakeSsoMember | Action::Delete | Action::Refresh => {
                return None;
            }
            _ => {}
        }
        Some(Step::default())
    }
}

impl ScreenState for MembersTab {
    fn title(&self) -> String {
        "Members".to_string()
    }

    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.list.loaded_once() || self.list.is_loading() {
            return Cmd::None;
        }
        self.load(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        let details = self.details.is_some().then(|| self.open_details_again(ctx));
        Cmd::batch([self.load(ctx), details.unwrap_or_default()])
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Tabs, KeyContext::Members, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        if self.details.is_some() {
            return vec![
                (Action::ChangeRole, "role"),
                (Action::MakeSsoMember, "SSO"),
                (Action::Delete, "remove"),
                (Action::MemberSpacesOrder, "order"),
                (Action::Filter, "teams"),
                (Action::Back, "back"),
                (Action::Help, "keys"),
            ];
        }
        vec![
            (Action::Filter, "search"),
            (Action::Open, "details"),
            (Action::RoleFilter, "role shown"),
            (Action::MemberSort, "sort"),
            (Action::ChangeRole, "role"),
            (Action::MakeSsoMember, "SSO"),
            (Action::Delete, "remove"),
            (Action::NextTab, "tab"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let modal = |tab: &mut Self| tab.modal.is_some().then(|| tab.on_modal_key(key, ctx));
        if let ControlFlow::Break(answer) =
            notice_modal_esc(self, key, |tab| &mut tab.notice, modal)
        {
            return answer;
        }
        let cmd = self
            .filter
            .on_key(key, ctx)?
            .then(|| self.apply_search(ctx));
        self.selection.clamp(self.visible().len());
        Some(Step::cmd(cmd))
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        self.filter.paste(text, ctx)
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_details_action(action, ctx) {
            return Some(step);
        }
        if let Some(step) = self.on_change_action(action) {
            return Some(step);
        }
        let len = self.visible().len();
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {}
            Action::Open => return Some(Step::cmd(self.open_details(ctx))),
            Action::Filter => {
                self.filter.input.open();
                return Some(Step::default());
            }
            Action::Back if self.filter.input.is_shown() => {
                self.filter.input.clear();
                return Some(Step::cmd(self.apply_search(ctx)));
            }
            Action::RoleFilter => {
                self.query.role = next_role(self.query.role.as_ref());
                return Some(Step::cmd(self.reload(ctx)));
            }
            Action::MemberSort => {
                cycle_sort(&mut self.query);
                return Some(Step::cmd(self.reload(ctx)));
            }
            _ => return None,
        }
        Some(Step::cmd(self.more(ctx)))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        match response {
            ApiResponse::Members(MembersResponse::List(result)) => {
                if !self.list.settle(request, result.clone()) {
                    return None;
                }
                self.selection.clamp(self.visible().len());
                Some(Step::cmd(self.more(ctx)))
            }
            ApiResponse::Members(MembersResponse::Details(result)) => {
                let details = self.details.as_mut()?;
                details
                    .loaded
                    .settle(request, result.clone())
                    .then(Step::default)
            }
            ApiResponse::Members(answer) => {
                if self.sending.as_ref().map(|(id, ..)| *id) != Some(request) {
                    return None;
                }
                Some(Step::cmd(self.on_change_answer(answer, ctx)))
            }
            _ => None,
        }
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        let due = self.filter.is_due(id);
        due.then(|| Step::cmd(self.apply_search(ctx)))
    }

    fn disabled_actions(&self) -> Vec<Action> {
        if self.can_admin {
            return Vec::new();
        }
        vec![Action::ChangeRole, Action::MakeSsoMember, Action::Delete]
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        super::view::draw(self, frame, area, look);
    }
}

impl MembersTab {
    fn open_details_again(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(details) = self.details.as_mut() else {
            return Cmd::None;
        };
        let request = ctx.requests.issue();
        details.loaded.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Members(MembersCall::Details {
                organization: self.organization.clone(),
                user: details.member.id.clone(),
                oldest_first: details.oldest_first,
                teams_title: details.teams_title.clone(),
            }),
        }
    }

    /// The teams prompt answered: their teams read again, narrowed to `title` (all when empty).
    pub(super) fn narrow_teams(&mut self, title: String, ctx: &mut Ctx) -> Cmd {
        let Some(details) = self.details.as_mut() else {
            return Cmd::None;
        };
        details.teams_title = Some(title).filter(|title| !title.is_empty());
        self.open_details_again(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_cycle_through_guest_back_to_everyone() {
        let mut role = None;
        let mut seen = Vec::new();
        for _ in 0..8 {
            role = next_role(role.as_ref());
            seen.push(
                role.as_ref()
                    .map_or("all", |role| role.as_str())
                    .to_string(),
            );
        }
        assert_eq!(
            seen,
            [
                "admin", "create", "edit", "review", "comment", "read", "guest", "all"
            ]
        );
    }

    #[test]
    fn sort_cycles_through_four_orders_and_back_to_the_default() {
        let mut filter = MemberFilter::default();
        let mut labels = Vec::new();
        for _ in 0..4 {
            cycle_sort(&mut filter);
            labels.push(sort_label(&filter));
        }
        assert_eq!(
            labels,
            [
                "joined, oldest first",
                "last seen, most recent first (active members only)",
                "last seen, longest ago first (active members only)",
                "joined, newest first"
            ]
        );
        assert_eq!(filter, MemberFilter::default());
    }
}

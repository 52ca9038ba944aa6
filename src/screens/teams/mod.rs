//! A team's members (enter on the Teams tab): each with their team role. Those who may manage
//! the team (organization admins, the team's owners) add one member, remove one (asked
//! first), change a role, or mark rows with space and bulk edit: pick members to add, and one
//! `PUT` adds them and removes the marked ones. The confirmation lists both and says that
//! someone both added and removed ends up removed (the service's rule).
//!
//! The organization's Teams tab, the list these are opened from, is [`tab`].

pub mod new_team;
pub mod tab;
pub mod view;

pub use tab::TeamsTab;

use std::collections::BTreeSet;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use crate::api::TeamMembersUpdate;
use crate::api::error::server_message;
use crate::api::models::{Member, Team, TeamMember, TeamRole};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::teams::{PickableMembers, TeamsCall, TeamsResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

/// Picker options for organization members: the name, the email and a note (e.g. "in the
/// team"); the value is the member's id.
pub fn member_options(
    members: &[Member],
    note: impl Fn(&Member) -> Option<&'static str>,
) -> Vec<PickOption> {
    members
        .iter()
        .map(|member| {
            let email = member.user.email.clone().unwrap_or_default();
            let detail = match note(member) {
                Some(note) => format!("{email} · {note}"),
                None => email,
            };
            PickOption {
                value: member.id.clone(),
                label: member.name().to_string(),
                detail,
            }
        })
        .collect()
}

/// Asks for the organization's members (for a picker) unless they are known or on the way.
pub fn load_pickable(
    pickable: &mut Loadable<PickableMembers>,
    organization: &str,
    ctx: &mut Ctx,
) -> Cmd {
    if pickable.value().is_some() || pickable.is_loading() {
        return Cmd::None;
    }
    let request = ctx.requests.issue();
    pickable.start(request);
    Cmd::Api {
        request,
        call: ApiCall::Teams(TeamsCall::Pickable {
            organization: organization.to_string(),
        }),
    }
}

/// Takes the answer to [`load_pickable`]: `None` when it is not ours, `Some(Err(words))` when
/// the members could not be read (they will be asked again next time).
pub fn settle_pickable(
    pickable: &mut Loadable<PickableMembers>,
    request: RequestId,
    result: &Result<PickableMembers, crate::api::ApiError>,
) -> Option<Result<(), String>> {
    if !pickable.settle(request, result.clone()) {
        return None;
    }
    let Some(error) = pickable.error() else {
        return Some(Ok(()));
    };
    let words = format!(
        "Could not list the members to pick from: {}",
        server_message(error)
    );
    *pickable = Loadable::NotAsked;
    Some(Err(words))
}

/// A member picker's title, saying when the organization's list was too long to read whole.
pub fn picker_title(title: String, pickable: &PickableMembers) -> String {
    if pickable.cut_short {
        format!("{title} — first {} members only", pickable.members.len())
    } else {
        title
    }
}

/// What a picker was opened for.
#[derive(Debug, Clone, PartialEq)]
pub enum PickFor {
    Add,
    Bulk,
    Role(Box<TeamMember>),
}

/// A change waiting for its yes.
#[derive(Debug, Clone, PartialEq)]
pub enum Confirmed {
    Remove(Box<TeamMember>),
    Bulk(TeamMembersUpdate),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Modal {
    Pick(Picker<PickFor>),
    /// The organization's members are being read before the picker can open.
    WaitingForMembers(PickFor),
    Confirm(Confirm, Confirmed),
}

#[derive(Debug)]
pub struct TeamScreen {
    pub organization: String,
    pub organization_title: String,
    pub team: Team,
    pub list: PagedList<TeamMember>,
    pub selection: Selection,
    /// Ids of the members marked for removal in a bulk edit.
    pub marked: BTreeSet<String>,
    pub pickable: Loadable<PickableMembers>,
    pub modal: Option<Modal>,
    /// The change in flight and what to say when it went through.
    sending: Option<(RequestId, String)>,
    pub notice: Option<Notice>,
    /// The team read alone by `r`: its title, counts and what the user may do in it.
    team_read: Option<RequestId>,
}

impl TeamScreen {
    pub fn new(organization: &str, organization_title: &str, team: Team) -> TeamScreen {
        TeamScreen {
            organization: organization.to_string(),
            organization_title: organization_title.to_string(),
            team,
            list: PagedList::default(),
            selection: Selection::default(),
            marked: BTreeSet::new(),
            pickable: Loadable::NotAsked,
            modal: None,
            sending: None,
            notice: None,
            team_read: None,
        }
    }

    pub fn can_manage(&self) -> bool {
        self.team.permissions.admin
    }

    pub fn is_sending(&self) -> bool {
        self.sending.is_some()
    }

    pub fn selected(&self) -> Option<&TeamMember> {
        self.list.items.get(self.selection.selected)
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list.load_first(ctx.requests, self.members_call(None))
    }

    fn members_call(&self, page: Option<String>) -> ApiCall {
        ApiCall::Teams(TeamsCall::Members {
            organization: self.organization.clone(),
            team: self.team.id.clone(),
            page,
        })
    }

    fn more(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| next.ask(|page| self.members_call(page)))
    }

    fn name_of(&self, id: &str) -> String {
        let known = self
            .list
            .items
            .iter()
            .map(|entry| &entry.organization)
            .chain(self.pickable.value().into_iter().flat_map(|p| &p.members))
            .find(|member| member.id == id);
        known.map_or_else(|| id.to_string(), |member| member.name().to_string())
    }

    fn in_team(&self, id: &str) -> bool {
        self.list
            .items
            .iter()
            .any(|entry| entry.organization.id == id)
    }

    /// Opens the picker for `purpose`, reading the organization's members first if needed.
    fn open_picker(&mut self, purpose: PickFor, ctx: &mut Ctx) -> Cmd {
        if let PickFor::Role(entry) = &purpose {
            let options = [TeamRole::Owner, TeamRole::Member]
                .into_iter()
                .map(|role| PickOption {
                    value: role.as_str().to_string(),
                    label: role.as_str().to_string(),
                    detail: match role {
                        TeamRole::Owner => "manages the team's members".to_string(),
                        _ => "belongs to the team".to_string(),
                    },
                })
                .collect();
            let current = entry
                .team
                .role
                .as_ref()
                .map(|role| role.as_str().to_string());
            let title = format!("Team role of {}", entry.organization.name());
            self.modal = Some(Modal::Pick(
                Picker::new(&title, options, purpose).at(current.as_deref()),
            ));
            return Cmd::None;
        }
        let Some(pickable) = self.pickable.value() else {
            self.modal = Some(Modal::WaitingForMembers(purpose));
            return load_pickable(&mut self.pickable, &self.organization, ctx);
        };
        let members = pickable.members.clone();
        let picker = match purpose {
            PickFor::Add => {
                let outside: Vec<Member> = members
                    .into_iter()
                    .filter(|member| !self.in_team(&member.id))
                    .collect();
                let title = picker_title(format!("Add to “{}”", self.team.title), pickable);
                Picker::new(&title, member_options(&outside, |_| None), PickFor::Add)
            }
            _ => {
                let options = member_options(&members, |member| {
                    self.in_team(&member.id).then_some("in the team")
                });
                let title = format!(
                    "Add to “{}” (space marks, enter continues; {} marked for removal)",
                    self.team.title,
                    self.marked.len()
                );
                let title = picker_title(title, pickable);
                Picker::new(&title, options, PickFor::Bulk).multiple()
            }
        };
        self.modal = Some(Modal::Pick(picker));
        Cmd::None
    }

    fn send(&mut self, call: TeamsCall, done: String, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.sending = Some((request, done));
        Cmd::Api {
            request,
            call: ApiCall::Teams(call),
        }
    }

    fn picked(&mut self, purpose: PickFor, values: Vec<String>, ctx: &mut Ctx) -> Cmd {
        let organization = self.organization.clone();
        let team = self.team.id.clone();
        match purpose {
            PickFor::Add => {
                let Some(user) = values.into_iter().next() else {
                    return Cmd::None;
                };
                let done = format!("Added {} to “{}”", self.name_of(&user), self.team.title);
                let call = TeamsCall::SetMember {
                    organization,
                    team,
                    user,
                    role: Some(TeamRole::Member),
                };
                self.send(call, done, ctx)
            }
            PickFor::Role(entry) => {
                let role = TeamRole::from(values.first().map_or("member", String::as_str));
                if entry.team.role.as_ref() == Some(&role) {
                    return Cmd::None;
                }
                let done = format!("{} is now {role} of the team", entry.organization.name());
                let call = TeamsCall::SetMember {
                    organization,
                    team,
                    user: entry.organization.id.clone(),
                    role: Some(role),
                };
                self.send(call, done, ctx)
            }
            PickFor::Bulk => {
                let update = TeamMembersUpdate {
                    add: values,
                    remove: self.marked.iter().cloned().collect(),
                    ..TeamMembersUpdate::default()
                };
                if update.add.is_empty() && update.remove.is_empty() {
                    self.notice = Some(Notice::info(
                        "nothing to change: pick members to add or mark rows (space) to remove",
                    ));
                    return Cmd::None;
                }
                self.modal = Some(Modal::Confirm(
                    self.bulk_confirm(&update),
                    Confirmed::Bulk(update),
                ));
                Cmd::None
            }
        }
    }

    /// Who is added, who is removed, and the rule for those in both.
    pub fn bulk_confirm(&self, update: &TeamMembersUpdate) -> Confirm {
        let names = |ids: &[String]| {
            if ids.is_empty() {
                "nobody".to_string()
            } else {
                ids.iter()
                    .map(|id| self.name_of(id))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let both: Vec<String> = update
            .add
            .iter()
            .filter(|id| update.remove.contains(id))
            .cloned()
            .collect();
        let mut consequence = format!(
            "Added: {}. Removed: {}.",
            names(&update.add),
            names(&update.remove)
        );
        consequence.push_str(&match both.as_slice() {
            [] => " Someone both added and removed would end up removed.".to_string(),
            _ => format!(
                " {} both added and removed: they end up removed.",
                names(&both)
            ),
        });
        Confirm::new(
            format!("Change the members of “{}”?", self.team.title),
            consequence,
            "apply",
        )
    }

    fn on_modal_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let modal = self.modal.take()?;
        let cmd = match modal {
            Modal::Pick(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => self.picked(picker.purpose, values, ctx),
                PickOutcome::Cancelled => Cmd::None,
                PickOutcome::Pending => {
                    self.modal = Some(Modal::Pick(picker));
                    Cmd::None
                }
            },
            Modal::WaitingForMembers(purpose) => {
                if key.code != KeyCode::Esc {
                    self.modal = Some(Modal::WaitingForMembers(purpose));
                }
                Cmd::None
            }
            Modal::Confirm(confirm, confirmed) => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => self.confirmed(confirmed, ctx),
                ConfirmOutcome::Cancelled => Cmd::None,
                ConfirmOutcome::Ignored => {
                    self.modal = Some(Modal::Confirm(confirm, confirmed));
                    Cmd::None
                }
            },
        };
        Some(Step::cmd(cmd))
    }

    fn confirmed(&mut self, confirmed: Confirmed, ctx: &mut Ctx) -> Cmd {
        let organization = self.organization.clone();
        let team = self.team.id.clone();
        match confirmed {
            Confirmed::Remove(entry) => {
                let done = format!(
                    "Removed {} from “{}”",
                    entry.organization.name(),
                    self.team.title
                );
                let call = TeamsCall::RemoveMember {
                    organization,
                    team,
                    user: entry.organization.id.clone(),
                };
                self.send(call, done, ctx)
            }
            Confirmed::Bulk(update) => {
                let done = format!(
                    "Changed the members of “{}”: {} added, {} removed",
                    self.team.title,
                    update
                        .add
                        .iter()
                        .filter(|id| !update.remove.contains(id))
                        .count(),
                    update.remove.len()
                );
                self.send(
                    TeamsCall::UpdateMembers {
                        organization,
                        team,
                        update,
                    },
                    done,
                    ctx,
                )
            }
        }
    }

    /// The manager's actions: refused in words when the team's permissions say no.
    fn on_change_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if !matches!(
            action,
            Action::AddTeamMember | Action::ChangeRole | Action::Delete | Action::BulkEdit
        ) {
            return None;
        }
        if !self.can_manage() {
            self.notice = Some(Notice::error(
                "Changing this team's members needs the admin role in the organization or the \
                 owner role in the team",
            ));
            return Some(Step::default());
        }
        if self.sending.is_some() {
            self.notice = Some(Notice::info("still sending the last change…"));
            return Some(Step::default());
        }
        let selected = self.selected().cloned().map(Box::new);
        let cmd = match (action, selected) {
            (Action::AddTeamMember, _) => self.open_picker(PickFor::Add, ctx),
            (Action::BulkEdit, _) => self.open_picker(PickFor::Bulk, ctx),
            (Action::ChangeRole, Some(entry)) => self.open_picker(PickFor::Role(entry), ctx),
            (Action::Delete, Some(entry)) => {
                let confirm = Confirm::new(
                    format!(
                        "Remove {} from “{}”?",
                        entry.organization.name(),
                        self.team.title
                    ),
                    "They stay in the organization; they lose what the team gave them access to.",
                    "remove",
                );
                self.modal = Some(Modal::Confirm(confirm, Confirmed::Remove(entry)));
                Cmd::None
            }
            _ => {
                self.notice = Some(Notice::info("no member selected"));
                Cmd::None
            }
        };
        Some(Step::cmd(cmd))
    }

    fn on_answer(&mut self, result: &Result<(), crate::api::ApiError>, ctx: &mut Ctx) -> Cmd {
        let Some((_, done)) = self.sending.take() else {
            return Cmd::None;
        };
        match result {
            Ok(()) => {
                // listed; the screen's own keys change it back.
                ctx.action_log
                    .record(crate::vocabulary::action_log::PendingEntry::new(
                        crate::ui::sanitize::sanitize(&done).into_owned(),
                        "team members",
                        crate::vocabulary::action_log::Undo::impossible(
                            "change the team's members back on its screen (a, e, d)",
                        ),
                    ));
                self.notice = Some(Notice::info(done));
                self.marked.clear();
                self.load(ctx)
            }
            Err(error) => {
                self.notice = Some(Notice::error(format!(
                    "Not changed: {}",
                    server_message(error)
                )));
                Cmd::None
            }
        }
    }
}

impl ScreenState for TeamScreen {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.team_read = Some(request);
        let team = Cmd::Api {
            request,
            call: ApiCall::Teams(TeamsCall::Get {
                organization: self.organization.clone(),
                team: self.team.id.clone(),
            }),
        };
        Cmd::batch([team, self.load(ctx)])
    }

    fn title(&self) -> String {
        format!("Team {}", self.team.title)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::TeamMembers, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::AddTeamMember, "add"),
            (Action::Delete, "remove"),
            (Action::ChangeRole, "role"),
            (Action::Mark, "mark"),
            (Action::BulkEdit, "bulk edit"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        if self.modal.is_some() {
            return self.on_modal_key(key, ctx);
        }
        if key.code == KeyCode::Esc && notice::dismiss_error(&mut self.notice) {
            return Some(Step::default());
        }
        None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_change_action(action, ctx) {
            return Some(step);
        }
        let len = self.list.items.len();
        let page = ctx.size.height.saturating_sub(5).max(1) as isize;
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {}
            Action::Mark => {
                if let Some(id) = self.selected().map(|entry| entry.organization.id.clone())
                    && !self.marked.remove(&id)
                {
                    self.marked.insert(id);
                }
                self.selection.move_by(1, len);
            }
            _ => return None,
        }
        Some(Step::cmd(self.more(ctx)))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Teams(response) = response else {
            return None;
        };
        match response {
            TeamsResponse::Members(result) => {
                if !self.list.settle(request, result.clone()) {
                    return None;
                }
                self.selection.clamp(self.list.items.len());
                let present: BTreeSet<String> = self
                    .list
                    .items
                    .iter()
                    .map(|entry| entry.organization.id.clone())
                    .collect();
                self.marked.retain(|id| present.contains(id));
                self.team.members = self.list.total.or(self.team.members);
                Some(Step::cmd(self.more(ctx)))
            }
            TeamsResponse::Pickable(result) => {
                if let Err(words) = settle_pickable(&mut self.pickable, request, result)? {
                    self.notice = Some(Notice::error(words));
                    self.modal = None;
                    return Some(Step::default());
                }
                match self.modal.take() {
                    Some(Modal::WaitingForMembers(purpose)) => {
                        Some(Step::cmd(self.open_picker(purpose, ctx)))
                    }
                    other => {
                        self.modal = other;
                        Some(Step::default())
                    }
                }
            }
            TeamsResponse::Team(result) => {
                if self.team_read != Some(request) {
                    return None;
                }
                self.team_read = None;
                // A team that cannot be read keeps what the list said.
                if let Ok(team) = result {
                    self.team = team.clone();
                }
                Some(Step::default())
            }
            TeamsResponse::MembersChanged(result) => {
                if self.sending.as_ref().map(|(id, _)| *id) != Some(request) {
                    return None;
                }
                Some(Step::cmd(self.on_answer(result, ctx)))
            }
            _ => None,
        }
    }

    fn disabled_actions(&self) -> Vec<Action> {
        if self.can_manage() {
            return Vec::new();
        }
        vec![
            Action::AddTeamMember,
            Action::ChangeRole,
            Action::Delete,
            Action::BulkEdit,
        ]
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

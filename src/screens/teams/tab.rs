//! The organization's Teams tab: the teams with their members and spaces counts, filtered by
//! title on the server and, with `m`, to the teams the current user can manage. Admins create
//! (title, then optional initial members), rename and delete teams; enter opens a team's
//! members (src/screens/teams/).

use std::ops::ControlFlow;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use super::new_team::NewTeam;
use super::{TeamScreen, load_pickable, member_options, picker_title, settle_pickable};
use crate::api::error::server_message;
use crate::api::models::{Organization, Team};
use crate::screens::Screen;
use crate::screens::ScreenState;
use crate::screens::form_draft::DraftKeeper;
use crate::screens::look::Look;
use crate::screens::organization::pane::notice_modal_esc;
use crate::screens::organization::server_filter::ServerFilter;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::Notice;
use crate::ui::picker::{PickOutcome, Picker};
use crate::ui::prompt::{Prompt, TextCheck};
use crate::ui::sanitize::sanitize;
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::teams::{PickableMembers, TeamsCall, TeamsResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

/// A team's title, checked as it is typed (1 to 64 characters, not only spaces).
#[derive(Debug, Clone, PartialEq)]
pub enum TitleFor {
    Create,
    Rename(Team),
}

impl TextCheck for TitleFor {
    fn check(&self, text: &str) -> Option<String> {
        team_title_problem(text)
    }
}

/// Why a team title would be refused, in words.
pub fn team_title_problem(text: &str) -> Option<String> {
    let length = text.chars().count();
    if text.trim().is_empty() {
        Some("a team needs a title".to_string())
    } else if length > 64 {
        Some(format!("at most 64 characters ({length} now)"))
    } else {
        None
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Modal {
    Title(Prompt<TitleFor>),
    /// Initial members of the team being created (its title is the purpose).
    Members(Picker<String>),
    /// Waiting for the organization's members before the picker can open.
    WaitingForMembers(String),
    ConfirmDelete(Confirm, Team),
}

/// What is being sent, for the words once it is answered.
#[derive(Debug, Clone, PartialEq)]
enum Sending {
    Create(String),
    Rename(Team, String),
    Delete(Team),
}

#[derive(Debug)]
pub struct TeamsTab {
    pub organization: String,
    pub organization_title: String,
    pub can_admin: bool,
    pub list: PagedList<Team>,
    pub selection: Selection,
    /// The title filter as typed; it goes to the server once typing pauses.
    pub filter: ServerFilter,
    /// The title filter the list was requested with.
    pub title_query: Option<String>,
    /// Only the teams the current user can manage (`owner` = their id).
    pub mine: bool,
    pub me: Loadable<crate::api::models::User>,
    pub pickable: Loadable<PickableMembers>,
    pub modal: Option<Modal>,
    sending: Option<(RequestId, Sending)>,
    /// The team to select once the list comes back (one just created).
    select_after_reload: Option<String>,
    pub notice: Option<Notice>,
    /// The team being created, from its first key until the server creates it.
    pub new_team: Option<NewTeam>,
    /// The team being created as last written to disk.
    pub(super) new_team_draft: DraftKeeper,
}

pub fn new(organization: &Organization) -> TeamsTab {
    TeamsTab {
        organization: organization.id.clone(),
        organization_title: organization.title.clone(),
        can_admin: organization.permissions.admin,
        list: PagedList::default(),
        selection: Selection::default(),
        filter: ServerFilter::default(),
        title_query: None,
        mine: false,
        me: Loadable::NotAsked,
        pickable: Loadable::NotAsked,
        modal: None,
        sending: None,
        select_after_reload: None,
        notice: None,
        new_team: None,
        new_team_draft: DraftKeeper::default(),
    }
}

impl TeamsTab {
    pub fn selected(&self) -> Option<&Team> {
        self.list.items.get(self.selection.selected)
    }

    pub fn is_sending(&self) -> bool {
        self.sending.is_some()
    }

    fn list_call(&self, page: Option<String>) -> ApiCall {
        ApiCall::Teams(TeamsCall::List {
            organization: self.organization.clone(),
            title: self.title_query.clone(),
            owner: self
                .mine
                .then(|| self.me.value().map(|me| me.id.clone()))
                .flatten(),
            page,
        })
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.mine && self.me.value().is_none() {
            return self.ask_who_i_am(ctx);
        }
        self.list.load_first(ctx.requests, self.list_call(None))
    }

    fn ask_who_i_am(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.me.is_loading() {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.me.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Teams(TeamsCall::CurrentUser),
        }
    }

    fn more(&mut self, ctx: &mut Ctx) -> Cmd {
        // A team waiting to be selected may be on a later page: read on until it shows.
        let reach = match self.select_after_reload {
            Some(_) => self.list.items.len(),
            None => self.selection.selected,
        };
        self.list
            .next_page(reach, ctx.requests)
            .map_or(Cmd::None, |next| next.ask(|page| self.list_call(page)))
    }

    fn apply_filter(&mut self, ctx: &mut Ctx) -> Cmd {
        let wanted = self.filter.take_wanted();
        if wanted == self.title_query {
            return Cmd::None;
        }
        self.title_query = wanted;
        self.selection.top();
        self.select_after_reload = None;
        self.load(ctx)
    }

    /// The title is fine: the initial members' picker, once the members are known.
    fn pick_initial_members(&mut self, title: String, ctx: &mut Ctx) -> Cmd {
        match self.pickable.value() {
            Some(pickable) => {
                let options = member_options(&pickable.members, |_| None);
                let heading = picker_title(
                    format!("Initial members of “{title}” (space marks, enter creates)"),
                    pickable,
                );
                let mut picker = Picker::new(&heading, options, title).multiple();
                if let Some(kept) = &self.new_team {
                    kept.mark(&mut picker);
                }
                self.modal = Some(Modal::Members(picker));
                Cmd::None
            }
            None => {
                self.modal = Some(Modal::WaitingForMembers(title));
                load_pickable(&mut self.pickable, &self.organization, ctx)
            }
        }
    }

    fn send(&mut self, call: TeamsCall, sending: Sending, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.sending = Some((request, sending));
        Cmd::Api {
            request,
            call: ApiCall::Teams(call),
        }
    }

    fn on_modal_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let modal = self.modal.take()?;
        let cmd = match modal {
            Modal::Title(mut prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Cancelled => Cmd::None,
                InputOutcome::Submitted if prompt.error().is_none() => {
                    let title = prompt.input.text.trim().to_string();
                    match prompt.purpose {
                        TitleFor::Create => self.pick_initial_members(title, ctx),
                        TitleFor::Rename(team) => {
                            let call = TeamsCall::Rename {
                                organization: self.organization.clone(),
                                team: team.id.clone(),
                                title: title.clone(),
                            };
                            self.send(call, Sending::Rename(team, title), ctx)
                        }
                    }
                }
                _ => {
                    self.modal = Some(Modal::Title(prompt));
                    Cmd::None
                }
            },
            Modal::Members(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(members) => {
                    let title = picker.purpose;
                    self.new_team = Some(NewTeam {
                        title: title.clone(),
                        members: members.clone(),
                    });
                    let call = TeamsCall::Create {
                        organization: self.organization.clone(),
                        title: title.clone(),
                        members,
                    };
                    self.send(call, Sending::Create(title), ctx)
                }
                PickOutcome::Cancelled => Cmd::None,
                PickOutcome::Pending => {
                    self.modal = Some(Modal::Members(picker));
                    Cmd::None
                }
            },
            Modal::WaitingForMembers(title) => {
                if key.code != KeyCode::Esc {
                    self.modal = Some(Modal::WaitingForMembers(title));
                }
                Cmd::None
            }
            Modal::ConfirmDelete(confirm, team) => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => {
                    let call = TeamsCall::Delete {
                        organization: self.organization.clone(),
                        team: team.id.clone(),
                    };
                    self.send(call, Sending::Delete(team), ctx)
                }
                ConfirmOutcome::Cancelled => Cmd::None,
                ConfirmOutcome::Ignored => {
                    self.modal = Some(Modal::ConfirmDelete(confirm, team));
                    Cmd::None
                }
            },
        };
        Some(Step::cmd(cmd))
    }

    fn on_change_action(&mut self, action: Action) -> Option<Step> {
        let what = match action {
            Action::Create => "Creating a team",
            Action::Rename => "Renaming a team",
            Action::Delete => "Deleting a team",
            _ => return None,
        };
        if !self.can_admin {
            self.notice = Some(Notice::error(format!(
                "{what} needs the admin role in this organization"
            )));
            return Some(Step::default());
        }
        if self.sending.is_some() {
            self.notice = Some(Notice::info("still sending the last change…"));
            return Some(Step::default());
        }
        let selected = self.selected().cloned();
        match (action, selected) {
            (Action::Create, _) => {
                let kept = self.new_team.clone().unwrap_or_default();
                self.modal = Some(Modal::Title(Prompt::new(
                    "New team",
                    &kept.hint(),
                    &kept.title,
                    TitleFor::Create,
                )));
            }
            (Action::Rename, Some(team)) => {
                let title = team.title.clone();
                self.modal = Some(Modal::Title(Prompt::new(
                    &format!("Rename “{title}”"),
                    "title, 1 to 64 characters",
                    &title,
                    TitleFor::Rename(team),
                )));
            }
            (Action::Delete, Some(team)) => {
                let members = team.members.unwrap_or_default();
                let confirm = Confirm::new(
                    format!("Delete team “{}”?", team.title),
                    format!(
                        "Its {members} member{} lose what the team gave them access to. Their \
                         organization membership stays.",
                        if members == 1 { "" } else { "s" }
                    ),
                    "delete",
                );
                self.modal = Some(Modal::ConfirmDelete(confirm, team));
            }
            _ => self.notice = Some(Notice::info("no team selected")),
        }
        Some(Step::default())
    }

    fn on_answer(&mut self, response: &TeamsResponse, ctx: &mut Ctx) -> Cmd {
        let Some((_, sending)) = self.sending.take() else {
            return Cmd::None;
        };
        let (done, failed) = match (&sending, response) {
            (Sending::Create(_), TeamsResponse::Saved(Ok(team))) => {
                (format!("Created team “{}”", team.title), None)
            }
            (Sending::Rename(old, _), TeamsResponse::Saved(Ok(team))) => {
                (format!("Renamed “{}” to “{}”", old.title, team.title), None)
            }
            (Sending::Delete(team), TeamsResponse::Deleted(Ok(()))) => {
                (format!("Deleted team “{}”", team.title), None)
            }
            (_, TeamsResponse::Saved(Err(error)) | TeamsResponse::Deleted(Err(error))) => {
                (String::new(), Some(server_message(error)))
            }
            _ => return Cmd::None,
        };
        if let Some(reason) = failed {
            let what = match sending {
                Sending::Create(title) => format!("create team “{title}” (n offers it again)"),
                Sending::Rename(team, _) => format!("rename “{}”", team.title),
                Sending::Delete(team) => format!("delete “{}”", team.title),
            };
            self.notice = Some(Notice::error(format!("Could not {what}: {reason}")));
            return Cmd::None;
        }
        let saved = match response {
            TeamsResponse::Saved(Ok(team)) => Some(team),
            _ => None,
        };
        ctx.action_log.record(logged_team_change(
            &self.organization,
            &sending,
            saved,
            &done,
        ));
        self.notice = Some(Notice::info(done));
        let reload = self.load(ctx);
        if let (Sending::Create(_), Some(team)) = (&sending, saved) {
            self.new_team = None;
            self.show_created(team);
        }
        reload
    }

    /// A new team is in the list and selected at once, before the reload answers, so the next
    /// key (enter, rename) acts on what was just made, not on the row selected before.
    fn show_created(&mut self, team: &Team) {
        let index = match self.list.items.iter().position(|t| t.id == team.id) {
            Some(index) => index,
            None => {
                self.list.items.push(team.clone());
                self.list.items.len() - 1
            }
        };
        self.selection.selected = index;
        self.select_after_reload = Some(team.id.clone());
    }

    /// The list came: select the team just created once it is among the rows.
    fn select_awaited(&mut self) {
        let Some(id) = self.select_after_reload.as_deref() else {
            return;
        };
        if let Some(index) = self.list.items.iter().position(|t| t.id == id) {
            self.selection.selected = index;
            self.select_after_reload = None;
        } else if !self.list.has_more() {
            self.select_after_reload = None;
        }
    }
}

/// A team change as the action log shows it: a new team is undone by deleting it, a rename by
/// the old title; a deleted team (and its members) has no inverse.
fn logged_team_change(
    organization: &str,
    sending: &Sending,
    saved: Option<&Team>,
    done: &str,
) -> crate::vocabulary::action_log::PendingEntry {
    use crate::vocabulary::action_log::{PendingEntry, Undo};
    let call = |call: TeamsCall| ApiCall::Teams(call);
    let undo = match (sending, saved) {
        (Sending::Create(_), Some(team)) => Undo::inverse(
            call(TeamsCall::Delete {
                organization: organization.to_string(),
                team: team.id.clone(),
            }),
            format!("Deletes the team “{}” again", team.title),
        ),
        (Sending::Rename(old, _), Some(_)) => Undo::inverse(
            call(TeamsCall::Rename {
                organization: organization.to_string(),
                team: old.id.clone(),
                title: old.title.clone(),
            }),
            format!("Renames it back to “{}”", old.title),
        ),
        _ => Undo::impossible("a deleted team has to be made again, with its members"),
    };
    PendingEntry::new(sanitize(done).into_owned(), "organization teams", undo)
}

impl ScreenState for TeamsTab {
    fn title(&self) -> String {
        "Teams".to_string()
    }

    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.list.loaded_once() || self.list.is_loading() {
            return Cmd::None;
        }
        let drafts = Cmd::LoadDrafts {
            prefix: self.new_team_draft_key(),
        };
        Cmd::batch([self.load(ctx), drafts])
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        if prefix == self.new_team_draft_key() {
            self.on_new_team_draft(drafts);
        }
        Cmd::None
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    /// Back from a team's members: their counts may have changed.
    fn resumed(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Tabs, KeyContext::Teams, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "members"),
            (Action::Filter, "title"),
            (Action::ManageableTeams, "mine"),
            (Action::Create, "new"),
            (Action::Rename, "rename"),
            (Action::Delete, "delete"),
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
            return self.with_new_team(answer);
        }
        let cmd = self
            .filter
            .on_key(key, ctx)?
            .then(|| self.apply_filter(ctx));
        Some(Step::cmd(cmd))
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        match &mut self.modal {
            Some(Modal::Title(prompt)) => {
                prompt.input.insert_str(text);
                self.keep_new_team()
            }
            _ => self.filter.paste(text, ctx),
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.on_change_action(action) {
            return Some(step);
        }
        let len = self.list.items.len();
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {}
            Action::Open => {
                let team = self.selected()?.clone();
                return Some(Step::push(Screen::Team(Box::new(TeamScreen::new(
                    &self.organization,
                    &self.organization_title,
                    team,
                )))));
            }
            Action::Filter => {
                self.filter.input.open();
                return Some(Step::default());
            }
            Action::Back if self.filter.input.is_shown() => {
                self.filter.input.clear();
                return Some(Step::cmd(self.apply_filter(ctx)));
            }
            Action::ManageableTeams => {
                self.mine = !self.mine;
                self.selection.top();
                self.select_after_reload = None;
                return Some(Step::cmd(self.load(ctx)));
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
            TeamsResponse::List(result) => {
                if !self.list.settle(request, result.clone()) {
                    return None;
                }
                self.select_awaited();
                self.selection.clamp(self.list.items.len());
                Some(Step::cmd(self.more(ctx)))
            }
            TeamsResponse::CurrentUser(result) => {
                if !self.me.settle(request, result.clone()) {
                    return None;
                }
                if let Some(error) = self.me.error() {
                    self.mine = false;
                    self.notice = Some(Notice::error(format!(
                        "Could not tell who you are, so all teams show: {}",
                        server_message(error)
                    )));
                }
                Some(Step::cmd(self.load(ctx)))
            }
            TeamsResponse::Pickable(result) => {
                let settled = settle_pickable(&mut self.pickable, request, result)?;
                let Some(Modal::WaitingForMembers(title)) = self.modal.take() else {
                    return Some(Step::default());
                };
                match settled {
                    Ok(()) => Some(Step::cmd(self.pick_initial_members(title, ctx))),
                    Err(words) => {
                        self.notice = Some(Notice::error(words));
                        Some(Step::default())
                    }
                }
            }
            _ => {
                if self.sending.as_ref().map(|(id, _)| *id) != Some(request) {
                    return None;
                }
                let answer = Some(Step::cmd(self.on_answer(response, ctx)));
                self.with_new_team(answer)
            }
        }
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        let due = self.filter.is_due(id);
        due.then(|| Step::cmd(self.apply_filter(ctx)))
    }

    fn disabled_actions(&self) -> Vec<Action> {
        if self.can_admin {
            return Vec::new();
        }
        vec![Action::Create, Action::Rename, Action::Delete]
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        super::view::draw_tab(self, frame, area, look);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn team_titles_are_checked_as_typed() {
        assert!(team_title_problem("").is_some());
        assert!(team_title_problem("   ").is_some());
        assert_eq!(team_title_problem("Ops"), None);
        assert_eq!(team_title_problem(&"é".repeat(64)), None);
        assert_eq!(
            team_title_problem(&"x".repeat(65)).as_deref(),
            Some("at most 64 characters (65 now)")
        );
    }
}

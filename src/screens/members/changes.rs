//! The admin's changes on the Members tab: a member's role, SSO membership and removal, each
//! refused in words without the admin role, asked first naming the person, then sent and
//! logged for the action log.

use ratatui::crossterm::event::KeyEvent;

use super::tab::{MembersTab, ROLE_CHOICES, role_name};
use crate::api::MemberRole;
use crate::api::error::server_message;
use crate::api::models::Member;
use crate::screens::step::{Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::input::InputOutcome;
use crate::ui::keymap::Action;
use crate::ui::notice::Notice;
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::ui::prompt::{Prompt, TextCheck};
use crate::vocabulary::members::{MembersCall, MembersResponse};
use crate::vocabulary::{ApiCall, Cmd};

/// A change waiting for its yes.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Role(Option<MemberRole>),
    Sso,
    Remove,
}

/// The popup open over the tab.
#[derive(Debug, Clone, PartialEq)]
pub enum Modal {
    /// The role picker for a member; values are role names, `guest` for none.
    Role(Picker<Member>),
    /// The title the member's teams are narrowed to, in their details.
    TeamsTitle(Prompt<TeamsTitle>),
    Confirm {
        confirm: Confirm,
        member: Member,
        change: Change,
    },
}

/// Any text narrows a member's teams; an empty one shows them all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamsTitle;

impl TextCheck for TeamsTitle {
    fn check(&self, _text: &str) -> Option<String> {
        None
    }
}

impl MembersTab {
    fn refuse_unless_admin(&mut self, what: &str) -> bool {
        if self.can_admin {
            return false;
        }
        self.notice = Some(Notice::error(format!(
            "{what} needs the admin role in this organization"
        )));
        true
    }

    fn role_picker(member: Member) -> Picker<Member> {
        let options = ROLE_CHOICES
            .iter()
            .map(|(role, detail)| PickOption {
                value: role_name(role.as_ref()),
                label: role_name(role.as_ref()),
                detail: detail.to_string(),
            })
            .collect();
        let current = role_name(member.role.as_ref());
        let title = format!("Role of {}", member.name());
        Picker::new(&title, options, member).at(Some(&current))
    }

    /// The member the change is for: the one whose details are open, else the selected row.
    fn target(&self) -> Option<Member> {
        match &self.details {
            Some(details) => Some(details.member.clone()),
            None => self.selected().cloned(),
        }
    }

    fn ask(&mut self, member: Member, change: Change) {
        let name = member.name().to_string();
        let confirm = match &change {
            Change::Role(role) => Confirm::new(
                match role {
                    Some(role) => format!("Give {name} the {role} role?"),
                    None => format!("Make {name} a guest?"),
                },
                format!(
                    "Their role changes from {} to {} in this organization.",
                    role_name(member.role.as_ref()),
                    role_name(role.as_ref())
                ),
                "change",
            ),
            Change::Sso => Confirm::new(
                format!("Make {name} an SSO member?"),
                "They will sign in to this organization through its single sign-on provider.",
                "make SSO member",
            ),
            Change::Remove => Confirm::new(
                format!("Remove {name} from this organization?"),
                "They lose access to its content and leave its teams.",
                "remove",
            ),
        };
        self.modal = Some(Modal::Confirm {
            confirm,
            member,
            change,
        });
    }

    fn send(&mut self, member: Member, change: Change, ctx: &mut Ctx) -> Cmd {
        let organization = self.organization.clone();
        let user = member.id.clone();
        let call = match &change {
            Change::Role(role) => MembersCall::SetRole {
                organization,
                user,
                role: role.clone(),
            },
            Change::Sso => MembersCall::MakeSso { organization, user },
            Change::Remove => MembersCall::Remove { organization, user },
        };
        let request = ctx.requests.issue();
        self.sending = Some((request, member, change));
        Cmd::Api {
            request,
            call: ApiCall::Members(call),
        }
    }

    pub(super) fn on_modal_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let modal = self.modal.take()?;
        match modal {
            Modal::Role(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    let value = values.first().cloned().unwrap_or_default();
                    let role = (value != "guest").then(|| MemberRole::from(value.as_str()));
                    let member = picker.purpose;
                    if role == member.role {
                        self.notice = Some(Notice::info(format!(
                            "{} is already {}",
                            member.name(),
                            role_name(role.as_ref())
                        )));
                    } else {
                        self.ask(member, Change::Role(role));
                    }
                }
                PickOutcome::Cancelled => {}
                PickOutcome::Pending => self.modal = Some(Modal::Role(picker)),
            },
            Modal::TeamsTitle(mut prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted => {
                    let title = prompt.input.text.trim().to_string();
                    return Some(Step::cmd(self.narrow_teams(title, ctx)));
                }
                InputOutcome::Cancelled => {}
                _ => self.modal = Some(Modal::TeamsTitle(prompt)),
            },
            Modal::Confirm {
                confirm,
                member,
                change,
            } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => {
                    return Some(Step::cmd(self.send(member, change, ctx)));
                }
                ConfirmOutcome::Cancelled => {}
                ConfirmOutcome::Ignored => {
                    self.modal = Some(Modal::Confirm {
                        confirm,
                        member,
                        change,
                    })
                }
            },
        }
        Some(Step::default())
    }

    pub(super) fn on_change_answer(&mut self, response: &MembersResponse, ctx: &mut Ctx) -> Cmd {
        let Some((_, member, change)) = self.sending.take() else {
            return Cmd::None;
        };
        let name = member.name().to_string();
        if matches!(
            response,
            MembersResponse::Updated(Ok(_)) | MembersResponse::Removed(Ok(()))
        ) {
            ctx.action_log
                .record(logged_change(&self.organization, &member, &change));
        }
        match response {
            MembersResponse::Updated(Ok(updated)) => {
                let text = match change {
                    Change::Sso => format!("{name} is now an SSO member"),
                    _ => format!("{name}'s role is now {}", role_name(updated.role.as_ref())),
                };
                self.notice = Some(Notice::info(text));
                self.replace(updated.clone());
                Cmd::None
            }
            MembersResponse::Removed(Ok(())) => {
                self.notice = Some(Notice::info(format!(
                    "Removed {name} from the organization"
                )));
                self.details = None;
                self.list.items.retain(|known| known.id != member.id);
                self.selection.clamp(self.visible().len());
                self.more(ctx)
            }
            MembersResponse::Updated(Err(error)) | MembersResponse::Removed(Err(error)) => {
                let what = match change {
                    Change::Role(_) => "change the role of",
                    Change::Sso => "make an SSO member of",
                    Change::Remove => "remove",
                };
                self.notice = Some(Notice::error(format!(
                    "Could not {what} {name}: {}",
                    server_message(error)
                )));
                Cmd::None
            }
            MembersResponse::List(_) | MembersResponse::Details(_) => Cmd::None,
        }
    }

    /// A member as the server has them now, in the list and in the open details.
    fn replace(&mut self, updated: Member) {
        if let Some(known) = self
            .list
            .items
            .iter_mut()
            .find(|known| known.id == updated.id)
        {
            *known = updated.clone();
        }
        if let Some(details) = self.details.as_mut().filter(|d| d.member.id == updated.id) {
            details.member = updated;
        }
    }

    pub(super) fn on_change_action(&mut self, action: Action) -> Option<Step> {
        let what = match action {
            Action::ChangeRole => "Changing a member's role",
            Action::MakeSsoMember => "Making an SSO member",
            Action::Delete => "Removing a member",
            _ => return None,
        };
        if self.refuse_unless_admin(what) {
            return Some(Step::default());
        }
        if self.sending.is_some() {
            self.notice = Some(Notice::info("still sending the last change…"));
            return Some(Step::default());
        }
        let Some(member) = self.target() else {
            self.notice = Some(Notice::info("no member selected"));
            return Some(Step::default());
        };
        match action {
            Action::ChangeRole => self.modal = Some(Modal::Role(Self::role_picker(member))),
            Action::MakeSsoMember if member.sso == Some(true) => {
                self.notice = Some(Notice::info(format!(
                    "{} is already an SSO member",
                    member.name()
                )));
            }
            Action::MakeSsoMember => self.ask(member, Change::Sso),
            _ => self.ask(member, Change::Remove),
        }
        Some(Step::default())
    }
}

/// A member change as the action log shows it: a role change is undone by giving the earlier
/// role back; SSO membership and removal have no inverse here.
fn logged_change(
    organization: &str,
    member: &Member,
    change: &Change,
) -> crate::vocabulary::action_log::PendingEntry {
    use crate::vocabulary::action_log::{PendingEntry, Undo};
    let name = member.name().to_string();
    let place = "organization members".to_string();
    match change {
        Change::Role(role) => PendingEntry::new(
            format!(
                "Changed {name}'s role from {} to {}",
                role_name(member.role.as_ref()),
                role_name(role.as_ref())
            ),
            place,
            Undo::inverse(
                ApiCall::Members(MembersCall::SetRole {
                    organization: organization.to_string(),
                    user: member.id.clone(),
                    role: member.role.clone(),
                }),
                format!(
                    "Gives {name} the {} role back",
                    role_name(member.role.as_ref())
                ),
            ),
        ),
        Change::Sso => PendingEntry::new(
            format!("Made {name} an SSO member"),
            place,
            Undo::impossible("SSO membership is undone in the identity provider"),
        ),
        Change::Remove => PendingEntry::new(
            format!("Removed {name} from the organization"),
            place,
            Undo::impossible("a removed member has to be invited again"),
        ),
    }
}

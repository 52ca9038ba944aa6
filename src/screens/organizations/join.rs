//! Joining an organization by email domain (`J`): its id is typed, the question names it, and
//! the server's refusal is shown in its own words. On success the list reloads with it.

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::error::server_message as words;
use crate::api::models::Organization;
use crate::screens::step::Ctx;
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::notice::Notice;
use crate::ui::prompt::{Prompt, TextCheck};
use crate::ui::theme::Theme;
use crate::vocabulary::org_settings::{OrgSettingsCall, OrgSettingsResponse};
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// An organization id: something without spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrganizationId;

impl TextCheck for OrganizationId {
    fn check(&self, text: &str) -> Option<String> {
        let text = text.trim();
        if text.is_empty() {
            Some("type the organization's id".into())
        } else if text.contains(char::is_whitespace) {
            Some("an id has no spaces".into())
        } else {
            None
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum JoinModal {
    Prompt(Prompt<OrganizationId>),
    Confirm {
        confirm: Confirm,
        organization: String,
    },
}

#[derive(Debug, Default)]
pub struct Join {
    pub modal: Option<JoinModal>,
    pub notice: Option<Notice>,
    /// The join in flight, with the organization's id.
    pending: Option<(RequestId, String)>,
    /// The id of the organization just joined, until the reloaded list names it.
    joined: Option<String>,
}

/// What a key or an answer asks of the list.
#[derive(Debug, PartialEq, Eq)]
pub enum JoinOutcome {
    Nothing,
    /// Joined: the list should load again to show it.
    Reload,
}

impl Join {
    pub fn open(&mut self) {
        self.modal = Some(JoinModal::Prompt(Prompt::new(
            "Join an organization",
            "its id; you may join when your email domain is one it allows",
            "",
            OrganizationId,
        )));
    }

    pub fn on_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Cmd {
        let Some(modal) = self.modal.as_mut() else {
            return Cmd::None;
        };
        match modal {
            JoinModal::Prompt(prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted if prompt.error().is_none() => {
                    let organization = prompt.input.text.trim().to_string();
                    self.modal = Some(JoinModal::Confirm {
                        confirm: Confirm::new(
                            format!("Join organization “{organization}”?"),
                            "You become a member with its default role.",
                            "join",
                        ),
                        organization,
                    });
                }
                InputOutcome::Cancelled => self.modal = None,
                _ => {}
            },
            JoinModal::Confirm {
                confirm,
                organization,
            } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => {
                    let organization = organization.clone();
                    self.modal = None;
                    self.notice = Some(Notice::info(format!("Joining “{organization}”…")));
                    let request = ctx.requests.issue();
                    self.pending = Some((request, organization.clone()));
                    return Cmd::Api {
                        request,
                        call: ApiCall::OrgSettings(OrgSettingsCall::Join { organization }),
                    };
                }
                ConfirmOutcome::Cancelled => self.modal = None,
                ConfirmOutcome::Ignored => {}
            },
        }
        Cmd::None
    }

    pub fn paste(&mut self, text: &str) -> bool {
        if let Some(JoinModal::Prompt(prompt)) = self.modal.as_mut() {
            prompt.input.insert_str(text);
            return true;
        }
        self.modal.is_some()
    }

    /// `None` when the answer is not to a join of ours.
    pub fn on_response(
        &mut self,
        request: RequestId,
        response: &OrgSettingsResponse,
    ) -> Option<JoinOutcome> {
        let (waiting, organization) = self.pending.clone()?;
        if waiting != request {
            return None;
        }
        self.pending = None;
        match response {
            OrgSettingsResponse::Done(Ok(())) => {
                self.notice = Some(Notice::info(format!("Joined “{organization}”.")));
                self.joined = Some(organization);
                Some(JoinOutcome::Reload)
            }
            OrgSettingsResponse::Done(Err(error)) => {
                self.notice = Some(Notice::error(format!(
                    "Could not join “{organization}”: {}",
                    words(error)
                )));
                Some(JoinOutcome::Nothing)
            }
            _ => Some(JoinOutcome::Nothing),
        }
    }

    /// The reloaded list: the organization just joined is named by its title, not the id that
    /// was typed. Returns its id when the list has it, for the list to select it.
    pub fn name_joined(&mut self, organizations: &[Organization]) -> Option<String> {
        let id = self.joined.as_deref()?;
        let joined = organizations.iter().find(|org| org.id == id)?;
        if self.notice.as_ref().is_some_and(|notice| !notice.error) {
            self.notice = Some(Notice::info(format!("Joined “{}”.", joined.title)));
        }
        self.joined.take()
    }

    pub fn draw(&self, frame: &mut Canvas, area: Rect, theme: &Theme) {
        match &self.modal {
            Some(JoinModal::Prompt(prompt)) => crate::ui::prompt::draw(prompt, frame, area, theme),
            Some(JoinModal::Confirm { confirm, .. }) => confirm.draw(frame, area, theme),
            None => {}
        }
    }
}

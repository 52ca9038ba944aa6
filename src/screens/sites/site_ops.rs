//! Creating and deleting a site from the Sites tab: `n` asks for a title (checked as it is
//! typed), then its plan, visibility and spaces (see [`super::new_site`]); `d` asks first, naming the site and what its visitors lose. Both need the admin
//! role; the server decides, and a refusal says which role is needed.

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use super::new_site::NewSiteStep;
use super::{ROLE_TO_CHANGE_SITES, SitesTab};
use crate::api::{ApiError, NewSite};
use crate::screens::step::{Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::notice::{self, Notice};
use crate::ui::picker::{self, PickOutcome, Picker};
use crate::ui::prompt::{self, Prompt, TextCheck};
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::vocabulary::sites::{SitesCall, SitesResponse};
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// What the Sites tab has open above its list.
#[derive(Debug, Clone, PartialEq)]
pub enum SitesModal {
    NewTitle(Prompt<NewSiteTitle>),
    NewSite(Picker<NewSiteStep>),
    ConfirmDelete {
        confirm: Confirm,
        site: String,
        title: String,
    },
}

/// The new site's title: the seed takes 2 to 128 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSiteTitle;

impl TextCheck for NewSiteTitle {
    fn check(&self, text: &str) -> Option<String> {
        let length = text.trim().chars().count();
        if length < 2 {
            Some("at least 2 characters".into())
        } else if length > 128 {
            Some(format!("at most 128 characters ({length})"))
        } else {
            None
        }
    }
}

/// A write in flight, with the title to name in its notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SiteWrite {
    Create { title: String, spaces: usize },
    Delete { title: String },
}

impl SitesTab {
    /// `n`: the title prompt.
    pub(super) fn ask_for_title(&mut self) {
        self.modal = Some(SitesModal::NewTitle(Prompt::new(
            "New site",
            "Its title (2–128 characters)",
            "",
            NewSiteTitle,
        )));
    }

    /// `d`: the confirmation, naming the site and, when published, its address.
    pub(super) fn ask_before_deleting(&mut self) {
        let Some(site) = self.selected() else {
            return;
        };
        let title = sanitize(&site.title).into_owned();
        let address = super::site_address(site);
        let visitors = if site.published && !address.is_empty() {
            format!("{} stops answering. ", sanitize(&address))
        } else {
            String::new()
        };
        let confirm = Confirm::new(
            format!("Delete the site “{title}”?"),
            format!(
                "{visitors}Its share links stop working; its spaces are kept. This cannot be \
                 undone."
            ),
            "delete",
        );
        self.modal = Some(SitesModal::ConfirmDelete {
            confirm,
            site: site.id.clone(),
            title,
        });
    }

    /// Keys while something is open above the list, or an error notice to dismiss. `None`
    /// when the key is not theirs.
    pub(super) fn on_modal_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        let Some(modal) = self.modal.take() else {
            let dismissed = key.code == KeyCode::Esc && notice::dismiss_error(&mut self.notice);
            return dismissed.then(Step::default);
        };
        let cmd = match modal {
            SitesModal::NewTitle(mut prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted if prompt.error().is_none() => {
                    self.ask_for_type(prompt.input.text.trim().to_string());
                    Cmd::None
                }
                InputOutcome::Cancelled => Cmd::None,
                _ => {
                    self.modal = Some(SitesModal::NewTitle(prompt));
                    Cmd::None
                }
            },
            SitesModal::NewSite(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(picked) => self.on_new_site_pick(picker.purpose, picked, ctx),
                PickOutcome::Cancelled => Cmd::None,
                PickOutcome::Pending => {
                    self.modal = Some(SitesModal::NewSite(picker));
                    Cmd::None
                }
            },
            SitesModal::ConfirmDelete {
                confirm,
                site,
                title,
            } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => self.delete(site, title, ctx),
                ConfirmOutcome::Cancelled => Cmd::None,
                ConfirmOutcome::Ignored => {
                    self.modal = Some(SitesModal::ConfirmDelete {
                        confirm,
                        site,
                        title,
                    });
                    Cmd::None
                }
            },
        };
        Some(Step::cmd(cmd))
    }

    /// Sends the site as chosen, its title as typed; notices name it sanitized.
    pub(super) fn create(&mut self, site: NewSite, ctx: &mut Ctx) -> Cmd {
        let shown = sanitize(&site.title).into_owned();
        self.notice = Some(Notice::info(format!("Creating the site “{shown}”…")));
        let spaces = site.spaces.len();
        let call = SitesCall::CreateSite {
            organization: self.organization.clone(),
            site,
        };
        let write = SiteWrite::Create {
            title: shown,
            spaces,
        };
        self.send(call, write, ctx)
    }

    fn delete(&mut self, site: String, title: String, ctx: &mut Ctx) -> Cmd {
        self.notice = Some(Notice::info(format!("Deleting the site “{title}”…")));
        let call = SitesCall::DeleteSite {
            organization: self.organization.clone(),
            site,
        };
        self.send(call, SiteWrite::Delete { title }, ctx)
    }

    fn send(&mut self, call: SitesCall, write: SiteWrite, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.writing = Some((request, write));
        Cmd::Api {
            request,
            call: ApiCall::Sites(call),
        }
    }

    /// The answer to a create or a delete: a notice, and the list read again (a new site is
    /// selected once it is in it). `None` when `request` is not the write in flight.
    pub(super) fn on_write_answer(
        &mut self,
        request: RequestId,
        response: &SitesResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        if self.writing.as_ref().map(|(id, _)| *id) != Some(request) {
            return None;
        }
        let (_, write) = self.writing.take()?;
        let outcome = match (response, &write) {
            (SitesResponse::Site(Ok(site)), SiteWrite::Create { title, spaces }) => {
                self.select_after_load = Some(site.id.clone());
                let with = match spaces {
                    0 => "with no spaces".to_string(),
                    1 => "with 1 space".to_string(),
                    many => format!("with {many} spaces"),
                };
                Ok(format!(
                    "Created the site “{title}” {with}: enter opens it to publish."
                ))
            }
            (SitesResponse::Done(Ok(())), SiteWrite::Delete { title }) => {
                Ok(format!("Deleted the site “{title}”."))
            }
            (SitesResponse::Site(Err(error)) | SitesResponse::Done(Err(error)), _) => {
                Err(refusal(&write, error))
            }
            _ => return Some(Step::default()),
        };
        self.notice = Some(match outcome {
            Ok(text) => Notice::info(text),
            Err(text) => Notice::error(text),
        });
        Some(Step::cmd(self.load(ctx)))
    }
}

/// A refused write in words: the role it needs when the server says the role is wrong.
fn refusal(write: &SiteWrite, error: &ApiError) -> String {
    let what = match write {
        SiteWrite::Create { title, .. } => format!("Creating the site “{title}”"),
        SiteWrite::Delete { title } => format!("Deleting the site “{title}”"),
    };
    if error.status() == Some(403) {
        format!(
            "{what} needs the {ROLE_TO_CHANGE_SITES} role: {}",
            error.user_message()
        )
    } else {
        format!("{what} failed: {}", error.user_message())
    }
}

/// The open prompt or confirmation, over the tab.
pub fn draw_modal(tab: &SitesTab, frame: &mut Canvas, area: Rect, theme: &Theme) {
    match &tab.modal {
        Some(SitesModal::NewTitle(title)) => prompt::draw(title, frame, area, theme),
        Some(SitesModal::NewSite(step)) => picker::draw(step, frame, area, theme),
        Some(SitesModal::ConfirmDelete { confirm, .. }) => confirm.draw(frame, area, theme),
        None => {}
    }
}

//! Who can reach what: every site of an organization with its visibility and, under it, its
//! active share links. An admin can revoke (deactivate) a share link from here, after a
//! confirmation.

mod view;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::error::server_message;
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::sites::role::MyRole;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};
use crate::vocabulary::sites::{AccessListing, SiteAccess, SitesCall, SitesResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

/// One row: a site, or one of its active share links.
#[derive(Debug, Clone, PartialEq)]
pub enum AccessRow {
    Site {
        index: usize,
    },
    /// `link` indexes the site's `share_links`.
    Link {
        site: usize,
        link: usize,
    },
}

/// A revocation waiting for its yes.
#[derive(Debug, Clone, PartialEq)]
pub struct Revocation {
    pub confirm: Confirm,
    pub site: String,
    pub link: String,
    pub name: String,
}

#[derive(Debug)]
pub struct AccessAudit {
    pub organization: String,
    pub organization_title: String,
    pub data: Loadable<AccessListing>,
    pub selection: Selection,
    pub asking: Option<Revocation>,
    pub pending: Option<(RequestId, String)>,
    pub notice: Option<Notice>,
    /// The user's own role in the organization, for refusals.
    pub my_role: MyRole,
}

impl AccessAudit {
    pub fn new(organization: &str, organization_title: &str) -> AccessAudit {
        AccessAudit {
            organization: organization.to_string(),
            organization_title: organization_title.to_string(),
            data: Loadable::NotAsked,
            selection: Selection::default(),
            asking: None,
            pending: None,
            notice: None,
            my_role: MyRole::default(),
        }
    }

    /// The sites read, with their share links (empty until they load).
    pub fn sites(&self) -> &[SiteAccess] {
        self.data
            .value()
            .map_or(&[][..], |listing| listing.sites.as_slice())
    }

    /// What the view cannot show because a list did not end within its cap, for the line
    /// under it: the sites list, or the share links of some sites (server text: sanitize).
    pub fn stop_note(&self) -> Option<String> {
        let listing = self.data.value()?;
        let cut_links: Vec<&SiteAccess> = listing
            .sites
            .iter()
            .filter(|access| access.links_stopped_after_pages.is_some())
            .collect();
        let pages = cut_links
            .iter()
            .filter_map(|access| access.links_stopped_after_pages)
            .chain(listing.sites_stopped_after_pages)
            .max()?;
        let what = match (listing.sites_stopped_after_pages, cut_links.as_slice()) {
            (Some(_), []) => "sites".to_string(),
            (Some(_), _) => "sites and share links".to_string(),
            (None, [one]) => format!("share links of “{}”", one.site.title),
            (None, _) => format!("share links of {} sites", cut_links.len()),
        };
        // The count first, so that a narrow terminal still shows where the lists stopped.
        Some(format!(
            "stopped after {pages} pages of {what}: the lists did not end; showing what was loaded"
        ))
    }

    pub fn rows(&self) -> Vec<AccessRow> {
        let sites = self.sites();
        let mut rows = Vec::new();
        for (index, access) in sites.iter().enumerate() {
            rows.push(AccessRow::Site { index });
            for (link, _) in access
                .share_links
                .iter()
                .enumerate()
                .filter(|(_, link)| link.active.unwrap_or(true))
            {
                rows.push(AccessRow::Link { site: index, link });
            }
        }
        rows
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.data.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Sites(SitesCall::AccessAudit {
                organization: self.organization.clone(),
            }),
        }
    }

    /// Asks for the user's role once, when some site may not be changed by them, so that the
    /// refusal can name it.
    fn ask_role_if_refused(&mut self, ctx: &mut Ctx) -> Cmd {
        let refused_somewhere = self.sites().iter().any(|access| {
            access
                .site
                .permissions
                .as_ref()
                .is_some_and(|permissions| !(permissions.edit || permissions.admin))
        });
        if !refused_somewhere {
            return Cmd::None;
        }
        self.my_role.ask(&self.organization, ctx)
    }

    fn warn(&mut self, text: String) {
        self.notice = Some(Notice::error(text));
    }

    /// Asks before revoking the selected share link, naming the site and who loses access.
    fn ask_revoke(&mut self) {
        let rows = self.rows();
        let Some(AccessRow::Link { site, link }) = rows.get(self.selection.selected).cloned()
        else {
            self.warn("Select a share link row to revoke it".into());
            return;
        };
        let Some(access) = self.sites().get(site) else {
            return;
        };
        let Some(link) = access.share_links.get(link).cloned() else {
            return;
        };
        if let Some(permissions) = &access.site.permissions
            && !(permissions.edit || permissions.admin)
        {
            let reason = self.my_role.refusal("change this site's share links");
            self.warn(format!("Read-only: {reason}"));
            return;
        }
        let name = link.name.clone().unwrap_or_else(|| link.id.clone());
        let confirm = Confirm::new(
            format!("Revoke share link “{name}” of “{}”?", access.site.title),
            "Everyone using this link loses access to the site. It can be activated again later.",
            "revoke",
        );
        self.asking = Some(Revocation {
            confirm,
            site: access.site.id.clone(),
            link: link.id,
            name,
        });
    }
}

impl ScreenState for AccessAudit {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn title(&self) -> String {
        "Access".to_string()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::AccessAudit, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Revoke, "revoke link"),
            (Action::CopyLink, "copy"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        let revocation = self.asking.take()?;
        match revocation.confirm.handle_key(key) {
            ConfirmOutcome::Confirmed => {
                let request = ctx.requests.issue();
                self.pending = Some((request, revocation.name.clone()));
                return Some(Step::cmd(Cmd::Api {
                    request,
                    call: ApiCall::Sites(SitesCall::UpdateShareLink {
                        organization: self.organization.clone(),
                        site: revocation.site,
                        link: revocation.link,
                        active: Some(false),
                        name: None,
                    }),
                }));
            }
            ConfirmOutcome::Cancelled => {}
            ConfirmOutcome::Ignored => self.asking = Some(revocation),
        }
        Some(Step::default())
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.rows().len();
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        match action {
            Action::Down => self.selection.move_by(1, len),
            Action::Up => self.selection.move_by(-1, len),
            Action::PageDown | Action::HalfPageDown => self.selection.move_by(page, len),
            Action::PageUp | Action::HalfPageUp => self.selection.move_by(-page, len),
            Action::Top => self.selection.top(),
            Action::Bottom => self.selection.bottom(len),
            Action::Back if notice::dismiss_error(&mut self.notice) => {}
            Action::Revoke => {
                if self.pending.is_some() {
                    self.warn("Still waiting for the previous change…".into());
                } else {
                    self.ask_revoke();
                }
            }
            _ => return None,
        }
        Some(Step::default())
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Sites(response) = response else {
            return None;
        };
        if let Some((waiting, name)) = self.pending.clone()
            && waiting == request
        {
            self.pending = None;
            return Some(match response {
                SitesResponse::ShareLink(Ok(_)) => {
                    self.notice = Some(Notice::info(format!(
                        "Revoked “{name}”: the link no longer opens the site"
                    )));
                    Step::cmd(self.load(ctx))
                }
                SitesResponse::ShareLink(Err(error)) => {
                    self.warn(format!("Refused: {}", server_message(error)));
                    Step::default()
                }
                _ => Step::default(),
            });
        }
        if self.my_role.answered(request, response) {
            return Some(Step::default());
        }
        let SitesResponse::Access(result) = response else {
            return None;
        };
        if !self.data.settle(request, result.clone()) {
            return None;
        }
        self.selection.clamp(self.rows().len());
        Some(Step::cmd(self.ask_role_if_refused(ctx)))
    }

    fn link(&self) -> Option<String> {
        let rows = self.rows();
        match rows.get(self.selection.selected)? {
            AccessRow::Link { site, link } => self
                .sites()
                .get(*site)?
                .share_links
                .get(*link)?
                .urls
                .published
                .clone(),
            AccessRow::Site { index } => {
                let site = &self.sites().get(*index)?.site;
                site.urls
                    .published
                    .clone()
                    .or_else(|| site.urls.app.clone())
            }
        }
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

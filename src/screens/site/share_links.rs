//! The Share links tab: creating, renaming, (de)activating and deleting the site's share links.

use super::modal::PromptPurpose;
use super::{Confirmed, Modal, Pending, Prompt, SiteScreen};
use crate::api::models::ShareLink;
use crate::screens::step::{Ctx, Step};
use crate::ui::confirm::Confirm;
use crate::ui::keymap::Action;
use crate::vocabulary::Cmd;
use crate::vocabulary::sites::SitesCall;

impl SiteScreen {
    /// The share links read (empty until they load).
    pub fn links(&self) -> &[ShareLink] {
        self.share_links
            .value()
            .map_or(&[][..], |listed| listed.items.as_slice())
    }

    pub fn selected_link(&self) -> Option<&ShareLink> {
        self.links().get(self.link_selection.selected)
    }

    pub(super) fn on_share_link_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.links().len();
        let writes = matches!(
            action,
            Action::Create | Action::Rename | Action::ToggleActive | Action::Delete
        );
        if writes && let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return Some(Step::default());
        }
        match action {
            Action::Down => self.link_selection.move_by(1, len),
            Action::Up => self.link_selection.move_by(-1, len),
            Action::Top => self.link_selection.top(),
            Action::Bottom => self.link_selection.bottom(len),
            Action::Create => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "New share link",
                    "A name for who it is for (1–50 characters)",
                    "",
                    PromptPurpose::NewShareLink,
                )));
            }
            Action::Rename => {
                let link = self.selected_link()?;
                let prompt = Prompt::new(
                    "Rename share link",
                    "1–50 characters",
                    link.name.as_deref().unwrap_or_default(),
                    PromptPurpose::RenameShareLink {
                        id: link.id.clone(),
                    },
                );
                self.modal = Some(Modal::Prompt(prompt));
            }
            Action::ToggleActive => {
                let link = self.selected_link()?.clone();
                let name = link.name.unwrap_or_else(|| link.id.clone());
                if link.active.unwrap_or(true) {
                    // Deactivating cuts off everyone holding the link: ask first.
                    self.modal = Some(Modal::Confirm {
                        confirm: Confirm::new(
                            format!("Deactivate share link “{name}”?"),
                            "Everyone using its URL loses access to the site. It can be \
                             activated again later.",
                            "deactivate",
                        ),
                        then: Confirmed::DeactivateShareLink { id: link.id, name },
                    });
                    return Some(Step::default());
                }
                let cmd = self.set_link_active(link.id, &name, true, ctx);
                return Some(Step::cmd(cmd));
            }
            Action::Delete => {
                let link = self.selected_link()?;
                let name = link.name.clone().unwrap_or_else(|| link.id.clone());
                self.modal = Some(Modal::Confirm {
                    confirm: Confirm::new(
                        format!("Delete share link “{name}”?"),
                        "Its URL stops working for everyone who has it. This cannot be undone.",
                        "delete",
                    ),
                    then: Confirmed::DeleteShareLink {
                        id: link.id.clone(),
                        name,
                    },
                });
            }
            _ => return None,
        }
        Some(Step::default())
    }

    pub(super) fn set_link_active(
        &mut self,
        link: String,
        name: &str,
        active: bool,
        ctx: &mut Ctx,
    ) -> Cmd {
        let done = if active {
            format!("Activated “{name}”")
        } else {
            format!("Deactivated “{name}”: its URL no longer opens the site")
        };
        let (organization, site) = self.ids();
        self.write(
            SitesCall::UpdateShareLink {
                organization,
                site,
                link,
                active: Some(active),
                name: None,
            },
            Pending::ShareLink(done),
            ctx,
        )
    }
}

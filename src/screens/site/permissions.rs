//! Who may change the site: the reasons a tab is read-only, naming the role needed and the
//! user's own once known, with the server's words after a 403.

use super::SiteScreen;
use crate::screens::role_noun;
use crate::screens::step::Ctx;
use crate::vocabulary::Cmd;

impl SiteScreen {
    /// Why this user may not change the site, if they may not: the server's permissions, or
    /// a 403 it already answered. Names the role needed and, once known, the user's own.
    pub fn read_only_reason(&self) -> Option<String> {
        let may_not_edit = self
            .site
            .permissions
            .as_ref()
            .is_some_and(|permissions| !(permissions.edit || permissions.admin));
        if self.forbidden.is_none() && !may_not_edit {
            return None;
        }
        Some(self.refusal("Read-only", "change this site"))
    }

    /// "{lead}: you are at edit level; admin is needed to {what}", with the server's words
    /// after a 403.
    pub(super) fn refusal(&self, lead: &str, what: &str) -> String {
        let mut reason = format!("{lead}: {}", self.my_role.refusal(what));
        if let Some(message) = &self.forbidden {
            reason.push_str(&format!(" (the server said: {message})"));
        }
        reason
    }

    pub fn adaptive_view_reason(&self) -> Option<String> {
        match &self.site.permissions {
            Some(permissions) if !permissions.view_adaptive_schema => {
                Some(match &self.my_role.known {
                    Some(role) => format!(
                        "You are {}: your role may not view this site's adaptive schema",
                        role_noun(role.as_ref())
                    ),
                    None => "Your role may not view this site's adaptive schema".into(),
                })
            }
            _ => None,
        }
    }

    pub fn adaptive_edit_reason(&self) -> Option<String> {
        let may_not_edit = self
            .site
            .permissions
            .as_ref()
            .is_some_and(|permissions| !permissions.edit_adaptive_schema);
        (self.forbidden.is_some() || may_not_edit)
            .then(|| self.refusal("Read-only", "edit the adaptive schema"))
    }

    pub(super) fn ask_my_role(&mut self, ctx: &mut Ctx) -> Cmd {
        self.my_role.ask(&self.organization, ctx)
    }

    /// The role arrived: a refusal on screen is said again, now naming it.
    pub(super) fn role_known(&mut self) {
        let refusal_shown =
            self.notice.as_ref().is_some_and(|notice| notice.error) && self.forbidden.is_some();
        if refusal_shown {
            self.warn(self.refusal("Refused", "change this site"));
        }
    }
}

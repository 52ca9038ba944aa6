//! The settings form's unsaved values kept on disk as they change, offered back in a later
//! run over the values the server has then, and dropped once saved or when the user drops them.

use super::SettingsTab;
use crate::api::models::Organization;
use crate::screens::form_draft::{and_then, restored_notice};
use crate::screens::step::{Ctx, Step};
use crate::vocabulary::Cmd;

impl SettingsTab {
    /// Where the form's unsaved values are kept on disk.
    pub fn settings_draft_key(&self) -> String {
        format!("org-settings:{}", self.organization.id)
    }

    /// Writes the form's draft when it changed, removes it when nothing is left to keep.
    /// Nothing is written while a draft from disk waits for the organization: it would be
    /// removed before it is offered.
    pub(super) fn keep_settings_draft(&mut self) -> Cmd {
        if self.waiting_draft.is_some() {
            return Cmd::None;
        }
        let key = self.settings_draft_key();
        self.settings_draft.follow(key, self.form.draft_text())
    }

    /// `step`, then whatever keeps the draft in step with the form.
    pub(super) fn with_settings_draft(&mut self, step: Option<Step>) -> Option<Step> {
        and_then(step, self.keep_settings_draft())
    }

    /// A draft from an earlier run: put back now, or once the organization being read arrives
    /// (so it goes over the server's values of today, not the list's).
    pub(super) fn on_settings_draft(&mut self, drafts: &[(String, String)], ctx: &mut Ctx) {
        let key = self.settings_draft_key();
        let Some(text) = self.settings_draft.find(&key, drafts) else {
            return;
        };
        if self.organization_request.is_some() {
            self.waiting_draft = Some(text.clone());
        } else {
            self.restore_settings_draft(text, ctx);
        }
    }

    /// The organization was read again (or could not be): a waiting draft goes over it.
    pub(super) fn organization_arrived(&mut self, fresh: Option<&Organization>, ctx: &mut Ctx) {
        let Some(text) = self.waiting_draft.take() else {
            if let Some(organization) = fresh.filter(|_| !self.form.is_dirty()) {
                self.form.reset(organization);
            }
            return;
        };
        if let Some(organization) = fresh {
            self.form.reset(organization);
        }
        self.restore_settings_draft(&text, ctx);
    }

    fn restore_settings_draft(&mut self, text: &str, ctx: &mut Ctx) {
        if !self.form.restore_draft(text).is_empty() {
            self.say(restored_notice(ctx.keymap, "unsaved settings"));
        }
    }

    /// `u`: back to what the server has; the draft goes with the changes.
    pub(super) fn drop_changes(&mut self) {
        let dropped: Vec<&str> = self
            .form
            .changed_fields()
            .iter()
            .map(|field| field.label())
            .collect();
        if !self.form.is_dirty() && self.waiting_draft.take().is_none() {
            self.say("No unsaved changes to drop.");
            return;
        }
        self.form.reset(&self.organization.clone());
        match dropped.is_empty() {
            true => self.say("Dropped the unsaved settings."),
            false => self.say(format!(
                "Dropped the unsaved changes to {}.",
                dropped.join(", ")
            )),
        }
    }
}

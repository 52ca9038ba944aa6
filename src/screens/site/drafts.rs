//! The settings form's unsaved values kept on disk as they change, offered back when the site
//! is opened again, and dropped once saved or when the user drops them.

use super::SiteScreen;
use crate::screens::form_draft::{and_then, restored_notice};
use crate::screens::step::{Ctx, Step};
use crate::vocabulary::Cmd;

impl SiteScreen {
    /// Where the settings form's unsaved values are kept on disk.
    pub fn settings_draft_key(&self) -> String {
        format!("site-settings:{}:{}", self.organization, self.site.id)
    }

    /// Writes the form's draft when it changed, removes it when nothing is left to keep.
    pub(super) fn keep_settings_draft(&mut self) -> Cmd {
        let key = self.settings_draft_key();
        self.settings_draft.follow(key, self.form.draft_text())
    }

    /// `step`, then whatever keeps the draft in step with the form.
    pub(super) fn with_settings_draft(&mut self, step: Option<Step>) -> Option<Step> {
        and_then(step, self.keep_settings_draft())
    }

    /// A draft from an earlier run goes over the site's values.
    pub(super) fn on_settings_draft(&mut self, drafts: &[(String, String)], ctx: &mut Ctx) {
        let key = self.settings_draft_key();
        let Some(text) = self.settings_draft.find(&key, drafts) else {
            return;
        };
        if !self.form.restore_draft(text).is_empty() {
            self.say(restored_notice(ctx.keymap, "unsaved settings"));
        }
    }

    /// `u`: back to what the server has; the draft goes with the changes.
    pub(super) fn drop_changes(&mut self) {
        if !self.form.is_dirty() {
            self.say("No unsaved changes to drop");
            return;
        }
        let dropped: Vec<&str> = self
            .form
            .changed_fields()
            .iter()
            .map(|field| field.wire_name())
            .collect();
        self.form.reset(&self.site.clone());
        self.say(format!(
            "Dropped the unsaved changes to {}",
            dropped.join(", ")
        ));
    }
}

//! A SAML provider form's unsaved values kept on disk as they change, one draft per provider
//! (and one for a new provider): closing the form, leaving or losing quire keeps them, and
//! opening that form again offers them back. A save the server takes drops the draft.

use super::{ProviderForm, SsoModal, SsoTab};
use crate::screens::form_draft::{and_then, restored_notice};
use crate::screens::step::{Ctx, Step};
use crate::vocabulary::Cmd;

impl SsoTab {
    /// Where drafts of this organization's provider forms are kept, before the provider.
    pub fn form_draft_prefix(&self) -> String {
        format!("saml-provider:{}:", self.organization)
    }

    /// The draft key of `form`: its provider's id, or `new`.
    pub fn form_draft_key(&self, form: &ProviderForm) -> String {
        let provider = form.provider.as_deref().unwrap_or("new");
        format!("{}{provider}", self.form_draft_prefix())
    }

    /// Opens `form` with the draft kept for it, if any, put back over its values.
    pub(super) fn open_form_with_draft(&mut self, mut form: ProviderForm, ctx: &mut Ctx) {
        let key = self.form_draft_key(&form);
        if let Some(text) = self.drafts.open(&key)
            && !form.restore_draft(&text).is_empty()
        {
            self.say(restored_notice(ctx.keymap, "this form's unsaved values"));
        }
        self.modal = Some(SsoModal::Form(Box::new(form)));
    }

    /// Writes the open form's draft when it changed, removes it when nothing is left to keep.
    pub(super) fn keep_form_draft(&mut self) -> Cmd {
        let Some(SsoModal::Form(form)) = &self.modal else {
            return Cmd::None;
        };
        let key = self.form_draft_key(form);
        let now = form.draft_text();
        self.drafts.follow(key, now)
    }

    /// `step`, then whatever keeps the open form's draft in step with it.
    pub(super) fn with_form_draft(&mut self, step: Option<Step>) -> Option<Step> {
        and_then(step, self.keep_form_draft())
    }

    /// The open form was saved: its draft goes.
    pub(super) fn discard_form_draft(&mut self) -> Cmd {
        let Some(SsoModal::Form(form)) = &self.modal else {
            return Cmd::None;
        };
        let key = self.form_draft_key(form);
        self.drafts.discard(key)
    }

    /// Drafts found on disk: kept until their form opens.
    pub(super) fn on_form_drafts(&mut self, drafts: &[(String, String)]) {
        if !self.drafts.found(&self.form_draft_prefix(), drafts) {
            return;
        }
        self.say(
            "Unsaved SAML provider values from an earlier run are kept: opening their form (n for a new provider) offers them.",
        );
    }

    /// `u` in the form: back to what the server has (empty for a new provider).
    pub(super) fn drop_form_changes(&mut self) {
        let Some(SsoModal::Form(form)) = self.modal.as_mut() else {
            return;
        };
        if !form.is_dirty() {
            self.say("No unsaved changes to drop.");
            return;
        }
        let original = form.original.clone();
        form.form.load(original);
        self.say("Dropped this form's unsaved values.");
    }
}

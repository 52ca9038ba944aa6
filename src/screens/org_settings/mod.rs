//! The organization's Settings tab: a form for the organization's settings (checked
//! as typed, only changed fields sent, leaving with changes asks), its agent instructions
//! (shown rendered, edited as text through the one Document editor, with drafts that survive a
//! failed save, a crash and a quit), and revoking an invite link by id.

mod drafts;
pub mod form;
mod invite;
mod view;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use serde_json::Value;

use crate::api::error::server_message as words;
use crate::api::models::{AgentInstructions, Organization};
use crate::screens::ScreenState;
use crate::screens::form_draft::DraftKeeper;
use crate::screens::look::Look;
use crate::screens::sso::{picked_role, role_picker};
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::composer::{Composer, ComposerOutcome};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::document;
use crate::ui::hit::Canvas;
use crate::ui::input::InputOutcome;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::notice::{self, Notice};
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::ui::prompt::Prompt;
use crate::vocabulary::org_settings::{OrgSettingsCall, OrgSettingsResponse, SiteChoice};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

pub use form::{Field, SettingsForm};
pub use invite::{InviteId, invite_id};

/// A popup over the tab.
#[derive(Debug, Clone)]
pub enum SettingsModal {
    Role(Picker<()>),
    Site(Picker<()>),
    MergeRules(Picker<()>),
    /// The agent instructions as text; `kept` are the blocks the text cannot hold.
    Instructions {
        composer: Box<Composer>,
        kept: Vec<Value>,
    },
    RevokePrompt(Prompt<InviteId>),
    ConfirmRevoke {
        confirm: Confirm,
        invite: String,
    },
    ConfirmLeave(Confirm),
    /// The email domains name a public mail service: anyone with such an address could join.
    ConfirmPublicDomains(Confirm),
}

/// The write in flight.
#[derive(Debug, Clone, PartialEq)]
enum Pending {
    Save(Vec<Field>),
    Instructions,
    Revoke(String),
}

#[derive(Debug)]
pub struct SettingsTab {
    pub organization: Organization,
    pub form: SettingsForm,
    pub sites: Loadable<Vec<SiteChoice>>,
    pub instructions: Loadable<AgentInstructions>,
    /// Agent instructions written and not saved yet (also on disk, under [`Self::draft_key`]).
    pub draft: Option<String>,
    pub modal: Option<SettingsModal>,
    pub notice: Option<Notice>,
    pending: Option<(RequestId, Pending)>,
    organization_request: Option<RequestId>,
    /// The form's unsaved values as last written to disk.
    settings_draft: DraftKeeper,
    /// Unsaved values from an earlier run, put back once the organization is read again.
    waiting_draft: Option<String>,
}

pub fn new(organization: &Organization) -> SettingsTab {
    SettingsTab {
        form: SettingsForm::new(organization),
        organization: organization.clone(),
        sites: Loadable::NotAsked,
        instructions: Loadable::NotAsked,
        draft: None,
        modal: None,
        notice: None,
        pending: None,
        organization_request: None,
        settings_draft: DraftKeeper::default(),
        waiting_draft: None,
    }
}

impl SettingsTab {
    pub fn is_admin(&self) -> bool {
        self.organization.permissions.admin
    }

    /// Where unsaved agent instructions are kept on disk.
    pub fn draft_key(&self) -> String {
        format!("org-agent-instructions:{}", self.organization.id)
    }

    pub fn site_title(&self, id: &str) -> String {
        self.sites
            .value()
            .and_then(|sites| sites.iter().find(|site| site.id == id))
            .map_or_else(|| id.to_string(), |site| site.title.clone())
    }

    /// The instructions as markdown to draw.
    pub fn instructions_markdown(&self) -> Option<String> {
        let instructions = self.instructions.value()?;
        Some(document::display_markdown(&instructions.instructions))
    }

    fn call(&self, call: OrgSettingsCall, ctx: &mut Ctx) -> (RequestId, Cmd) {
        let request = ctx.requests.issue();
        (
            request,
            Cmd::Api {
                request,
                call: ApiCall::OrgSettings(call),
            },
        )
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let organization = self.organization.id.clone();
        let (request, fresh) = self.call(
            OrgSettingsCall::Organization {
                organization: organization.clone(),
            },
            ctx,
        );
        self.organization_request = Some(request);
        let (request, sites) = self.call(
            OrgSettingsCall::Sites {
                organization: organization.clone(),
            },
            ctx,
        );
        self.sites.start(request);
        let (request, instructions) =
            self.call(OrgSettingsCall::Instructions { organization }, ctx);
        self.instructions.start(request);
        Cmd::batch([fresh, sites, instructions])
    }

    fn send(&mut self, call: OrgSettingsCall, pending: Pending, ctx: &mut Ctx) -> Cmd {
        let (request, cmd) = self.call(call, ctx);
        self.pending = Some((request, pending));
        cmd
    }

    fn say(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::info(text));
    }

    fn warn(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::error(text));
    }

    fn refuse_unless_admin(&mut self, what: &str) -> bool {
        if self.is_admin() {
            return false;
        }
        self.warn(format!("Only organization admins may {what}."));
        true
    }

    /// enter on a field: type, flip or pick.
    fn open_field(&mut self) {
        let Some(field) = self.form.selected_field() else {
            return;
        };
        if field.is_switch() {
            self.form.toggle(field);
            return;
        }
        self.modal = match field {
            Field::DefaultRole => Some(SettingsModal::Role(role_picker(
                self.form.values.default_role.as_ref(),
            ))),
            Field::DefaultContent => Some(SettingsModal::Site(self.site_picker())),
            Field::MergeRules => Some(SettingsModal::MergeRules(self.rules_picker())),
            _ => {
                self.form.start_editing();
                None
            }
        };
    }

    fn site_picker(&self) -> Picker<()> {
        let mut options = vec![PickOption {
            value: String::new(),
            label: "none".into(),
            detail: "no default content".into(),
        }];
        options.extend(
            self.sites
                .value()
                .into_iter()
                .flatten()
                .map(|site| PickOption {
                    value: site.id.clone(),
                    label: site.title.clone(),
                    detail: site.id.clone(),
                }),
        );
        let title = if self.sites.value().is_some() {
            "Default content (a site)"
        } else {
            "Default content (sites not loaded)"
        };
        Picker::new(title, options, ()).at(Some(
            self.form
                .values
                .default_content
                .as_deref()
                .unwrap_or_default(),
        ))
    }

    fn rules_picker(&self) -> Picker<()> {
        let options = form::SIMPLE_RULES
            .iter()
            .map(|(name, meaning)| PickOption {
                value: name.to_string(),
                label: meaning.to_string(),
                detail: name.to_string(),
            })
            .collect();
        let mut picker =
            Picker::new("Merge rules (space marks, enter keeps)", options, ()).multiple();
        let current = form::rule_names(&self.form.values.merge_rules);
        for (index, (name, _)) in form::SIMPLE_RULES.iter().enumerate() {
            if current.iter().any(|rule| rule == name) {
                picker.chosen.insert(index);
            }
        }
        picker
    }

    fn save(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.refuse_unless_admin("change the organization's settings") {
            return Cmd::None;
        }
        self.form.commit();
        if let Some((field, reason)) = self.form.first_error() {
            self.form.select(field);
            self.warn(format!("{} {reason}: not saved.", field.label()));
            return Cmd::None;
        }
        let changed = self.form.changed_fields();
        if changed.is_empty() {
            self.say("Nothing changed: nothing was sent.");
            return Cmd::None;
        }
        let public = form::public_mail_domains(&self.form.values.email_domains);
        if changed.contains(&Field::EmailDomains) && !public.is_empty() {
            let list = public.join(", ");
            self.modal = Some(SettingsModal::ConfirmPublicDomains(Confirm::new(
                format!("Let anyone with a {list} address join?"),
                format!(
                    "{list} is a public mail service: anyone can get an address there and join {} on their own.",
                    crate::ui::sanitize::sanitize(&self.organization.title)
                ),
                "save",
            )));
            return Cmd::None;
        }
        self.send_save(changed, ctx)
    }

    fn send_save(&mut self, changed: Vec<Field>, ctx: &mut Ctx) -> Cmd {
        self.say("Saving…");
        let call = OrgSettingsCall::Save {
            organization: self.organization.id.clone(),
            update: self.form.update(),
        };
        self.send(call, Pending::Save(changed), ctx)
    }

    /// `D`: the composer on the unsent draft if there is one, else the instructions as text.
    fn open_instructions(&mut self) {
        let editable = self
            .instructions
            .value()
            .map(|instructions| document::to_text(&instructions.instructions))
            .unwrap_or_default();
        let text = self.draft.clone().unwrap_or_else(|| editable.text.clone());
        let title = match document::kept_notice(editable.kept.len()) {
            Some(kept) => format!("Agent instructions — {kept}"),
            None => "Agent instructions".to_string(),
        };
        let mut composer = Composer::new(title, &text);
        composer.allow_blank = true;
        self.modal = Some(SettingsModal::Instructions {
            composer: Box::new(composer),
            kept: editable.kept,
        });
    }

    fn on_composer_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Step {
        let key_name = self.draft_key();
        let admin = self.is_admin();
        let Some(SettingsModal::Instructions { composer, kept }) = self.modal.as_mut() else {
            return Step::default();
        };
        match composer.handle_key(key) {
            ComposerOutcome::Edited => {
                let text = composer.text();
                self.draft = Some(text.clone());
                Step::cmd(Cmd::SaveDraft {
                    key: key_name,
                    text,
                })
            }
            ComposerOutcome::Submit => {
                let document = match document::from_text(&composer.text(), kept) {
                    Ok(document) => document,
                    Err(error) => {
                        composer.error = Some(error);
                        return Step::default();
                    }
                };
                if !admin {
                    composer.error =
                        Some("Only organization admins may change the agent instructions.".into());
                    return Step::default();
                }
                composer.submitting = true;
                composer.error = None;
                let call = OrgSettingsCall::SaveInstructions {
                    organization: self.organization.id.clone(),
                    document,
                };
                Step::cmd(self.send(call, Pending::Instructions, ctx))
            }
            ComposerOutcome::Closed => {
                self.modal = None;
                if self.draft.is_some() {
                    self.say("The unsaved agent instructions are kept as a draft: D opens them.");
                }
                Step::default()
            }
            ComposerOutcome::Discarded => {
                self.modal = None;
                self.draft = None;
                Step::cmd(Cmd::DiscardDraft { key: key_name })
            }
            ComposerOutcome::OpenEditor => Step::cmd(Cmd::EditExternally {
                key: key_name,
                text: composer.text(),
            }),
            ComposerOutcome::Ignored => Step::default(),
        }
    }

    fn on_modal_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Step {
        let Some(modal) = self.modal.as_mut() else {
            return Step::default();
        };
        match modal {
            SettingsModal::Instructions { .. } => return self.on_composer_key(key, ctx),
            SettingsModal::Role(picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    self.form.values.default_role =
                        values.first().and_then(|value| picked_role(value));
                    self.modal = None;
                }
                PickOutcome::Cancelled => self.modal = None,
                PickOutcome::Pending => {}
            },
            SettingsModal::Site(picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    self.form.values.default_content =
                        values.first().filter(|id| !id.is_empty()).cloned();
                    self.modal = None;
                }
                PickOutcome::Cancelled => self.modal = None,
                PickOutcome::Pending => {}
            },
            SettingsModal::MergeRules(picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    self.form.values.merge_rules =
                        form::with_simple_rules(&self.form.original.merge_rules, &values);
                    self.modal = None;
                }
                PickOutcome::Cancelled => self.modal = None,
                PickOutcome::Pending => {}
            },
            SettingsModal::RevokePrompt(prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted if prompt.error().is_none() => {
                    let invite = invite_id(&prompt.input.text);
                    self.modal = Some(SettingsModal::ConfirmRevoke {
                        confirm: Confirm::new(
                            format!("Revoke invite link “{invite}”?"),
                            "Anyone holding it can no longer join through it.",
                            "revoke",
                        ),
                        invite,
                    });
                }
                InputOutcome::Cancelled => self.modal = None,
                _ => {}
            },
            SettingsModal::ConfirmRevoke { confirm, invite } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => {
                    let invite = invite.clone();
                    self.modal = None;
                    self.say(format!("Revoking invite link “{invite}”…"));
                    let call = OrgSettingsCall::RevokeInvite {
                        organization: self.organization.id.clone(),
                        invite: invite.clone(),
                    };
                    return Step::cmd(self.send(call, Pending::Revoke(invite), ctx));
                }
                ConfirmOutcome::Cancelled => self.modal = None,
                ConfirmOutcome::Ignored => {}
            },
            SettingsModal::ConfirmPublicDomains(confirm) => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => {
                    self.modal = None;
                    let changed = self.form.changed_fields();
                    return Step::cmd(self.send_save(changed, ctx));
                }
                ConfirmOutcome::Cancelled => {
                    self.modal = None;
                    self.form.select(Field::EmailDomains);
                    self.say("Not saved: the email domains are as you left them.");
                }
                ConfirmOutcome::Ignored => {}
            },
            SettingsModal::ConfirmLeave(confirm) => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => {
                    self.modal = None;
                    return Step::pop();
                }
                ConfirmOutcome::Cancelled => self.modal = None,
                ConfirmOutcome::Ignored => {}
            },
        }
        Step::default()
    }

    fn finish(&mut self, pending: Pending, response: &OrgSettingsResponse, ctx: &mut Ctx) -> Cmd {
        match (pending, response) {
            (Pending::Save(fields), OrgSettingsResponse::Organization(Ok(organization))) => {
                self.organization = organization.as_ref().clone();
                self.form.reset(organization);
                let names: Vec<&str> = fields.iter().map(|field| field.label()).collect();
                self.say(format!("Saved: {}.", names.join(", ")));
                Cmd::None
            }
            (Pending::Save(_), OrgSettingsResponse::Organization(Err(error))) => {
                let message = words(error);
                self.form.refused(&message);
                self.warn(format!("Not saved: {message}"));
                Cmd::None
            }
            (Pending::Instructions, OrgSettingsResponse::Instructions(Ok(instructions))) => {
                self.instructions = Loadable::Loaded(instructions.clone());
                self.modal = None;
                self.draft = None;
                self.say("Agent instructions saved.");
                let _ = ctx;
                Cmd::DiscardDraft {
                    key: self.draft_key(),
                }
            }
            (Pending::Instructions, OrgSettingsResponse::Instructions(Err(error))) => {
                let message = format!("Not saved (the draft is kept): {}", words(error));
                match self.modal.as_mut() {
                    Some(SettingsModal::Instructions { composer, .. }) => {
                        composer.submitting = false;
                        composer.error = Some(message);
                    }
                    _ => self.warn(message),
                }
                Cmd::None
            }
            (Pending::Revoke(invite), OrgSettingsResponse::Done(Ok(()))) => {
                // The service answers the same for an id it does not know.
                self.say(format!(
                    "Revoked invite link “{invite}” (if it existed: the service does not say)."
                ));
                Cmd::None
            }
            (Pending::Revoke(invite), OrgSettingsResponse::Done(Err(error))) => {
                self.warn(format!("“{invite}” was not revoked: {}", words(error)));
                Cmd::None
            }
            _ => Cmd::None,
        }
    }

    fn on_form_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.form.fields().len();
        match action {
            _ if crate::screens::step::move_selection(&mut self.form.selection, action, len, 5) => {
            }
            Action::Back if notice::dismiss_error(&mut self.notice) => {}
            Action::Back if self.form.is_dirty() => {
                let names: Vec<&str> = self
                    .form
                    .changed_fields()
                    .iter()
                    .map(|field| field.label())
                    .collect();
                self.modal = Some(SettingsModal::ConfirmLeave(Confirm::new(
                    "Leave without saving?",
                    format!(
                        "Changes to {} stay as a draft for next time. (s saves them now.)",
                        names.join(", ")
                    ),
                    "leave",
                )));
            }
            Action::Open => {
                if !self.refuse_unless_admin("change the organization's settings") {
                    self.open_field();
                }
            }
            Action::Save => return Some(Step::cmd(self.save(ctx))),
            Action::DropChanges => self.drop_changes(),
            Action::EditDescription => {
                if self.instructions.value().is_none() && self.draft.is_none() {
                    self.say("The agent instructions are still loading.");
                } else if !self.refuse_unless_admin("change the agent instructions") {
                    self.open_instructions();
                }
            }
            Action::Revoke => {
                if !self.refuse_unless_admin("revoke invite links") {
                    self.modal = Some(SettingsModal::RevokePrompt(Prompt::new(
                        "Revoke an invite link",
                        "its id or the whole invitation address (the API lists no invite links)",
                        "",
                        InviteId,
                    )));
                }
            }
            _ => return None,
        }
        Some(Step::default())
    }
}

impl SettingsTab {
    fn on_form_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        if self.modal.is_some() {
            return Some(self.on_modal_key(key, ctx));
        }
        if self.form.editing.is_some() {
            let before = self.form.values.clone();
            self.form.edit_key(key);
            // A value changed: a refusal of the save before it no longer holds.
            if self.form.values != before && self.notice.as_ref().is_some_and(|n| n.error) {
                self.notice = None;
            }
            return Some(Step::default());
        }
        None
    }

    fn paste(&mut self, text: &str) -> Cmd {
        match self.modal.as_mut() {
            Some(SettingsModal::Instructions { composer, .. }) => {
                composer.insert_str(text);
                let text = composer.text();
                self.draft = Some(text.clone());
                Cmd::SaveDraft {
                    key: self.draft_key(),
                    text,
                }
            }
            Some(SettingsModal::RevokePrompt(prompt)) => {
                prompt.input.insert_str(text);
                Cmd::None
            }
            Some(_) => Cmd::None,
            None => {
                self.form.paste(text);
                Cmd::None
            }
        }
    }

    fn on_settings_response(
        &mut self,
        request: RequestId,
        response: &ApiResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let ApiResponse::OrgSettings(response) = response else {
            return None;
        };
        if let Some((waiting, pending)) = self.pending.clone()
            && waiting == request
        {
            self.pending = None;
            return Some(Step::cmd(self.finish(pending, response, ctx)));
        }
        match response {
            OrgSettingsResponse::Organization(result)
                if self.organization_request == Some(request) =>
            {
                self.organization_request = None;
                match result {
                    Ok(organization) => {
                        self.organization = organization.as_ref().clone();
                        // The reload worked: a notice saying it failed is no longer true.
                        if self.notice.as_ref().is_some_and(|notice| {
                            notice.text.starts_with(crate::ui::status::RELOAD_FAILED)
                        }) {
                            self.notice = None;
                        }
                        self.organization_arrived(Some(organization), ctx);
                    }
                    Err(error) => {
                        self.organization_arrived(None, ctx);
                        self.warn(crate::ui::status::reload_failed_text(error));
                    }
                }
            }
            OrgSettingsResponse::Sites(result) => {
                if !self.sites.settle(request, result.clone()) {
                    return None;
                }
            }
            OrgSettingsResponse::Instructions(result) => {
                if !self.instructions.settle(request, result.clone()) {
                    return None;
                }
            }
            _ => return None,
        }
        Some(Step::default())
    }
}

impl ScreenState for SettingsTab {
    fn title(&self) -> String {
        "Settings".to_string()
    }

    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.instructions != Loadable::NotAsked {
            return Cmd::None;
        }
        let drafts = Cmd::LoadDrafts {
            prefix: self.draft_key(),
        };
        let settings = Cmd::LoadDrafts {
            prefix: self.settings_draft_key(),
        };
        Cmd::batch([self.load(ctx), drafts, settings])
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[
            KeyContext::OrgSettings,
            KeyContext::Form,
            KeyContext::Tabs,
            KeyContext::Browse,
        ]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "edit"),
            (Action::Save, "save"),
            (Action::EditDescription, "instructions"),
            (Action::Revoke, "revoke invite"),
            (Action::NextTab, "tab"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_form_raw_key(key, ctx);
        self.with_settings_draft(step)
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        let cmd = self.paste(text);
        Cmd::batch([cmd, self.keep_settings_draft()])
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_form_action(action, ctx);
        self.with_settings_draft(step)
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_settings_response(request, response, ctx);
        self.with_settings_draft(step)
    }
    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], ctx: &mut Ctx) -> Cmd {
        if prefix == self.settings_draft_key() {
            self.on_settings_draft(drafts, ctx);
        }
        if prefix == self.draft_key()
            && let Some((_, text)) = drafts.iter().find(|(key, _)| key == prefix)
        {
            self.draft = Some(text.clone());
            self.say("Unsaved agent instructions were restored: D opens them.");
        }
        Cmd::None
    }

    fn on_external_edit(&mut self, key: &str, text: String, _ctx: &mut Ctx) -> Cmd {
        if key != self.draft_key() {
            return Cmd::None;
        }
        if let Some(SettingsModal::Instructions { composer, .. }) = self.modal.as_mut() {
            composer.set_text(&text);
        }
        self.draft = Some(text.clone());
        Cmd::SaveDraft {
            key: key.to_string(),
            text,
        }
    }

    fn link(&self) -> Option<String> {
        self.organization.urls.app.clone()
    }

    fn disabled_actions(&self) -> Vec<Action> {
        if self.is_admin() {
            Vec::new()
        } else {
            vec![
                Action::Open,
                Action::Save,
                Action::EditDescription,
                Action::Revoke,
            ]
        }
    }

    fn unsaved_work(&self) -> Option<String> {
        self.form.is_dirty().then(|| {
            format!(
                "unsaved settings of {} (kept as a draft)",
                self.organization.title
            )
        })
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

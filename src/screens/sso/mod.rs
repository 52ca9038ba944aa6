//! The organization's Single sign-on tab: its SAML providers (list, create, edit,
//! delete) with the service's ACS URL, start URL and entity ID to copy, and the SSO login
//! infos. Anyone in the organization sees them; only admins change them (the screen strikes
//! the actions through, and shows the server's words when it refuses).

pub mod certificate;
mod drafts;
pub mod form;
mod view;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::WholeList;
use crate::api::error::server_message as words;
use crate::api::models::{MemberRole, Organization, SamlProvider, TeamSummary};
use crate::screens::ScreenState;
use crate::screens::form_draft::KeptDrafts;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::ui::prompt::Prompt;
use crate::ui::status;
use crate::vocabulary::sso::{SsoCall, SsoOverview, SsoResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

pub use form::{FormField, FormPopup, Needed, ProviderForm};

/// The teams a provider may put new members in, asked for when a form first opens.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum TeamChoices {
    #[default]
    NotAsked,
    Loading(RequestId),
    Loaded(WholeList<TeamSummary>),
    /// Why they could not be listed; a team id is typed instead.
    Failed(String),
}

/// A popup over the list.
#[derive(Debug, Clone, PartialEq)]
pub enum SsoModal {
    Form(Box<ProviderForm>),
    ConfirmDelete {
        confirm: Confirm,
        provider: String,
        label: String,
    },
}

/// The write in flight, with the provider's label for the notice once it is answered.
#[derive(Debug, Clone, PartialEq)]
enum Pending {
    Create(String),
    Update(String),
    Delete(String),
}

#[derive(Debug)]
pub struct SsoTab {
    pub organization: String,
    /// The organization says the caller administers it: writes are offered.
    pub admin: bool,
    pub overview: Loadable<SsoOverview>,
    pub selection: Selection,
    pub teams: TeamChoices,
    pub modal: Option<SsoModal>,
    pub notice: Option<Notice>,
    pending: Option<(RequestId, Pending)>,
    certificate_request: Option<RequestId>,
    /// The provider to select once the list reloads (one just created).
    select_after_reload: Option<String>,
    /// The provider whose form is open, read alone by `r`.
    provider_read: Option<RequestId>,
    /// Unsaved form values, kept on disk per provider.
    drafts: KeptDrafts,
}

pub fn new(organization: &Organization) -> SsoTab {
    SsoTab {
        organization: organization.id.clone(),
        admin: organization.permissions.admin,
        overview: Loadable::NotAsked,
        selection: Selection::default(),
        teams: TeamChoices::NotAsked,
        modal: None,
        notice: None,
        pending: None,
        certificate_request: None,
        select_after_reload: None,
        provider_read: None,
        drafts: KeptDrafts::default(),
    }
}

/// Every role with what it means, and guest (null), for the default role picker.
pub const ROLES: [(Option<MemberRole>, &str, &str); 7] = [
    (Some(MemberRole::Admin), "admin", "administrate content"),
    (Some(MemberRole::Create), "create", "create content"),
    (
        Some(MemberRole::Edit),
        "edit",
        "edit content and change requests",
    ),
    (Some(MemberRole::Review), "review", "review content"),
    (Some(MemberRole::Comment), "comment", "read and discuss"),
    (Some(MemberRole::Read), "read", "read only"),
    (None, "guest", "no organization role (null)"),
];

/// "guest" for a null role.
pub fn role_name(role: Option<&MemberRole>) -> String {
    role.map_or_else(|| "guest".to_string(), |role| role.to_string())
}

pub fn role_picker(current: Option<&MemberRole>) -> Picker<()> {
    let options = ROLES
        .iter()
        .map(|(_, name, detail)| PickOption {
            value: name.to_string(),
            label: name.to_string(),
            detail: detail.to_string(),
        })
        .collect();
    Picker::new("Default role", options, ()).at(Some(&role_name(current)))
}

/// The role a picked value stands for (`guest` = `None`).
pub fn picked_role(value: &str) -> Option<MemberRole> {
    ROLES
        .iter()
        .find(|(_, name, _)| *name == value)
        .and_then(|(role, _, _)| role.clone())
}

impl SsoTab {
    pub fn providers(&self) -> &[SamlProvider] {
        self.overview
            .value()
            .map_or(&[], |overview| overview.providers.as_slice())
    }

    pub fn selected(&self) -> Option<&SamlProvider> {
        self.providers().get(self.selection.selected)
    }

    /// A team's title when the teams are known, else its id.
    pub fn team_title(&self, id: &str) -> String {
        match &self.teams {
            TeamChoices::Loaded(teams) => teams
                .items
                .iter()
                .find(|team| team.id == id)
                .map_or_else(|| id.to_string(), |team| team.title.clone()),
            _ => id.to_string(),
        }
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.overview.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Sso(SsoCall::Overview {
                organization: self.organization.clone(),
            }),
        }
    }

    fn send(&mut self, ctx: &mut Ctx, call: SsoCall, pending: Pending) -> Cmd {
        let request = ctx.requests.issue();
        self.pending = Some((request, pending));
        Cmd::Api {
            request,
            call: ApiCall::Sso(call),
        }
    }

    fn say(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::info(text));
    }

    fn warn(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::error(text));
    }

    /// Non-admins are told why, before anything is sent.
    fn refuse_unless_admin(&mut self, what: &str) -> bool {
        if self.admin {
            return false;
        }
        self.warn(format!("Only organization admins may {what}."));
        true
    }

    /// A provider read alone: its row, and its form while it is open and untouched.
    fn adopt_read(&mut self, provider: &SamlProvider) {
        if let Some(overview) = self.overview.value_mut()
            && let Some(known) = overview.providers.iter_mut().find(|p| p.id == provider.id)
        {
            *known = provider.clone();
        }
        if let Some(SsoModal::Form(form)) = &mut self.modal
            && form.provider.as_deref() == Some(provider.id.as_str())
            && !form.is_dirty()
        {
            **form = ProviderForm::edit(provider);
        }
    }

    /// Opens the form, asking for the teams if they were not asked for yet.
    fn open_form(&mut self, form: ProviderForm, ctx: &mut Ctx) -> Cmd {
        self.open_form_with_draft(form, ctx);
        self.load_teams(ctx)
    }

    /// The teams, once: they name the providers' default teams and fill the form's picker.
    fn load_teams(&mut self, ctx: &mut Ctx) -> Cmd {
        if !matches!(self.teams, TeamChoices::NotAsked | TeamChoices::Failed(_)) {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.teams = TeamChoices::Loading(request);
        Cmd::Api {
            request,
            call: ApiCall::Sso(SsoCall::Teams {
                organization: self.organization.clone(),
            }),
        }
    }

    fn copy(&mut self, what: &str, value: Option<String>) -> Cmd {
        let Some(provider) = self.selected() else {
            self.say("No SAML provider is selected.");
            return Cmd::None;
        };
        let label = provider.label.clone();
        match value.filter(|value| !value.is_empty()) {
            Some(value) => {
                self.say(format!("Copied the {what} of “{label}”: {value}"));
                Cmd::CopyToClipboard(value)
            }
            None => {
                self.say(format!("The server gave no {what} for “{label}”."));
                Cmd::None
            }
        }
    }

    fn on_list_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.providers().len();
        let page = ctx.size.height.saturating_sub(8).max(1) as isize;
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {}
            Action::Back if notice::dismiss_error(&mut self.notice) => {}
            Action::Create => {
                if !self.refuse_unless_admin("add SAML providers") {
                    return Some(Step::cmd(self.open_form(ProviderForm::new_provider(), ctx)));
                }
            }
            Action::Open => {
                let provider = self.selected()?.clone();
                if !self.refuse_unless_admin("change SAML providers") {
                    return Some(Step::cmd(
                        self.open_form(ProviderForm::edit(&provider), ctx),
                    ));
                }
            }
            Action::Delete => {
                let provider = self.selected()?.clone();
                if !self.refuse_unless_admin("delete SAML providers") {
                    self.modal = Some(SsoModal::ConfirmDelete {
                        confirm: Confirm::new(
                            format!("Delete SAML provider “{}”?", provider.label),
                            "Members can no longer sign in through it. This cannot be undone.",
                            "delete",
                        ),
                        provider: provider.id,
                        label: provider.label,
                    });
                }
            }
            Action::CopyAcsUrl => {
                let value = self.selected()?.service.acs_url.clone();
                return Some(Step::cmd(self.copy("ACS URL", value)));
            }
            Action::CopyStartUrl => {
                let value = self.selected()?.service.start_url.clone();
                return Some(Step::cmd(self.copy("start URL", value)));
            }
            Action::CopyEntityId => {
                let value = self.selected()?.service.entity_id.clone();
                return Some(Step::cmd(self.copy("entity ID", value)));
            }
            _ => return None,
        }
        Some(Step::default())
    }

    fn on_form_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let Some(SsoModal::Form(form)) = self.modal.as_mut() else {
            return None;
        };
        if form.saving {
            return Some(Step::default());
        }
        let len = form.fields().len();
        match action {
            _ if crate::screens::step::move_selection(&mut form.selection, action, len, 3) => {}
            Action::Open => match form.selected_field() {
                Some(FormField::DefaultRole) => {
                    form.popup = Some(FormPopup::Role(role_picker(
                        form.values.default_role.as_ref(),
                    )));
                }
                Some(FormField::DefaultTeam) => {
                    form.popup = Some(team_popup(&self.teams, form.values.default_team.as_deref()));
                }
                _ => form.start_editing(),
            },
            Action::LoadCertificate => {
                form.popup = Some(FormPopup::CertificatePath(Prompt::new(
                    "Load the certificate from a file",
                    "a PEM file, e.g. ~/okta.pem",
                    "",
                    Needed::CertificatePath,
                )));
            }
            Action::Save => return Some(Step::cmd(self.save(ctx))),
            Action::DropChanges => self.drop_form_changes(),
            Action::Back => {
                if form.is_dirty() {
                    form.popup = Some(FormPopup::Discard(Confirm::new(
                        "Close without saving?",
                        "The changes stay as a draft: opening this form again offers them.",
                        "close",
                    )));
                } else {
                    self.modal = None;
                }
            }
            // Quitting, help, suspending and reading the provider again still work with the
            // form open (quitting asks).
            Action::Quit | Action::Help | Action::Suspend | Action::Refresh => return None,
            _ => return Some(Step::default()),
        }
        Some(Step::default())
    }

    fn save(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(SsoModal::Form(form)) = self.modal.as_mut() else {
            return Cmd::None;
        };
        if let Some((field, reason)) = form.first_error() {
            form.select(field);
            form.server_error = Some((Some(field), format!("{}: {reason}", field.label())));
            return Cmd::None;
        }
        let input = form.input();
        let label = form.values.label.trim().to_string();
        let organization = self.organization.clone();
        let (call, pending) = match form.provider.clone() {
            None => (
                SsoCall::Create {
                    organization,
                    input,
                },
                Pending::Create(label),
            ),
            Some(_) if input.is_empty() => {
                self.modal = None;
                self.say("Nothing changed: nothing was sent.");
                return Cmd::None;
            }
            Some(provider) => (
                SsoCall::Update {
                    organization,
                    provider,
                    input,
                },
                Pending::Update(label),
            ),
        };
        form.saving = true;
        form.server_error = None;
        self.send(ctx, call, pending)
    }

    /// Keys for a popup over the form: a picker, a prompt, the question before closing.
    fn on_form_popup_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let Some(SsoModal::Form(form)) = self.modal.as_mut() else {
            return None;
        };
        let popup = form.popup.as_mut()?;
        let mut cmd = Cmd::None;
        match popup {
            FormPopup::Role(picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    form.values.default_role = values.first().and_then(|value| picked_role(value));
                    form.popup = None;
                }
                PickOutcome::Cancelled => form.popup = None,
                PickOutcome::Pending => {}
            },
            FormPopup::Team(picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    form.values.default_team = values.first().cloned();
                    form.popup = None;
                }
                PickOutcome::Cancelled => form.popup = None,
                PickOutcome::Pending => {}
            },
            FormPopup::TeamId(prompt) | FormPopup::CertificatePath(prompt) => {
                let purpose = prompt.purpose;
                match prompt.input.handle_key(key) {
                    crate::ui::input::InputOutcome::Submitted if prompt.error().is_none() => {
                        let text = prompt.input.text.trim().to_string();
                        form.popup = None;
                        match purpose {
                            Needed::TeamId => form.values.default_team = Some(text),
                            Needed::CertificatePath => {
                                let request = ctx.requests.issue();
                                self.certificate_request = Some(request);
                                cmd = Cmd::Api {
                                    request,
                                    call: ApiCall::Sso(SsoCall::ReadCertificate { path: text }),
                                };
                            }
                        }
                    }
                    crate::ui::input::InputOutcome::Cancelled => form.popup = None,
                    _ => {}
                }
            }
            FormPopup::Discard(confirm) => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => self.modal = None,
                ConfirmOutcome::Cancelled => form.popup = None,
                ConfirmOutcome::Ignored => {}
            },
        }
        Some(Step::cmd(cmd))
    }

    fn on_delete_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let Some(SsoModal::ConfirmDelete {
            confirm,
            provider,
            label,
        }) = self.modal.clone()
        else {
            return None;
        };
        match confirm.handle_key(key) {
            ConfirmOutcome::Confirmed => {
                self.modal = None;
                self.say(format!("Deleting “{label}”…"));
                let call = SsoCall::Delete {
                    organization: self.organization.clone(),
                    provider,
                };
                return Some(Step::cmd(self.send(ctx, call, Pending::Delete(label))));
            }
            ConfirmOutcome::Cancelled => self.modal = None,
            ConfirmOutcome::Ignored => {}
        }
        Some(Step::default())
    }

    /// The answer to a write: say what happened; a refused form stays open with the reason.
    fn finish(&mut self, pending: Pending, response: &SsoResponse, ctx: &mut Ctx) -> Cmd {
        match (pending, response) {
            (Pending::Create(label), SsoResponse::Provider(Ok(provider)))
            | (Pending::Update(label), SsoResponse::Provider(Ok(provider))) => {
                let created = matches!(self.modal, Some(SsoModal::Form(ref form)) if form.is_new());
                let discard = self.discard_form_draft();
                self.modal = None;
                let verb = if created { "Created" } else { "Saved" };
                self.say(format!(
                    "{verb} SAML provider “{label}” ({}).",
                    provider.status.as_deref().unwrap_or("status unknown")
                ));
                self.select_after_reload = Some(provider.id.clone());
                Cmd::batch([discard, self.load(ctx)])
            }
            (Pending::Create(_) | Pending::Update(_), SsoResponse::Provider(Err(error))) => {
                let message = words(error);
                match self.modal.as_mut() {
                    Some(SsoModal::Form(form)) => form.refused(&message),
                    _ => self.warn(message),
                }
                Cmd::None
            }
            (Pending::Delete(label), SsoResponse::Deleted(Ok(()))) => {
                self.say(format!("Deleted SAML provider “{label}”."));
                self.load(ctx)
            }
            (Pending::Delete(label), SsoResponse::Deleted(Err(error))) => {
                self.warn(format!("“{label}” was not deleted: {}", words(error)));
                Cmd::None
            }
            _ => Cmd::None,
        }
    }
}

fn team_popup(teams: &TeamChoices, current: Option<&str>) -> FormPopup {
    match teams {
        TeamChoices::Loaded(teams) if !teams.items.is_empty() => {
            let options = teams
                .items
                .iter()
                .map(|team| PickOption {
                    value: team.id.clone(),
                    label: team.title.clone(),
                    detail: team.id.clone(),
                })
                .collect();
            let title = status::picker_title("Default team", teams.stopped_after_pages());
            FormPopup::Team(Picker::new(&title, options, ()).at(current))
        }
        other => {
            let why = match other {
                TeamChoices::Failed(reason) => format!("teams could not be listed ({reason})"),
                TeamChoices::Loaded(_) => "the organization has no teams".to_string(),
                _ => "teams are still loading".to_string(),
            };
            FormPopup::TeamId(Prompt::new(
                &format!("Default team id ({why})"),
                "type a team id",
                current.unwrap_or_default(),
                Needed::TeamId,
            ))
        }
    }
}

impl SsoTab {
    fn on_tab_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        notice::on_key(&mut self.notice);
        match self.modal.as_mut()? {
            SsoModal::ConfirmDelete { .. } => self.on_delete_key(key, ctx),
            SsoModal::Form(form) if form.popup.is_some() => self.on_form_popup_key(key, ctx),
            SsoModal::Form(form) if form.editing.is_some() => {
                form.edit_key(key);
                Some(Step::default())
            }
            SsoModal::Form(_) => None,
        }
    }

    fn paste(&mut self, text: &str) {
        if let Some(SsoModal::Form(form)) = self.modal.as_mut() {
            match form.popup.as_mut() {
                Some(FormPopup::TeamId(prompt) | FormPopup::CertificatePath(prompt)) => {
                    prompt.input.insert_str(text)
                }
                Some(_) => {}
                None => form.paste(text),
            }
        }
    }

    fn on_tab_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        match self.modal {
            Some(SsoModal::Form(_)) => self.on_form_action(action, ctx),
            Some(SsoModal::ConfirmDelete { .. }) => Some(Step::default()),
            None => self.on_list_action(action, ctx),
        }
    }

    fn on_tab_response(
        &mut self,
        request: RequestId,
        response: &ApiResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let ApiResponse::Sso(response) = response else {
            return None;
        };
        if let Some((waiting, pending)) = self.pending.clone()
            && waiting == request
        {
            self.pending = None;
            return Some(Step::cmd(self.finish(pending, response, ctx)));
        }
        match response {
            SsoResponse::Read(result) if self.provider_read == Some(request) => {
                self.provider_read = None;
                match result {
                    Ok(provider) => self.adopt_read(provider),
                    Err(error) => self.notice = Some(Notice::error(words(error))),
                }
            }
            SsoResponse::Overview(result) => {
                if !self.overview.settle(request, result.clone()) {
                    return None;
                }
                if let Some(id) = self.select_after_reload.take()
                    && let Some(index) = self.providers().iter().position(|p| p.id == id)
                {
                    self.selection.select(index, self.providers().len());
                }
                self.selection.clamp(self.providers().len());
            }
            SsoResponse::Teams(result) => {
                if self.teams != TeamChoices::Loading(request) {
                    return None;
                }
                self.teams = match result {
                    Ok(teams) => TeamChoices::Loaded(teams.clone()),
                    Err(error) => TeamChoices::Failed(words(error)),
                };
            }
            SsoResponse::Certificate(result) => {
                if self.certificate_request != Some(request) {
                    return None;
                }
                self.certificate_request = None;
                if let Some(SsoModal::Form(form)) = self.modal.as_mut() {
                    match result {
                        Ok(text) => form.set_certificate(text),
                        Err(reason) => {
                            form.server_error = Some((Some(FormField::Certificate), reason.clone()))
                        }
                    }
                }
            }
            _ => return None,
        }
        Some(Step::default())
    }
}

impl ScreenState for SsoTab {
    fn title(&self) -> String {
        "SSO".to_string()
    }

    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.overview == Loadable::NotAsked {
            let drafts = Cmd::LoadDrafts {
                prefix: self.form_draft_prefix(),
            };
            return Cmd::batch([self.load(ctx), self.load_teams(ctx), drafts]);
        }
        Cmd::None
    }

    /// With a provider's form open and untouched, that provider alone is read again;
    /// otherwise the whole tab.
    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(SsoModal::Form(form)) = &self.modal else {
            return self.load(ctx);
        };
        let Some(provider) = form.provider.clone().filter(|_| !form.is_dirty()) else {
            return self.load(ctx);
        };
        let request = ctx.requests.issue();
        self.provider_read = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::Sso(SsoCall::Provider {
                organization: self.organization.clone(),
                provider,
            }),
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        match self.modal {
            Some(SsoModal::Form(_)) => {
                &[KeyContext::SamlForm, KeyContext::Form, KeyContext::Browse]
            }
            _ => &[
                KeyContext::SsoProviders,
                KeyContext::Tabs,
                KeyContext::Browse,
            ],
        }
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        if let Some(SsoModal::Form(_)) = self.modal {
            return vec![
                (Action::Open, "edit field"),
                (Action::Save, "save"),
                (Action::LoadCertificate, "cert from file"),
                (Action::Back, "close"),
                (Action::Help, "keys"),
            ];
        }
        vec![
            (Action::Create, "new"),
            (Action::Open, "edit"),
            (Action::Delete, "delete"),
            (Action::CopyAcsUrl, "ACS URL"),
            (Action::CopyStartUrl, "start URL"),
            (Action::CopyEntityId, "entity ID"),
            (Action::NextTab, "tab"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_tab_raw_key(key, ctx);
        self.with_form_draft(step)
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        self.paste(text);
        self.keep_form_draft()
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_tab_action(action, ctx);
        self.with_form_draft(step)
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let step = self.on_tab_response(request, response, ctx);
        self.with_form_draft(step)
    }

    fn on_drafts(&mut self, prefix: &str, drafts: &[(String, String)], _ctx: &mut Ctx) -> Cmd {
        if prefix == self.form_draft_prefix() {
            self.on_form_drafts(drafts);
        }
        Cmd::None
    }
    fn link(&self) -> Option<String> {
        self.selected()?.service.start_url.clone()
    }

    fn disabled_actions(&self) -> Vec<Action> {
        if self.admin {
            Vec::new()
        } else {
            vec![Action::Create, Action::Open, Action::Delete]
        }
    }

    fn unsaved_work(&self) -> Option<String> {
        match &self.modal {
            Some(SsoModal::Form(form)) if form.is_dirty() => {
                Some("an unsaved SAML provider form (kept as a draft)".to_string())
            }
            _ => None,
        }
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

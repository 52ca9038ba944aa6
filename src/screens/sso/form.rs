//! The SAML provider form: what the server has (`original`, empty for a new provider), what
//! the user made of it (`values`), each field checked as it is typed, and the body holding only
//! what changed (or, for a new provider, what was filled in).

use ratatui::crossterm::event::KeyEvent;

use super::certificate::{self, CertificateFacts};
use crate::api::SamlProviderInput;
use crate::api::models::{MemberRole, SamlProvider};
use crate::ui::confirm::Confirm;
use crate::ui::input::{InputOutcome, LineInput};
use crate::ui::list::Selection;
use crate::ui::picker::Picker;
use crate::ui::prompt::{Prompt, TextCheck};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormField {
    Label,
    EntityId,
    SsoUrl,
    Certificate,
    DefaultTeam,
    DefaultRole,
}

impl FormField {
    pub const ALL: [FormField; 6] = [
        FormField::Label,
        FormField::EntityId,
        FormField::SsoUrl,
        FormField::Certificate,
        FormField::DefaultTeam,
        FormField::DefaultRole,
    ];

    pub fn label(self) -> &'static str {
        match self {
            FormField::Label => "Label",
            FormField::EntityId => "Entity ID",
            FormField::SsoUrl => "SSO URL",
            FormField::Certificate => "Certificate",
            FormField::DefaultTeam => "Default team",
            FormField::DefaultRole => "Default role",
        }
    }

    /// The name in the request body, also how the server names it in a 400.
    pub fn wire_name(self) -> &'static str {
        match self {
            FormField::Label => "label",
            FormField::EntityId => "entityID",
            FormField::SsoUrl => "ssoURL",
            FormField::Certificate => "certificate",
            FormField::DefaultTeam => "defaultTeam",
            FormField::DefaultRole => "defaultRole",
        }
    }

    /// Typed into a line input (the others are picked from a list).
    pub fn is_text(self) -> bool {
        !matches!(self, FormField::DefaultTeam | FormField::DefaultRole)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProviderValues {
    pub label: String,
    pub entity_id: String,
    pub sso_url: String,
    pub certificate: String,
    /// A team id.
    pub default_team: Option<String>,
    /// `None` is guest.
    pub default_role: Option<MemberRole>,
}

impl ProviderValues {
    fn from_provider(provider: &SamlProvider) -> ProviderValues {
        ProviderValues {
            label: provider.label.clone(),
            entity_id: provider.entity_id.clone().unwrap_or_default(),
            sso_url: provider.sso_url.clone().unwrap_or_default(),
            certificate: provider.certificate.clone().unwrap_or_default(),
            default_team: provider.default_team.as_ref().map(|team| team.id.clone()),
            default_role: provider.default_role.clone(),
        }
    }
}

/// What a path or a team id typed in a prompt must be: something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needed {
    CertificatePath,
    TeamId,
}

impl TextCheck for Needed {
    fn check(&self, text: &str) -> Option<String> {
        match self {
            _ if !text.trim().is_empty() => None,
            Needed::CertificatePath => Some("type the path of a PEM file".into()),
            Needed::TeamId => Some("type a team id".into()),
        }
    }
}

/// A popup over the form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormPopup {
    Team(Picker<()>),
    Role(Picker<()>),
    /// Teams could not be listed: a team id typed instead.
    TeamId(Prompt<Needed>),
    CertificatePath(Prompt<Needed>),
    /// Closing with changes asks first.
    Discard(Confirm),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProviderForm {
    /// The provider being changed; `None` for a new one.
    pub provider: Option<String>,
    pub original: ProviderValues,
    pub values: ProviderValues,
    pub selection: Selection,
    /// The line being typed into, for the selected text field.
    pub editing: Option<LineInput>,
    pub popup: Option<FormPopup>,
    /// The server's refusal (or a file that could not be read), beside the field it names.
    pub server_error: Option<(Option<FormField>, String)>,
    /// A save is on its way: keys that would change the form wait.
    pub saving: bool,
}

impl ProviderForm {
    pub fn new_provider() -> ProviderForm {
        ProviderForm::default()
    }

    pub fn edit(provider: &SamlProvider) -> ProviderForm {
        let values = ProviderValues::from_provider(provider);
        ProviderForm {
            provider: Some(provider.id.clone()),
            original: values.clone(),
            values,
            ..ProviderForm::default()
        }
    }

    pub fn is_new(&self) -> bool {
        self.provider.is_none()
    }

    pub fn selected_field(&self) -> FormField {
        FormField::ALL
            .get(self.selection.selected)
            .copied()
            .unwrap_or(FormField::Label)
    }

    pub fn select(&mut self, field: FormField) {
        if let Some(index) = FormField::ALL.iter().position(|f| *f == field) {
            self.selection.select(index, FormField::ALL.len());
        }
    }

    /// The text of a text field as it stands, the line being typed included.
    pub fn text_of(&self, field: FormField) -> &str {
        if let Some(input) = &self.editing
            && self.selected_field() == field
        {
            return &input.text;
        }
        match field {
            FormField::Label => &self.values.label,
            FormField::EntityId => &self.values.entity_id,
            FormField::SsoUrl => &self.values.sso_url,
            FormField::Certificate => &self.values.certificate,
            FormField::DefaultTeam | FormField::DefaultRole => "",
        }
    }

    /// The certificate's facts, or why it is not one; `None` while it is empty.
    pub fn certificate(&self) -> Option<Result<CertificateFacts, String>> {
        let text = self.text_of(FormField::Certificate);
        (!text.trim().is_empty()).then(|| certificate::inspect(text))
    }

    /// Why a field's value would be refused, checked as the user types.
    pub fn error(&self, field: FormField) -> Option<String> {
        let text = self.text_of(field);
        let length = text.chars().count();
        match field {
            FormField::Label if text.trim().is_empty() => Some("needs 1 to 30 characters".into()),
            FormField::Label if length > 30 => Some(format!("at most 30 characters ({length})")),
            FormField::EntityId if length > 1024 => {
                Some(format!("at most 1024 characters ({length})"))
            }
            FormField::SsoUrl if length > 2048 => {
                Some(format!("at most 2048 characters ({length})"))
            }
            FormField::SsoUrl if !text.is_empty() && !is_http_url(text) => {
                Some("an address such as https://idp.example.com/sso".into())
            }
            FormField::Certificate if length > certificate::MAX_LENGTH => Some(format!(
                "at most {} characters ({length})",
                certificate::MAX_LENGTH
            )),
            FormField::Certificate => match self.certificate() {
                Some(Err(reason)) => Some(format!("not a certificate: {reason}")),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn is_changed(&self, field: FormField) -> bool {
        let (original, values) = (&self.original, &self.values);
        match field {
            FormField::Label => original.label != values.label,
            FormField::EntityId => original.entity_id != values.entity_id,
            FormField::SsoUrl => original.sso_url != values.sso_url,
            FormField::Certificate => original.certificate.trim() != values.certificate.trim(),
            FormField::DefaultTeam => original.default_team != values.default_team,
            FormField::DefaultRole => original.default_role != values.default_role,
        }
    }

    pub fn is_dirty(&self) -> bool {
        FormField::ALL.iter().any(|field| self.is_changed(*field)) || self.editing.is_some()
    }

    /// The first field that blocks a save: any field of a new provider, only changed fields of
    /// an existing one (what the server holds is its business).
    pub fn first_error(&self) -> Option<(FormField, String)> {
        FormField::ALL
            .into_iter()
            .filter(|field| self.is_new() || self.is_changed(*field))
            .find_map(|field| self.error(field).map(|reason| (field, reason)))
    }

    /// The body: for a new provider the fields filled in, else only what changed.
    pub fn input(&self) -> SamlProviderInput {
        let new = self.is_new();
        let send = |field: FormField, value: &str| {
            let wanted = if new {
                !value.is_empty()
            } else {
                self.is_changed(field)
            };
            wanted.then(|| value.to_string())
        };
        let values = &self.values;
        let certificate = match self.certificate() {
            Some(Ok(facts)) => facts.pem,
            _ => values.certificate.trim().to_string(),
        };
        SamlProviderInput {
            label: send(FormField::Label, values.label.trim()),
            entity_id: send(FormField::EntityId, values.entity_id.trim()),
            certificate: send(FormField::Certificate, &certificate),
            sso_url: send(FormField::SsoUrl, values.sso_url.trim()),
            default_team: values
                .default_team
                .clone()
                .filter(|_| self.is_changed(FormField::DefaultTeam)),
            default_role: (new || self.is_changed(FormField::DefaultRole))
                .then(|| values.default_role.clone()),
        }
    }

    /// Starts typing into the selected text field.
    pub fn start_editing(&mut self) {
        let field = self.selected_field();
        if field.is_text() {
            self.editing = Some(LineInput::with_text(self.text_of(field)));
        }
    }

    /// A key while typing: enter keeps the text, esc puts the old one back.
    pub fn edit_key(&mut self, key: &KeyEvent) {
        let Some(input) = self.editing.as_mut() else {
            return;
        };
        match input.handle_key(key) {
            InputOutcome::Submitted => self.commit(),
            InputOutcome::Cancelled => self.editing = None,
            _ => {}
        }
    }

    /// Pasted text goes into the line being typed; on the certificate it starts the typing.
    pub fn paste(&mut self, text: &str) {
        if self.editing.is_none() && self.selected_field().is_text() {
            self.start_editing();
        }
        if let Some(input) = self.editing.as_mut() {
            input.insert_str(text);
        }
    }

    /// Keeps the typed text in the field.
    pub fn commit(&mut self) {
        let Some(input) = self.editing.take() else {
            return;
        };
        let field = self.selected_field();
        self.set_text(field, input.text);
    }

    fn set_text(&mut self, field: FormField, text: String) {
        match field {
            FormField::Label => self.values.label = text,
            FormField::EntityId => self.values.entity_id = text,
            FormField::SsoUrl => self.values.sso_url = text,
            FormField::Certificate => self.values.certificate = text,
            FormField::DefaultTeam | FormField::DefaultRole => {}
        }
        if self
            .server_error
            .as_ref()
            .is_some_and(|(about, _)| *about == Some(field) || about.is_none())
        {
            self.server_error = None;
        }
    }

    /// A certificate read from a file.
    pub fn set_certificate(&mut self, text: &str) {
        self.editing = None;
        self.select(FormField::Certificate);
        self.set_text(FormField::Certificate, text.trim().to_string());
    }

    /// The server refused the save: keep its message, beside the field it names.
    pub fn refused(&mut self, message: &str) {
        self.saving = false;
        let field = FormField::ALL
            .into_iter()
            .find(|field| message.contains(&format!("\"{}\"", field.wire_name())));
        if let Some(field) = field {
            self.select(field);
        }
        self.server_error = Some((field, message.to_string()));
    }
}

/// An absolute http(s) address with a host.
pub fn is_http_url(text: &str) -> bool {
    url::Url::parse(text.trim())
        .is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_provider_sends_what_is_filled_in_and_guest_as_null() {
        let mut form = ProviderForm::new_provider();
        form.values.label = "Okta".into();
        form.values.sso_url = "https://idp.example/sso".into();
        let input = form.input();
        assert_eq!(input.label.as_deref(), Some("Okta"));
        assert_eq!(input.entity_id, None);
        assert_eq!(input.default_role, Some(None));
        assert_eq!(form.first_error(), None);
    }

    #[test]
    fn fields_are_checked_as_typed() {
        let mut form = ProviderForm::new_provider();
        assert_eq!(
            form.first_error().map(|(field, _)| field),
            Some(FormField::Label)
        );
        form.values.label = "x".repeat(31);
        assert!(form.error(FormField::Label).unwrap().contains("at most 30"));
        form.values.label = "Okta".into();
        form.values.sso_url = "idp.example/sso".into();
        assert!(form.error(FormField::SsoUrl).is_some());
        form.values.sso_url = String::new();
        form.values.certificate = "garbage".into();
        assert!(
            form.error(FormField::Certificate)
                .unwrap()
                .starts_with("not a certificate")
        );
        form.values.certificate = crate::sandbox::DEMO_CERTIFICATE.into();
        assert_eq!(form.first_error(), None);
    }
}

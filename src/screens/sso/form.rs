//! The SAML provider form: what the server has (`original`, empty for a new provider), what
//! the user made of it (`values`), each field checked as it is typed, and the body holding only
//! what changed (or, for a new provider, what was filled in).

use std::ops::{Deref, DerefMut};

use super::certificate::{self, CertificateFacts};
use crate::api::SamlProviderInput;
use crate::api::models::{MemberRole, SamlProvider};
use crate::ui::confirm::Confirm;
use crate::ui::form::{
    Compare, FieldSpec, Form, FormFields, Naming, picked_json, read_picked_json,
};
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
}

impl FormFields for FormField {
    type Values = ProviderValues;

    const ALL: &'static [FormField] = &[
        FormField::Label,
        FormField::EntityId,
        FormField::SsoUrl,
        FormField::Certificate,
        FormField::DefaultTeam,
        FormField::DefaultRole,
    ];

    /// Typed into a line input, but for the default team and role (picked from a list).
    fn spec(self) -> FieldSpec {
        let (label, wire_name) = (self.label(), self.wire_name());
        match self {
            FormField::Label => FieldSpec::text(label, wire_name).checked(label_error),
            FormField::EntityId => FieldSpec::text(label, wire_name).checked(entity_id_error),
            FormField::SsoUrl => FieldSpec::text(label, wire_name).checked(sso_url_error),
            FormField::Certificate => FieldSpec::text(label, wire_name)
                .compared(Compare::By(without_whitespace))
                .checked(certificate_error),
            FormField::DefaultTeam | FormField::DefaultRole => FieldSpec::choice(label, wire_name),
        }
    }

    fn text(self, values: &ProviderValues) -> &str {
        match self {
            FormField::Label => &values.label,
            FormField::EntityId => &values.entity_id,
            FormField::SsoUrl => &values.sso_url,
            FormField::Certificate => &values.certificate,
            FormField::DefaultTeam | FormField::DefaultRole => "",
        }
    }

    fn set_text(self, values: &mut ProviderValues, text: String) {
        match self {
            FormField::Label => values.label = text,
            FormField::EntityId => values.entity_id = text,
            FormField::SsoUrl => values.sso_url = text,
            FormField::Certificate => values.certificate = text,
            FormField::DefaultTeam | FormField::DefaultRole => {}
        }
    }

    fn picked_changed(self, original: &ProviderValues, values: &ProviderValues) -> bool {
        match self {
            FormField::DefaultTeam => original.default_team != values.default_team,
            FormField::DefaultRole => original.default_role != values.default_role,
            _ => false,
        }
    }

    fn picked_text(self, values: &ProviderValues) -> Option<String> {
        match self {
            FormField::DefaultTeam => picked_json(&values.default_team),
            FormField::DefaultRole => picked_json(&values.default_role),
            _ => None,
        }
    }

    fn set_picked_text(self, values: &mut ProviderValues, text: &str) -> bool {
        match self {
            FormField::DefaultTeam => read_picked_json(text, &mut values.default_team),
            FormField::DefaultRole => read_picked_json(text, &mut values.default_role),
            _ => false,
        }
    }
}

fn label_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    if text.trim().is_empty() {
        Some("needs 1 to 30 characters".into())
    } else if length > 30 {
        Some(format!("at most 30 characters ({length})"))
    } else {
        None
    }
}

fn entity_id_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    (length > 1024).then(|| format!("at most 1024 characters ({length})"))
}

fn sso_url_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    if length > 2048 {
        Some(format!("at most 2048 characters ({length})"))
    } else if !text.is_empty() && !is_http_url(text) {
        Some("an address such as https://idp.example.com/sso".into())
    } else {
        None
    }
}

/// A certificate's line breaks and indentation do not change it: it is typed on one line.
fn without_whitespace(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn certificate_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    if length > certificate::MAX_LENGTH {
        Some(format!(
            "at most {} characters ({length})",
            certificate::MAX_LENGTH
        ))
    } else if text.trim().is_empty() {
        None
    } else {
        certificate::inspect(text)
            .err()
            .map(|reason| format!("not a certificate: {reason}"))
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

#[derive(Debug, Clone, PartialEq)]
pub struct ProviderForm {
    /// The provider being changed; `None` for a new one.
    pub provider: Option<String>,
    pub form: Form<FormField>,
    pub popup: Option<FormPopup>,
    /// A save is on its way: keys that would change the form wait.
    pub saving: bool,
}

/// The form's cursor, typing, checks and changes are used through the provider form as they
/// are. Its server error is the server's refusal (or a file that could not be read).
impl Deref for ProviderForm {
    type Target = Form<FormField>;

    fn deref(&self) -> &Form<FormField> {
        &self.form
    }
}

impl DerefMut for ProviderForm {
    fn deref_mut(&mut self) -> &mut Form<FormField> {
        &mut self.form
    }
}

impl ProviderForm {
    fn with(provider: Option<String>, values: ProviderValues) -> ProviderForm {
        let mut form = Form::new(values);
        form.creating = provider.is_none();
        form.edits_clear_form_error = true;
        ProviderForm {
            provider,
            form,
            popup: None,
            saving: false,
        }
    }

    pub fn new_provider() -> ProviderForm {
        ProviderForm::with(None, ProviderValues::default())
    }

    pub fn edit(provider: &SamlProvider) -> ProviderForm {
        ProviderForm::with(
            Some(provider.id.clone()),
            ProviderValues::from_provider(provider),
        )
    }

    pub fn is_new(&self) -> bool {
        self.provider.is_none()
    }

    /// The certificate's facts, or why it is not one; `None` while it is empty.
    pub fn certificate(&self) -> Option<Result<CertificateFacts, String>> {
        let text = self.text_of(FormField::Certificate);
        (!text.trim().is_empty()).then(|| certificate::inspect(text))
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

    /// Starts typing into the selected text field. A certificate is typed on one line: its
    /// line breaks (a loaded PEM has them) become spaces, which it reads the same without.
    pub fn start_editing(&mut self) {
        self.form.start_editing();
        if self.selected_field() == Some(FormField::Certificate)
            && let Some(input) = self.editing.as_mut()
        {
            *input = crate::ui::input::LineInput::with_text(&certificate::one_line(&input.text));
        }
    }

    /// Pasted text goes into the line being typed; on the certificate it starts the typing.
    pub fn paste(&mut self, text: &str) {
        if self.editing.is_none() {
            self.start_editing();
        }
        self.form.paste(text);
    }

    /// A certificate read from a file.
    pub fn set_certificate(&mut self, text: &str) {
        self.editing = None;
        self.select(FormField::Certificate);
        self.values.certificate = text.trim().to_string();
        self.form.edited(FormField::Certificate);
    }

    /// The server refused the save: keep its message, beside the field it names, and go there.
    pub fn refused(&mut self, message: &str) {
        self.saving = false;
        if let Some(field) = self.form.place_server_error(message, Naming::Quoted) {
            self.form.select(field);
        }
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

    #[test]
    fn a_loaded_certificate_is_typed_on_one_line_and_unchanged_if_left_as_it_was() {
        let provider: SamlProvider = serde_json::from_value(serde_json::json!({
            "object": "saml-provider", "id": "saml-1", "label": "Okta",
            "certificate": crate::sandbox::DEMO_CERTIFICATE,
        }))
        .unwrap();
        let mut form = ProviderForm::edit(&provider);
        form.select(FormField::Certificate);
        form.start_editing();
        let typed = form.text_of(FormField::Certificate);
        assert!(!typed.chars().any(char::is_control), "{typed:?}");
        assert_eq!(form.error(FormField::Certificate), None);
        form.commit();
        assert!(!form.is_changed(FormField::Certificate));
        assert_eq!(form.input().certificate, None);
    }
}

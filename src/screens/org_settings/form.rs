//! The organization settings form: what the server has (`original`), what the user made of it
//! (`values`), each field checked as it is typed, and the PATCH holding only what changed.

use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::api::OrganizationUpdate;
use crate::api::models::{MemberRole, Organization};
use crate::ui::form::{Compare, FieldSpec, Form, FormFields, Kind, Naming, Presence, ValuesJson};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Title,
    EmailDomains,
    Hostname,
    DefaultRole,
    DefaultContent,
    Logo,
    Sso,
    Ai,
    InviteLinks,
    MergeRules,
}

impl Field {
    pub fn label(self) -> &'static str {
        match self {
            Field::Title => "Title",
            Field::EmailDomains => "Email domains",
            Field::Hostname => "Hostname",
            Field::DefaultRole => "Default role",
            Field::DefaultContent => "Default site",
            Field::Logo => "Logo URL",
            Field::Sso => "SSO enforced",
            Field::Ai => "AI features",
            Field::InviteLinks => "Invite links",
            Field::MergeRules => "Merge rules",
        }
    }

    /// The name in the PATCH body, also how the server names it in a 400.
    pub fn wire_name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::EmailDomains => "emailDomains",
            Field::Hostname => "hostname",
            Field::DefaultRole => "defaultRole",
            Field::DefaultContent => "defaultContent",
            Field::Logo => "logo",
            Field::Sso => "sso",
            Field::Ai => "ai",
            Field::InviteLinks => "inviteLinks",
            Field::MergeRules => "mergeRules",
        }
    }

    /// Flipped by enter.
    pub fn is_switch(self) -> bool {
        self.spec().kind == Kind::Toggle
    }
}

impl FormFields for Field {
    type Values = Values;

    const ALL: &'static [Field] = &[
        Field::Title,
        Field::EmailDomains,
        Field::Hostname,
        Field::DefaultRole,
        Field::DefaultContent,
        Field::Logo,
        Field::Sso,
        Field::Ai,
        Field::InviteLinks,
        Field::MergeRules,
    ];

    fn spec(self) -> FieldSpec {
        let (label, wire_name) = (self.label(), self.wire_name());
        match self {
            Field::Title => FieldSpec::text(label, wire_name).checked(title_error),
            Field::EmailDomains => FieldSpec::text(label, wire_name)
                .presence(Presence::Optional)
                .compared(Compare::By(|text| domains(text).join(",")))
                .checked(domains_error),
            Field::Hostname => FieldSpec::text(label, wire_name)
                .presence(Presence::OptionalWhileUnset)
                .checked(hostname_error),
            Field::Logo => FieldSpec::text(label, wire_name)
                .compared(Compare::Trimmed)
                .checked(logo_error),
            Field::Sso | Field::Ai | Field::InviteLinks => FieldSpec::toggle(label, wire_name),
            Field::DefaultRole | Field::DefaultContent | Field::MergeRules => {
                FieldSpec::choice(label, wire_name)
            }
        }
    }

    fn text(self, values: &Values) -> &str {
        match self {
            Field::Title => &values.title,
            Field::EmailDomains => &values.email_domains,
            Field::Hostname => &values.hostname,
            Field::Logo => &values.logo,
            _ => "",
        }
    }

    const JSON: Option<ValuesJson<Values>> = Some(ValuesJson::SERDE);
}

fn title_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    if length < 2 {
        Some("needs 2 to 255 characters".into())
    } else if length > 255 {
        Some(format!("at most 255 characters ({length})"))
    } else if text.trim() != text {
        Some("no spaces at either end".into())
    } else {
        None
    }
}

fn domains_error(text: &str) -> Option<String> {
    domains(text)
        .into_iter()
        .find(|domain| !is_domain(domain))
        .map(|domain| format!("“{domain}” is not a domain such as example.com"))
}

/// Checked once the hostname is not empty, or was not empty when loaded.
fn hostname_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    if !(3..=32).contains(&length) {
        Some(format!("needs 3 to 32 characters ({length})"))
    } else if !text
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        Some("only lowercase letters, digits and -".into())
    } else {
        None
    }
}

fn logo_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    if length > 2048 {
        Some(format!("at most 2048 characters ({length})"))
    } else if !text.trim().is_empty() && !crate::screens::sso::form::is_http_url(text) {
        Some("an address such as https://example.com/logo.png".into())
    } else {
        None
    }
}

/// The merge rules that need nothing but their name, with what they mean: the ones the form
/// can switch on and off. Rules naming people or an expression are kept as they are.
pub const SIMPLE_RULES: [(&str, &str); 8] = [
    ("require_at_least_one_review", "at least one review"),
    (
        "require_at_least_one_approved_review",
        "at least one approval",
    ),
    ("require_all_reviews_approved", "every review approves"),
    ("require_agent_review", "an agent review"),
    ("require_up_to_date_change_request", "up to date with main"),
    ("require_change_request_subject", "a subject"),
    ("require_change_request_description", "a description"),
    ("require_author_to_merge", "the author merges"),
];

/// Serialized under the fields' wire names (see `FormFields::JSON`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Values {
    pub title: String,
    /// Comma-separated, as typed.
    pub email_domains: String,
    pub hostname: String,
    /// `None` is guest.
    pub default_role: Option<MemberRole>,
    /// A site id.
    pub default_content: Option<String>,
    pub logo: String,
    pub sso: bool,
    pub ai: bool,
    pub invite_links: bool,
    pub merge_rules: Value,
}

impl Values {
    pub fn from_organization(organization: &Organization) -> Values {
        Values {
            title: organization.title.clone(),
            email_domains: organization.email_domains.join(", "),
            hostname: organization.hostname.clone().unwrap_or_default(),
            default_role: organization.default_role.clone(),
            default_content: organization
                .default_content
                .as_ref()
                .and_then(|content| content.site.clone()),
            logo: organization.urls.logo.clone().unwrap_or_default(),
            sso: organization.sso.unwrap_or(false),
            ai: organization.ai.unwrap_or(false),
            invite_links: organization.invite_links.unwrap_or(false),
            merge_rules: organization
                .merge_rules
                .clone()
                .unwrap_or_else(|| json!({ "type": "none" })),
        }
    }
}

/// The domains typed, one per comma, blanks dropped.
pub fn domains(text: &str) -> Vec<String> {
    text.split(',')
        .map(|domain| domain.trim().to_lowercase())
        .filter(|domain| !domain.is_empty())
        .collect()
}

/// Mail services where anyone can get an address: letting their domain join lets anyone join.
const PUBLIC_MAIL_DOMAINS: &[&str] = &[
    "gmail.com",
    "googlemail.com",
    "outlook.com",
    "hotmail.com",
    "live.com",
    "msn.com",
    "yahoo.com",
    "icloud.com",
    "me.com",
    "aol.com",
    "proton.me",
    "protonmail.com",
    "gmx.com",
    "gmx.de",
    "web.de",
    "mail.com",
    "yandex.com",
    "yandex.ru",
    "qq.com",
    "163.com",
    "zoho.com",
    "fastmail.com",
];

/// The domains typed that belong to public mail services.
pub fn public_mail_domains(text: &str) -> Vec<String> {
    domains(text)
        .into_iter()
        .filter(|domain| PUBLIC_MAIL_DOMAINS.contains(&domain.as_str()))
        .collect()
}

fn is_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
}

/// The rule names of a merge rules value.
pub fn rule_names(rules: &Value) -> Vec<String> {
    rules
        .get("rules")
        .and_then(Value::as_array)
        .map(|rules| {
            rules
                .iter()
                .filter_map(|rule| rule.get("rule").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// "none", or how many rules and which.
pub fn rules_summary(rules: &Value) -> String {
    let names = rule_names(rules);
    if names.is_empty() {
        return "none".to_string();
    }
    let readable: Vec<&str> = names
        .iter()
        .map(|name| {
            SIMPLE_RULES
                .iter()
                .find(|(known, _)| known == name)
                .map_or(name.as_str(), |(_, meaning)| meaning)
        })
        .collect();
    format!("{}: {}", readable.len(), readable.join(", "))
}

/// The merge rules with `picked` simple rules switched on; rules the form cannot edit stay.
pub fn with_simple_rules(original: &Value, picked: &[String]) -> Value {
    let is_simple = |name: &str| SIMPLE_RULES.iter().any(|(known, _)| *known == name);
    let mut rules: Vec<Value> = original
        .get("rules")
        .and_then(Value::as_array)
        .map(|rules| {
            rules
                .iter()
                .filter(|rule| {
                    !rule
                        .get("rule")
                        .and_then(Value::as_str)
                        .is_some_and(is_simple)
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    rules.extend(picked.iter().map(|name| json!({ "rule": name })));
    if rules.is_empty() {
        json!({ "type": "none" })
    } else {
        json!({ "type": "rules", "rules": rules })
    }
}

/// The organization's settings as a [`Form`].
#[derive(Debug, Clone)]
pub struct SettingsForm {
    pub form: Form<Field>,
}

/// The form's cursor, typing, checks and changes are used through the settings form as they are.
impl Deref for SettingsForm {
    type Target = Form<Field>;

    fn deref(&self) -> &Form<Field> {
        &self.form
    }
}

impl DerefMut for SettingsForm {
    fn deref_mut(&mut self) -> &mut Form<Field> {
        &mut self.form
    }
}

impl SettingsForm {
    pub fn new(organization: &Organization) -> SettingsForm {
        let mut form = Form::new(Values::from_organization(organization));
        form.edits_clear_form_error = true;
        SettingsForm { form }
    }

    /// A fresh organization from the server as the new starting point.
    pub fn reset(&mut self, organization: &Organization) {
        self.form.load(Values::from_organization(organization));
    }

    /// The PATCH: only the fields that differ from what the server has.
    pub fn update(&self) -> OrganizationUpdate {
        let changed = |field| self.is_changed(field);
        let values = &self.values;
        OrganizationUpdate {
            title: changed(Field::Title).then(|| values.title.clone()),
            email_domains: changed(Field::EmailDomains).then(|| domains(&values.email_domains)),
            hostname: changed(Field::Hostname).then(|| values.hostname.clone()),
            default_role: changed(Field::DefaultRole).then(|| values.default_role.clone()),
            default_content: changed(Field::DefaultContent).then(|| {
                values
                    .default_content
                    .as_ref()
                    .map(|site| json!({ "type": "site", "site": site }))
            }),
            logo: changed(Field::Logo).then(|| {
                let logo = values.logo.trim();
                (!logo.is_empty()).then(|| logo.to_string())
            }),
            sso: changed(Field::Sso).then_some(values.sso),
            ai: changed(Field::Ai).then_some(values.ai),
            invite_links: changed(Field::InviteLinks).then_some(values.invite_links),
            merge_rules: changed(Field::MergeRules).then(|| values.merge_rules.clone()),
        }
    }

    /// Flips an on/off field.
    pub fn toggle(&mut self, field: Field) {
        match field {
            Field::Sso => self.values.sso = !self.values.sso,
            Field::Ai => self.values.ai = !self.values.ai,
            Field::InviteLinks => self.values.invite_links = !self.values.invite_links,
            _ => return,
        }
        self.form.edited(field);
    }

    /// The server refused the save: keep its message, beside the field it names, and go there.
    pub fn refused(&mut self, message: &str) {
        if let Some(field) = self
            .form
            .place_server_error(message, Naming::QuotedOrQuotedPath)
        {
            self.form.select(field);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn organization() -> Organization {
        serde_json::from_value(json!({
            "id": "o", "title": "Acme", "emailDomains": ["acme.example"], "hostname": "acme",
            "defaultRole": "read", "sso": true, "ai": false, "inviteLinks": false,
            "mergeRules": {"type": "rules", "rules": [
                {"rule": "require_specific_reviewers", "users": ["u1"]},
                {"rule": "require_at_least_one_review"}]}
        }))
        .unwrap()
    }

    #[test]
    fn only_changed_fields_are_sent() {
        let mut form = SettingsForm::new(&organization());
        assert!(form.update().is_empty());
        form.values.title = "Acme Inc".into();
        form.values.email_domains = "acme.example,  docs.acme.example ".into();
        form.toggle(Field::Sso);
        form.values.default_role = None;
        let update = form.update();
        assert_eq!(update.title.as_deref(), Some("Acme Inc"));
        assert_eq!(
            update.email_domains,
            Some(vec![
                "acme.example".to_string(),
                "docs.acme.example".to_string()
            ])
        );
        assert_eq!(update.sso, Some(false));
        assert_eq!(update.default_role, Some(None));
        assert_eq!(update.hostname, None);
        assert_eq!(update.merge_rules, None);
    }

    #[test]
    fn fields_are_checked_as_typed() {
        let mut form = SettingsForm::new(&organization());
        form.values.title = "A".into();
        assert!(form.error(Field::Title).is_some());
        form.values.title = " Acme".into();
        assert_eq!(
            form.error(Field::Title).as_deref(),
            Some("no spaces at either end")
        );
        form.values.email_domains = "acme.example, nope".into();
        assert!(form.error(Field::EmailDomains).unwrap().contains("nope"));
        form.values.hostname = "AB".into();
        assert!(form.error(Field::Hostname).is_some());
        form.values.logo = "logo.png".into();
        assert!(form.error(Field::Logo).is_some());
        assert_eq!(
            form.first_error().map(|(field, _)| field),
            Some(Field::Title)
        );
    }

    #[test]
    fn merge_rules_keep_what_the_form_cannot_edit() {
        let original = organization().merge_rules.unwrap();
        assert_eq!(
            rules_summary(&original),
            "2: require_specific_reviewers, at least one review"
        );
        let picked = vec!["require_agent_review".to_string()];
        let rules = with_simple_rules(&original, &picked);
        assert_eq!(
            rule_names(&rules),
            ["require_specific_reviewers", "require_agent_review"]
        );
        assert_eq!(
            with_simple_rules(&json!({"type": "none"}), &[]),
            json!({"type": "none"})
        );
    }
}

//! The SAML providers the sandbox keeps.

use crate::model::Role;

/// One SAML provider as the sandbox keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SamlProvider {
    pub id: String,
    pub organization: String,
    pub label: String,
    pub entity_id: String,
    pub certificate: String,
    pub sso_url: String,
    /// A team id; the sandbox takes any non-empty one.
    pub default_team: Option<String>,
    pub default_role: Option<Role>,
    pub created_at: String,
}

impl SamlProvider {
    pub(super) fn status(&self) -> &'static str {
        let complete =
            !self.entity_id.is_empty() && !self.certificate.is_empty() && !self.sso_url.is_empty();
        if complete { "active" } else { "pending" }
    }
}

#[derive(Clone, Debug, Default)]
pub struct SsoState {
    pub providers: Vec<SamlProvider>,
    next_number: u64,
}

impl SsoState {
    pub(super) fn next_id(&mut self) -> String {
        self.next_number += 1;
        format!("saml-{}", self.next_number)
    }
}

//! SAML providers and SSO login infos.

use serde::{Deserialize, Serialize};

use super::common::{MemberRole, Urls, null_as_default};

/// An organization's SAML identity provider (`object`='saml-provider').
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamlProvider {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub label: String,
    #[serde(default, rename = "ssoURL")]
    pub sso_url: Option<String>,
    #[serde(default, rename = "entityID")]
    pub entity_id: Option<String>,
    #[serde(default)]
    pub certificate: Option<String>,
    /// The team new SSO members join; the service sends the whole team.
    #[serde(default)]
    pub default_team: Option<TeamSummary>,
    /// `None` both when absent and when `null` (guests).
    #[serde(default)]
    pub default_role: Option<MemberRole>,
    #[serde(default)]
    pub created_at: Option<String>,
    /// `active` or `pending`.
    #[serde(default)]
    pub status: Option<String>,
    /// What the identity provider must be told about the service.
    #[serde(default, deserialize_with = "null_as_default")]
    pub service: SamlService,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// The service's side of a SAML provider: where the identity provider sends people back.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SamlService {
    #[serde(default, rename = "acsURL")]
    pub acs_url: Option<String>,
    #[serde(default, rename = "startURL")]
    pub start_url: Option<String>,
    #[serde(default, rename = "entityID")]
    pub entity_id: Option<String>,
}

/// A team named by id and title: the part of a Team the SSO screens need.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamSummary {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
}

/// One way to sign in with SSO (`GET /orgs/{org}/sso` items).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SsoLogin {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub label: String,
    #[serde(default, rename = "startURL")]
    pub start_url: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_provider_as_the_contract_writes_it() {
        let json = r#"{"object":"saml-provider","id":"saml_1","label":"Okta",
            "ssoURL":"https://idp.test/sso","entityID":"urn:idp","certificate":"PEM",
            "defaultTeam":{"object":"team","id":"t1","title":"Support","members":3},
            "defaultRole":null,"createdAt":"2024-01-01T00:00:00Z","status":"pending",
            "service":{"acsURL":"https://svc.test/acs","startURL":"https://svc.test/start",
                       "entityID":"urn:svc"},
            "urls":{"location":"https://api.test/v1/orgs/o/saml/saml_1"}}"#;
        let provider: SamlProvider = serde_json::from_str(json).unwrap();
        assert_eq!(provider.sso_url.as_deref(), Some("https://idp.test/sso"));
        assert_eq!(provider.entity_id.as_deref(), Some("urn:idp"));
        assert_eq!(provider.default_role, None);
        assert_eq!(provider.default_team.unwrap().title, "Support");
        assert_eq!(
            provider.service.acs_url.as_deref(),
            Some("https://svc.test/acs")
        );
        assert_eq!(provider.service.entity_id.as_deref(), Some("urn:svc"));
    }

    #[test]
    fn a_bare_provider_still_decodes() {
        let provider: SamlProvider =
            serde_json::from_str(r#"{"id":"p","service":null,"label":null}"#).unwrap();
        assert_eq!(provider.label, "");
        assert_eq!(provider.service, SamlService::default());
    }
}

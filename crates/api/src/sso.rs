//! Single sign-on: an organization's SAML providers, its SSO login infos, and the
//! teams a provider may put new members in.

use serde::Serialize;

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::{MemberRole, SamlProvider, SsoLogin, TeamSummary};
use super::paging::WholeList;

/// Pages of SAML providers read for the SSO screen: an organization has a handful of identity
/// providers, so five thousand is beyond any, and an endless list stops within a second.
pub const SAML_PROVIDER_PAGES: usize = 5;

/// Pages of teams read for the default-team picker: twenty thousand teams is more than anyone
/// picks from.
pub const TEAM_PICKER_PAGES: usize = 20;

/// The body of a create (`label` required there) or an update (every field optional): only
/// the fields set are sent. `default_role: Some(None)` sends `null` (guests).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SamlProviderInput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(rename = "entityID", skip_serializing_if = "Option::is_none")]
    pub entity_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<String>,
    #[serde(rename = "ssoURL", skip_serializing_if = "Option::is_none")]
    pub sso_url: Option<String>,
    /// A team id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_team: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_role: Option<Option<MemberRole>>,
}

impl SamlProviderInput {
    pub fn is_empty(&self) -> bool {
        *self == SamlProviderInput::default()
    }
}

/// `GET /orgs/{org}/sso` answers `{items}` without paging.
#[derive(Debug, serde::Deserialize)]
struct SsoLogins {
    #[serde(default)]
    items: Vec<SsoLogin>,
}

fn saml_path(org: &str) -> String {
    format!("/orgs/{}/saml", encode_segment(org))
}

fn provider_path(org: &str, provider: &str) -> String {
    format!("{}/{}", saml_path(org), encode_segment(provider))
}

impl Client {
    /// `GET /orgs/{org}/saml`, every page up to [`SAML_PROVIDER_PAGES`].
    pub async fn list_saml_providers(
        &self,
        org: &str,
    ) -> Result<WholeList<SamlProvider>, ApiError> {
        self.list_up_to(&saml_path(org), &[], SAML_PROVIDER_PAGES)
            .await
    }

    /// `GET /orgs/{org}/saml/{id}`.
    pub async fn get_saml_provider(
        &self,
        org: &str,
        provider: &str,
    ) -> Result<SamlProvider, ApiError> {
        self.get(&provider_path(org, provider), &[]).await
    }

    /// `POST /orgs/{org}/saml`: 201 with the provider.
    pub async fn create_saml_provider(
        &self,
        org: &str,
        input: &SamlProviderInput,
    ) -> Result<SamlProvider, ApiError> {
        self.post(&saml_path(org), input).await
    }

    /// `PATCH /orgs/{org}/saml/{id}`.
    pub async fn update_saml_provider(
        &self,
        org: &str,
        provider: &str,
        input: &SamlProviderInput,
    ) -> Result<SamlProvider, ApiError> {
        self.patch(&provider_path(org, provider), input).await
    }

    /// `DELETE /orgs/{org}/saml/{id}`: 204 (or 205) whether or not it was there.
    pub async fn delete_saml_provider(&self, org: &str, provider: &str) -> Result<(), ApiError> {
        self.delete(&provider_path(org, provider)).await
    }

    /// `GET /orgs/{org}/sso`: how members sign in with SSO.
    pub async fn list_sso_logins(&self, org: &str) -> Result<Vec<SsoLogin>, ApiError> {
        let path = format!("/orgs/{}/sso", encode_segment(org));
        let logins: SsoLogins = self.get(&path, &[]).await?;
        Ok(logins.items)
    }

    /// `GET /orgs/{org}/teams`, up to [`TEAM_PICKER_PAGES`], as id and title: the choices for
    /// a provider's default team.
    pub async fn list_team_summaries(&self, org: &str) -> Result<WholeList<TeamSummary>, ApiError> {
        let path = format!("/orgs/{}/teams", encode_segment(org));
        self.list_up_to(&path, &[], TEAM_PICKER_PAGES).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_fields_set_are_sent_and_guest_is_null() {
        let input = SamlProviderInput {
            label: Some("Okta".into()),
            sso_url: Some("https://idp.test".into()),
            default_role: Some(None),
            ..SamlProviderInput::default()
        };
        assert_eq!(
            serde_json::to_value(&input).unwrap(),
            serde_json::json!({"label": "Okta", "ssoURL": "https://idp.test", "defaultRole": null})
        );
        assert!(SamlProviderInput::default().is_empty());
    }
}

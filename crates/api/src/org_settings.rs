//! Organization settings: `PATCH /orgs/{org}`, revoking an invite link, joining an
//! organization by email domain, and the organization's agent instructions.

use serde::Serialize;

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::{AgentInstructions, MemberRole, Organization};

/// The PATCH body: only the fields set are sent. The doubled options send `null` when the
/// inner value is `None` (a guest default role, no default content, no logo).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OrganizationUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_domains: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_role: Option<Option<MemberRole>>,
    /// `{type:'site', site}` or null.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_content: Option<Option<serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logo: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sso: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_links: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_rules: Option<serde_json::Value>,
}

impl OrganizationUpdate {
    pub fn is_empty(&self) -> bool {
        *self == OrganizationUpdate::default()
    }
}

fn organization_path(org: &str) -> String {
    format!("/orgs/{}", encode_segment(org))
}

impl Client {
    /// `PATCH /orgs/{org}`: the organization as it is afterwards.
    pub async fn update_organization(
        &self,
        org: &str,
        update: &OrganizationUpdate,
    ) -> Result<Organization, ApiError> {
        self.patch(&organization_path(org), update).await
    }

    /// `DELETE /orgs/{org}/link-invites/{id}`: 204 whether or not the link existed.
    pub async fn revoke_invite_link(&self, org: &str, invite: &str) -> Result<(), ApiError> {
        let path = format!(
            "{}/link-invites/{}",
            organization_path(org),
            encode_segment(invite)
        );
        self.delete(&path).await
    }

    /// `POST /orgs/{org}/join` (no body): allowed when the caller's email domain is one of the
    /// organization's.
    pub async fn join_organization(&self, org: &str) -> Result<(), ApiError> {
        let path = format!("{}/join", organization_path(org));
        // The service answers 204; whatever body another server may send is not needed.
        self.post_without_body::<serde::de::IgnoredAny>(&path)
            .await
            .map(|_| ())
    }

    /// `GET /orgs/{org}/agent-instructions`.
    pub async fn agent_instructions(&self, org: &str) -> Result<AgentInstructions, ApiError> {
        let path = format!("{}/agent-instructions", organization_path(org));
        self.get(&path, &[]).await
    }

    /// `PUT /orgs/{org}/agent-instructions` with a Document.
    pub async fn set_agent_instructions(
        &self,
        org: &str,
        document: &serde_json::Value,
    ) -> Result<AgentInstructions, ApiError> {
        let path = format!("{}/agent-instructions", organization_path(org));
        self.put(&path, &serde_json::json!({ "instructions": document }))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_changed_fields_are_sent_with_nulls_where_asked() {
        let update = OrganizationUpdate {
            title: Some("Acme".into()),
            default_role: Some(None),
            logo: Some(None),
            sso: Some(true),
            ..OrganizationUpdate::default()
        };
        assert_eq!(
            serde_json::to_value(&update).unwrap(),
            serde_json::json!({"title": "Acme", "defaultRole": null, "logo": null, "sso": true})
        );
    }
}

//! Organizations (`GET /orgs`, `GET /orgs/{id}`).

use serde::{Deserialize, Serialize};

use super::common::{MemberRole, Urls, lenient_count, null_as_default, string_enum};

string_enum! {
    /// `OrganizationType`.
    pub enum OrganizationType {
        Business => "business",
        Community => "community",
    }
}

string_enum! {
    /// `BillingProduct`: the organization's plan.
    pub enum BillingProduct {
        Free2024 => "free_2024",
        Plus2024 => "plus_2024",
        Pro2024 => "pro_2024",
        Enterprise2024 => "enterprise_2024",
        Community2024 => "community_2024",
        Free => "free",
        Plus => "plus",
        Pro => "pro",
        Internal => "internal",
    }
}

string_enum! {
    /// `OrganizationUseCase`.
    pub enum OrganizationUseCase {
        InternalDocs => "internalDocs",
        DocsSite => "docsSite",
        AudienceControlledSite => "audienceControlledSite",
        ProductDocs => "productDocs",
        TeamKnowledgeBase => "teamKnowledgeBase",
        DesignSystem => "designSystem",
        OpenSourceDocs => "openSourceDocs",
        Notes => "notes",
        OtherUseCase => "other",
    }
}

string_enum! {
    /// `BillingTrialStatus`.
    pub enum TrialStatus {
        NotApplicable => "notapplicable",
        None => "none",
        Active => "active",
        Ended => "ended",
        Expired => "expired",
    }
}

/// An organization (`object`='organization').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Organization {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default, rename = "type")]
    pub organization_type: Option<OrganizationType>,
    #[serde(default)]
    pub plan: Option<BillingProduct>,
    #[serde(default)]
    pub use_case: Option<OrganizationUseCase>,
    #[serde(default)]
    pub community_type: Option<String>,
    /// Default hostname of public content.
    #[serde(default)]
    pub hostname: Option<String>,
    #[serde(default)]
    pub custom_hostname: Option<String>,
    /// `None` both when absent and when `null` (guests).
    #[serde(default)]
    pub default_role: Option<MemberRole>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub email_domains: Vec<String>,
    /// SSO enforced organization-wide.
    #[serde(default)]
    pub sso: Option<bool>,
    #[serde(default)]
    pub ai: Option<bool>,
    #[serde(default)]
    pub invite_links: Option<bool>,
    /// The content shown by default: `{type:'site', site}` (other variants kept as `Other`).
    #[serde(default)]
    pub default_content: Option<DefaultContent>,
    /// The organization's merge rules (`{type:'rules', rules}` or `{type:'none'}`), raw.
    #[serde(default)]
    pub merge_rules: Option<serde_json::Value>,
    #[serde(default)]
    pub trial: Option<Trial>,
    #[serde(default)]
    pub blocked: Option<Blocked>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: OrganizationPermissions,
}

/// `defaultContent`: the only variant known is a site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefaultContent {
    #[serde(default, rename = "type")]
    pub content_type: Option<String>,
    #[serde(default)]
    pub site: Option<String>,
}

/// The organization's trial state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trial {
    #[serde(default)]
    pub status: Option<TrialStatus>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub count: Option<u64>,
    #[serde(default)]
    pub end_date: Option<String>,
}

/// Why an organization is blocked, when it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blocked {
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
}

/// What the caller may do in the organization; absent keys mean "no".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct OrganizationPermissions {
    pub view: bool,
    pub access: bool,
    pub admin: bool,
    pub own_team: bool,
    pub create_content: bool,
    #[serde(rename = "createOpenAPISpec")]
    pub create_open_api_spec: bool,
    pub view_billing: bool,
    pub list_members: bool,
    pub list_teams: bool,
    pub list_integrations: bool,
    pub list_installations: bool,
    pub install_integration: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shaped after the API reference plus fields only the real service sends.
    const FULL: &str = r#"{
        "object": "organization",
        "id": "org_1",
        "title": "Acme Docs",
        "createdAt": "2024-01-02T03:04:05.000Z",
        "emailDomains": ["acme.test"],
        "hostname": "acme",
        "type": "business",
        "useCase": "productDocs",
        "defaultRole": "read",
        "inviteLinks": true,
        "plan": "pro_2024",
        "billing": {"interval": "monthly"},
        "mergeRules": {"type": "none"},
        "urls": {"location": "https://api.test/v1/orgs/org_1", "app": "https://app.test/o/org_1"},
        "trial": {"status": "none", "count": 0},
        "auditLogs": true,
        "permissions": {"view": true, "admin": false, "listMembers": true, "createOpenAPISpec": true,
                        "somethingNew": true}
    }"#;

    #[test]
    fn decodes_a_full_organization() {
        let organization: Organization = serde_json::from_str(FULL).unwrap();
        assert_eq!(organization.title, "Acme Docs");
        assert_eq!(
            organization.organization_type,
            Some(OrganizationType::Business)
        );
        assert_eq!(organization.plan, Some(BillingProduct::Pro2024));
        assert_eq!(
            organization.use_case,
            Some(OrganizationUseCase::ProductDocs)
        );
        assert_eq!(organization.default_role, Some(MemberRole::Read));
        assert_eq!(
            organization.trial.and_then(|t| t.status),
            Some(TrialStatus::None)
        );
        assert!(organization.permissions.list_members);
        assert!(organization.permissions.create_open_api_spec);
        assert!(!organization.permissions.admin);
        assert_eq!(
            organization.urls.app.as_deref(),
            Some("https://app.test/o/org_1")
        );
    }

    #[test]
    fn decodes_a_minimal_organization_with_unknown_enums() {
        let json = r#"{"id":"o","plan":"galactic_2030","type":"nonprofit","defaultRole":null,
                       "urls":null,"emailDomains":null}"#;
        let organization: Organization = serde_json::from_str(json).unwrap();
        assert_eq!(
            organization.plan,
            Some(BillingProduct::Other("galactic_2030".into()))
        );
        assert_eq!(
            organization.organization_type,
            Some(OrganizationType::Other("nonprofit".into()))
        );
        assert_eq!(organization.default_role, None);
        assert!(organization.email_domains.is_empty());
        assert_eq!(organization.title, "");
    }
}

//! Organization settings' API calls and results (the organization, its agent instructions,
//! invite links, joining), joined to the core through `ApiCall::OrgSettings` and
//! `ApiResponse::OrgSettings`.

use crate::api::models::{AgentInstructions, Organization};
use crate::api::{ApiError, OrganizationUpdate};

#[derive(Debug, Clone, PartialEq)]
pub enum OrgSettingsCall {
    /// The organization as the server has it now.
    Organization {
        organization: String,
    },
    Save {
        organization: String,
        update: OrganizationUpdate,
    },
    /// The organization's sites, as choices for its default content.
    Sites {
        organization: String,
    },
    Instructions {
        organization: String,
    },
    SaveInstructions {
        organization: String,
        document: serde_json::Value,
    },
    RevokeInvite {
        organization: String,
        invite: String,
    },
    Join {
        organization: String,
    },
}

impl OrgSettingsCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            OrgSettingsCall::Organization { .. }
            | OrgSettingsCall::Sites { .. }
            | OrgSettingsCall::Instructions { .. } => false,
            OrgSettingsCall::Save { .. }
            | OrgSettingsCall::SaveInstructions { .. }
            | OrgSettingsCall::RevokeInvite { .. }
            | OrgSettingsCall::Join { .. } => true,
        }
    }
}

/// A site as a choice: id and title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteChoice {
    pub id: String,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OrgSettingsResponse {
    /// Boxed: an organization is large beside the other answers.
    Organization(Result<Box<Organization>, ApiError>),
    Sites(Result<Vec<SiteChoice>, ApiError>),
    Instructions(Result<AgentInstructions, ApiError>),
    /// An invite link revoked or an organization joined.
    Done(Result<(), ApiError>),
}

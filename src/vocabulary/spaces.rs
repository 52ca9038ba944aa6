//! The space operations' API calls and results (settings, delete, restore, duplicate, a content
//! template applied), joined to the core through `ApiCall::Spaces` and `ApiResponse::Spaces`.

use crate::api::models::{Member, Space};
use crate::api::{ApiError, SpaceUpdate, TemplateApplication, WholeList};

#[derive(Debug, Clone, PartialEq)]
pub enum SpacesCall {
    Update {
        space: String,
        update: SpaceUpdate,
    },
    Delete {
        space: String,
    },
    Restore {
        space: String,
    },
    Duplicate {
        space: String,
    },
    /// Every member of the organization: the reviewers a merge rule can require.
    Members {
        organization: String,
    },
    /// A content template into the space's main content or a change request of it.
    ApplyTemplate {
        space: String,
        application: TemplateApplication,
    },
}

impl SpacesCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            SpacesCall::Members { .. } => false,
            SpacesCall::Update { .. }
            | SpacesCall::Delete { .. }
            | SpacesCall::Restore { .. }
            | SpacesCall::Duplicate { .. }
            | SpacesCall::ApplyTemplate { .. } => true,
        }
    }
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum SpacesResponse {
    /// The space as the server has it after an update, a restore or a duplicate (the copy).
    Space(Result<Space, ApiError>),
    /// A restore found the space active already (restored elsewhere): nothing was sent.
    NotDeleted(Space),
    Deleted(Result<(), ApiError>),
    Members(Result<WholeList<Member>, ApiError>),
    TemplateApplied(Result<(), ApiError>),
}

//! Git sync's API calls and results, joined to the core through `ApiCall::Git` and
//! `ApiResponse::Git`.

use crate::api::models::GitSync;
use crate::api::{ApiError, GitDirection, GitSyncRequest};

// A sync request is large, and there is one call in flight at a time.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum GitCall {
    /// The git info and the branch of the current revision.
    Info {
        space: String,
    },
    /// An import or an export; the request's `Debug` masks credentials.
    Sync {
        space: String,
        direction: GitDirection,
        request: GitSyncRequest,
    },
    RemoveLegacyInstallation {
        space: String,
    },
}

impl GitCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            GitCall::Info { .. } => false,
            GitCall::Sync { .. } | GitCall::RemoveLegacyInstallation { .. } => true,
        }
    }
}

/// What the git screen shows: `info` is `None` when no provider is set up (the API's 404).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GitDetails {
    pub info: Option<GitSync>,
    /// `refs/heads/<branch>` of the current revision's commit, when it has one.
    pub git_ref: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GitResponse {
    Details(Result<GitDetails, ApiError>),
    /// An import or export started, or a legacy installation removed.
    Done(Result<(), ApiError>),
}

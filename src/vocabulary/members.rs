//! The Members tab's calls: the list with its server-side filters, one member's spaces and
//! teams, their role, SSO membership and removal. Joined to the core through
//! `ApiCall::Members` and `ApiResponse::Members`.

use crate::api::models::{Member, MemberRole, MemberSpace, MemberTeam};
use crate::api::{ApiError, ListPage, MemberFilter};

#[derive(Debug, Clone, PartialEq)]
pub enum MembersCall {
    /// One page of the organization's members, filtered and sorted by the server.
    List {
        organization: String,
        filter: MemberFilter,
        page: Option<String>,
    },
    /// The first page of the member's spaces and of their teams, fetched together: the
    /// spaces newest first unless `oldest_first`, the teams only those whose title holds
    /// `teams_title` when given.
    Details {
        organization: String,
        user: String,
        oldest_first: bool,
        teams_title: Option<String>,
    },
    /// `None` makes the member a guest.
    SetRole {
        organization: String,
        user: String,
        role: Option<MemberRole>,
    },
    MakeSso {
        organization: String,
        user: String,
    },
    Remove {
        organization: String,
        user: String,
    },
}

impl MembersCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            MembersCall::List { .. } | MembersCall::Details { .. } => false,
            MembersCall::SetRole { .. }
            | MembersCall::MakeSso { .. }
            | MembersCall::Remove { .. } => true,
        }
    }
}

/// What a member's details pane shows beyond the row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemberDetails {
    pub spaces: ListPage<MemberSpace>,
    pub teams: ListPage<MemberTeam>,
}

// Moved once, from a task to `update`, like every response; boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum MembersResponse {
    List(Result<ListPage<Member>, ApiError>),
    Details(Result<MemberDetails, ApiError>),
    /// A changed role or SSO membership: the member as the server has them now.
    Updated(Result<Member, ApiError>),
    Removed(Result<(), ApiError>),
}

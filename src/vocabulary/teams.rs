//! The Teams tab's and a team's members screen's calls, joined to the core through
//! `ApiCall::Teams` and `ApiResponse::Teams`.

use crate::api::models::{Member, Team, TeamMember, TeamRole, User};
use crate::api::{ApiError, ListPage, TeamMembersUpdate};

#[derive(Debug, Clone, PartialEq)]
pub enum TeamsCall {
    List {
        organization: String,
        /// Teams whose title contains this text.
        title: Option<String>,
        /// Only the teams this member can manage.
        owner: Option<String>,
        page: Option<String>,
    },
    /// Who is using quire: "teams I can manage" needs their id.
    CurrentUser,
    Create {
        organization: String,
        title: String,
        members: Vec<String>,
    },
    Rename {
        organization: String,
        team: String,
        title: String,
    },
    Delete {
        organization: String,
        team: String,
    },
    Members {
        organization: String,
        team: String,
        page: Option<String>,
    },
    /// One team, read alone (`r` on its members).
    Get {
        organization: String,
        team: String,
    },
    /// Every member of the organization (up to a cap), for the member pickers.
    Pickable {
        organization: String,
    },
    UpdateMembers {
        organization: String,
        team: String,
        update: TeamMembersUpdate,
    },
    /// Adds the member or changes their team role.
    SetMember {
        organization: String,
        team: String,
        user: String,
        role: Option<TeamRole>,
    },
    RemoveMember {
        organization: String,
        team: String,
        user: String,
    },
}

impl TeamsCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            TeamsCall::List { .. }
            | TeamsCall::CurrentUser
            | TeamsCall::Members { .. }
            | TeamsCall::Get { .. }
            | TeamsCall::Pickable { .. } => false,
            TeamsCall::Create { .. }
            | TeamsCall::Rename { .. }
            | TeamsCall::Delete { .. }
            | TeamsCall::UpdateMembers { .. }
            | TeamsCall::SetMember { .. }
            | TeamsCall::RemoveMember { .. } => true,
        }
    }
}

/// The organization's members for a picker; `cut_short` when the list did not end.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PickableMembers {
    pub members: Vec<Member>,
    pub cut_short: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TeamsResponse {
    List(Result<ListPage<Team>, ApiError>),
    CurrentUser(Result<User, ApiError>),
    /// A team created or renamed, as the server has it now.
    Saved(Result<Team, ApiError>),
    Deleted(Result<(), ApiError>),
    Members(Result<ListPage<TeamMember>, ApiError>),
    /// A team read alone.
    Team(Result<Team, ApiError>),
    Pickable(Result<PickableMembers, ApiError>),
    /// A change to the team's members went through (all answer 204).
    MembersChanged(Result<(), ApiError>),
}

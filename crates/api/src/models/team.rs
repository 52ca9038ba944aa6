//! Teams of an organization and their members (seed 2.8).

use serde::{Deserialize, Serialize};

use super::common::{lenient_count, null_as_default, string_enum};
use super::member::Member;

string_enum! {
    /// A member's role in a team (`TeamMemberRole`): owners manage the team's members.
    pub enum TeamRole {
        Owner => "owner",
        Member => "member",
    }
}

/// What the caller may do with a team.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamPermissions {
    #[serde(default, deserialize_with = "null_as_default")]
    pub admin: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    pub view: bool,
}

/// A team (`object`='team'); only `id` is required by the schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Team {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    /// Number of members.
    #[serde(default, deserialize_with = "lenient_count")]
    pub members: Option<u64>,
    /// Number of spaces the team can reach.
    #[serde(default, deserialize_with = "lenient_count")]
    pub spaces: Option<u64>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: TeamPermissions,
}

/// `{role}`: a membership's role in a team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamMembership {
    #[serde(default)]
    pub role: Option<TeamRole>,
}

/// One entry of a team's member list: the organization member and their team role.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamMember {
    pub organization: Member,
    pub team: TeamMembership,
}

/// One entry of a member's team list: the team and the member's role in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberTeam {
    pub team: Team,
    pub member: TeamMembership,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_teams_and_memberships_leniently() {
        let team: Team = serde_json::from_str(r#"{"object":"team","id":"t1"}"#).unwrap();
        assert_eq!((team.title.as_str(), team.members), ("", None));
        let entry: TeamMember = serde_json::from_str(
            r#"{"organization":{"id":"u1","role":null,"user":{"id":"u1"}},
                "team":{"role":"owner"},"permissions":{"view":true}}"#,
        )
        .unwrap();
        assert_eq!(entry.team.role, Some(TeamRole::Owner));
        let listed: MemberTeam = serde_json::from_str(
            r#"{"team":{"id":"t1","title":"Ops","members":3,"spaces":null},"member":{"role":"member"}}"#,
        )
        .unwrap();
        assert_eq!(listed.team.members, Some(3));
        assert_eq!(listed.member.role, Some(TeamRole::Member));
    }
}

//! Organization members (`GET /orgs/{id}/members`).

use serde::{Deserialize, Serialize};

use super::common::{MemberRole, User, lenient_count, null_as_default};
use super::space::Space;

/// A member of an organization (`object`='member').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub id: String,
    /// `None` for guests (`null`) and when absent.
    #[serde(default)]
    pub role: Option<MemberRole>,
    pub user: User,
    #[serde(default, deserialize_with = "null_as_default")]
    pub disabled: bool,
    #[serde(default)]
    pub joined_at: Option<String>,
    #[serde(default)]
    pub last_seen_at: Option<String>,
    #[serde(default)]
    pub sso: Option<bool>,
    /// Number of spaces the member can access.
    #[serde(default, deserialize_with = "lenient_count")]
    pub spaces: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub teams: Option<u64>,
    #[serde(default, deserialize_with = "lenient_count")]
    pub sites: Option<u64>,
}

/// One entry of a member's space list: a space and the member's permission on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberSpace {
    /// `None` when the service sends `null` or a value this version does not read.
    #[serde(default)]
    pub permission: Option<MemberRole>,
    pub space: Space,
}

impl Member {
    /// The member's name for sentences: the display name, else the email, else the id.
    pub fn name(&self) -> &str {
        let name = self.user.display_name.trim();
        if !name.is_empty() {
            return name;
        }
        self.user
            .email
            .as_deref()
            .filter(|email| !email.trim().is_empty())
            .unwrap_or(&self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_members_including_guests() {
        let json = r#"[
            {"object":"member","id":"u1","role":"admin","disabled":false,
             "user":{"object":"user","id":"u1","displayName":"Ada","email":"ada@acme.test",
                     "urls":{"location":"https://api/u1"}},
             "joinedAt":"2024-01-01T00:00:00Z","lastSeenAt":"2024-03-01T00:00:00Z",
             "sso":false,"spaces":3,"teams":1,"sites":0},
            {"id":"u2","role":null,"user":{"id":"u2","displayName":"Guest"}},
            {"id":"u3","role":"owner","user":{"id":"u3"}}
        ]"#;
        let members: Vec<Member> = serde_json::from_str(json).unwrap();
        assert_eq!(members[0].role, Some(MemberRole::Admin));
        assert_eq!(members[0].user.email.as_deref(), Some("ada@acme.test"));
        assert_eq!(members[0].spaces, Some(3));
        assert_eq!(members[1].role, None);
        assert_eq!(members[1].last_seen_at, None);
        assert_eq!(members[2].role, Some(MemberRole::Other("owner".into())));
    }
}

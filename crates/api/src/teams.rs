//! Teams of an organization and their members (seed 4.9).

use std::collections::BTreeMap;

use serde::Serialize;

use super::address::encode_segment;
use super::change_requests::borrow_query;
use super::client::Client;
use super::error::ApiError;
use super::models::{Team, TeamMember, TeamMembership, TeamRole};
use super::paging::ListPage;

/// The bulk edit of a team's members (`PUT …/teams/{team}/members`). A user in both `add` and
/// `remove` ends up removed (the service's rule).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TeamMembersUpdate {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub memberships: BTreeMap<String, TeamMembership>,
}

#[derive(Serialize)]
struct NewTeam<'a> {
    title: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    members: &'a [String],
}

fn teams_path(org: &str) -> String {
    format!("/orgs/{}/teams", encode_segment(org))
}

fn team_path(org: &str, team: &str) -> String {
    format!("{}/{}", teams_path(org), encode_segment(team))
}

fn team_member_path(org: &str, team: &str, user: &str) -> String {
    format!("{}/members/{}", team_path(org, team), encode_segment(user))
}

impl Client {
    /// `GET /orgs/{org}/teams`: `owner` keeps the teams that member can manage, `title` those
    /// whose title contains the text.
    pub async fn list_teams(
        &self,
        org: &str,
        title: Option<&str>,
        owner: Option<&str>,
        page: Option<&str>,
    ) -> Result<ListPage<Team>, ApiError> {
        let mut query = Vec::new();
        if let Some(title) = title.map(str::trim).filter(|title| !title.is_empty()) {
            query.push(("title", title.to_string()));
        }
        if let Some(owner) = owner {
            query.push(("owner", owner.to_string()));
        }
        self.get_list_page(&teams_path(org), &borrow_query(&query), page)
            .await
    }

    /// `PUT /orgs/{org}/teams`: creates a team, with initial members when given.
    pub async fn create_team(
        &self,
        org: &str,
        title: &str,
        members: &[String],
    ) -> Result<Team, ApiError> {
        self.put(&teams_path(org), &NewTeam { title, members })
            .await
    }

    /// `GET /orgs/{org}/teams/{team}`.
    pub async fn get_team(&self, org: &str, team: &str) -> Result<Team, ApiError> {
        self.get(&team_path(org, team), &[]).await
    }

    /// `PATCH /orgs/{org}/teams/{team}`: a new title.
    pub async fn rename_team(&self, org: &str, team: &str, title: &str) -> Result<Team, ApiError> {
        let body = serde_json::json!({ "title": title });
        self.patch(&team_path(org, team), &body).await
    }

    /// `DELETE /orgs/{org}/teams/{team}`.
    pub async fn delete_team(&self, org: &str, team: &str) -> Result<(), ApiError> {
        self.delete(&team_path(org, team)).await
    }

    /// `GET /orgs/{org}/teams/{team}/members`: one page of members with their team role.
    pub async fn list_team_members(
        &self,
        org: &str,
        team: &str,
        page: Option<&str>,
    ) -> Result<ListPage<TeamMember>, ApiError> {
        let path = format!("{}/members", team_path(org, team));
        self.get_list_page(&path, &[], page).await
    }

    /// `PUT /orgs/{org}/teams/{team}/members`: adds and removes many at once (answers 204).
    pub async fn update_team_members(
        &self,
        org: &str,
        team: &str,
        update: &TeamMembersUpdate,
    ) -> Result<(), ApiError> {
        let path = format!("{}/members", team_path(org, team));
        self.put_no_content(&path, update).await
    }

    /// `PUT /orgs/{org}/teams/{team}/members/{user}`: adds the member or changes their role.
    pub async fn set_team_member(
        &self,
        org: &str,
        team: &str,
        user: &str,
        role: Option<&TeamRole>,
    ) -> Result<(), ApiError> {
        let body = match role {
            Some(role) => serde_json::json!({ "role": role.as_str() }),
            None => serde_json::json!({}),
        };
        self.put_no_content(&team_member_path(org, team, user), &body)
            .await
    }

    /// `DELETE /orgs/{org}/teams/{team}/members/{user}`.
    pub async fn remove_team_member(
        &self,
        org: &str,
        team: &str,
        user: &str,
    ) -> Result<(), ApiError> {
        self.delete(&team_member_path(org, team, user)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bulk_update_sends_only_what_it_holds() {
        let update = TeamMembersUpdate {
            add: vec!["u1".into()],
            ..TeamMembersUpdate::default()
        };
        assert_eq!(
            serde_json::to_value(&update).unwrap(),
            serde_json::json!({"add": ["u1"]})
        );
    }
}

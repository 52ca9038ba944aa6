//! Organization members (seed 4.8): the list with its server-side filters, one member, their
//! role, SSO membership, removal, and the spaces and teams they reach.

use super::address::encode_segment;
use super::change_requests::borrow_query;
use super::change_requests::comments::SortOrder;
use super::client::Client;
use super::error::ApiError;
use super::models::common::string_enum;
use super::models::{Member, MemberRole, MemberSpace, MemberTeam};
use super::paging::{ListPage, WholeList};

/// The `role` filter: members with a role, or `guest` (members without one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberRoleFilter {
    Role(MemberRole),
    Guest,
}

impl MemberRoleFilter {
    /// The wire value.
    pub fn as_str(&self) -> &str {
        match self {
            MemberRoleFilter::Role(role) => role.as_str(),
            MemberRoleFilter::Guest => "guest",
        }
    }
}

impl std::fmt::Display for MemberRoleFilter {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

string_enum! {
    /// The `sort` key (service default `joinedAt`; `lastSeenAt` lists only active members).
    pub enum MemberSortKey {
        JoinedAt => "joinedAt",
        LastSeenAt => "lastSeenAt",
    }
}

/// Filters of the members list; unset fields are not sent, so the server's defaults apply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemberFilter {
    /// Matches display name and email.
    pub search: Option<String>,
    pub role: Option<MemberRoleFilter>,
    pub sort: Option<MemberSortKey>,
    pub order: Option<SortOrder>,
}

impl MemberFilter {
    /// Query pairs for the filters that are set.
    pub fn query(&self) -> Vec<(&'static str, String)> {
        let mut query = Vec::new();
        if let Some(search) = self.search.as_deref().map(str::trim)
            && !search.is_empty()
        {
            query.push(("search", search.to_owned()));
        }
        if let Some(role) = &self.role {
            query.push(("role", role.as_str().to_owned()));
        }
        if let Some(sort) = &self.sort {
            query.push(("sort", sort.as_str().to_owned()));
        }
        if let Some(order) = &self.order {
            query.push(("order", order.as_str().to_owned()));
        }
        query
    }
}

impl Client {
    /// `GET /orgs/{org}/members`: one page of members, filtered.
    pub async fn list_members(
        &self,
        org: &str,
        filter: &MemberFilter,
        page: Option<&str>,
    ) -> Result<ListPage<Member>, ApiError> {
        let path = format!("/orgs/{}/members", encode_segment(org));
        let query = filter.query();
        self.get_list_page(&path, &borrow_query(&query), page).await
    }

    /// `GET /orgs/{org}/members`, unfiltered, every page up to `max_pages`, keeping what was
    /// read when paging stops: the members to pick from.
    pub async fn list_members_up_to(
        &self,
        org: &str,
        max_pages: usize,
    ) -> Result<WholeList<Member>, ApiError> {
        let path = format!("/orgs/{}/members", encode_segment(org));
        self.list_up_to(&path, &[], max_pages).await
    }

    /// `GET /orgs/{org}/members/{userId}`.
    pub async fn get_member(&self, org: &str, user: &str) -> Result<Member, ApiError> {
        self.get(&member_path(org, user, ""), &[]).await
    }

    /// `PATCH /orgs/{org}/members/{userId}`: `None` makes the member a guest (`role: null`).
    pub async fn set_member_role(
        &self,
        org: &str,
        user: &str,
        role: Option<&MemberRole>,
    ) -> Result<Member, ApiError> {
        let body = serde_json::json!({ "role": role.map(MemberRole::as_str) });
        self.patch(&member_path(org, user, ""), &body).await
    }

    /// `POST /orgs/{org}/members/{userId}/sso`: the user becomes an SSO member.
    pub async fn make_sso_member(&self, org: &str, user: &str) -> Result<Member, ApiError> {
        self.post_without_body(&member_path(org, user, "/sso"))
            .await
    }

    /// `POST /orgs/{org}/ping`: marks the caller as seen now (their `lastSeenAt`).
    pub async fn ping(&self, org: &str) -> Result<(), ApiError> {
        let path = format!("/orgs/{}/ping", encode_segment(org));
        let _claims: serde_json::Value = self.post_without_body(&path).await?;
        Ok(())
    }

    /// `DELETE /orgs/{org}/members/{userId}`.
    pub async fn remove_member(&self, org: &str, user: &str) -> Result<(), ApiError> {
        self.delete(&member_path(org, user, "")).await
    }

    /// `GET /orgs/{org}/members/{userId}/spaces`: one page of spaces with the permission,
    /// newest first unless `oldest_first` (`order`).
    pub async fn list_member_spaces(
        &self,
        org: &str,
        user: &str,
        oldest_first: bool,
        page: Option<&str>,
    ) -> Result<ListPage<MemberSpace>, ApiError> {
        let order = if oldest_first { "asc" } else { "desc" };
        let query = [("order", order)];
        self.get_list_page(&member_path(org, user, "/spaces"), &query, page)
            .await
    }

    /// `GET /orgs/{org}/members/{userId}/teams`: one page of teams with the member's role,
    /// only those whose title holds `title` when given.
    pub async fn list_member_teams(
        &self,
        org: &str,
        user: &str,
        title: Option<&str>,
        page: Option<&str>,
    ) -> Result<ListPage<MemberTeam>, ApiError> {
        let query: Vec<(&str, &str)> = title.map(|title| ("title", title)).into_iter().collect();
        self.get_list_page(&member_path(org, user, "/teams"), &query, page)
            .await
    }
}

fn member_path(org: &str, user: &str, rest: &str) -> String {
    format!(
        "/orgs/{}/members/{}{rest}",
        encode_segment(org),
        encode_segment(user)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_set_filters_are_sent() {
        assert!(MemberFilter::default().query().is_empty());
        let filter = MemberFilter {
            search: Some("  ada ".into()),
            role: Some(MemberRoleFilter::Guest),
            sort: Some(MemberSortKey::LastSeenAt),
            order: Some(SortOrder::Ascending),
        };
        assert_eq!(
            filter.query(),
            vec![
                ("search", "ada".to_owned()),
                ("role", "guest".to_owned()),
                ("sort", "lastSeenAt".to_owned()),
                ("order", "asc".to_owned()),
            ]
        );
        let blank = MemberFilter {
            search: Some("  ".into()),
            ..MemberFilter::default()
        };
        assert!(blank.query().is_empty());
    }
}

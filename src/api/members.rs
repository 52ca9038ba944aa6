//! The members list's server-side filters (`GET /orgs/{org}/members`).

use super::address::encode_segment;
use super::change_requests::borrow_query;
use super::client::Client;
use super::comments::SortOrder;
use super::error::ApiError;
use super::models::common::string_enum;
use super::models::{Member, MemberRole};
use super::paging::ListPage;

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

//! Search in a space or an organization, its limits, and the little a search result says
//! about its space.

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::{SearchPage, SearchSpace, Space};
use super::paging::ListPage;

/// The longest `query` the service accepts (space and organization search).
pub const MAX_SEARCH_QUERY: usize = 512;

impl Space {
    /// A space known only by id and title (a search hit, a link's location): enough for
    /// screens that read its content, which address it by id.
    pub fn known_as(id: &str, title: &str) -> Space {
        Space {
            id: id.to_owned(),
            title: title.to_owned(),
            emoji: None,
            visibility: None,
            edit_mode: None,
            created_at: None,
            updated_at: None,
            deleted_at: None,
            organization: None,
            parent: None,
            language: None,
            revision: None,
            default_level: None,
            comments: None,
            change_requests: None,
            change_requests_open: None,
            change_requests_draft: None,
            git_sync: None,
            merge_rules: None,
            urls: Default::default(),
            permissions: Default::default(),
        }
    }
}

impl Client {
    /// `GET /spaces/{id}/search?query=…`: one page of matching pages.
    pub async fn search_space(
        &self,
        space: &str,
        query: &str,
        page: Option<&str>,
    ) -> Result<ListPage<SearchPage>, ApiError> {
        let path = format!("/spaces/{}/search", encode_segment(space));
        self.get_list_page(&path, &[("query", query)], page).await
    }

    /// `GET /orgs/{org}/search?query=…`: one page of spaces with their matching pages.
    pub async fn search_organization(
        &self,
        org: &str,
        query: &str,
        page: Option<&str>,
    ) -> Result<ListPage<SearchSpace>, ApiError> {
        let path = format!("/orgs/{}/search", encode_segment(org));
        self.get_list_page(&path, &[("query", query)], page).await
    }
}

//! Carries out the organization calls with the API client: one page of the organizations, and
//! an organization's tree (its collections and spaces, read in parallel).

use crate::api::Client;
use crate::app::{ApiResponse, OrganizationTree};
use crate::runtime::TREE_MAX_PAGES;

pub async fn list_organizations(client: &Client, page: Option<String>) -> ApiResponse {
    ApiResponse::Organizations(client.list_organizations(page.as_deref()).await)
}

/// Every collection and every space of `organization`. Spaces that cannot be read leave the
/// collections shown, with the reason, rather than no tree at all.
pub async fn organization_tree(client: &Client, organization: &str) -> ApiResponse {
    let (collections, spaces) = tokio::join!(
        client.list_collections_up_to(organization, TREE_MAX_PAGES),
        client.list_organization_spaces_up_to(organization, TREE_MAX_PAGES),
    );
    ApiResponse::OrganizationTree(collections.map(|collections| match spaces {
        Ok(spaces) => OrganizationTree::from_lists(collections, spaces),
        Err(error) => {
            tracing::warn!(%error, "the organization's spaces; showing its collections");
            OrganizationTree::without_spaces(collections, error.user_message())
        }
    }))
}

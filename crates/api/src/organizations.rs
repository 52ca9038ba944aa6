//! Who is signed in and the organizations they see: one page, every page up to a cap, one
//! organization.

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::{Organization, User};
use super::paging::{ListPage, WholeList};

impl Client {
    /// `GET /user`: the owner of the token.
    pub async fn current_user(&self) -> Result<User, ApiError> {
        self.get("/user", &[]).await
    }

    /// `GET /orgs`: one page of the organizations visible to the caller.
    pub async fn list_organizations(
        &self,
        page: Option<&str>,
    ) -> Result<ListPage<Organization>, ApiError> {
        self.get_list_page("/orgs", &[], page).await
    }

    /// `GET /orgs`, every page up to `max_pages`, keeping what was read when paging stops.
    pub async fn list_organizations_up_to(
        &self,
        max_pages: usize,
    ) -> Result<WholeList<Organization>, ApiError> {
        self.list_up_to("/orgs", &[], max_pages).await
    }

    /// `GET /orgs/{org}`.
    pub async fn get_organization(&self, org: &str) -> Result<Organization, ApiError> {
        self.get(&format!("/orgs/{}", encode_segment(org)), &[])
            .await
    }

    // ----- Collections and spaces -----
}

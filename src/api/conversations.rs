//! Conversations endpoints (seed §4.16). Only the issues clusters list so far: change-request
//! lists filter by cluster.

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::IssuesCluster;

impl Client {
    /// `GET /orgs/{org}/conversations-clusters`: every cluster, most recently updated first
    /// (the service's default order). Clusters are few, so the whole list is fetched.
    pub async fn list_issue_clusters(&self, org: &str) -> Result<Vec<IssuesCluster>, ApiError> {
        let path = format!("/orgs/{}/conversations-clusters", encode_segment(org));
        self.list_all(&path, &[]).await
    }
}

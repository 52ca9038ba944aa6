//! Collection endpoints: create, change (title, description, default level),
//! delete, and list with or without the nested ones. Moving and transferring live in
//! [`super::moves`], with the spaces'.

use serde::Serialize;

use super::address::encode_segment;
use super::change_requests::written_or_reread;
use super::client::Client;
use super::error::ApiError;
use super::models::{Collection, DefaultLevel};
use super::paging::ListPage;

/// Longest collection title and description the service accepts.
pub const COLLECTION_TITLE_MAX: usize = 50;
pub const COLLECTION_DESCRIPTION_MAX: usize = 100;

/// The body of `POST /orgs/{org}/collections`; absent fields are not sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NewCollection {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The parent collection's id; the organization's top level when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// A `PATCH` of a collection: only the fields set are sent. `default_level` has three states:
/// `None` unchanged, `Some(None)` no default level (sent as `null`), `Some(Some(level))`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_level: Option<Option<DefaultLevel>>,
}

fn collection_path(id: &str) -> String {
    format!("/collections/{}", encode_segment(id))
}

impl Client {
    /// `GET /orgs/{org}/collections`: one page; `nested` false lists only the top level.
    pub async fn list_collections_nested(
        &self,
        org: &str,
        nested: bool,
        page: Option<&str>,
    ) -> Result<ListPage<Collection>, ApiError> {
        let path = format!("/orgs/{}/collections", encode_segment(org));
        let nested = if nested { "true" } else { "false" };
        self.get_list_page(&path, &[("nested", nested)], page).await
    }

    /// `POST /orgs/{org}/collections` (201 with the new collection).
    pub async fn create_collection(
        &self,
        org: &str,
        collection: &NewCollection,
    ) -> Result<Collection, ApiError> {
        let path = format!("/orgs/{}/collections", encode_segment(org));
        self.post(&path, collection).await
    }

    /// `PATCH /collections/{id}` with only the fields set in `update`.
    pub async fn update_collection(
        &self,
        id: &str,
        update: &CollectionUpdate,
    ) -> Result<Collection, ApiError> {
        let written = self.patch(&collection_path(id), update).await;
        written_or_reread(written, self.get_collection(id)).await
    }

    /// `DELETE /collections/{id}`: 205 when deleted, 204 when it was not there (the seed
    /// answers 204 for both); either is a success.
    pub async fn delete_collection(&self, id: &str) -> Result<(), ApiError> {
        self.delete(&collection_path(id)).await
    }
}

//! Collection endpoints: list them (with or without the nested ones), read one and the spaces
//! in it, create, change (title, description, default level) and delete. Moving and
//! transferring live in [`super::moves`], with the spaces'.

use serde::Serialize;

use super::address::encode_segment;
use super::change_requests::written_or_reread;
use super::client::Client;
use super::error::ApiError;
use super::models::{Collection, DefaultLevel, Space};
use super::paging::{ListPage, WholeList};

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
    /// `GET /orgs/{org}/collections?nested=true`: one page of all collections, nested ones
    /// included (each names its `parent`), so the tree can be built from a flat list.
    pub async fn list_collections(
        &self,
        org: &str,
        page: Option<&str>,
    ) -> Result<ListPage<Collection>, ApiError> {
        let path = format!("/orgs/{}/collections", encode_segment(org));
        self.get_list_page(&path, &[("nested", "true")], page).await
    }

    /// `GET /orgs/{org}/collections?nested=true`, every page up to `max_pages`, keeping what
    /// was read when paging stops.
    pub async fn list_collections_up_to(
        &self,
        org: &str,
        max_pages: usize,
    ) -> Result<WholeList<Collection>, ApiError> {
        let path = format!("/orgs/{}/collections", encode_segment(org));
        self.list_up_to(&path, &[("nested", "true")], max_pages)
            .await
    }

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

    /// `GET /collections/{id}`.
    pub async fn get_collection(&self, id: &str) -> Result<Collection, ApiError> {
        self.get(&format!("/collections/{}", encode_segment(id)), &[])
            .await
    }

    /// `GET /collections/{id}/spaces`: one page of the spaces directly in a collection.
    pub async fn list_collection_spaces(
        &self,
        collection: &str,
        page: Option<&str>,
    ) -> Result<ListPage<Space>, ApiError> {
        let path = format!("/collections/{}/spaces", encode_segment(collection));
        self.get_list_page(&path, &[], page).await
    }

    /// `GET /collections/{id}/spaces`, every page up to `max_pages`, keeping what was read
    /// when paging stops.
    pub async fn list_collection_spaces_up_to(
        &self,
        collection: &str,
        max_pages: usize,
    ) -> Result<WholeList<Space>, ApiError> {
        let path = format!("/collections/{}/spaces", encode_segment(collection));
        self.list_up_to(&path, &[], max_pages).await
    }
}

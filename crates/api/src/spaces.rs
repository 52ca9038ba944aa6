//! Space endpoints: an organization's spaces, one space, and what changes a space: settings,
//! delete, restore, duplicate, a content template applied. Moving and transferring spaces
//! live with the collections.

use std::collections::BTreeMap;

use serde::Serialize;

use super::address::encode_segment;
use super::change_requests::written_or_reread;
use super::client::Client;
use super::error::ApiError;
use super::models::{DefaultLevel, MergeRules, Space, SpaceEditMode};
use super::paging::{ListPage, WholeList};

/// A `PATCH /spaces/{id}`: only the fields set are sent, so an edit never overwrites a setting
/// the user did not touch. `default_level`: `Some(None)` sends `null` (no default access).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpaceUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edit_mode: Option<SpaceEditMode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emoji: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_level: Option<Option<DefaultLevel>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_rules: Option<MergeRules>,
}

/// A `POST /spaces/{id}/content/template`: the template (by id: the API cannot list them),
/// the files its content references stand for, and the change request it goes into (main when
/// `None`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateApplication {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<TemplateParams>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_request_id: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateParams {
    /// Reference name → what it stands for.
    pub content_refs: BTreeMap<String, ContentRef>,
}

/// What a template's content reference points at: a file of the space.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ContentRef {
    File { file: String },
}

fn space_path(space: &str) -> String {
    format!("/spaces/{}", encode_segment(space))
}

impl Client {
    /// `GET /orgs/{org}/spaces`: one page of the organization's spaces.
    pub async fn list_organization_spaces(
        &self,
        org: &str,
        page: Option<&str>,
    ) -> Result<ListPage<Space>, ApiError> {
        let path = format!("/orgs/{}/spaces", encode_segment(org));
        self.get_list_page(&path, &[], page).await
    }

    /// `GET /orgs/{org}/spaces`, every page up to `max_pages`, keeping what was read when
    /// paging stops.
    pub async fn list_organization_spaces_up_to(
        &self,
        org: &str,
        max_pages: usize,
    ) -> Result<WholeList<Space>, ApiError> {
        let path = format!("/orgs/{}/spaces", encode_segment(org));
        self.list_up_to(&path, &[], max_pages).await
    }

    /// `GET /spaces/{id}`.
    pub async fn get_space(&self, id: &str) -> Result<Space, ApiError> {
        self.get_space_shared(id, None).await
    }

    /// `GET /spaces/{id}?shareKey=…`: the space as a share link shows it, its published
    /// address resolved for the share-link site the key belongs to.
    pub async fn get_space_shared(
        &self,
        id: &str,
        share_key: Option<&str>,
    ) -> Result<Space, ApiError> {
        let query: Vec<(&str, &str)> = share_key.map(|key| ("shareKey", key)).into_iter().collect();
        self.get(&format!("/spaces/{}", encode_segment(id)), &query)
            .await
    }

    // ----- Space content -----

    /// `PATCH /spaces/{id}` with only the fields set in `update`.
    pub async fn update_space(&self, space: &str, update: &SpaceUpdate) -> Result<Space, ApiError> {
        let written = self.patch(&space_path(space), update).await;
        written_or_reread(written, self.get_space(space)).await
    }

    /// `DELETE /spaces/{id}`: 205 when deleted, 204 when there was nothing to delete. The space
    /// can be restored for 7 days.
    pub async fn delete_space(&self, space: &str) -> Result<(), ApiError> {
        self.delete(&space_path(space)).await
    }

    /// `POST /spaces/{id}/restore` (no body): the space, active again.
    pub async fn restore_space(&self, space: &str) -> Result<Space, ApiError> {
        let path = format!("{}/restore", space_path(space));
        self.post_without_body(&path).await
    }

    /// `POST /spaces/{id}/content/template`: the public service answers 201, the seed 204,
    /// neither with a body.
    pub async fn apply_content_template(
        &self,
        space: &str,
        application: &TemplateApplication,
    ) -> Result<(), ApiError> {
        let path = format!("{}/content/template", space_path(space));
        self.post_no_content(&path, application).await
    }

    /// `POST /spaces/{id}/duplicate` (no body): the copy.
    pub async fn duplicate_space(&self, space: &str) -> Result<Space, ApiError> {
        let path = format!("{}/duplicate", space_path(space));
        self.post_without_body(&path).await
    }
}

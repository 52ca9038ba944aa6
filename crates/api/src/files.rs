//! Content read from a space or from a change request: the same operations live under
//! `/spaces/{id}/content…` and `/spaces/{id}/change-requests/{cr}/content…`,
//! so the screens keep a [`ContentSource`] and never a copy per source.

use serde::Deserialize;

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::{File, Page};
use super::paging::ListPage;

/// Whose content: a space's live revision or a change request's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ContentSource {
    Space(String),
    /// `change_request` is its id or its number in the space.
    ChangeRequest {
        space: String,
        change_request: String,
    },
}

impl ContentSource {
    pub fn space(&self) -> &str {
        match self {
            ContentSource::Space(space) | ContentSource::ChangeRequest { space, .. } => space,
        }
    }

    /// `/spaces/{id}/content` or `/spaces/{id}/change-requests/{cr}/content`, ids encoded.
    pub fn content_path(&self) -> String {
        match self {
            ContentSource::Space(space) => format!("/spaces/{}/content", encode_segment(space)),
            ContentSource::ChangeRequest {
                space,
                change_request,
            } => format!(
                "/spaces/{}/change-requests/{}/content",
                encode_segment(space),
                encode_segment(change_request)
            ),
        }
    }
}

#[derive(Deserialize)]
struct PageTree {
    #[serde(default)]
    pages: Vec<Page>,
}

impl Client {
    /// `GET {content}/files`: one page of the files.
    pub async fn list_content_files(
        &self,
        source: &ContentSource,
        page: Option<&str>,
    ) -> Result<ListPage<File>, ApiError> {
        let path = format!("{}/files", source.content_path());
        self.get_list_page(&path, &[], page).await
    }

    /// `GET {content}/files/{fileId}`.
    pub async fn get_content_file(
        &self,
        source: &ContentSource,
        file: &str,
    ) -> Result<File, ApiError> {
        let path = format!("{}/files/{}", source.content_path(), encode_segment(file));
        self.get(&path, &[]).await
    }

    /// `GET {content}/pages`: the page tree, to name the pages a link list refers to by id.
    pub async fn list_content_pages(&self, source: &ContentSource) -> Result<Vec<Page>, ApiError> {
        let path = format!("{}/pages", source.content_path());
        let tree: PageTree = self.get(&path, &[]).await?;
        Ok(tree.pages)
    }

    /// `GET /spaces/{id}/content/files`: one page of the space's files.
    pub async fn list_files(
        &self,
        space: &str,
        page: Option<&str>,
    ) -> Result<ListPage<File>, ApiError> {
        let path = format!("/spaces/{}/content/files", encode_segment(space));
        self.get_list_page(&path, &[], page).await
    }
}

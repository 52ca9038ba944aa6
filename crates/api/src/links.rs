//! Links and backlinks: a space's links report, a page's links, and what links to a page or a
//! file, in a space or a change request.

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::files::ContentSource;
use super::models::{ContentRef, LinkPage, LinkStatus};
use super::paging::{DEFAULT_PAGE_LIMIT, ListPage};

/// What a backlinks list is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BacklinkTarget {
    Page(String),
    File(String),
}

impl Client {
    /// `GET /spaces/{id}/links`: one page of the space's links (only those of `status` when
    /// given) with the totals.
    pub async fn list_space_links(
        &self,
        space: &str,
        status: Option<&LinkStatus>,
        page: Option<&str>,
    ) -> Result<LinkPage, ApiError> {
        let path = format!("/spaces/{}/links", encode_segment(space));
        self.get_link_page(&path, status, page).await
    }

    /// `GET {content}/page/{pageId}/links`: the links written on one page.
    pub async fn list_page_links(
        &self,
        source: &ContentSource,
        page_id: &str,
        status: Option<&LinkStatus>,
        page: Option<&str>,
    ) -> Result<LinkPage, ApiError> {
        let path = format!(
            "{}/page/{}/links",
            source.content_path(),
            encode_segment(page_id)
        );
        self.get_link_page(&path, status, page).await
    }

    /// `GET {content}/page/{pageId}/backlinks` or `{content}/files/{fileId}/backlinks`: where
    /// the page or file is linked from.
    pub async fn list_backlinks(
        &self,
        source: &ContentSource,
        target: &BacklinkTarget,
        page: Option<&str>,
    ) -> Result<ListPage<ContentRef>, ApiError> {
        let path = match target {
            BacklinkTarget::Page(id) => {
                format!(
                    "{}/page/{}/backlinks",
                    source.content_path(),
                    encode_segment(id)
                )
            }
            BacklinkTarget::File(id) => {
                format!(
                    "{}/files/{}/backlinks",
                    source.content_path(),
                    encode_segment(id)
                )
            }
        };
        self.get_list_page(&path, &[], page).await
    }

    /// A links list has `stats` beside the envelope, so it is read whole rather than through
    /// `get_list_page`; the same `limit` is sent.
    async fn get_link_page(
        &self,
        path: &str,
        status: Option<&LinkStatus>,
        page: Option<&str>,
    ) -> Result<LinkPage, ApiError> {
        let limit = DEFAULT_PAGE_LIMIT.to_string();
        let mut query = vec![("limit", limit.as_str())];
        if let Some(status) = status {
            query.push(("status", status.as_str()));
        }
        if let Some(page) = page {
            query.push(("page", page));
        }
        self.get(path, &query).await
    }
}

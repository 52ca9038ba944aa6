//! A space's content as the reader browses it: the current revision, the page tree (whole,
//! or built through a seed as it is decoded) and one page's markdown.

use reqwest::Method;

use super::address::encode_segment;
use super::client::{Client, decode_body_with};
use super::error::ApiError;
use super::models::revision::PageList;
use super::models::{Page, Revision};

impl Client {
    /// `GET /spaces/{id}/content`: the current revision (page tree and files).
    pub async fn get_space_content(&self, space: &str) -> Result<Revision, ApiError> {
        self.get(&format!("/spaces/{}/content", encode_segment(space)), &[])
            .await
    }

    /// `GET /spaces/{id}/content/pages`: the whole page tree (not paginated).
    pub async fn list_pages(&self, space: &str) -> Result<Vec<Page>, ApiError> {
        let path = format!("/spaces/{}/content/pages", encode_segment(space));
        let list: PageList = self.get(&path, &[]).await?;
        Ok(list.pages)
    }

    /// `GET /spaces/{id}/content/pages`, read through `seed` as it is decoded: the page tree
    /// of a big space is built without first holding every page as a typed [`Page`].
    pub async fn list_pages_with<S, T>(&self, space: &str, seed: S) -> Result<T, ApiError>
    where
        S: for<'de> serde::de::DeserializeSeed<'de, Value = T>,
    {
        let path = format!("/spaces/{}/content/pages", encode_segment(space));
        let (endpoint, bytes) = self.send(Method::GET, &path, &[], None).await?;
        decode_body_with(&endpoint, &bytes, seed).map_err(|error| self.logged_decode_error(error))
    }

    /// `Page::markdown`.
    pub async fn get_page_markdown(&self, space: &str, page: &str) -> Result<Page, ApiError> {
        let path = format!(
            "/spaces/{}/content/page/{}",
            encode_segment(space),
            encode_segment(page)
        );
        self.get(&path, &[("format", "markdown")]).await
    }
}

//! Carries out the reader's page calls with the API client: a space's page tree, built as the
//! answer is decoded, and one page's markdown.

use crate::api::Client;
use crate::app::ApiResponse;
use crate::ui::page_tree::PageTreeSeed;
use crate::vocabulary::handoff::Handoff;

pub async fn list_pages(client: &Client, space: &str) -> ApiResponse {
    ApiResponse::PageTree(
        client
            .list_pages_with(space, PageTreeSeed)
            .await
            .map(Handoff::new),
    )
}

pub async fn page_markdown(client: &Client, space: &str, page: &str) -> ApiResponse {
    ApiResponse::PageMarkdown(client.get_page_markdown(space, page).await)
}

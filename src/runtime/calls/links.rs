//! Carries out a [`LinksCall`]: the runtime's `call_api` hands every `ApiCall::Links` here.

use crate::api::{Client, ContentSource};
use crate::vocabulary::links::{LinksCall, LinksResponse};

pub async fn call_links(client: &Client, call: LinksCall) -> LinksResponse {
    match call {
        LinksCall::Links {
            source,
            page,
            status,
            cursor,
        } => {
            let cursor = cursor.as_deref();
            let result = match (&source, page) {
                (_, Some(page)) => {
                    client
                        .list_page_links(&source, &page, status.as_ref(), cursor)
                        .await
                }
                // A change request has no links report of its own, only its pages' links.
                (ContentSource::Space(space), None)
                | (ContentSource::ChangeRequest { space, .. }, None) => {
                    client
                        .list_space_links(space, status.as_ref(), cursor)
                        .await
                }
            };
            LinksResponse::Links(result)
        }
        LinksCall::Backlinks {
            source,
            target,
            cursor,
        } => LinksResponse::Backlinks(
            client
                .list_backlinks(&source, &target, cursor.as_deref())
                .await,
        ),
        LinksCall::Pages { source } => {
            LinksResponse::Pages(client.list_content_pages(&source).await)
        }
    }
}

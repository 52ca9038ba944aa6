//! Carries out a [`CollectionsCall`] with the API client; the runtime's `call_api` hands every
//! `ApiCall::Collections` here.

use crate::api::models::{Organization, Space};
use crate::api::{ApiError, Client, PageCursor};
use crate::app::collections::{CollectionsCall, CollectionsResponse};

pub async fn call_collections(client: &Client, call: CollectionsCall) -> CollectionsResponse {
    match call {
        CollectionsCall::Create {
            organization,
            collection,
        } => CollectionsResponse::Collection(
            client.create_collection(&organization, &collection).await,
        ),
        CollectionsCall::Update { collection, update } => {
            CollectionsResponse::Collection(client.update_collection(&collection, &update).await)
        }
        CollectionsCall::Delete { collection } => {
            CollectionsResponse::Deleted(client.delete_collection(&collection).await)
        }
        CollectionsCall::Move { item, target } => {
            CollectionsResponse::Moved(client.move_content(&item, &target).await)
        }
        CollectionsCall::Transfer { item, organization } => {
            CollectionsResponse::Moved(client.transfer_content(&item, &organization).await)
        }
        CollectionsCall::Organizations => {
            CollectionsResponse::Organizations(client.list_all::<Organization>("/orgs", &[]).await)
        }
        CollectionsCall::Spaces { collection } => {
            CollectionsResponse::Spaces(collection_spaces(client, &collection).await)
        }
    }
}

/// Every space directly in a collection, page after page (`GET /collections/{id}/spaces`).
async fn collection_spaces(client: &Client, collection: &str) -> Result<Vec<Space>, ApiError> {
    let mut spaces = Vec::new();
    let mut page: Option<String> = None;
    let mut cursor = PageCursor::default();
    while cursor.begin(page.as_deref()).is_ok() {
        let list = client
            .list_collection_spaces(collection, page.as_deref())
            .await?;
        spaces.extend(list.items);
        match list.next_page {
            Some(next) => page = Some(next),
            None => break,
        }
    }
    Ok(spaces)
}

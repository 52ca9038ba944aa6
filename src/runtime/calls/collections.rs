//! Carries out a [`CollectionsCall`] with the API client; the runtime's `call_api` hands every
//! `ApiCall::Collections` here.

use crate::api::models::{Organization, Space};
use crate::api::{ApiError, Client, WholeList, encode_segment};
use crate::vocabulary::collections::{CollectionsCall, CollectionsResponse};

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
        CollectionsCall::Organizations => CollectionsResponse::Organizations(
            client
                .list_up_to::<Organization>("/orgs", &[], super::PICKER_PAGES)
                .await,
        ),
        CollectionsCall::Spaces { collection } => {
            CollectionsResponse::Spaces(collection_spaces(client, &collection).await)
        }
    }
}

/// Every space directly in a collection (`GET /collections/{id}/spaces`), up to as many pages
/// as the organization's tree reads of its own lists, keeping what was read.
async fn collection_spaces(
    client: &Client,
    collection: &str,
) -> Result<WholeList<Space>, ApiError> {
    let path = format!("/collections/{}/spaces", encode_segment(collection));
    client
        .list_up_to(&path, &[], crate::runtime::TREE_MAX_PAGES)
        .await
}

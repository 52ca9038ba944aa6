//! Carries out a [`CollectionsCall`] with the API client; the runtime's `call_api` hands every
//! `ApiCall::Collections` here.

use crate::api::Client;
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
            client.list_organizations_up_to(super::PICKER_PAGES).await,
        ),
        CollectionsCall::Get { collection } => {
            CollectionsResponse::Collection(client.get_collection(&collection).await)
        }
        // As many pages as the organization's tree reads of its own lists.
        CollectionsCall::Spaces { collection } => CollectionsResponse::Spaces(
            client
                .list_collection_spaces_up_to(&collection, crate::runtime::TREE_MAX_PAGES)
                .await,
        ),
    }
}

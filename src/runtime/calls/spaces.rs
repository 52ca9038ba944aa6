//! Carries out a [`SpacesCall`] with the API client.

use crate::api::models::Member;
use crate::api::{Client, encode_segment};
use crate::app::spaces::{SpacesCall, SpacesResponse};

pub async fn call_spaces(client: &Client, call: SpacesCall) -> SpacesResponse {
    match call {
        SpacesCall::Update { space, update } => {
            SpacesResponse::Space(client.update_space(&space, &update).await)
        }
        SpacesCall::Delete { space } => SpacesResponse::Deleted(client.delete_space(&space).await),
        SpacesCall::Restore { space } => SpacesResponse::Space(client.restore_space(&space).await),
        SpacesCall::Duplicate { space } => {
            SpacesResponse::Space(client.duplicate_space(&space).await)
        }
        SpacesCall::Members { organization } => {
            let path = format!("/orgs/{}/members", encode_segment(&organization));
            SpacesResponse::Members(client.list_all::<Member>(&path, &[]).await)
        }
    }
}

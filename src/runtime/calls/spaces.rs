//! Carries out a [`SpacesCall`] with the API client.

use crate::api::Client;
use crate::vocabulary::spaces::{SpacesCall, SpacesResponse};

pub async fn call_spaces(client: &Client, call: SpacesCall) -> SpacesResponse {
    match call {
        SpacesCall::Update { space, update } => {
            SpacesResponse::Space(client.update_space(&space, &update).await)
        }
        SpacesCall::Delete { space } => SpacesResponse::Deleted(client.delete_space(&space).await),
        SpacesCall::Restore { space } => restore_if_deleted(client, &space).await,
        SpacesCall::Duplicate { space } => {
            SpacesResponse::Space(client.duplicate_space(&space).await)
        }
        SpacesCall::ApplyTemplate { space, application } => SpacesResponse::TemplateApplied(
            client.apply_content_template(&space, &application).await,
        ),
        SpacesCall::Members { organization } => SpacesResponse::Members(
            client
                .list_members_up_to(&organization, super::PICKER_PAGES)
                .await,
        ),
    }
}

/// Restores `space` only when it is deleted: the server answers a restore of an active space
/// as if it had worked, and quire must not report a restore that changed nothing. A space that
/// cannot be read is restored anyway, so the server's own answer says what is wrong.
async fn restore_if_deleted(client: &Client, space: &str) -> SpacesResponse {
    if let Ok(found) = client.get_space(space).await
        && found.deleted_at.is_none()
    {
        return SpacesResponse::NotDeleted(found);
    }
    SpacesResponse::Space(client.restore_space(space).await)
}

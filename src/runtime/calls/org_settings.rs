//! Carries out an [`OrgSettingsCall`] with the API client.

use crate::api::{Client, SiteFilter};
use crate::vocabulary::org_settings::{OrgSettingsCall, OrgSettingsResponse, SiteChoice};

pub async fn call_org_settings(client: &Client, call: OrgSettingsCall) -> OrgSettingsResponse {
    match call {
        OrgSettingsCall::Organization { organization } => OrgSettingsResponse::Organization(
            client.get_organization(&organization).await.map(Box::new),
        ),
        OrgSettingsCall::Save {
            organization,
            update,
        } => {
            let saved = client.update_organization(&organization, &update).await;
            OrgSettingsResponse::Organization(
                crate::api::read_back::saved_organization(client, &organization, &update, saved)
                    .await
                    .map(Box::new),
            )
        }
        OrgSettingsCall::Sites { organization } => {
            OrgSettingsResponse::Sites(sites(client, &organization).await)
        }
        OrgSettingsCall::Instructions { organization } => {
            OrgSettingsResponse::Instructions(client.agent_instructions(&organization).await)
        }
        OrgSettingsCall::SaveInstructions {
            organization,
            document,
        } => OrgSettingsResponse::Instructions(
            client
                .set_agent_instructions(&organization, &document)
                .await,
        ),
        OrgSettingsCall::RevokeInvite {
            organization,
            invite,
        } => OrgSettingsResponse::Done(client.revoke_invite_link(&organization, &invite).await),
        OrgSettingsCall::Join { organization } => {
            OrgSettingsResponse::Done(client.join_organization(&organization).await)
        }
    }
}

/// The organization's sites (the first page is enough to pick from: up to the page limit).
async fn sites(
    client: &Client,
    organization: &str,
) -> Result<Vec<SiteChoice>, crate::api::ApiError> {
    let page = client
        .list_sites(organization, &SiteFilter::default(), None)
        .await?;
    Ok(page
        .items
        .into_iter()
        .map(|site| SiteChoice {
            id: site.id,
            title: site.title,
        })
        .collect())
}

//! Carries out a [`TeamsCall`] with the API client.

use crate::api::Client;
use crate::vocabulary::teams::{PickableMembers, TeamsCall, TeamsResponse};

/// Pages of members read for a picker before it says the list was cut short.
const PICKABLE_PAGES: usize = 5;

pub async fn call_teams(client: &Client, call: TeamsCall) -> TeamsResponse {
    match call {
        TeamsCall::List {
            organization,
            title,
            owner,
            page,
        } => TeamsResponse::List(
            client
                .list_teams(
                    &organization,
                    title.as_deref(),
                    owner.as_deref(),
                    page.as_deref(),
                )
                .await,
        ),
        TeamsCall::CurrentUser => TeamsResponse::CurrentUser(client.current_user().await),
        TeamsCall::Create {
            organization,
            title,
            members,
        } => {
            let created = client.create_team(&organization, &title, &members).await;
            TeamsResponse::Saved(
                crate::api::read_back::created_team(client, &organization, &title, created).await,
            )
        }
        TeamsCall::Rename {
            organization,
            team,
            title,
        } => TeamsResponse::Saved(client.rename_team(&organization, &team, &title).await),
        TeamsCall::Get { organization, team } => {
            TeamsResponse::Team(client.get_team(&organization, &team).await)
        }
        TeamsCall::Delete { organization, team } => {
            TeamsResponse::Deleted(client.delete_team(&organization, &team).await)
        }
        TeamsCall::Members {
            organization,
            team,
            page,
        } => TeamsResponse::Members(
            client
                .list_team_members(&organization, &team, page.as_deref())
                .await,
        ),
        TeamsCall::Pickable { organization } => {
            let listed = client
                .list_members_up_to(&organization, PICKABLE_PAGES)
                .await;
            TeamsResponse::Pickable(listed.map(|listed| PickableMembers {
                members: listed.items,
                cut_short: listed.stopped.is_some(),
            }))
        }
        TeamsCall::UpdateMembers {
            organization,
            team,
            update,
        } => TeamsResponse::MembersChanged(
            client
                .update_team_members(&organization, &team, &update)
                .await,
        ),
        TeamsCall::SetMember {
            organization,
            team,
            user,
            role,
        } => TeamsResponse::MembersChanged(
            client
                .set_team_member(&organization, &team, &user, role.as_ref())
                .await,
        ),
        TeamsCall::RemoveMember {
            organization,
            team,
            user,
        } => TeamsResponse::MembersChanged(
            client.remove_team_member(&organization, &team, &user).await,
        ),
    }
}

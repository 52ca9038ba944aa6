//! Carries out a [`MembersCall`] with the API client.

use crate::api::Client;
use crate::vocabulary::members::{MemberDetails, MembersCall, MembersResponse};

pub async fn call_members(client: &Client, call: MembersCall) -> MembersResponse {
    match call {
        MembersCall::List {
            organization,
            filter,
            page,
        } => MembersResponse::List(
            client
                .list_members(&organization, &filter, page.as_deref())
                .await,
        ),
        MembersCall::Details {
            organization,
            user,
            oldest_first,
            teams_title,
        } => {
            let title = teams_title.as_deref();
            let (spaces, teams) = tokio::join!(
                client.list_member_spaces(&organization, &user, oldest_first, None),
                client.list_member_teams(&organization, &user, title, None)
            );
            MembersResponse::Details(
                spaces.and_then(|spaces| teams.map(|teams| MemberDetails { spaces, teams })),
            )
        }
        MembersCall::SetRole {
            organization,
            user,
            role,
        } => {
            let set = client
                .set_member_role(&organization, &user, role.as_ref())
                .await;
            let target = (organization.as_str(), user.as_str());
            MembersResponse::Updated(
                crate::api::read_back::member_with_role(client, target, role.as_ref(), set).await,
            )
        }
        MembersCall::MakeSso { organization, user } => {
            MembersResponse::Updated(client.make_sso_member(&organization, &user).await)
        }
        MembersCall::Remove { organization, user } => {
            MembersResponse::Removed(client.remove_member(&organization, &user).await)
        }
    }
}

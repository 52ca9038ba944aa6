//! The real `api::Client` against the real sandbox: teams (list, create, rename, delete,
//! members one by one and in bulk), each checked by reading the server back through the client.

use crate::members::{ACME, MAYA, TestResult, start};
use quire::api::models::{TeamMembership, TeamRole};
use quire::api::{Client, TeamMembersUpdate};
use quire::sandbox::{demo_ids, tokens};

async fn team_member_ids(client: &Client, team: &str) -> Result<Vec<String>, quire::api::ApiError> {
    let page = client.list_team_members(ACME, team, None).await?;
    Ok(page
        .items
        .into_iter()
        .map(|entry| entry.organization.id)
        .collect())
}

#[tokio::test]
async fn teams_are_listed_created_renamed_edited_and_deleted() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let all = client.list_teams(ACME, None, None, None).await?;
    assert_eq!(all.items.len(), 6);
    let titled = client.list_teams(ACME, Some("guild"), None, None).await?;
    assert_eq!(titled.items.len(), 1);
    let owned = client
        .list_teams(ACME, None, Some(demo_ids::USER_EDITOR), None)
        .await?;
    assert_eq!(owned.items[0].title, "Robotics SDK");

    let members = vec![MAYA.to_string(), demo_ids::USER_READER.to_string()];
    let team = client.create_team(ACME, "Field Ops", &members).await?;
    assert_eq!(team.members, Some(2));
    let team = client
        .rename_team(ACME, &team.id, "Field Operations")
        .await?;
    assert_eq!(
        client.get_team(ACME, &team.id).await?.title,
        "Field Operations"
    );

    client
        .set_team_member(ACME, &team.id, MAYA, Some(&TeamRole::Owner))
        .await?;
    let entries = client.list_team_members(ACME, &team.id, None).await?;
    assert!(entries.items.iter().any(|entry| {
        entry.organization.id == MAYA && entry.team.role == Some(TeamRole::Owner)
    }));
    let update = TeamMembersUpdate {
        add: vec![
            demo_ids::USER_EDITOR.into(),
            demo_ids::USER_COMMENTER.into(),
        ],
        remove: vec![
            demo_ids::USER_READER.into(),
            demo_ids::USER_COMMENTER.into(),
        ],
        memberships: [(
            demo_ids::USER_EDITOR.to_string(),
            TeamMembership {
                role: Some(TeamRole::Owner),
            },
        )]
        .into(),
    };
    client.update_team_members(ACME, &team.id, &update).await?;
    let mut seated = team_member_ids(&client, &team.id).await?;
    seated.sort();
    assert_eq!(seated, [MAYA, demo_ids::USER_EDITOR]);
    client.remove_team_member(ACME, &team.id, MAYA).await?;
    assert_eq!(
        team_member_ids(&client, &team.id).await?,
        [demo_ids::USER_EDITOR]
    );

    client.delete_team(ACME, &team.id).await?;
    client.delete_team(ACME, &team.id).await?;
    assert!(
        client
            .get_team(ACME, &team.id)
            .await
            .unwrap_err()
            .is_not_found()
    );
    sandbox.shutdown().await;
    Ok(())
}

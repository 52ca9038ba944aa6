//! The real `api::Client` against the real sandbox: members (filters, details, role, SSO,
//! removal) and teams (list, create, rename, delete, members one by one and in bulk), each
//! checked by reading the server back through the client.

use quire::api::models::{MemberRole, TeamMembership, TeamRole};
use quire::api::{
    Client, ClientConfig, MemberFilter, MemberRoleFilter, MemberSortKey, TeamMembersUpdate, Token,
};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const ACME: &str = demo_ids::ACME;
const MAYA: &str = "usr-acme-13";

async fn start(token: &str) -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))?;
    Ok((sandbox, client))
}

async fn team_member_ids(client: &Client, team: &str) -> Result<Vec<String>, quire::api::ApiError> {
    let page = client.list_team_members(ACME, team, None).await?;
    Ok(page
        .items
        .into_iter()
        .map(|entry| entry.organization.id)
        .collect())
}

#[tokio::test]
async fn members_are_filtered_by_the_server_and_their_details_read() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let filter = MemberFilter {
        search: Some("maya".into()),
        ..MemberFilter::default()
    };
    let found = client.list_members(ACME, &filter, None).await?;
    assert!(found.items.iter().any(|member| member.id == MAYA));
    let guests = MemberFilter {
        role: Some(MemberRoleFilter::Guest),
        sort: Some(MemberSortKey::LastSeenAt),
        ..MemberFilter::default()
    };
    let page = client.list_members(ACME, &guests, None).await?;
    assert!(page.items.iter().all(|member| member.role.is_none()));
    assert!(
        page.items
            .iter()
            .all(|member| member.last_seen_at.is_some())
    );

    let spaces = client
        .list_member_spaces(ACME, demo_ids::USER_EDITOR, None)
        .await?;
    assert!(
        spaces
            .items
            .iter()
            .all(|entry| entry.permission == Some(MemberRole::Edit))
    );
    assert!(
        spaces
            .items
            .iter()
            .all(|entry| !entry.space.title.is_empty())
    );
    let teams = client
        .list_member_teams(ACME, demo_ids::USER_EDITOR, None)
        .await?;
    assert!(teams.items.iter().any(|entry| {
        entry.team.title == "Robotics SDK" && entry.member.role == Some(TeamRole::Owner)
    }));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_role_sso_and_removal_reach_the_server() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let member = client
        .set_member_role(ACME, MAYA, Some(&MemberRole::Review))
        .await?;
    assert_eq!(member.role, Some(MemberRole::Review));
    let member = client.set_member_role(ACME, MAYA, None).await?;
    assert_eq!(member.role, None, "None sends null: a guest");
    assert_eq!(client.get_member(ACME, MAYA).await?.role, None);
    let guest = "usr-oleksandr-kovalenko";
    assert_eq!(client.make_sso_member(ACME, guest).await?.sso, Some(true));
    let before = client
        .get_member(ACME, demo_ids::USER_ADMIN)
        .await?
        .last_seen_at;
    client.ping(ACME).await?;
    let after = client
        .get_member(ACME, demo_ids::USER_ADMIN)
        .await?
        .last_seen_at;
    assert!(
        after > before,
        "ping marks the caller as seen now: {before:?} → {after:?}"
    );
    client.remove_member(ACME, MAYA).await?;
    client.remove_member(ACME, MAYA).await?;
    assert!(
        client
            .get_member(ACME, MAYA)
            .await
            .unwrap_err()
            .is_not_found()
    );
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_non_admin_is_refused_in_words() -> TestResult {
    let (sandbox, client) = start(tokens::READER).await?;
    let error = client
        .set_member_role(ACME, MAYA, Some(&MemberRole::Admin))
        .await
        .unwrap_err();
    assert_eq!(error.status(), Some(403));
    assert!(
        error.user_message().contains("admin role"),
        "{}",
        error.user_message()
    );
    let error = client.create_team(ACME, "Mine", &[]).await.unwrap_err();
    assert_eq!(error.status(), Some(403));
    sandbox.shutdown().await;
    Ok(())
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

//! The real `api::Client` against the real sandbox: members (filters, details, role, SSO,
//! removal), each checked by reading the server back through the client.

use quire::api::models::{MemberRole, TeamRole};
use quire::api::{Client, ClientConfig, MemberFilter, MemberRoleFilter, MemberSortKey, Token};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};

pub(crate) type TestResult = Result<(), Box<dyn std::error::Error>>;

pub(crate) const ACME: &str = demo_ids::ACME;

pub(crate) const MAYA: &str = "usr-acme-13";

pub(crate) async fn start(token: &str) -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))?;
    Ok((sandbox, client))
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
        .list_member_spaces(ACME, demo_ids::USER_EDITOR, false, None)
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
        .list_member_teams(ACME, demo_ids::USER_EDITOR, None, None)
        .await?;
    assert!(teams.items.iter().any(|entry| {
        entry.team.title == "Robotics SDK" && entry.member.role == Some(TeamRole::Owner)
    }));
    let oldest_first = client
        .list_member_spaces(ACME, demo_ids::USER_EDITOR, true, None)
        .await?;
    let ids = |page: &quire::api::ListPage<quire::api::models::MemberSpace>| {
        page.items
            .iter()
            .map(|entry| entry.space.id.clone())
            .collect::<Vec<_>>()
    };
    let mut reversed = ids(&spaces);
    reversed.reverse();
    assert!(reversed.len() > 1);
    assert_eq!(ids(&oldest_first), reversed);
    let titled = client
        .list_member_teams(ACME, demo_ids::USER_EDITOR, Some("sdk"), None)
        .await?;
    let titles: Vec<&str> = titled.items.iter().map(|e| e.team.title.as_str()).collect();
    assert_eq!(titles, ["Robotics SDK"]);
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

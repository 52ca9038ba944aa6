//! Writes whose answer is lost (the sandbox stores them, then answers 500 or resets): read
//! back, a stored write is a success and a missing one says it was not saved — never a second
//! non-idempotent write.

use quire::api::read_back;
use quire::api::{ApiError, Client, OrganizationUpdate};
use quire::sandbox::{Fault, FaultRule, Faults, Sandbox};

const ORGANIZATION: &str = "org-acme-robotics";

async fn sandbox_with(rule: FaultRule) -> (Sandbox, Client) {
    crate::common::sandbox_with_faults(Faults {
        rules: vec![rule],
        ..Faults::default()
    })
    .await
}

#[tokio::test]
async fn a_settings_save_whose_answer_is_lost_is_read_back_as_saved() {
    let rule = FaultRule::new("/orgs/*", Fault::StoreThenFail)
        .method("PATCH")
        .times(1);
    let (_sandbox, client) = sandbox_with(rule).await;
    let update = OrganizationUpdate {
        title: Some("Acme Robotics (renamed)".into()),
        ..OrganizationUpdate::default()
    };
    let sent = client.update_organization(ORGANIZATION, &update).await;
    assert!(
        sent.as_ref().is_err_and(ApiError::outcome_unknown),
        "{sent:?}"
    );
    let saved = read_back::saved_organization(&client, ORGANIZATION, &update, sent)
        .await
        .expect("read back as saved");
    assert_eq!(saved.title, "Acme Robotics (renamed)");
}

#[tokio::test]
async fn a_team_whose_creation_was_lost_is_found_once_and_a_reset_one_is_not_saved() {
    let rule = FaultRule::new("/orgs/*/teams", Fault::StoreThenFail)
        .method("PUT")
        .times(1);
    let (sandbox, client) = sandbox_with(rule).await;
    let sent = client.create_team(ORGANIZATION, "Read Back", &[]).await;
    let team = read_back::created_team(&client, ORGANIZATION, "Read Back", sent)
        .await
        .expect("found");
    assert_eq!(team.title, "Read Back");
    assert_eq!(sandbox.requests("PUT", "/orgs/*/teams"), 1, "sent once");

    sandbox.set_faults(Faults {
        rules: vec![
            FaultRule::new("/orgs/*/teams", Fault::Reset)
                .method("PUT")
                .times(1),
        ],
        ..Faults::default()
    });
    let sent = client.create_team(ORGANIZATION, "Never Made", &[]).await;
    let missing = read_back::created_team(&client, ORGANIZATION, "Never Made", sent)
        .await
        .expect_err("not there");
    assert!(matches!(missing, ApiError::NotSaved { .. }), "{missing:?}");
    assert!(missing.user_message().starts_with("It was not saved"));
}

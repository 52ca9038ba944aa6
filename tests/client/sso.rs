//! The real `api::Client` against the real sandbox: SAML providers and SSO logins, each
//! checked by reading the server back.

use crate::org_settings::{ACME, TestResult, client, start, status_of};
use quire::api::SamlProviderInput;
use quire::api::models::MemberRole;
use quire::sandbox::{DEMO_CERTIFICATE, tokens};

#[tokio::test]
async fn saml_providers_round_trip() -> TestResult {
    let sandbox = start().await?;
    let admin = client(&sandbox, tokens::ADMIN)?;
    let providers = admin.list_saml_providers(ACME).await?.items;
    assert_eq!(providers.len(), 2);
    assert_eq!(providers[0].label, "Okta");
    assert!(
        providers[0]
            .service
            .acs_url
            .as_deref()
            .unwrap_or_default()
            .ends_with("/acs")
    );
    let logins = admin.list_sso_logins(ACME).await?;
    assert_eq!(logins.len(), 1);
    assert_eq!(logins[0].start_url, providers[0].service.start_url);

    let created = admin
        .create_saml_provider(
            ACME,
            &SamlProviderInput {
                label: Some("Google".into()),
                certificate: Some(DEMO_CERTIFICATE.into()),
                sso_url: Some("https://accounts.google.example/sso".into()),
                entity_id: Some("urn:google".into()),
                default_team: Some("team-docs".into()),
                default_role: Some(None),
            },
        )
        .await?;
    assert_eq!(created.status.as_deref(), Some("active"));
    assert_eq!(created.default_role, None);
    assert_eq!(
        created.default_team.map(|team| team.id).as_deref(),
        Some("team-docs")
    );
    let changed = admin
        .update_saml_provider(
            ACME,
            &created.id,
            &SamlProviderInput {
                default_role: Some(Some(MemberRole::Edit)),
                ..SamlProviderInput::default()
            },
        )
        .await?;
    assert_eq!(changed.default_role, Some(MemberRole::Edit));
    assert_eq!(changed.label, "Google");
    assert_eq!(admin.get_saml_provider(ACME, &created.id).await?, changed);

    let refused = admin
        .create_saml_provider(
            ACME,
            &SamlProviderInput {
                label: Some("Bad".into()),
                certificate: Some("garbage".into()),
                ..SamlProviderInput::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status_of(&refused), Some(400));
    assert!(
        refused.user_message().contains("certificate")
            || format!("{refused:?}").contains("certificate")
    );

    admin.delete_saml_provider(ACME, &created.id).await?;
    admin.delete_saml_provider(ACME, &created.id).await?;
    assert_eq!(admin.list_saml_providers(ACME).await?.items.len(), 2);

    let editor = client(&sandbox, tokens::EDITOR)?;
    let error = editor
        .delete_saml_provider(ACME, "saml-acme-okta")
        .await
        .unwrap_err();
    assert_eq!(status_of(&error), Some(403));
    sandbox.shutdown().await;
    Ok(())
}

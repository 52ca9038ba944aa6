//! The real `api::Client` against the real sandbox for integrations: the catalogue's
//! filters, details, and publish.

use crate::conversations::{TestResult, start};
use quire::api::{IntegrationFilter, PublishManifest};
use quire::sandbox::{demo_ids, tokens};

#[tokio::test]
async fn the_catalogue_filters_and_one_integration() -> TestResult {
    let (sandbox, client) = start(tokens::READER).await?;
    let filter = IntegrationFilter {
        category: Some("analytics".into()),
        ..IntegrationFilter::default()
    };
    let analytics = client.list_integrations(&filter, None).await?;
    let names: Vec<_> = analytics.items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["google-analytics", "plausible"]);
    let filter = IntegrationFilter {
        search: Some("sla".into()),
        blocks: Some(true),
        ..IntegrationFilter::default()
    };
    let slack = client.list_integrations(&filter, None).await?;
    assert_eq!(slack.items.len(), 1);
    let filter = IntegrationFilter {
        block_domain: Some("figma.com".into()),
        ..IntegrationFilter::default()
    };
    let figma = client.list_integrations(&filter, None).await?;
    let names: Vec<_> = figma.items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["figma"]);
    let details = client.get_integration("github-sync").await?;
    assert!(details.verified);
    assert_eq!(details.content_sources.len(), 1);
    assert_eq!(
        details.configurations["space"].required,
        vec!["branch".to_string()]
    );
    let missing = client.get_integration("nope").await.unwrap_err();
    assert!(missing.is_not_found());
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn publishing_a_manifest_and_a_refusal_for_an_unknown_organization() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let manifest = PublishManifest::from_json(&format!(
        r#"{{"name":"acme-status","title":"Acme status","description":"Fleet status",
        "scopes":["space:content:read"],"script":"export default {{}}",
        "organization":"{}","secrets":{{"KEY":"sk-1"}}}}"#,
        demo_ids::ACME
    ))
    .map_err(|p| format!("{p:?}"))?;
    let published = client.publish_integration(&manifest).await?;
    assert_eq!(published.name, "acme-status");
    assert_eq!(
        published.owner.map(|o| o.id).as_deref(),
        Some(demo_ids::ACME)
    );
    let mut elsewhere = manifest.clone();
    elsewhere
        .body
        .insert("organization".into(), "org-nowhere".into());
    let error = client.publish_integration(&elsewhere).await.unwrap_err();
    assert!(error.is_not_found(), "{error:?}");
    assert!(error.user_message().contains("org-nowhere"));
    sandbox.shutdown().await;
    Ok(())
}

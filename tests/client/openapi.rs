//! The real `api::Client` (and the runtime's calls) against the real sandbox: OpenAPI specs,
//! each change checked by reading the server back.

use std::time::Duration;

use crate::translations::{ORG, TestResult, start};
use quire::api::VersionRef;
use quire::api::models::{ProcessingState, SpecFile, SpecVisibility};
use quire::runtime::calls::openapi::call_openapi;
use quire::sandbox::tokens;
use quire::vocabulary::openapi::{OpenApiCall, OpenApiResponse};

#[tokio::test]
async fn specs_versions_and_their_files() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let response = call_openapi(
        &client,
        OpenApiCall::List {
            organization: ORG.into(),
        },
    )
    .await;
    let OpenApiResponse::List(Ok(specs)) = response else {
        panic!("{response:?}")
    };
    let specs = specs.items;
    assert_eq!(specs.len(), 2);
    assert!(specs[0].is_public());
    assert_eq!(specs[1].error_count(), 2);
    assert_eq!(
        specs[1].last_process_error_code.as_deref(),
        Some("PARSE_ERROR")
    );
    let versions = client.list_openapi_versions(ORG, "fleet-api", None).await?;
    assert_eq!(versions.items.len(), 3);
    let latest = client
        .get_openapi_version(ORG, "fleet-api", &VersionRef::Latest)
        .await?;
    assert_eq!(latest.id, "ver-fleet-api-3");
    let content = client
        .get_openapi_content(ORG, "fleet-api", &VersionRef::Id("ver-fleet-api-2".into()))
        .await?;
    let paths: Vec<String> = SpecFile::list(&content.filesystem)
        .into_iter()
        .map(|file| file.path)
        .collect();
    assert!(
        paths.contains(&"components/schemas.json".to_string()),
        "{paths:?}"
    );
    assert!(paths.contains(&"openapi.yaml".to_string()), "{paths:?}");
    let error = client
        .get_openapi_content(ORG, "fleet-api", &VersionRef::Id("ver-nope".into()))
        .await
        .unwrap_err();
    assert!(error.is_not_found());
    let error = client.get_openapi_spec(ORG, "nope").await.unwrap_err();
    assert!(error.is_not_found());
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn create_replace_toggle_and_delete_a_spec() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    // Processing takes the sandbox's time: stopped, it moves only as the test says.
    sandbox.clock().stop();
    let created = client
        .create_openapi_spec(ORG, "pet-store", "https://example.com/pets.yaml")
        .await?;
    assert_eq!(created.processing_state, ProcessingState::Pending);
    sandbox.clock().advance(Duration::from_secs(
        quire::sandbox::OPENAPI_PROCESSING_SECONDS.unsigned_abs(),
    ));
    let spec = client.get_openapi_spec(ORG, "pet-store").await?;
    assert_eq!(spec.processing_state, ProcessingState::Complete);
    assert_eq!(spec.last_version.as_deref(), Some("ver-pet-store-1"));
    let replaced = client
        .replace_openapi_source(ORG, "pet-store", "https://example.com/pets-2.yaml")
        .await?;
    assert_eq!(
        replaced.source_url.as_deref(),
        Some("https://example.com/pets-2.yaml")
    );
    let public = client
        .set_openapi_visibility(ORG, "pet-store", &SpecVisibility::Public)
        .await?;
    assert!(public.is_public());
    assert!(client.get_openapi_spec(ORG, "pet-store").await?.is_public());
    client.delete_openapi_spec(ORG, "pet-store").await?;
    assert!(
        client
            .get_openapi_spec(ORG, "pet-store")
            .await
            .unwrap_err()
            .is_not_found()
    );
    sandbox.shutdown().await;
    Ok(())
}

//! The real `api::Client` (and the runtime's calls) against the real sandbox: translations
//! and OpenAPI specs, each change checked by reading the server back.

use std::time::Duration;

use quire::api::models::{ProcessingState, SpecFile, SpecVisibility, TranslationStatus};
use quire::api::{
    ApiError, Client, ClientConfig, NewTranslation, NewTranslationSource, Token, VersionRef,
};
use quire::app::openapi::{OpenApiCall, OpenApiResponse};
use quire::app::translations::{TranslationsCall, TranslationsResponse};
use quire::runtime::calls::openapi::call_openapi;
use quire::runtime::calls::translations::call_translations;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use serde_json::json;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const ORG: &str = demo_ids::ACME;

async fn start(token: &str) -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))?;
    Ok((sandbox, client))
}

fn status(error: &ApiError) -> Option<u16> {
    error.status()
}

#[tokio::test]
async fn the_list_comes_with_space_titles() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let response = call_translations(
        &client,
        TranslationsCall::List {
            organization: ORG.into(),
        },
    )
    .await;
    let TranslationsResponse::List(Ok(list)) = response else {
        panic!("{response:?}")
    };
    assert_eq!(list.translations.len(), 3);
    let french = &list.translations[0];
    assert_eq!(french.status, TranslationStatus::Completed);
    assert_eq!(french.stats.runs, 3);
    let result = french
        .result
        .as_ref()
        .and_then(|r| r.space.clone())
        .expect("result space");
    assert_eq!(
        list.space_titles.get(&result).map(String::as_str),
        Some("Rust SDK (fr)")
    );
    assert_eq!(
        list.space_titles.get("spc-rust-sdk").map(String::as_str),
        Some("Rust SDK")
    );
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn create_edit_run_and_delete_a_translation() -> TestResult {
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let created = client
        .create_translation(
            ORG,
            &NewTranslation {
                language: "ko".into(),
                source: NewTranslationSource {
                    space: demo_ids::SPACE_HANDBOOK.into(),
                    language: "en".into(),
                },
                instructions: None,
            },
        )
        .await?;
    assert_eq!(created.status, TranslationStatus::Pending);
    assert_eq!(created.language, "ko");
    let document =
        quire::ui::document::from_text("Use polite forms.", &[]).map_err(|e| e.to_string())?;
    let saved = client
        .set_translation_instructions(ORG, &created.id, &document)
        .await?;
    assert_eq!(saved.instructions.as_ref(), Some(&document));
    client.run_translation(ORG, &created.id).await?;
    assert_eq!(
        client.get_translation(ORG, &created.id).await?.status,
        TranslationStatus::Running
    );
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let done = client.get_translation(ORG, &created.id).await?;
    assert_eq!(done.status, TranslationStatus::Completed);
    assert_eq!(done.stats.runs, 1);
    let result = done.result.and_then(|r| r.space).expect("result space");
    assert_eq!(
        client.get_space(&result).await?.language.as_deref(),
        Some("ko")
    );
    client.delete_translation(ORG, &created.id).await?;
    client.delete_translation(ORG, &created.id).await?;
    let error = client.get_translation(ORG, &created.id).await.unwrap_err();
    assert!(error.is_not_found(), "{error:?}");
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn refusals_come_back_with_the_servers_words() -> TestResult {
    let (sandbox, client) = start(tokens::EDITOR).await?;
    let error = client
        .run_translation(ORG, "trn-rust-sdk-fr")
        .await
        .unwrap_err();
    assert_eq!(status(&error), Some(403));
    assert!(
        error.user_message().contains("admin"),
        "{}",
        error.user_message()
    );
    let error = client
        .create_openapi_spec(ORG, "pets", "https://example.com/p.yaml")
        .await
        .unwrap_err();
    assert_eq!(status(&error), Some(403));
    sandbox.shutdown().await;
    let (sandbox, client) = start(tokens::ADMIN).await?;
    let bad = NewTranslation {
        language: "fr".into(),
        source: NewTranslationSource {
            space: "spc-nope".into(),
            language: "en".into(),
        },
        instructions: Some(json!("text")),
    };
    let error = client.create_translation(ORG, &bad).await.unwrap_err();
    assert_eq!(status(&error), Some(400));
    let error = client
        .create_openapi_spec(ORG, "fleet-api", "https://example.com/p.yaml")
        .await
        .unwrap_err();
    assert_eq!(status(&error), Some(400));
    assert!(
        error.user_message().contains("already exists"),
        "{}",
        error.user_message()
    );
    sandbox.shutdown().await;
    Ok(())
}

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
    let created = client
        .create_openapi_spec(ORG, "pet-store", "https://example.com/pets.yaml")
        .await?;
    assert_eq!(created.processing_state, ProcessingState::Pending);
    tokio::time::sleep(Duration::from_millis(2_100)).await;
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

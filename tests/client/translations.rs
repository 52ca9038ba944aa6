//! The real `api::Client` (and the runtime's calls) against the real sandbox: translations,
//! each change checked by reading the server back.

use std::time::Duration;

use quire::api::models::TranslationStatus;
use quire::api::{ApiError, Client, ClientConfig, NewTranslation, NewTranslationSource, Token};
use quire::runtime::calls::translations::call_translations;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::vocabulary::translations::{TranslationsCall, TranslationsResponse};
use serde_json::json;

pub(crate) type TestResult = Result<(), Box<dyn std::error::Error>>;

pub(crate) const ORG: &str = demo_ids::ACME;

pub(crate) async fn start(token: &str) -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
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
    // A run takes the sandbox's time: stopped, it moves only as the test says.
    sandbox.clock().stop();
    client.run_translation(ORG, &created.id).await?;
    assert_eq!(
        client.get_translation(ORG, &created.id).await?.status,
        TranslationStatus::Running
    );
    sandbox.clock().advance(Duration::from_secs(
        quire::sandbox::TRANSLATION_RUN_SECONDS.unsigned_abs(),
    ));
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

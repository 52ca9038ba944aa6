//! The real `api::Client` against the real sandbox: every space operation, each write checked
//! by reading the server's state back.

use quire::api::models::{DefaultLevel, MergeRules, SpaceEditMode};
use quire::api::{
    ApiError, Client, ClientConfig, ContentRef, SpaceUpdate, TemplateApplication, TemplateParams,
    Token,
};
use quire::sandbox::{Fault, FaultRule, Faults, Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;

async fn start() -> Result<(Sandbox, Client), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    Ok((sandbox, client))
}

#[tokio::test]
async fn update_sends_only_the_fields_set() -> TestResult {
    let (sandbox, client) = start().await?;
    let locked = client
        .update_space(
            SPACE,
            &SpaceUpdate {
                edit_mode: Some(SpaceEditMode::Locked),
                ..SpaceUpdate::default()
            },
        )
        .await?;
    assert!(locked.is_locked());
    assert_eq!(locked.title, "Getting Started", "the title was not sent");
    let update = SpaceUpdate {
        title: Some("Start here".into()),
        emoji: Some("🚀".into()),
        default_level: Some(Some(DefaultLevel::Comment)),
        language: Some("fr".into()),
        merge_rules: Some(MergeRules::SpecificReviewers(vec![
            demo_ids::USER_REVIEWER.into(),
            demo_ids::USER_EDITOR.into(),
        ])),
        ..SpaceUpdate::default()
    };
    client.update_space(SPACE, &update).await?;
    let space = client.get_space(SPACE).await?;
    assert!(space.is_locked(), "edit mode untouched");
    assert_eq!(space.title, "Start here");
    assert_eq!(space.emoji.as_deref(), Some("🚀"));
    assert_eq!(space.default_level, Some(DefaultLevel::Comment));
    assert_eq!(space.language.as_deref(), Some("fr"));
    assert_eq!(
        space.merge_rules(),
        MergeRules::SpecificReviewers(vec![
            demo_ids::USER_REVIEWER.into(),
            demo_ids::USER_EDITOR.into()
        ])
    );
    let cleared = SpaceUpdate {
        default_level: Some(None),
        merge_rules: Some(MergeRules::Inherit),
        ..SpaceUpdate::default()
    };
    let space = client.update_space(SPACE, &cleared).await?;
    assert_eq!(space.default_level, None);
    assert_eq!(space.merge_rules(), MergeRules::Inherit);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_refused_update_names_the_field() -> TestResult {
    let (sandbox, client) = start().await?;
    let update = SpaceUpdate {
        language: Some("xx".into()),
        ..SpaceUpdate::default()
    };
    let error = client.update_space(SPACE, &update).await.unwrap_err();
    assert!(
        matches!(&error, ApiError::Status { status: 400, message, .. } if message.contains("language")),
        "{error:?}"
    );
    let reader = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::READER),
    ))?;
    let error = reader.delete_space(SPACE).await.unwrap_err();
    assert!(
        matches!(error, ApiError::Status { status: 403, .. }),
        "{error:?}"
    );
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn delete_then_restore_and_delete_of_a_missing_space() -> TestResult {
    let (sandbox, client) = start().await?;
    client.delete_space(SPACE).await?;
    assert!(client.get_space(SPACE).await?.deleted_at.is_some());
    client.delete_space("spc-never-was").await?;
    let restored = client.restore_space(SPACE).await?;
    assert_eq!(restored.id, SPACE);
    assert_eq!(restored.deleted_at, None);
    assert_eq!(client.get_space(SPACE).await?.deleted_at, None);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_restore_after_seven_days_is_refused_in_words() -> TestResult {
    let (sandbox, client) = start().await?;
    client.delete_space(SPACE).await?;
    let shifted = reqwest::Client::new()
        .post(format!("{}/_sandbox/clock", sandbox.base_url()))
        .bearer_auth(tokens::ADMIN)
        .json(&serde_json::json!({"shiftDays": 8}))
        .send()
        .await?;
    assert!(shifted.status().is_success());
    let error = client.restore_space(SPACE).await.unwrap_err();
    assert!(
        matches!(&error, ApiError::Status { status: 404, message, .. }
            if message.contains("more than 7 days ago")),
        "{error:?}"
    );
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn duplicate_returns_the_copy() -> TestResult {
    let (sandbox, client) = start().await?;
    let copy = client.duplicate_space(SPACE).await?;
    assert_ne!(copy.id, SPACE);
    assert_eq!(copy.title, "Getting Started (copy)");
    assert_eq!(client.get_space(&copy.id).await?.title, copy.title);
    sandbox.shutdown().await;
    Ok(())
}

fn release_notes_with_the_dashboard() -> TemplateApplication {
    TemplateApplication {
        id: demo_ids::TEMPLATE_RELEASE_NOTES.into(),
        params: Some(TemplateParams {
            content_refs: [(
                "screenshot".to_string(),
                ContentRef::File {
                    file: "file-dashboard".into(),
                },
            )]
            .into(),
        }),
        change_request_id: None,
    }
}

#[tokio::test]
async fn a_content_template_lands_in_main_with_its_file_reference() -> TestResult {
    let (sandbox, client) = start().await?;
    client
        .apply_content_template(SPACE, &release_notes_with_the_dashboard())
        .await?;
    let pages = client.list_pages(SPACE).await?;
    let added = pages
        .iter()
        .find(|page| page.title == "Release notes")
        .ok_or("the template's page")?;
    let page = client.get_page_markdown(SPACE, &added.id).await?;
    let markdown = page.markdown.unwrap_or_default();
    assert!(markdown.contains("dashboard.png"), "{markdown}");
    let unknown = TemplateApplication {
        id: "tpl-nope".into(),
        ..TemplateApplication::default()
    };
    let error = client
        .apply_content_template(SPACE, &unknown)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ApiError::Status { status: 404, message, .. } if message.contains("tpl-nope")),
        "{error:?}"
    );
    sandbox.shutdown().await;
    Ok(())
}

/// The public service answers 201 where the seed answers 204: both are a success.
#[tokio::test]
async fn a_content_template_answered_201_is_a_success() -> TestResult {
    let rule = FaultRule::new("/spaces/*/content/template", Fault::Status(201)).method("POST");
    let options = SandboxOptions {
        faults: Faults {
            rules: vec![rule],
            ..Faults::default()
        },
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, options).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    client
        .apply_content_template(SPACE, &release_notes_with_the_dashboard())
        .await?;
    sandbox.shutdown().await;
    Ok(())
}

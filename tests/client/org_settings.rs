//! The real `api::Client` against the real sandbox: the organization PATCH, invite links,
//! joining and agent instructions, each checked by reading the server back.

use quire::api::{ApiError, Client, ClientConfig, OrganizationUpdate, Token};
use quire::sandbox::{NEWCOMER_TOKEN, OUTSIDER_TOKEN, Sandbox, SandboxOptions, demo_ids, tokens};
use serde_json::json;

pub(crate) type TestResult = Result<(), Box<dyn std::error::Error>>;

pub(crate) const ACME: &str = demo_ids::ACME;

pub(crate) async fn start() -> Result<Sandbox, Box<dyn std::error::Error>> {
    Ok(Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?)
}

pub(crate) fn client(sandbox: &Sandbox, token: &str) -> Result<Client, ApiError> {
    Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))
}

pub(crate) fn status_of(error: &ApiError) -> Option<u16> {
    match error {
        ApiError::Status { status, .. } => Some(*status),
        _ => None,
    }
}

#[tokio::test]
async fn organization_settings_are_patched_and_read_back() -> TestResult {
    let sandbox = start().await?;
    let admin = client(&sandbox, tokens::ADMIN)?;
    let updated = admin
        .update_organization(
            ACME,
            &OrganizationUpdate {
                title: Some("Acme Robotics Inc".into()),
                email_domains: Some(vec!["acme.example".into()]),
                default_role: Some(None),
                logo: Some(None),
                invite_links: Some(true),
                merge_rules: Some(
                    json!({"type": "rules", "rules": [{"rule": "require_agent_review"}]}),
                ),
                ..OrganizationUpdate::default()
            },
        )
        .await?;
    assert_eq!(updated.title, "Acme Robotics Inc");
    let read = admin.get_organization(ACME).await?;
    assert_eq!(read.email_domains, ["acme.example"]);
    assert_eq!(read.default_role, None);
    assert_eq!(read.urls.logo, None);
    assert_eq!(read.invite_links, Some(true));
    assert_eq!(
        read.merge_rules,
        Some(json!({"type": "rules", "rules": [{"rule": "require_agent_review"}]}))
    );
    let error = admin
        .update_organization(
            ACME,
            &OrganizationUpdate {
                hostname: Some("No Spaces".into()),
                ..OrganizationUpdate::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status_of(&error), Some(400));
    admin.revoke_invite_link(ACME, "inv-acme-summit").await?;
    admin.revoke_invite_link(ACME, "inv-never-was").await?;
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn joining_works_by_email_domain_and_a_refusal_is_a_403_with_words() -> TestResult {
    let sandbox = start().await?;
    let outsider = client(&sandbox, OUTSIDER_TOKEN)?;
    let error = outsider.join_organization(ACME).await.unwrap_err();
    assert_eq!(status_of(&error), Some(403));
    let ApiError::Status { message, .. } = &error else {
        panic!("{error:?}");
    };
    assert!(message.contains("may not join Acme Robotics"), "{message}");
    let newcomer = client(&sandbox, NEWCOMER_TOKEN)?;
    assert!(newcomer.list_organizations(None).await?.items.is_empty());
    newcomer.join_organization(ACME).await?;
    let organizations = newcomer.list_organizations(None).await?;
    assert_eq!(organizations.items[0].id, ACME);
    sandbox.shutdown().await;
    Ok(())
}

/// What the client logs while a test runs, on the test's own thread.
#[derive(Clone, Default)]
struct LogBuffer(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut log) = self.0.lock() {
            log.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuffer {
    fn text(&self) -> String {
        self.0
            .lock()
            .map(|log| String::from_utf8_lossy(&log).into_owned())
            .unwrap_or_default()
    }
}

/// The service answers a join with 204 and no body, also for a member joining again: both are
/// successes, and nothing in the log calls the empty answer undecodable.
#[tokio::test]
async fn a_join_answered_204_without_a_body_is_a_success_without_a_warning() -> TestResult {
    let log = LogBuffer::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    // Other tests run in parallel without a subscriber; tracing caches per call site whether
    // anyone listens, so ask it again now that this thread has one.
    tracing::callsite::rebuild_interest_cache();
    let sandbox = start().await?;
    let newcomer = client(&sandbox, NEWCOMER_TOKEN)?;
    newcomer.join_organization(ACME).await?;
    newcomer.join_organization(ACME).await?;
    assert_eq!(sandbox.requests("POST", "/orgs/*/join"), 2);
    let organizations = newcomer.list_organizations(None).await?;
    assert_eq!(organizations.items[0].id, ACME);
    tracing::warn!("the log is read");
    let text = log.text();
    assert!(text.contains("the log is read"), "{text}");
    assert!(!text.contains("could not decode"), "{text}");
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn agent_instructions_are_read_and_replaced() -> TestResult {
    let sandbox = start().await?;
    let admin = client(&sandbox, tokens::ADMIN)?;
    let current = admin.agent_instructions(ACME).await?;
    let text = quire::ui::document::to_text(&current.instructions).text;
    assert!(text.contains("Call the product Fleet"), "{text}");
    let document = quire::ui::document::from_text("Be brief.\n\n- One\n- Two", &[])
        .map_err(|error| error.to_string())?;
    let saved = admin.set_agent_instructions(ACME, &document).await?;
    assert_eq!(saved.instructions, document);
    assert_eq!(saved.updated_by.as_deref(), Some(demo_ids::USER_ADMIN));
    assert_eq!(admin.agent_instructions(ACME).await?.instructions, document);
    let reader = client(&sandbox, tokens::READER)?;
    let error = reader
        .set_agent_instructions(ACME, &document)
        .await
        .unwrap_err();
    assert_eq!(status_of(&error), Some(403));
    sandbox.shutdown().await;
    Ok(())
}

//! The real client against the sandbox's per-route fault knobs: reads are retried with backoff
//! and `Retry-After`, writes are sent exactly once, and cut-off or web-page answers are named
//! for what they are.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::wait::{Events, PATIENCE, wait_until_async};
use quire::api::{ApiError, Client, ClientConfig, RetryNotice, Token};
use quire::sandbox::{Fault, FaultRule, Faults, Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn sandbox_with(rules: Vec<FaultRule>) -> Result<Sandbox, Box<dyn std::error::Error>> {
    let options = SandboxOptions {
        faults: Faults {
            rules,
            ..Faults::default()
        },
        ..SandboxOptions::default()
    };
    Ok(Sandbox::start("127.0.0.1:0".parse()?, options).await?)
}

/// `GET /orgs` answers 429 with `Retry-After: seconds` once, then normally.
async fn orgs_busy_once(seconds: u64) -> Result<Sandbox, Box<dyn std::error::Error>> {
    let busy = Fault::TooManyRequests {
        retry_after_seconds: seconds,
    };
    sandbox_with(vec![FaultRule::new("/orgs", busy).times(1)]).await
}

fn client_for(sandbox: &Sandbox) -> Result<Client, ApiError> {
    Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
}

/// Every retry notice the client gives, in order, and an event for each.
fn record_notices(client: &Client) -> (Arc<Mutex<Vec<RetryNotice>>>, Events) {
    let notices = Arc::new(Mutex::new(Vec::new()));
    let told = Events::new();
    let (sink, telling) = (notices.clone(), told.clone());
    client.on_retry(move |notice| {
        if let Ok(mut notices) = sink.lock() {
            notices.push(notice);
        }
        telling.happened();
    });
    (notices, told)
}

#[tokio::test]
async fn a_429_with_retry_after_is_waited_out_then_read() -> TestResult {
    let sandbox = orgs_busy_once(1).await?;
    let client = client_for(&sandbox)?;
    let (notices, _) = record_notices(&client);
    let started = Instant::now();
    let organizations = client.list_organizations(None).await?;
    assert!(!organizations.items.is_empty());
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured"
    );
    assert_eq!(sandbox.requests("GET", "/orgs"), 2);
    let notices = notices
        .lock()
        .map(|notices| notices.clone())
        .unwrap_or_default();
    assert_eq!(
        notices.first(),
        Some(&RetryNotice::Waiting {
            endpoint: "GET /orgs".into(),
            delay: Duration::from_secs(1)
        })
    );
    Ok(())
}

#[tokio::test]
async fn a_502_then_success_is_retried_by_itself() -> TestResult {
    let sandbox = sandbox_with(vec![FaultRule::new("/orgs", Fault::Status(502)).times(1)]).await?;
    let client = client_for(&sandbox)?;
    client.list_organizations(None).await?;
    assert_eq!(sandbox.requests("GET", "/orgs"), 2);
    Ok(())
}

#[tokio::test]
async fn a_reset_then_success_is_retried_by_itself() -> TestResult {
    let sandbox = sandbox_with(vec![FaultRule::new("/user", Fault::Reset).times(1)]).await?;
    let client = client_for(&sandbox)?;
    client.current_user().await?;
    assert_eq!(sandbox.requests("GET", "/user"), 2);
    Ok(())
}

#[tokio::test]
async fn a_lasting_fault_gives_up_after_three_tries() -> TestResult {
    let sandbox = sandbox_with(vec![FaultRule::new("/orgs", Fault::Status(503))]).await?;
    let client = client_for(&sandbox)?;
    let error = client.list_organizations(None).await.err();
    assert_eq!(error.as_ref().and_then(ApiError::status), Some(503));
    assert_eq!(sandbox.requests("GET", "/orgs"), 3);
    Ok(())
}

#[tokio::test]
async fn a_failing_write_is_sent_exactly_once() -> TestResult {
    let comments = "*/comments";
    let sandbox = sandbox_with(vec![
        FaultRule::new(comments, Fault::Status(503)).method("POST"),
    ])
    .await?;
    let client = client_for(&sandbox)?;
    let posted = client
        .post_comment(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_OUTDATED,
            "once",
            None,
        )
        .await;
    assert_eq!(posted.err().as_ref().and_then(ApiError::status), Some(503));
    assert_eq!(sandbox.requests("POST", comments), 1);

    // "Store then fail": the comment lands, the answer is lost, and nothing is resent.
    sandbox.set_faults(Faults {
        rules: vec![FaultRule::new(comments, Fault::StoreThenFail).method("POST")],
        ..Faults::default()
    });
    let posted = client
        .post_comment(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_OUTDATED,
            "landed",
            None,
        )
        .await;
    assert_eq!(posted.err().as_ref().and_then(ApiError::status), Some(500));
    assert_eq!(sandbox.requests("POST", comments), 2);
    Ok(())
}

#[tokio::test]
async fn a_cut_off_answer_says_so_and_is_retried() -> TestResult {
    let sandbox = sandbox_with(vec![FaultRule::new("/orgs", Fault::Truncated)]).await?;
    let client = client_for(&sandbox)?;
    let error = client.list_organizations(None).await.err();
    assert!(matches!(error, Some(ApiError::CutOff { .. })), "{error:?}");
    let message = error.map(|error| error.user_message()).unwrap_or_default();
    assert!(message.contains("cut off"), "{message}");
    assert!(!message.contains("Could not reach"), "{message}");
    assert_eq!(sandbox.requests("GET", "/orgs"), 3);
    Ok(())
}

#[test]
fn truncated_json_is_cut_off_not_a_changed_api() {
    let error =
        quire::api::decode_body::<serde_json::Value>("GET /orgs", br#"{"items":[{"id":"#).err();
    assert_eq!(
        error,
        Some(ApiError::CutOff {
            endpoint: "GET /orgs".into()
        })
    );
}

#[tokio::test]
async fn a_web_page_instead_of_json_is_named() -> TestResult {
    let sandbox = sandbox_with(vec![FaultRule::new("/orgs", Fault::Html)]).await?;
    let client = client_for(&sandbox)?;
    let error = client.list_organizations(None).await.err();
    assert!(matches!(error, Some(ApiError::NotJson { .. })), "{error:?}");
    Ok(())
}

/// Asked to wait 20 s, then 25 s: by the clock a read gives up after its second try (20 s and
/// 25 s more is past its 30 s budget), so a third try comes only of both waits cut short.
async fn orgs_busy_twice() -> Result<Sandbox, Box<dyn std::error::Error>> {
    let busy = |seconds| {
        let fault = Fault::TooManyRequests {
            retry_after_seconds: seconds,
        };
        FaultRule::new("/orgs", fault).times(1)
    };
    sandbox_with(vec![busy(20), busy(25)]).await
}

/// Waits until the client has told it waits `seconds` to retry.
async fn wait_for_notice(notices: &Arc<Mutex<Vec<RetryNotice>>>, told: &Events, seconds: u64) {
    let waiting = RetryNotice::Waiting {
        endpoint: "GET /orgs".into(),
        delay: Duration::from_secs(seconds),
    };
    let told = wait_until_async(PATIENCE, told.subscribe(), || {
        notices
            .lock()
            .map(|notices| notices.contains(&waiting))
            .unwrap_or(true)
    })
    .await;
    assert!(told, "the read never waited {seconds} s to retry");
}

#[tokio::test]
async fn retry_now_cuts_the_wait_short() -> TestResult {
    let sandbox = orgs_busy_twice().await?;
    let client = client_for(&sandbox)?;
    let (notices, told) = record_notices(&client);
    let waiting = {
        let client = client.clone();
        tokio::spawn(async move { client.list_organizations(None).await })
    };
    // The notice comes as the wait begins, on this one thread: once it is seen, the read waits.
    wait_for_notice(&notices, &told, 20).await;
    client.retry_now();
    wait_for_notice(&notices, &told, 25).await;
    client.retry_now();
    waiting.await??;
    assert_eq!(sandbox.requests("GET", "/orgs"), 3);
    Ok(())
}

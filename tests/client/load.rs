//! The load one client puts on a server: requests share kept-alive connections, and no more
//! than 16 are in flight to one host however many the screens ask for at once. The sandbox
//! counts the TCP connections it accepts and the requests it handles at the same time.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::wait::{Events, PATIENCE, wait_until_async};
use quire::api::limits::{MAX_IN_FLIGHT_PER_HOST, Priority};
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Fault, FaultRule, Faults, Sandbox, SandboxOptions, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A sandbox that takes a while per answer, so requests sent together really overlap.
async fn slow_sandbox(latency: Duration) -> Result<Sandbox, Box<dyn std::error::Error>> {
    let options = SandboxOptions {
        latency,
        ..SandboxOptions::default()
    };
    Ok(Sandbox::start("127.0.0.1:0".parse()?, options).await?)
}

fn client_for(sandbox: &Sandbox) -> Result<Client, quire::api::ApiError> {
    Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
}

#[tokio::test]
async fn requests_one_after_another_share_one_connection() -> TestResult {
    let sandbox = slow_sandbox(Duration::ZERO).await?;
    let client = client_for(&sandbox)?;
    for _ in 0..20 {
        client.current_user().await?;
        // A clone (what every request task gets) uses the same pool.
        client.clone().list_organizations(None).await?;
    }
    assert_eq!(sandbox.connections_accepted(), 1);
    Ok(())
}

#[tokio::test]
async fn two_hundred_requests_at_once_keep_to_sixteen_in_flight_and_reuse_connections() -> TestResult
{
    let sandbox = slow_sandbox(Duration::from_millis(20)).await?;
    let client = client_for(&sandbox)?;
    let requests = (0..200).map(|_| {
        let client = client.clone();
        tokio::spawn(async move { client.current_user().await })
    });
    for answer in futures::future::join_all(requests).await {
        answer??;
    }
    assert_eq!(sandbox.requests("GET", "/user"), 200);
    let most = sandbox.max_requests_in_flight();
    assert!(
        most <= MAX_IN_FLIGHT_PER_HOST,
        "{most} requests were in flight at once"
    );
    assert!(most >= 8, "requests still go out in parallel: {most}");
    let connections = sandbox.connections_accepted();
    assert!(
        connections <= MAX_IN_FLIGHT_PER_HOST,
        "{connections} connections for 200 requests"
    );
    Ok(())
}

#[tokio::test]
async fn a_read_waiting_to_be_retried_holds_no_slot() -> TestResult {
    let sandbox = slow_sandbox(Duration::ZERO).await?;
    // Every space read is refused once, to be tried again in 20 s: far later than anything
    // else here takes, so the second tries come only when the test cuts the waits short.
    let busy = Fault::TooManyRequests {
        retry_after_seconds: 20,
    };
    sandbox.set_faults(Faults {
        rules: vec![FaultRule::new("/spaces/*", busy).times(16)],
        ..Faults::default()
    });
    let client = client_for(&sandbox)?;
    let waits_begun = Arc::new(AtomicUsize::new(0));
    let counter = waits_begun.clone();
    let told = Events::new();
    let telling = told.clone();
    client.on_retry(move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
        telling.happened();
    });
    let waiting: Vec<_> = (0..16)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.get_space("spc-missing").await })
        })
        .collect();
    let all_waiting = wait_until_async(PATIENCE, told.subscribe(), || {
        waits_begun.load(Ordering::SeqCst) >= 16
    })
    .await;
    assert!(all_waiting, "the sixteen reads never all waited to retry");
    // A slot held by a waiting read would keep this one out until the waits end (and their
    // second tries were sent): answered first, it found a free slot.
    client.current_user().await?;
    assert_eq!(
        sandbox.requests("GET", "/spaces/*"),
        16,
        "a read went out only after the waiting ones were tried again"
    );
    client.retry_now();
    for task in waiting {
        let _ = task.await?;
    }
    Ok(())
}

/// A review's calls run as the loop runs them, on a sandbox where sixteen background reply
/// lists hang, every slot of the host taken: what the tests of who goes next free slots from.
struct EverySlotTaken {
    sandbox: Sandbox,
    client: Client,
    executor: quire::runtime::Executor,
    target: quire::vocabulary::change_requests::ChangeRequestRef,
    hanging: Vec<tokio::task::JoinHandle<()>>,
    _answers: tokio::sync::mpsc::UnboundedReceiver<quire::app::Msg>,
}

impl EverySlotTaken {
    async fn new() -> Result<EverySlotTaken, Box<dyn std::error::Error>> {
        use quire::sandbox::{Outage, demo_ids};
        use quire::vocabulary::change_requests::ChangeRequestRef;

        let sandbox = slow_sandbox(Duration::ZERO).await?;
        let client = client_for(&sandbox)?;
        let (sender, answers) = tokio::sync::mpsc::unbounded_channel();
        let mut taken = EverySlotTaken {
            executor: quire::runtime::Executor::new(
                quire::headless::effects_with(client.clone()),
                sender,
            ),
            target: ChangeRequestRef {
                space: demo_ids::SPACE_GETTING_STARTED.to_string(),
                change_request: demo_ids::CR_REVIEW.to_string(),
            },
            sandbox,
            client,
            hanging: Vec::new(),
            _answers: answers,
        };
        taken.sandbox.set_outage(Outage::Hang).await;
        taken.hanging = (0..16)
            .map(|n| taken.call(n, taken.replies(n, Priority::Background)))
            .collect();
        let all_sent = wait_until_async(PATIENCE, taken.sandbox.activity(), || {
            taken.sandbox.requests("GET", "*/replies") == 16
        })
        .await;
        assert!(all_sent, "sixteen reply lists were sent");
        Ok(taken)
    }

    /// Runs `call` as request `request`, in a task of its own.
    fn call(
        &self,
        request: u64,
        call: quire::vocabulary::change_requests::ChangeRequestsCall,
    ) -> tokio::task::JoinHandle<()> {
        use quire::app::{ApiCall, RequestId};
        let work = self
            .executor
            .api(RequestId(request), ApiCall::ChangeRequests(call));
        tokio::spawn(async move {
            if let Some(work) = work {
                work.await;
            }
        })
    }

    /// The reply list of `comment-N`, asked for at `priority`.
    fn replies(
        &self,
        comment: u64,
        priority: Priority,
    ) -> quire::vocabulary::change_requests::ChangeRequestsCall {
        quire::vocabulary::change_requests::ChangeRequestsCall::LoadReplies {
            target: self.target.clone(),
            comments: vec![format!("comment-{comment}")],
            priority,
        }
    }

    async fn end_the_hang(&self) {
        self.sandbox.set_outage(quire::sandbox::Outage::None).await;
    }
}

/// A review's page content takes the first free slot before a reply list that waited longer:
/// sixteen reply lists hang on the server, a seventeenth and the changed page's content wait,
/// and one reply list is given up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_changed_pages_content_goes_out_before_the_seventeenth_reply_list() -> TestResult {
    use quire::sandbox::demo_ids;
    use quire::vocabulary::change_requests::ChangeRequestsCall;

    let taken = EverySlotTaken::new().await?;
    let sandbox = &taken.sandbox;
    let _seventeenth = taken.call(16, taken.replies(16, Priority::Background));
    queued(&taken.client, 1).await;
    let _content = taken.call(
        17,
        ChangeRequestsCall::LoadPageDiff {
            target: taken.target.clone(),
            page: demo_ids::PAGE_QUICKSTART.to_string(),
            main: true,
            change_request: true,
        },
    );
    // The main side, the change request's side and its document format.
    queued(&taken.client, 4).await;
    taken.hanging[0].abort();
    let content = || sandbox.requests("GET", "*/content/page/*");
    let someone_went = wait_until_async(PATIENCE, sandbox.activity(), || {
        content() > 0 || sandbox.requests("GET", "*/replies") > 16
    })
    .await;
    assert!(someone_went, "the freed slot was taken");
    assert_eq!(content(), 1, "the page's content took the freed slot");
    assert_eq!(
        sandbox.requests("GET", "*/replies"),
        16,
        "the seventeenth reply list still waits"
    );
    taken.end_the_hang().await;
    Ok(())
}

/// The first thread's reply list takes the first free slot, before the other threads' on
/// screen asked earlier, and those go before the background's: with sixteen background reply
/// lists hanging on the server, each slot given back is taken in that order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_threads_reply_list_goes_out_first_then_those_on_screen() -> TestResult {
    let taken = EverySlotTaken::new().await?;
    let sandbox = &taken.sandbox;
    let call =
        |comment: u64, priority: Priority| taken.call(comment, taken.replies(comment, priority));
    let sent = |comment: u64| sandbox.requests("GET", &format!("*/comments/comment-{comment}/*"));
    let _background = call(16, Priority::Background);
    queued(&taken.client, 1).await;
    let _on_screen = call(17, Priority::OnScreen);
    queued(&taken.client, 2).await;
    let _first = call(18, Priority::FirstScreen);
    queued(&taken.client, 3).await;
    for (freed, next) in [(0, 18), (1, 17), (2, 16)] {
        taken.hanging[freed].abort();
        let went = wait_until_async(PATIENCE, sandbox.activity(), || {
            sandbox.requests("GET", "*/replies") > 16 + freed
        })
        .await;
        assert!(went, "the freed slot was taken");
        assert_eq!(
            sent(next),
            1,
            "comment-{next} took the slot freed {freed}th"
        );
    }
    taken.end_the_hang().await;
    Ok(())
}

/// Waits until `count` requests wait for a slot: the limiter's queue announces nothing, so it
/// is looked at again each time the other tasks have run.
async fn queued(client: &Client, count: usize) {
    let reached = tokio::time::timeout(PATIENCE, async {
        while client.requests_waiting_for_a_slot() < count {
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert!(reached.is_ok(), "{count} requests never waited for a slot");
}

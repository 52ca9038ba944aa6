//! The real loop with a cache against the real sandbox: a cached answer shows at once and the
//! server's replaces it; with the server out of reach the header says "offline · as of …",
//! screens show what was read before and say what was not, and all comes back with the server.

use std::time::{Duration, Instant, SystemTime};

use quire::api::cache::Cache;
use quire::api::{Client, ClientConfig, Token};
use quire::app::{ApiCall, Model, Size};
use quire::sandbox::{Fault, FaultRule, Faults, Outage, Sandbox, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::ChangeRequestList;
use quire::screens::change_requests::review::ReviewScreen;
use quire::screens::organizations::Organizations;
use quire::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestScope, ChangeRequestsCall,
};
use ratatui::crossterm::event::KeyCode;

use crate::common::loop_harness::Harness;
use crate::common::wait::{PATIENCE, wait_until_async};

const THREE_HOURS: Duration = Duration::from_secs(3 * 3600);

/// A sandbox (answering after `latency`) and a client whose cache already holds the
/// organization list, received three hours ago, with Acme renamed as `acme_as`.
async fn read_before(latency: Duration, acme_as: &str) -> (Sandbox, Client, tempfile::TempDir) {
    let (sandbox, client, folder) = with_cache(latency, async |client| {
        client
            .list_organizations(None)
            .await
            .expect("organizations");
    })
    .await;
    aged_and_changed(&client, "Acme Robotics", acme_as);
    (sandbox, client, folder)
}

fn organizations() -> Screen {
    Screen::Organizations(Organizations::default())
}

#[tokio::test]
async fn the_cached_list_shows_at_once_with_its_age_and_the_servers_answer_replaces_it() {
    let (sandbox, client, _folder) = read_before(Duration::ZERO, "Acme Cached").await;
    // The server's answer is held until the cached one was seen.
    sandbox.set_outage(Outage::Hang).await;
    let app = Harness::start_with(sandbox, client, organizations);
    app.wait_for("Acme Cached").await;
    assert!(
        app.backend.screen().contains("as of 3 h ago"),
        "{}",
        app.backend.screen()
    );
    app.sandbox.set_outage(Outage::None).await;
    app.wait_for("Acme Robotics").await;
    let screen = app.backend.screen();
    assert!(
        !screen.contains("Acme Cached") && !screen.contains("as of"),
        "{screen}"
    );
    // Exactly once: the server's answer replaced the cached one, it was not added to it.
    assert_eq!(screen.matches("Lumen OSS").count(), 1, "{screen}");
}

#[tokio::test]
async fn offline_the_header_says_so_and_what_was_not_read_before_loads_when_the_server_is_back() {
    let (sandbox, client, _folder) = read_before(Duration::ZERO, "Acme Robotics").await;
    sandbox.set_outage(Outage::Refuse).await;
    let app = Harness::start_with(sandbox, client, organizations);
    app.wait_for("Acme Robotics").await;
    app.wait_for("offline · as of 3 h ago").await;
    app.press(KeyCode::Enter);
    app.wait_for("not read before; it will load when the server is back")
        .await;
    assert!(
        !app.backend.screen().contains("r to retry"),
        "{}",
        app.backend.screen()
    );
    app.sandbox.set_outage(Outage::None).await;
    app.wait_until_back("Engineering").await;
    assert!(
        !app.backend.screen().contains("offline"),
        "{}",
        app.backend.screen()
    );
}

/// Rounds of the background check that `r` has asked for, in
/// [`offline_r_asks_the_server_at_once_instead_of_at_the_end_of_the_wait`].
const ASKED_ROUNDS: usize = 6;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_r_asks_the_server_at_once_instead_of_at_the_end_of_the_wait() {
    let (sandbox, client, _folder) = read_before(Duration::ZERO, "Acme Robotics").await;
    sandbox.set_outage(Outage::Refuse).await;
    let app = Harness::start_with(sandbox, client, organizations);
    app.wait_for("offline · as of 3 h ago").await;
    // Still out of reach, but seen: every connection is reset without an answer (offline, as
    // a closed port is), and the sandbox counts each try of the check (`GET /user`, tried
    // three times a round).
    app.sandbox.set_faults(Faults {
        rules: vec![FaultRule::new("/", Fault::Reset)],
        ..Faults::default()
    });
    app.sandbox.set_outage(Outage::None).await;
    // Each `r` has the check ask again at once (or, pressed while it asks, right after). By
    // its own clock its wait doubles after each round (1.6 s, 3.2 s, … 25.6 s): these rounds
    // would take over a minute, far past the one PATIENCE they share; asked for, a few seconds.
    let within = Instant::now() + PATIENCE;
    for round in 1..=ASKED_ROUNDS {
        let before = app.sandbox.requests("GET", "/user");
        app.press(KeyCode::Char('r'));
        let left = within.saturating_duration_since(Instant::now());
        let asked = wait_until_async(left, app.sandbox.activity(), || {
            app.sandbox.requests("GET", "/user") >= before + 3
        })
        .await;
        assert!(
            asked,
            "round {round} of {ASKED_ROUNDS} was not asked at r: {} tries in all",
            app.sandbox.requests("GET", "/user")
        );
    }
    // Back in reach: r has it found at once, and the screen read again.
    app.sandbox.set_faults(Faults::default());
    app.press(KeyCode::Char('r'));
    app.wait_for("Acme Robotics pro_2024").await;
    app.wait_gone("offline").await;
}

/// Ages every answer in `client`'s cache by three hours, with `from` replaced by `to` in it.
fn aged_and_changed(client: &Client, from: &str, to: &str) {
    let cache = client.cache().expect("the cache");
    let three_hours_ago = SystemTime::now() - THREE_HOURS;
    for key in cache.keys() {
        let body = String::from_utf8(cache.get(&key).expect("kept").body).unwrap();
        let body = body.replace(from, to);
        cache
            .put_at(&key, body.as_bytes(), three_hours_ago)
            .unwrap();
    }
}

/// A sandbox answering after `latency`, and a client whose cache holds what `read` read.
async fn with_cache<F>(latency: Duration, read: F) -> (Sandbox, Client, tempfile::TempDir)
where
    F: AsyncFnOnce(&Client),
{
    let options = SandboxOptions {
        latency,
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), options)
        .await
        .expect("sandbox starts");
    let folder = tempfile::tempdir().expect("a folder");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("client");
    client.use_cache(Cache::open(&folder.path().join("cache.sqlite"), 10 << 20).expect("cache"));
    read(&client).await;
    (sandbox, client, folder)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_read_before_shows_at_once_and_the_servers_answer_replaces_it() {
    let target = ChangeRequestRef {
        space: demo_ids::SPACE_GETTING_STARTED.to_owned(),
        change_request: demo_ids::CR_REVIEW.to_owned(),
    };
    let call = ApiCall::ChangeRequests(ChangeRequestsCall::LoadReview(target.clone()));
    let (sandbox, client, _folder) = with_cache(Duration::ZERO, async |client| {
        let _ = quire::runtime::call_api(client, &quire::runtime::SendTurn::default(), call).await;
    })
    .await;
    aged_and_changed(&client, "Clarify token scopes", "Cached subject");
    // The server's answer is held until the cached one was seen.
    sandbox.set_outage(Outage::Hang).await;
    let app = Harness::start_with(sandbox, client, move || {
        Screen::Review(Box::new(ReviewScreen::new(target, None)))
    });
    app.wait_for("Cached subject").await;
    app.wait_for("as of 3 h ago").await;
    app.sandbox.set_outage(Outage::None).await;
    app.wait_for("Clarify token scopes").await;
    app.wait_gone("Cached subject").await;
    app.wait_gone("as of").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_request_list_read_before_shows_at_once_and_the_servers_replaces_it() {
    let scope = ChangeRequestScope::Organization(demo_ids::ACME.to_string());
    let list =
        move || Screen::ChangeRequests(ChangeRequestList::new(scope.clone(), "Acme Robotics"));
    // The calls the list makes when it opens, read once into the cache.
    let mut model = Model::new(list(), crate::common::environment(), Size::default());
    let calls = model.init().api_calls();
    let (sandbox, client, _folder) = with_cache(Duration::ZERO, async |client| {
        for (_, call) in calls {
            let _ =
                quire::runtime::call_api(client, &quire::runtime::SendTurn::default(), call).await;
        }
    })
    .await;
    aged_and_changed(&client, "Clarify token scopes", "Cached subject");
    // The server's answer is held until the cached one was seen.
    sandbox.set_outage(Outage::Hang).await;
    let app = Harness::start_with(sandbox, client, list);
    app.wait_for("Cached subject").await;
    app.sandbox.set_outage(Outage::None).await;
    app.wait_for("Clarify token").await;
    app.wait_gone("Cached subject").await;
    let screen = app.backend.screen();
    assert_eq!(
        screen.matches("Add a failover drill").count(),
        1,
        "{screen}"
    );
}

/// Headless runs (the update tests, screenshots) carry commands out with the runtime's own
/// executor, so a read there goes through the cache's routing too: offline, the list read
/// before is shown.
#[tokio::test]
async fn headless_runs_offline_show_what_was_read_before() {
    let (sandbox, client, _folder) = read_before(Duration::ZERO, "Acme Cached").await;
    sandbox.set_outage(Outage::Refuse).await;
    let _ = client.trying_once().current_user().await;
    let effects = quire::headless::effects_with(client);
    let mut model = crate::common::organizations_model(80, 24);
    quire::headless::start(&mut model, &effects).await;
    let screen = crate::common::views::render(&mut model, 80, 24);
    assert!(screen.contains("Acme Cached"), "{screen}");
    assert!(!screen.contains("Acme Robotics"), "{screen}");
}

//! The real loop with a cache against the real sandbox: a cached answer shows at once and the
//! server's replaces it; with the server out of reach the header says "offline · as of …",
//! screens show what was read before and say what was not, and all comes back with the server.

use std::time::{Duration, SystemTime};

use quire::api::cache::Cache;
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Outage, Sandbox, SandboxOptions, tokens};
use quire::screens::Screen;
use quire::screens::organizations::Organizations;
use ratatui::crossterm::event::KeyCode;

use crate::common::loop_harness::Harness;

const THREE_HOURS: Duration = Duration::from_secs(3 * 3600);

/// A sandbox (answering after `latency`) and a client whose cache already holds the
/// organization list, received three hours ago, with Acme renamed as `acme_as`.
async fn read_before(latency: Duration, acme_as: &str) -> (Sandbox, Client, tempfile::TempDir) {
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
    let cache = Cache::open(&folder.path().join("cache.sqlite"), 10 << 20).expect("cache");
    client.use_cache(cache);
    client
        .list_organizations(None)
        .await
        .expect("organizations");
    let cache = client.cache().expect("the cache");
    let three_hours_ago = SystemTime::now() - THREE_HOURS;
    for key in cache.keys() {
        let body = cache.get(&key).expect("kept").body;
        let body = String::from_utf8(body)
            .unwrap()
            .replace("Acme Robotics", acme_as);
        cache
            .put_at(&key, body.as_bytes(), three_hours_ago)
            .unwrap();
    }
    (sandbox, client, folder)
}

fn organizations() -> Screen {
    Screen::Organizations(Organizations::default())
}

#[tokio::test]
async fn the_cached_list_shows_at_once_with_its_age_and_the_servers_answer_replaces_it() {
    let (sandbox, client, _folder) = read_before(Duration::from_millis(700), "Acme Cached").await;
    let app = Harness::start_with(sandbox, client, organizations);
    app.wait_for("Acme Cached").await;
    assert!(
        app.backend.screen().contains("as of 3 h ago"),
        "{}",
        app.backend.screen()
    );
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
    sandbox.set_outage(Outage::Refuse);
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
    app.sandbox.set_outage(Outage::None);
    app.wait_for("Engineering").await;
    assert!(
        !app.backend.screen().contains("offline"),
        "{}",
        app.backend.screen()
    );
}

//! The cache on disk against the real sandbox: every read is kept, a cache-only client answers
//! from it with the sandbox out of reach, it stays within its size, and its file is private and
//! never holds the token.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use quire::api::cache::Cache;
use quire::api::{ApiError, Client, ClientConfig, Token};
use quire::sandbox::{Outage, Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn sandbox() -> Result<Sandbox, Box<dyn std::error::Error>> {
    Ok(Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?)
}

/// A client for the sandbox reading through a cache at the path sessions use.
fn cached_client(
    sandbox: &Sandbox,
    data: &Path,
    max_bytes: u64,
) -> Result<Client, Box<dyn std::error::Error>> {
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    let path = quire::cli::cache::cache_path(data, &sandbox.base_url(), tokens::ADMIN);
    client.use_cache(Cache::open(&path, max_bytes)?);
    Ok(client)
}

#[tokio::test]
async fn a_read_is_kept_and_answered_from_the_cache_with_the_server_out_of_reach() -> TestResult {
    let sandbox = sandbox().await?;
    let data = tempfile::tempdir()?;
    let client = cached_client(&sandbox, data.path(), 10 << 20)?;
    let listed = client.list_organizations(None).await?;
    sandbox.set_outage(Outage::Refuse).await;
    let (network, reached) = client.recorded();
    let refused = network.list_organizations(None).await;
    assert!(
        matches!(refused, Err(ApiError::Network { .. })),
        "{refused:?}"
    );
    assert!(reached.unreachable());
    let (cache_only, record) = client.cache_only();
    let cached = cache_only.list_organizations(None).await?;
    assert_eq!(cached.items, listed.items);
    assert!(!record.missed());
    assert!(
        record
            .as_of()
            .is_some_and(|at| at <= std::time::SystemTime::now())
    );
    let before = sandbox.requests("GET", "/orgs");
    let space = cache_only.get_space(demo_ids::SPACE_GETTING_STARTED).await;
    assert!(matches!(space, Err(ApiError::Offline { .. })), "{space:?}");
    assert!(record.missed(), "a read never made is not in the cache");
    assert_eq!(
        sandbox.requests("GET", "/orgs"),
        before,
        "cache-only sends nothing"
    );
    Ok(())
}

#[tokio::test]
async fn an_unreachable_server_is_recorded_and_offline_sends_nothing() -> TestResult {
    let sandbox = sandbox().await?;
    let data = tempfile::tempdir()?;
    let client = cached_client(&sandbox, data.path(), 10 << 20)?;
    client.list_organizations(None).await?;
    sandbox.set_outage(Outage::Unavailable).await;
    let (network, record) = client.recorded();
    let answer = network.get_space(demo_ids::SPACE_GETTING_STARTED).await;
    assert_eq!(
        answer.map_err(|error| error.status()).err(),
        Some(Some(503))
    );
    assert!(!record.unreachable(), "a server answering 503 was reached");
    assert!(!client.seems_offline());
    sandbox.set_outage(Outage::Refuse).await;
    let (network, record) = client.recorded();
    assert!(
        network
            .get_space(demo_ids::SPACE_GETTING_STARTED)
            .await
            .is_err()
    );
    assert!(record.unreachable() && !record.wrote());
    assert!(client.seems_offline());
    sandbox.set_outage(Outage::None).await;
    client.current_user().await?;
    assert!(!client.seems_offline(), "a request got through again");
    client.set_offline_only(true);
    let before = sandbox.request_counts().values().sum::<usize>();
    let offline = client.list_organizations(None).await?;
    assert!(!offline.items.is_empty());
    let sent = client.ping(demo_ids::ACME).await;
    assert!(matches!(sent, Err(ApiError::Offline { .. })), "{sent:?}");
    let after = sandbox.request_counts().values().sum::<usize>();
    assert_eq!(after, before, "--offline reaches no server");
    Ok(())
}

#[tokio::test]
async fn the_least_recently_used_answers_are_evicted_to_stay_within_the_size() -> TestResult {
    let sandbox = sandbox().await?;
    let data = tempfile::tempdir()?;
    let probe = cached_client(&sandbox, data.path(), 10 << 20)?;
    probe.list_organizations(None).await?;
    let organizations = probe.cache().ok_or("a cache")?.info()?.body_bytes;
    probe.list_pages(demo_ids::SPACE_GETTING_STARTED).await?;
    let pages = probe.cache().ok_or("a cache")?.info()?.body_bytes - organizations;
    // Room for the page tree and half the organization list: reading the tree after the list
    // pushes the list out.
    let max = pages + organizations / 2;
    let small = tempfile::tempdir()?;
    let client = cached_client(&sandbox, small.path(), max)?;
    client.list_organizations(None).await?;
    client.list_pages(demo_ids::SPACE_GETTING_STARTED).await?;
    let info = client.cache().ok_or("a cache")?.info()?;
    assert!(info.body_bytes <= max && info.entries == 1, "{info:?}");
    let (cache_only, record) = client.cache_only();
    assert!(cache_only.list_organizations(None).await.is_err());
    assert!(
        record.missed(),
        "the least recently used answer was evicted"
    );
    assert!(
        cache_only
            .list_pages(demo_ids::SPACE_GETTING_STARTED)
            .await
            .is_ok()
    );
    Ok(())
}

#[tokio::test]
async fn the_cache_file_is_private_and_never_holds_the_token() -> TestResult {
    let sandbox = sandbox().await?;
    let data = tempfile::tempdir()?;
    let client = cached_client(&sandbox, data.path(), 10 << 20)?;
    client.list_organizations(None).await?;
    client.current_user().await?;
    client.list_pages(demo_ids::SPACE_GETTING_STARTED).await?;
    let path = quire::cli::cache::cache_path(data.path(), &sandbox.base_url(), tokens::ADMIN);
    let folder = path.parent().ok_or("a folder")?;
    assert_eq!(
        std::fs::metadata(folder)?.permissions().mode() & 0o777,
        0o700
    );
    let mut files = 0;
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        files += 1;
        let mode = entry.metadata()?.permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", entry.path().display());
        let bytes = std::fs::read(entry.path())?;
        let token = tokens::ADMIN.as_bytes();
        assert!(
            !bytes.windows(token.len()).any(|window| window == token),
            "{} holds the token",
            entry.path().display()
        );
    }
    assert!(files >= 2, "the database and its write-ahead log");
    assert!(!path.to_string_lossy().contains(tokens::ADMIN));
    Ok(())
}

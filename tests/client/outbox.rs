//! The outbox in the cache's database, beside a client reading the real sandbox: what was queued
//! is there after the file is opened again, clearing the cache keeps it, and the file stays
//! private and never holds the token.

use std::os::unix::fs::PermissionsExt;

use quire::api::cache::Cache;
use quire::api::outbox::{Outbox, Target, Write};
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[tokio::test]
async fn a_queued_write_survives_reopening_and_clearing_the_cache_in_a_private_file() -> TestResult
{
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?;
    let data = tempfile::tempdir()?;
    let path = quire::cli::cache::cache_path(data.path(), &sandbox.base_url(), tokens::ADMIN);
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    client.use_cache(Cache::open(&path, 10 << 20)?);
    client.list_organizations(None).await?;
    let target = Target::new(demo_ids::SPACE_GETTING_STARTED, "1");
    let written = Write::Reply {
        comment: "thread".to_string(),
        markdown: "Queued while offline".to_string(),
    };
    Outbox::open(&path)?.enqueue(&target, &written)?;
    Cache::open(&path, 10 << 20)?.clear()?;

    let reopened = Outbox::open(&path)?;
    let listed = reopened.list()?;
    assert_eq!(listed.len(), 1);
    assert_eq!((&listed[0].target, &listed[0].write), (&target, &written));
    assert!(!listed[0].attempted);
    let folder = path.parent().ok_or("a folder")?;
    assert_eq!(
        std::fs::metadata(folder)?.permissions().mode() & 0o777,
        0o700
    );
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let mode = entry.metadata()?.permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", entry.path().display());
        let bytes = std::fs::read(entry.path())?;
        let token = tokens::ADMIN.as_bytes();
        assert!(!bytes.windows(token.len()).any(|window| window == token));
    }
    Ok(())
}

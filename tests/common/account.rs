//! One account's home for tests that run several real quire processes side by side (two
//! terminals on one account): the cache and outbox they share, and a way to start each.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use quire::api::outbox::Outbox;
use quire::sandbox::tokens;

use super::outage_sandbox::OutageSandbox;
use super::processes::wait_for_exit;

/// A quire that has not ended by then is a hang, not a slow machine.
const PROCESS_LIMIT: Duration = Duration::from_secs(60);

/// The account's home: where every quire of the test keeps its cache and outbox.
pub struct Account {
    pub home: tempfile::TempDir,
    pub args: Vec<String>,
    pub cache: PathBuf,
}

impl Account {
    pub fn new(server: &OutageSandbox) -> Account {
        let home = tempfile::tempdir().expect("a home");
        let cache = quire::cli::cache::cache_path(
            &home.path().join("data").join("quire"),
            &server.sandbox.base_url(),
            tokens::ADMIN,
        );
        Account {
            home,
            args: server.args(),
            cache,
        }
    }

    /// `quire ARGS` started as this account, its output kept for the test to read.
    pub fn start(&self, args: &[&str]) -> Child {
        let home = self.home.path();
        Command::new(env!("CARGO_BIN_EXE_quire"))
            .args(&self.args)
            .args(args)
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_STATE_HOME", home.join("state"))
            .env_remove("GITBOOK_TOKEN")
            .env_remove("GITBOOK_API_URL")
            .env_remove("QUIRE_PROFILE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("quire starts")
    }

    pub fn run(&self, args: &[&str]) -> std::process::Output {
        let child = self.start(args);
        wait_with_limit(child)
    }

    pub fn outbox(&self) -> Outbox {
        Outbox::open(&self.cache).expect("the outbox")
    }
}

pub fn wait_with_limit(mut child: Child) -> std::process::Output {
    if !wait_for_exit(child.id(), PROCESS_LIMIT) {
        let _ = child.kill();
        panic!("a quire did not end within {PROCESS_LIMIT:?}");
    }
    child.wait_with_output().expect("its output")
}

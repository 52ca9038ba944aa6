//! What a subcommand checks before it asks or sends, as processes against `quire sandbox`: a
//! merge that cannot happen is refused before the y/N question, an empty QUIRE_SPACE is unset,
//! and a mistyped `--profile` is called unknown.

use std::process::{Command, Output};
use std::time::Duration;

use crate::cli_lists::{quire, stderr, stdout};
use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;

const WAIT: Duration = Duration::from_secs(20);

/// `quire cr merge 1` in Getting Started on a terminal as `token`: what it said, and its exit
/// status.
fn merge_on_a_terminal(base: &str, token: &str) -> (String, Option<u32>) {
    let args = [
        "--api-url",
        base,
        "--token",
        token,
        "cr",
        "merge",
        "1",
        "--space",
        "Getting Started",
    ];
    let mut app = PtyApp::spawn(&args, 100, 24);
    let status = app.wait_exit(WAIT).map(|status| status.exit_code());
    (app.screen(), status)
}

#[test]
fn a_merge_that_cannot_happen_is_refused_before_asking() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();

    let (screen, status) = merge_on_a_terminal(base, "demo-reviewer");
    assert_eq!(status, Some(1), "{screen}");
    assert!(!screen.contains("[y/N]"), "{screen}");
    assert!(
        screen.contains("Not merged: your role cannot merge"),
        "{screen}"
    );

    let merged = quire(
        base,
        Some("demo-admin"),
        &["cr", "merge", "1", "--space", "Getting Started", "--yes"],
    );
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    let (screen, status) = merge_on_a_terminal(base, "demo-admin");
    assert_eq!(status, Some(1), "{screen}");
    assert!(!screen.contains("[y/N]"), "{screen}");
    assert!(
        screen.contains("Not merged: #1 was already merged"),
        "{screen}"
    );
}

/// `quire ARGS` against `base` as the admin, with `env` set, in a fresh home.
fn quire_with_env(base: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let home = tempfile::tempdir().expect("a home");
    let mut command = Command::new(env!("CARGO_BIN_EXE_quire"));
    command
        .args(["--api-url", base, "--token", "demo-admin"])
        .args(args)
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .env_remove("QUIRE_PROFILE")
        .stdin(std::process::Stdio::null());
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("quire runs")
}

#[test]
fn an_empty_quire_space_is_unset_and_an_empty_space_flag_is_not() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let listed = quire_with_env(
        base,
        &["cr", "list", "--org", "Acme Robotics"],
        &[("QUIRE_SPACE", "")],
    );
    assert_eq!(listed.status.code(), Some(0), "{}", stderr(&listed));
    assert!(
        stdout(&listed).contains("Clarify token scopes"),
        "{}",
        stdout(&listed)
    );

    let empty_flag = quire_with_env(base, &["cr", "list", "--space", ""], &[]);
    assert_eq!(empty_flag.status.code(), Some(2), "{}", stderr(&empty_flag));
}

#[test]
fn a_mistyped_profile_is_called_unknown_naming_the_known_ones() {
    let home = tempfile::tempdir().expect("a home");
    let config = home.path().join("config.toml");
    std::fs::write(
        &config,
        "[profiles.work]\napi_url = \"http://127.0.0.1:9\"\n",
    )
    .expect("write the config file");
    let output = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args([
            "--config",
            config.to_str().expect("utf-8"),
            "--profile",
            "wrok",
        ])
        .args(["org", "list"])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            format!("unix:path={}/no-bus", home.path().display()),
        )
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .env_remove("QUIRE_PROFILE")
        .output()
        .expect("quire runs");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("unknown profile 'wrok'; the known ones are default, work"),
        "{}",
        stderr(&output)
    );
}

//! Integrations end to end on the command line: the real binary against a sandbox served by
//! a second `quire sandbox` process publishes a manifest with --yes; the sandbox is read over HTTP
//! after each write.

use std::process::Command;

use crate::common::sandbox_process::SandboxProcess;
use crate::conversations::{ORGANIZATION, quire};

#[test]
fn cli_publishes_a_manifest_without_showing_its_secrets() {
    let sandbox = SandboxProcess::start();
    let directory = tempfile::tempdir().expect("a temporary directory");
    let manifest = |organization: &str| {
        format!(
            r#"{{"name":"acme-status","title":"Acme status","description":"Fleet status",
            "summary":"Shows the **fleet**.","scopes":["space:content:read"],"categories":["content"],
            "script":"export default {{}}","organization":"{organization}",
            "secrets":{{"API_KEY":"sk-live-very-secret"}}}}"#
        )
    };
    let file = directory.path().join("manifest.json");
    std::fs::write(&file, manifest(ORGANIZATION)).expect("the manifest");
    let path = file.display().to_string();
    let output = quire(
        &sandbox.base_url,
        &[
            "--token",
            "demo-admin",
            "integrations",
            "publish",
            &path,
            "--yes",
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(!stdout.contains("sk-live-very-secret") && !stderr.contains("sk-live-very-secret"));
    assert!(stdout.contains("\"API_KEY\": \"••••\""), "{stdout}");
    assert!(
        stdout.contains("Published acme-status version 1"),
        "{stdout}"
    );
    let published = sandbox.read("/integrations/acme-status");
    assert_eq!(published["title"], "Acme status");
    assert_eq!(published["owner"]["id"], ORGANIZATION);

    // Without --yes and without a yes on stdin, nothing is published.
    let output = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["--api-url", &sandbox.base_url, "--token", "demo-admin"])
        .args(["integrations", "publish", &path])
        .env("HOME", std::env::temp_dir())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("quire runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("Not published."));
    assert_eq!(sandbox.read("/integrations/acme-status")["version"], 1);

    // An unknown organization: the server's message, a failing exit code.
    std::fs::write(&file, manifest("org-nowhere")).expect("the manifest");
    let output = quire(
        &sandbox.base_url,
        &[
            "--token",
            "demo-admin",
            "integrations",
            "publish",
            &path,
            "--yes",
        ],
    );
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("No organization found for \"org-nowhere\""),
        "{stderr}"
    );

    // A bad name is refused before anything is sent.
    std::fs::write(
        &file,
        manifest(ORGANIZATION).replace("acme-status", "acme status!"),
    )
    .expect("the manifest");
    let output = quire(
        &sandbox.base_url,
        &[
            "--token",
            "demo-admin",
            "integrations",
            "publish",
            &path,
            "--yes",
        ],
    );
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("name:"));
}

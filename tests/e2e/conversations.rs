//! Conversations end to end: the real binary against a sandbox served by a second `quire
//! sandbox` process. In a pseudo-terminal at 80x24: open a cluster's issue and read its
//! conversation's transcript, ingest a conversation from a file on the screen, find an
//! integration by search and open its details. On the command line: ingest a file. The sandbox
//! is read over HTTP after each write.

use std::process::Command;
use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;

const WAIT: Duration = Duration::from_secs(30);

pub(crate) const ORGANIZATION: &str = "org-acme-robotics";

const TABS_TO_CLUSTERS: &str = "\t\t\t\t\t\t\t\t";

const CONVERSATION: &str = r#"{
  "id": "conv-e2e-dark-mode",
  "subject": "Is there a dark mode?",
  "parts": [
    {"type": "message", "role": "user", "body": "Is there a **dark mode**?"},
    {"type": "message", "role": "assistant", "body": "Yes: Settings → Theme."}
  ],
  "metadata": {"url": "https://support.example.com/t/42", "createdAt": "2024-06-01T10:00:00Z"}
}"#;

#[test]
fn read_a_clusters_conversation_ingest_one_and_find_an_integration() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.clone();
    let directory = tempfile::tempdir().expect("a temporary directory");
    let file = directory.path().join("conversation.json");
    std::fs::write(&file, CONVERSATION).expect("the conversation file");

    let mut app = PtyApp::spawn(&["--api-url", &base, "--token", "demo-admin"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);
    app.send(TABS_TO_CLUSTERS);
    app.wait_for("Weekly pulse", WAIT);

    // The token-scope cluster (the most recently updated), its first issue, its transcript.
    app.wait_for("lacks fleet:write", WAIT);
    app.send("\r");
    app.wait_for("Quickstart does not mention token scopes", WAIT);
    app.send("\r");
    app.wait_for("▌ assistant", WAIT);
    app.wait_for("Attributes plan=pro", WAIT);
    app.wait_for("Could you check the token's scopes", WAIT);

    // Back to the tab; ingest the file from the screen.
    app.send("\u{1b}");
    app.wait_for("conversation   c  change requests", WAIT);
    app.send("\u{1b}");
    app.wait_for("Weekly pulse", WAIT);
    app.send("i");
    app.wait_for("Ingest a conversation", WAIT);
    app.send(&format!("{}\r", file.display()));
    app.wait_for("Ingested “Is there a dark mode?”", WAIT);
    let stored = sandbox.read(&format!(
        "/orgs/{ORGANIZATION}/conversations/conv-e2e-dark-mode"
    ));
    assert_eq!(stored["conversation"]["subject"], "Is there a dark mode?");
    assert_eq!(stored["parts"][1]["body"], "Yes: Settings → Theme.");
    // It is in the conversations list the tab switched to.
    app.wait_for("Is there a dark mode?", WAIT);

    // The Integrations tab: search by name, open the details.
    app.send("\t");
    app.wait_for("all integrations", WAIT);
    app.wait_for("Auth0", WAIT);
    app.send("/figma");
    app.wait_for("search “figma”", WAIT);
    app.send("\r");
    // The search is answered by the server: enter opens the first row once the list has
    // changed, not the first row of the list before it.
    app.wait_gone("Auth0", WAIT);
    app.wait_for("Figma", WAIT);
    app.send("\r");
    app.wait_for("Figma ✓ verified", WAIT);
    app.wait_for("read space content (space:content:read)", WAIT);
    let figma = sandbox.read("/integrations/figma");
    assert_eq!(figma["title"], "Figma");
}

pub(crate) fn quire(base: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["--api-url", base])
        .args(args)
        .env("HOME", std::env::temp_dir())
        .env_remove("GITBOOK_API_URL")
        .output()
        .expect("quire runs")
}

#[test]
fn cli_ingests_a_file_and_says_what_it_sent() {
    let sandbox = SandboxProcess::start();
    let directory = tempfile::tempdir().expect("a temporary directory");
    let file = directory.path().join("conversation.json");
    std::fs::write(&file, CONVERSATION).expect("the conversation file");
    let path = file.display().to_string();
    // The token as the app reads it: here from GITBOOK_TOKEN.
    let output = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["--api-url", &sandbox.base_url])
        .args(["conversations", "ingest", &path, "--org", ORGANIZATION])
        .env("HOME", std::env::temp_dir())
        .env("GITBOOK_TOKEN", "demo-admin")
        .output()
        .expect("quire runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("\"subject\": \"Is there a dark mode?\""),
        "{stdout}"
    );
    assert!(stdout.contains("Ingested"), "{stdout}");
    let stored = sandbox.read(&format!(
        "/orgs/{ORGANIZATION}/conversations/conv-e2e-dark-mode"
    ));
    assert_eq!(stored["parts"][0]["role"], "user");

    // A wrong file: each problem named by its field, nothing sent, a failing exit code.
    let bad = directory.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"id":"conv-e2e-bad","subject":"x","parts":[{"type":"note","role":"user","body":"b"}],
            "metadata":{"createdAt":"yesterday"}}"#,
    )
    .expect("the bad file");
    let output = quire(
        &sandbox.base_url,
        &[
            "--token",
            "demo-admin",
            "conversations",
            "ingest",
            &bad.display().to_string(),
            "--org",
            ORGANIZATION,
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("parts[0].type") && stderr.contains("metadata.createdAt"),
        "{stderr}"
    );
    let list = sandbox.read(&format!("/orgs/{ORGANIZATION}/conversations?limit=100"));
    assert!(
        !list.to_string().contains("conv-e2e-bad"),
        "nothing was sent"
    );

    // The server's refusal: a reader may not ingest.
    let output = quire(
        &sandbox.base_url,
        &[
            "--token",
            "demo-reader",
            "conversations",
            "ingest",
            &path,
            "--org",
            ORGANIZATION,
        ],
    );
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("admin role"));
}

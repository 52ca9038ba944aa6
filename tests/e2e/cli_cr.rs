//! `quire cr comment|review|merge|update|diff` as processes against `quire sandbox`: what the
//! server stored is read back over HTTP; a refused or unconfirmed merge changes nothing.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::cli_lists::{json, quire, stderr, stdout};
use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use serde_json::Value;

const SPACE: &str = "spc-getting-started";

fn status_of(sandbox: &SandboxProcess, number: u32) -> Value {
    sandbox.read(&format!("/spaces/{SPACE}/change-requests/{number}"))["status"].clone()
}

pub fn comments_of(sandbox: &SandboxProcess, number: u32) -> Vec<Value> {
    let listed = sandbox.read(&format!(
        "/spaces/{SPACE}/change-requests/{number}/comments?format=markdown&limit=1000"
    ));
    listed["items"].as_array().cloned().unwrap_or_default()
}

#[test]
fn a_comment_is_stored_from_an_argument_or_standard_input() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    let posted = quire(
        base,
        Some("demo-commenter"),
        &[
            "cr",
            "comment",
            "2",
            "--space",
            "Getting Started",
            "--body",
            "Built green in CI",
        ],
    );
    assert_eq!(posted.status.code(), Some(0), "{}", stderr(&posted));
    let comments = comments_of(&sandbox, 2);
    let stored = comments
        .iter()
        .find(|comment| comment["body"]["markdown"] == "Built green in CI")
        .expect("the comment is stored");
    assert_eq!(stored["postedBy"]["id"], "usr-diego-alvarez");
    assert_eq!(stdout(&posted).trim(), stored["id"].as_str().unwrap_or(""));

    // From standard input, on the page named by its path.
    let mut child = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["--api-url", base, "--token", "demo-admin"])
        .args([
            "cr",
            "comment",
            "2",
            "--body-file",
            "-",
            "--page",
            "installation/linux",
        ])
        .env("QUIRE_SPACE", SPACE)
        .env_remove("GITBOOK_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("quire runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"The **Linux** steps need `sudo`.\n")
        .expect("write the comment");
    let piped = child.wait_with_output().expect("quire ends");
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    let comments = comments_of(&sandbox, 2);
    let on_page = comments
        .iter()
        .find(|comment| {
            comment["body"]["markdown"]
                .as_str()
                .is_some_and(|text| text.contains("need `sudo`"))
        })
        .expect("the piped comment is stored");
    assert_eq!(on_page["target"]["page"]["id"], "pg-gs-install-linux");

    let empty = quire(
        base,
        Some("demo-admin"),
        &["cr", "comment", "2", "--space", SPACE],
    );
    assert_eq!(empty.status.code(), Some(2), "{}", stderr(&empty));
}

#[test]
fn a_review_is_stored_with_its_verdict_and_comment() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    let reviewed = quire(
        base,
        Some("demo-reviewer"),
        &[
            "cr",
            "review",
            "1",
            "--space",
            SPACE,
            "--request-changes",
            "--body",
            "Scopes table is missing",
        ],
    );
    assert_eq!(reviewed.status.code(), Some(0), "{}", stderr(&reviewed));
    let reviews = sandbox.read(&format!(
        "/spaces/{SPACE}/change-requests/1/reviews?format=markdown"
    ));
    let mine = reviews["items"]
        .as_array()
        .and_then(|all| {
            all.iter()
                .find(|review| review["reviewer"]["id"] == "usr-priya-raman")
        })
        .cloned()
        .expect("the reviewer's review is stored");
    assert_eq!(mine["status"], "changes-requested");
    assert_eq!(
        mine["comment"]["body"]["markdown"],
        "Scopes table is missing"
    );

    let no_verdict = quire(
        base,
        Some("demo-reviewer"),
        &["cr", "review", "1", "--space", SPACE],
    );
    assert_eq!(no_verdict.status.code(), Some(2), "{}", stderr(&no_verdict));
}

#[test]
fn merging_needs_permission_and_a_yes() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    for token in ["demo-reader", "demo-reviewer"] {
        let refused = quire(
            base,
            Some(token),
            &["cr", "merge", "1", "--space", SPACE, "--yes"],
        );
        assert_eq!(
            refused.status.code(),
            Some(1),
            "{token}: {}",
            stderr(&refused)
        );
        assert!(stderr(&refused).contains("merge"), "{}", stderr(&refused));
        assert_eq!(status_of(&sandbox, 1), "open", "{token} merged nothing");
    }

    // Standard input is not a terminal: nobody to ask, so no merge without --yes.
    let unasked = quire(
        base,
        Some("demo-admin"),
        &["cr", "merge", "1", "--space", SPACE],
    );
    assert_eq!(unasked.status.code(), Some(2), "{}", stderr(&unasked));
    assert!(stderr(&unasked).contains("--yes"), "{}", stderr(&unasked));
    assert_eq!(status_of(&sandbox, 1), "open");

    let conflicts = quire(
        base,
        Some("demo-admin"),
        &["cr", "merge", "3", "--space", SPACE, "--yes"],
    );
    assert_eq!(conflicts.status.code(), Some(1), "{}", stderr(&conflicts));
    assert!(
        stderr(&conflicts).contains("conflicts"),
        "{}",
        stderr(&conflicts)
    );
    // Where to resolve them: the web app, at the change request's own address.
    let app_url = sandbox.read(&format!("/spaces/{SPACE}/change-requests/3"))["urls"]["app"]
        .as_str()
        .expect("an address in the web app")
        .to_string();
    assert!(
        stderr(&conflicts).contains(&format!("in the web app ({app_url})")),
        "{}",
        stderr(&conflicts)
    );
    assert_eq!(status_of(&sandbox, 3), "open");
    let not_updated = quire(
        base,
        Some("demo-admin"),
        &["cr", "update", "3", "--space", SPACE],
    );
    assert_eq!(
        not_updated.status.code(),
        Some(1),
        "{}",
        stderr(&not_updated)
    );
    assert!(
        stderr(&not_updated).contains(&format!("Resolve them in the web app ({app_url}).")),
        "{}",
        stderr(&not_updated)
    );

    // #2 is behind main: brought up to date, then merged.
    let updated = quire(
        base,
        Some("demo-admin"),
        &["cr", "update", "2", "--space", SPACE],
    );
    assert_eq!(updated.status.code(), Some(0), "{}", stderr(&updated));
    let outdated = sandbox.read(&format!("/spaces/{SPACE}/change-requests/2"))["outdated"].clone();
    assert_ne!(outdated, Value::Bool(true), "no longer behind main");
    let merged = quire(
        base,
        Some("demo-editor"),
        &["cr", "merge", "2", "--space", SPACE, "--yes"],
    );
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert_eq!(status_of(&sandbox, 2), "merged");
    let view = quire(
        base,
        Some("demo-admin"),
        &["cr", "view", "2", "--space", SPACE, "--json", "status"],
    );
    assert_eq!(json(&view)["status"], "merged");
}

#[test]
fn a_merge_on_a_terminal_asks_first_and_no_keeps_it_open() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let mut app = PtyApp::spawn(
        &[
            "--api-url",
            base,
            "--token",
            "demo-admin",
            "cr",
            "merge",
            "1",
            "--space",
            SPACE,
        ],
        80,
        24,
    );
    app.wait_for("[y/N]", Duration::from_secs(20));
    assert!(
        app.screen().contains("Clarify token scopes"),
        "{}",
        app.screen()
    );
    app.send("n\r");
    let status = app.wait_exit(Duration::from_secs(20)).expect("quire ends");
    assert_eq!(status.exit_code(), 1);
    assert!(app.screen().contains("Not merged"), "{}", app.screen());
    assert_eq!(status_of(&sandbox, 1), "open");
}

#[test]
fn a_diff_is_unified_and_plain_when_piped() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let diff = quire(
        base,
        Some("demo-admin"),
        &["cr", "diff", "1", "--space", SPACE],
    );
    assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
    let text = stdout(&diff);
    assert!(!text.contains('\x1b'), "no colour in a pipe");
    assert!(
        text.contains("--- a/quickstart\n+++ b/quickstart\n"),
        "{text}"
    );
    assert!(text.contains("\n@@ -1,"), "{text}");
    assert!(
        text.contains("\n+an API token with the `fleet:write` scope"),
        "an added line: {text}"
    );
    // A page the change request created is added whole; one it deleted is removed whole.
    assert!(
        text.contains("--- /dev/null\n+++ b/token-scopes\n"),
        "{text}"
    );
    assert!(text.contains("+++ /dev/null\n"), "{text}");
}

#[test]
fn a_diff_on_a_terminal_colours_added_and_removed_lines() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let mut app = PtyApp::spawn(
        &[
            "--api-url",
            base,
            "--token",
            "demo-admin",
            "cr",
            "diff",
            "2",
            "--space",
            SPACE,
        ],
        100,
        500,
    );
    app.wait_exit(Duration::from_secs(20)).expect("quire ends");
    let screen = app.screen();
    let added = screen
        .lines()
        .find(|line| line.starts_with('+') && !line.starts_with("+++"))
        .expect("an added line")
        .to_string();
    assert_eq!(app.row_colours(&added), [vt100::Color::Idx(2)], "{screen}");
}

/// The shell block of the README's "From scripts", as a reader copies it.
fn readme_recipes() -> String {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("### From scripts").expect("the section")..];
    let start = section.find("```sh\n").expect("a shell block") + "```sh\n".len();
    let end = start + section[start..].find("```").expect("the block ends");
    section[start..end].to_string()
}

#[test]
fn the_readme_recipes_work_as_written() {
    let sandbox = SandboxProcess::start();
    let home = tempfile::tempdir().expect("a home");
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_quire"));
    let path = format!(
        "{}:{}",
        binary.parent().expect("the binary's folder").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = Command::new("bash")
        .args(["-e", "-c", &readme_recipes()])
        .env("PATH", path)
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("GITBOOK_API_URL", &sandbox.base_url)
        .env("GITBOOK_TOKEN", "demo-admin")
        .env("CR", "1")
        .env("CI_PREVIEW_URL", "https://preview.example/1")
        .env_remove("QUIRE_SPACE")
        .env_remove("QUIRE_PROFILE")
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let comments = comments_of(&sandbox, 1);
    assert!(
        comments.iter().any(|comment| comment["body"]["markdown"]
            .as_str()
            .is_some_and(|text| text.contains("Preview built: https://preview.example/1"))),
        "the comment from CI is stored"
    );
    assert!(
        stdout(&run).lines().any(|line| line.starts_with('[')),
        "the review requests print as JSON: {}",
        stdout(&run)
    );
    assert_eq!(status_of(&sandbox, 1), "merged", "{}", stderr(&run));
}

#[test]
fn a_view_shows_the_summary_the_description_the_changes_and_the_reviews() {
    let sandbox = SandboxProcess::start();
    let viewed = quire(
        &sandbox.base_url,
        Some("demo-admin"),
        &["cr", "view", "1", "--space", "Getting Started"],
    );
    assert_eq!(viewed.status.code(), Some(0), "{}", stderr(&viewed));
    let text = stdout(&viewed);
    for expected in [
        "Clarify token scopes in Quickstart #1",
        "open · by Fatima Zahra El Idrissi",
        "Support keeps getting [tickets](https://support.acme-robotics.example/t/403)",
        "- moves the REST API guide into Basics",
        "Changes:",
        "Token scopes (token-scopes)",
        "Reviews:",
        "Hannah Schmidt: approved",
    ] {
        assert!(text.contains(expected), "no “{expected}” in:\n{text}");
    }
}

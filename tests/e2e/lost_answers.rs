//! Writes whose answer is lost (the sandbox stores them, then answers 500): the real binary
//! reads each back and reports what the server holds — a role change done, a team created
//! once — instead of a failure that invites a second, duplicate write.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;

const WAIT: Duration = Duration::from_secs(30);
const ORGANIZATION: &str = "org-acme-robotics";
/// Maya Moreau, a generated demo member (role comment).
const MAYA: &str = "usr-acme-13";

fn teams_titled(sandbox: &SandboxProcess, title: &str) -> usize {
    let teams = sandbox.read(&format!("/orgs/{ORGANIZATION}/teams?limit=100"));
    teams["items"].as_array().map_or(0, |items| {
        items.iter().filter(|team| team["title"] == title).count()
    })
}

#[test]
fn a_role_change_and_a_new_team_whose_answers_are_lost_are_read_back() {
    let sandbox = SandboxProcess::start_with(&[
        "--fault",
        "PATCH /orgs/*/members/*=store-fail",
        "--fault",
        "PUT /orgs/*/teams=store-fail",
    ]);
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", "demo-admin"],
        80,
        24,
    );
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);

    app.send("\t\t");
    app.wait_for("62 members", WAIT);
    app.send("/maya.moreau");
    app.wait_for("Maya Moreau", WAIT);
    app.send("\re");
    app.wait_for("Role of Maya Moreau", WAIT);
    app.send("/review\r");
    app.wait_for("Give Maya Moreau the review role?", WAIT);
    app.send("y");
    app.wait_for("Maya Moreau's role is now review", WAIT);
    assert!(
        !app.screen().contains("Could not change"),
        "{}",
        app.screen()
    );
    let member = sandbox.read(&format!("/orgs/{ORGANIZATION}/members/{MAYA}"));
    assert_eq!(member["role"], "review", "{member}");

    app.send("\t");
    app.wait_for("6 teams", WAIT);
    app.send("n");
    app.wait_for("New team", WAIT);
    app.send("Lost Answer Crew\r");
    app.wait_for("Initial members of “Lost Answer Crew”", WAIT);
    app.send("\r");
    app.wait_for("Created team “Lost Answer Crew”", WAIT);
    assert_eq!(
        teams_titled(&sandbox, "Lost Answer Crew"),
        1,
        "created once"
    );
    app.send("q");
}

/// How many comments on change request `number` of Getting Started say exactly `text`.
fn comments_saying(sandbox: &SandboxProcess, number: u32, text: &str) -> usize {
    crate::cli_cr::comments_of(sandbox, number)
        .iter()
        .filter(|comment| comment["body"]["markdown"] == text)
        .count()
}

fn comment_from_the_cli(sandbox: &SandboxProcess, text: &str) -> std::process::Output {
    crate::cli_lists::quire(
        &sandbox.base_url,
        Some("demo-admin"),
        &[
            "cr",
            "comment",
            "2",
            "--space",
            "Getting Started",
            "--body",
            text,
        ],
    )
}

/// A script's comment whose answer is lost: stored, it succeeds with a note (a retrying loop
/// posts nothing twice); the same words posted before are not taken for it when it was not
/// stored (exit 1, "not saved"); never "run the command again" when the outcome is unknown.
#[test]
fn the_cli_reads_a_lost_comment_back_and_never_takes_an_older_one_for_it() {
    let sandbox = SandboxProcess::start_with(&["--fault", "POST */comments=store-failx1"]);
    let stored = comment_from_the_cli(&sandbox, "Preview built");
    let said = crate::cli_lists::stderr(&stored);
    assert_eq!(stored.status.code(), Some(0), "{said}");
    assert!(said.contains("reading back found it stored"), "{said}");
    assert_eq!(comments_saying(&sandbox, 2, "Preview built"), 1);

    // demo-admin wrote these words on change request 1 long ago; posted again, the new copy is
    // reset before the server stores it.
    let older = "Once this is merged, please post in `#docs-updates` so support can update their \
                 macros.";
    let reset = SandboxProcess::start_with(&["--fault", "POST */comments=resetx1"]);
    assert_eq!(comments_saying(&reset, 1, older), 1);
    let again = crate::cli_lists::quire(
        &reset.base_url,
        Some("demo-admin"),
        &[
            "cr",
            "comment",
            "1",
            "--space",
            "Getting Started",
            "--body",
            older,
        ],
    );
    let said = crate::cli_lists::stderr(&again);
    assert_eq!(again.status.code(), Some(1), "{said}");
    assert!(said.contains("It was not saved"), "{said}");
    assert_eq!(comments_saying(&reset, 1, older), 1);
}

/// `quire api -X POST` on a comment reads back like `cr comment`; a create it cannot read back
/// (a team) whose answer is lost ends with the status of an unknown outcome, 3.
#[test]
fn quire_api_reads_a_lost_comment_back_and_says_an_unknown_outcome_apart() {
    let sandbox = SandboxProcess::start_with(&[
        "--fault",
        "POST */comments=store-failx1",
        "--fault",
        "PUT /orgs/*/teams=store-failx1",
    ]);
    let body = tempfile::NamedTempFile::new().expect("a file");
    std::fs::write(body.path(), r#"{"body":{"markdown":"From the API"}}"#).expect("written");
    let posted = crate::cli_lists::quire(
        &sandbox.base_url,
        Some("demo-admin"),
        &[
            "api",
            "-X",
            "POST",
            "/spaces/spc-getting-started/change-requests/2/comments",
            "--input",
            body.path().to_str().expect("utf-8"),
        ],
    );
    let said = crate::cli_lists::stderr(&posted);
    assert_eq!(posted.status.code(), Some(0), "{said}");
    assert!(
        said.contains("reading back found the write stored"),
        "{said}"
    );
    assert_eq!(comments_saying(&sandbox, 2, "From the API"), 1);

    let team = crate::cli_lists::quire(
        &sandbox.base_url,
        Some("demo-admin"),
        &[
            "api",
            "-X",
            "PUT",
            &format!("/orgs/{ORGANIZATION}/teams"),
            "-f",
            "title=Night Shift",
        ],
    );
    let said = crate::cli_lists::stderr(&team);
    assert_eq!(team.status.code(), Some(3), "{said}");
    assert!(said.contains("outcome unknown"), "{said}");
    assert!(!said.contains("run it again"), "{said}");
    assert_eq!(teams_titled(&sandbox, "Night Shift"), 1);
}

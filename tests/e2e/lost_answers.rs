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

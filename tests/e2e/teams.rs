//! People (members, teams) end to end: the real binary in a pseudo-terminal at 80x24 against a
//! sandbox served by a second `quire sandbox` process. Find a member by search, change their
//! role, create a team with two members, bulk-remove one of them, reading the sandbox over
//! HTTP after each step to check what it stored.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(30);
const ORGANIZATION: &str = "org-acme-robotics";
/// Maya Moreau, a generated demo member (role comment).
const MAYA: &str = "usr-acme-13";
const JONAS: &str = "usr-jonas-berg";
const DOWN: &str = "\u{1b}[B";

fn team_titled(sandbox: &SandboxProcess, title: &str) -> Option<Value> {
    let teams = sandbox.read(&format!("/orgs/{ORGANIZATION}/teams?limit=100"));
    teams["items"]
        .as_array()?
        .iter()
        .find(|team| team["title"] == title)
        .cloned()
}

fn team_member_ids(sandbox: &SandboxProcess, team: &str) -> Vec<String> {
    let members = sandbox.read(&format!("/orgs/{ORGANIZATION}/teams/{team}/members"));
    members["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|entry| entry["organization"]["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn find_a_member_change_their_role_build_a_team_and_bulk_remove_from_the_keyboard() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.clone();
    let mut app = PtyApp::spawn(&["--api-url", &base, "--token", "demo-admin"], 80, 24);
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);

    // Members: search as typed (the server's `search`), then change the role.
    app.send("\t\t");
    app.wait_for("62 members", WAIT);
    app.send("/maya.moreau");
    app.wait_for("1 member ·", WAIT);
    app.wait_for("Maya Moreau", WAIT);
    app.send("\re");
    app.wait_for("Role of Maya Moreau", WAIT);
    app.send("/review\r");
    app.wait_for("Give Maya Moreau the review role?", WAIT);
    app.send("y");
    app.wait_for("Maya Moreau's role is now review", WAIT);
    let member = sandbox.read(&format!("/orgs/{ORGANIZATION}/members/{MAYA}"));
    assert_eq!(member["role"], "review", "{member}");

    // Teams: create one with Maya and Jonas as its first members.
    app.send("\t");
    app.wait_for("6 teams", WAIT);
    app.send("n");
    app.wait_for("New team", WAIT);
    app.send("E2E Crew\r");
    app.wait_for("Initial members of “E2E Crew”", WAIT);
    // The picker lists by join date, newest first: Maya Silva, then Maya Moreau.
    app.send("/maya");
    app.wait_for("[ ] Maya Moreau", WAIT);
    app.send(&format!("{DOWN} "));
    app.wait_for("[x] Maya Moreau", WAIT);
    app.send("\u{1b}");
    app.wait_for("space marks · / filters", WAIT);
    app.send("/jonas");
    app.wait_for("[ ] Jonas Berg", WAIT);
    app.send(" ");
    app.wait_for("[x] Jonas Berg", WAIT);
    app.send("\r");
    app.wait_for("Created team “E2E Crew”", WAIT);
    let team = team_titled(&sandbox, "E2E Crew").expect("the team was stored");
    assert_eq!(team["members"], 2, "{team}");
    let team_id = team["id"].as_str().expect("an id").to_string();
    assert_eq!(team_member_ids(&sandbox, &team_id), [MAYA, JONAS]);

    // Its members: mark the first (Maya) and bulk edit, adding nobody.
    app.send("G\r");
    app.wait_for("E2E Crew · 2 members", WAIT);
    app.wait_for("Jonas Berg", WAIT);
    app.send(" ");
    app.wait_for("1 marked for removal", WAIT);
    app.send("B");
    app.wait_for("Add to “E2E Crew”", WAIT);
    app.send("\r");
    app.wait_for("Removed: Maya Moreau.", WAIT);
    app.send("y");
    app.wait_for("0 added, 1 removed", WAIT);
    assert_eq!(team_member_ids(&sandbox, &team_id), [JONAS]);
    let member = sandbox.read(&format!("/orgs/{ORGANIZATION}/members/{MAYA}"));
    assert_eq!(member["teams"], 1, "back to the one team she had: {member}");
    app.send("q");
}

//! What the scripting subcommands print beyond the list's columns, as processes against
//! `quire sandbox`: spaces in the Trash only when asked, and marked then.

use serde_json::Value;

use crate::cli_lists::{json, quire, stderr, stdout};
use crate::common::sandbox_process::SandboxProcess;
use quire::sandbox::demo_ids;

fn titles(listed: &Value) -> Vec<String> {
    listed
        .as_array()
        .map(|all| {
            all.iter()
                .filter_map(|space| space["title"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn space_list_leaves_the_trash_out_unless_asked_and_marks_it_then() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let org = ["space", "list", "--org", "Acme Robotics"];

    let listed = quire(
        base,
        Some("demo-admin"),
        &[&org[..], &["--json", "title,deletedAt"]].concat(),
    );
    let shown = titles(&json(&listed));
    assert!(shown.contains(&"Getting Started".to_string()), "{shown:?}");
    assert!(!shown.contains(&"Old Onboarding".to_string()), "{shown:?}");
    let piped = quire(base, Some("demo-admin"), &org);
    assert!(
        !stdout(&piped).contains("Old Onboarding"),
        "{}",
        stdout(&piped)
    );

    let with_trash = quire(
        base,
        Some("demo-admin"),
        &[&org[..], &["--deleted", "--json", "id,title,deletedAt"]].concat(),
    );
    let all = json(&with_trash);
    let trashed = all
        .as_array()
        .and_then(|all| {
            all.iter()
                .find(|space| space["id"] == demo_ids::SPACE_DELETED_ONBOARDING)
        })
        .unwrap_or_else(|| panic!("listed with --deleted: {all} {}", stderr(&with_trash)));
    assert!(trashed["deletedAt"].is_string(), "{trashed}");
    let kept = all
        .as_array()
        .and_then(|all| all.iter().find(|space| space["title"] == "Getting Started"))
        .expect("Getting Started");
    assert!(kept["deletedAt"].is_null(), "{kept}");

    let piped = quire(
        base,
        Some("demo-admin"),
        &[&org[..], &["--deleted"]].concat(),
    );
    let line = stdout(&piped)
        .lines()
        .find(|line| line.contains("Old Onboarding"))
        .map(str::to_string)
        .unwrap_or_default();
    assert!(
        line.split('\t').count() == 5,
        "with when it was deleted: {line:?}"
    );
}

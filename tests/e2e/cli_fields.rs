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

#[test]
fn cr_view_json_offers_the_description_changes_and_reviews_the_text_shows() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let view = ["cr", "view", "1", "--space", "Getting Started"];
    let text = stdout(&quire(base, Some("demo-admin"), &view));
    assert!(text.contains("Changes:"), "{text}");
    assert!(
        text.contains("in Getting Started"),
        "the space by its title: {text}"
    );

    let fields = "space,spaceTitle,description,changes,reviews";
    let listed = quire(
        base,
        Some("demo-admin"),
        &[&view[..], &["--json", fields]].concat(),
    );
    let viewed = json(&listed);
    assert_eq!(viewed["space"], "spc-getting-started", "{viewed}");
    assert_eq!(viewed["spaceTitle"], "Getting Started", "{viewed}");
    assert!(viewed["description"].is_string(), "{viewed}");
    let changes = viewed["changes"].as_array().expect("changes");
    assert!(!changes.is_empty(), "{viewed}");
    assert!(changes[0]["type"].is_string(), "{viewed}");
    assert!(viewed["reviews"].is_array(), "{viewed}");

    let names = stdout(&quire(base, None, &[&view[..], &["--json"]].concat()));
    for field in ["description", "changes", "reviews", "spaceTitle"] {
        assert!(names.lines().any(|line| line == field), "{field}: {names}");
    }
}

#[test]
fn cr_list_names_spaces_by_title_and_the_json_keeps_the_id() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    for args in [
        &["cr", "list", "--org", "Acme Robotics"][..],
        &["cr", "list", "--space", "spc-getting-started"][..],
        &["cr", "list"][..],
    ] {
        let piped = stdout(&quire(base, Some("demo-admin"), args));
        assert!(piped.contains("\tGetting Started"), "{args:?}: {piped}");
        assert!(!piped.contains("spc-"), "{args:?}: {piped}");
    }
    let listed = json(&quire(
        base,
        Some("demo-admin"),
        &[
            "cr",
            "list",
            "--org",
            "Acme Robotics",
            "--json",
            "space,spaceTitle",
        ],
    ));
    let first = &listed[0];
    assert!(
        first["space"]
            .as_str()
            .is_some_and(|id| id.starts_with("spc-")),
        "{listed}"
    );
    assert!(first["spaceTitle"].is_string(), "{listed}");
}

//! `quire status` as a process against `quire sandbox`: the Home sections across both demo
//! organizations as JSON, as tab-separated lines, sections from the config file, a bad
//! section refused in one line, and an organization that fails told on stderr (exit 1) while
//! the others are printed.

use serde_json::{Value, json};

use crate::cli_lists::{json, quire, stderr, stdout};
use crate::common::sandbox_process::SandboxProcess;

const LUMEN_SPACE: &str = "spc-lumen-docs";
const LUMEN_OPEN: &str = "cr-lu-reranker";

/// `method path` with a JSON body as `token`: the status.
pub fn send(sandbox: &SandboxProcess, token: &str, method: &str, path: &str, body: Value) -> u16 {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
        let mut request = reqwest::Client::new()
            .request(method, format!("{}/v1{path}", sandbox.base_url))
            .bearer_auth(token);
        if !body.is_null() {
            request = request.json(&body);
        }
        request.send().await.expect("answered").status().as_u16()
    })
}

/// Lumen's open change request asks for Priya's review too, so hers span both organizations.
fn ask_priya_in_lumen(sandbox: &SandboxProcess) {
    let asked = send(
        sandbox,
        "demo-admin",
        "POST",
        &format!("/spaces/{LUMEN_SPACE}/change-requests/{LUMEN_OPEN}/requested-reviewers"),
        json!({"users": ["usr-priya-raman"]}),
    );
    assert!(asked < 300, "asking for a review: {asked}");
}

fn config_file(text: &str) -> tempfile::NamedTempFile {
    let file = tempfile::Builder::new()
        .suffix(".toml")
        .tempfile()
        .expect("a config file");
    std::fs::write(file.path(), text).expect("written");
    file
}

/// The rows of `section` in a `--json` answer, as (organization, number).
fn rows_of(listed: &Value, section: &str) -> Vec<(String, u64)> {
    listed
        .as_array()
        .into_iter()
        .flatten()
        .filter(|row| row["section"] == section)
        .map(|row| {
            (
                row["organization"].as_str().unwrap_or("").to_string(),
                row["number"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn the_review_requests_of_both_organizations_as_json_and_as_lines() {
    let sandbox = SandboxProcess::start();
    ask_priya_in_lumen(&sandbox);
    let none = config_file("");
    let config = none.path().to_str().expect("a path");
    let base = &sandbox.base_url;

    let as_json = quire(
        base,
        Some("demo-reviewer"),
        &[
            "--config",
            config,
            "status",
            "--json",
            "section,organization,space,number,subject,review",
        ],
    );
    assert_eq!(as_json.status.code(), Some(0), "{}", stderr(&as_json));
    let listed = json(&as_json);
    let mut asked = rows_of(&listed, "Review requested from me");
    asked.sort();
    assert_eq!(
        asked,
        [
            ("Acme Robotics".to_string(), 1),
            ("Acme Robotics".to_string(), 2),
            ("Lumen OSS".to_string(), 1),
        ]
    );
    let lumen = listed
        .as_array()
        .into_iter()
        .flatten()
        .find(|row| row["organization"] == "Lumen OSS")
        .expect("a Lumen row");
    assert_eq!(lumen["space"], "Lumen Documentation");
    assert_eq!(lumen["subject"], "Explain reranker memory use");
    assert_eq!(
        rows_of(&listed, "Recently merged"),
        [("Acme Robotics".to_string(), 4)]
    );

    let piped = quire(base, Some("demo-reviewer"), &["--config", config, "status"]);
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    let lines = stdout(&piped);
    assert!(
        lines.lines().any(|line| line.starts_with(
            "Review requested from me\tLumen OSS\tLumen Documentation\t1\tExplain reranker memory use\topen\t"
        )),
        "{lines}"
    );
    assert!(
        lines.lines().all(|line| line.split('\t').count() == 9),
        "{lines}"
    );

    let field_names = quire(base, None, &["status", "--json"]);
    assert_eq!(
        field_names.status.code(),
        Some(0),
        "{}",
        stderr(&field_names)
    );
    assert!(
        stdout(&field_names)
            .lines()
            .any(|field| field == "mayMerge")
    );
}

#[test]
fn sections_come_from_the_config_file_and_a_bad_one_is_one_line() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let lumen_only = config_file(
        "[[sections]]\ntitle = \"Lumen, anything\"\norganizations = [\"Lumen OSS\"]\nstatus = \"all\"\n",
    );
    let answered = quire(
        base,
        Some("demo-reviewer"),
        &[
            "--config",
            lumen_only.path().to_str().expect("a path"),
            "status",
            "--json",
            "section,organization,number",
        ],
    );
    assert_eq!(answered.status.code(), Some(0), "{}", stderr(&answered));
    let mut rows = rows_of(&json(&answered), "Lumen, anything");
    rows.sort();
    assert_eq!(
        rows,
        [("Lumen OSS".to_string(), 1), ("Lumen OSS".to_string(), 2)]
    );

    let bad = config_file("[[sections]]\ntitle = \"Typo\"\nstatus = \"opn\"\n");
    let refused = quire(
        base,
        Some("demo-reviewer"),
        &["--config", bad.path().to_str().expect("a path"), "status"],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let said = stderr(&refused);
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    assert!(
        said.contains(
            r#"sections[0].status: "opn" is not one of open, draft, merged, archived, all"#
        ),
        "{said}"
    );
}

#[test]
fn an_organization_that_fails_is_a_line_on_stderr_and_the_others_are_printed() {
    let sandbox =
        SandboxProcess::start_with(&["--fault", "GET /orgs/org-lumen-oss/change-requests=500"]);
    ask_priya_in_lumen(&sandbox);
    let none = config_file("");
    let output = quire(
        &sandbox.base_url,
        Some("demo-reviewer"),
        &[
            "--config",
            none.path().to_str().expect("a path"),
            "status",
            "--json",
            "section,organization,number",
        ],
    );
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    // One line for Lumen, however many sections asked it.
    let about_lumen: Vec<&str> = said
        .lines()
        .filter(|line| line.contains("Lumen OSS"))
        .collect();
    assert_eq!(about_lumen.len(), 1, "{said}");
    let rows = rows_of(&json(&output), "Review requested from me");
    assert_eq!(
        rows,
        [
            ("Acme Robotics".to_string(), 1),
            ("Acme Robotics".to_string(), 2)
        ]
    );
}

#[test]
fn at_a_terminal_each_section_is_a_titled_table() {
    let sandbox = SandboxProcess::start();
    let none = config_file("");
    let mut app = crate::common::pty::PtyApp::spawn(
        &[
            "--api-url",
            &sandbox.base_url,
            "--token",
            "demo-reviewer",
            "--config",
            none.path().to_str().expect("a path"),
            "status",
        ],
        120,
        40,
    );
    // The screen is read once quire has ended: a row seen earlier may be half written.
    let status = app
        .wait_exit(std::time::Duration::from_secs(30))
        .expect("quire ends");
    assert!(status.success(), "{}", app.screen());
    app.wait_for("Recently merged (1)", std::time::Duration::from_secs(30));
    let screen = app.screen();
    for seen in [
        "Review requested from me (3)",
        "NUMBER",
        "Clarify token scopes in Quickstart",
        "Mine, open (0)",
        "Nothing here.",
        "Fix typos in Welcome",
    ] {
        assert!(screen.contains(seen), "{seen}:\n{screen}");
    }
    assert!(!screen.contains('\t'));
}

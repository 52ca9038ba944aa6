//! `quire org|space|page|search|cr list` as processes against `quire sandbox`: JSON a script
//! parses, tab-separated lines without a header for a pipe, `--jq` filtering that JSON, a
//! table for a terminal, and the exit statuses 0, 1 (not found), 2 (usage) and 4 (token).

use std::process::{Command, Output};
use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use serde_json::Value;

const SPACE: &str = "spc-getting-started";

/// `quire ARGS` against `base` as `token`, stdout and stderr piped.
pub fn quire(base: &str, token: Option<&str>, args: &[&str]) -> Output {
    let home = tempfile::tempdir().expect("a home");
    let mut command = Command::new(env!("CARGO_BIN_EXE_quire"));
    command
        .args(["--api-url", base])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .env_remove("QUIRE_SPACE")
        .stdin(std::process::Stdio::null());
    if let Some(token) = token {
        command.args(["--token", token]);
    }
    command.args(args).output().expect("quire runs")
}

pub fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout is not JSON ({error}): {} / {}",
            stdout(output),
            stderr(output)
        )
    })
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn succeeded(output: &Output) {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
}

#[test]
fn lists_print_json_fields_and_tab_separated_lines() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    let organizations = quire(
        base,
        Some("demo-admin"),
        &["org", "list", "--json", "id,title"],
    );
    succeeded(&organizations);
    let listed = json(&organizations);
    let acme = listed
        .as_array()
        .and_then(|all| all.iter().find(|org| org["id"] == "org-acme-robotics"))
        .expect("Acme is listed");
    assert_eq!(
        acme,
        &serde_json::json!({"id": "org-acme-robotics", "title": "Acme Robotics"}),
        "just the named fields"
    );

    // Piped: one record a line, fields split by tabs, no header.
    let spaces = quire(
        base,
        Some("demo-admin"),
        &["space", "list", "--org", "Acme Robotics"],
    );
    succeeded(&spaces);
    let lines: Vec<Vec<String>> = stdout(&spaces)
        .lines()
        .map(|line| line.split('\t').map(str::to_string).collect())
        .collect();
    assert!(!stdout(&spaces).contains("TITLE"), "no header when piped");
    assert!(
        lines
            .iter()
            .any(|fields| fields[0] == SPACE && fields[1] == "Getting Started"),
        "{lines:?}"
    );
    assert!(lines.iter().all(|fields| fields.len() == lines[0].len()));
    assert!(
        !lines
            .iter()
            .any(|fields| fields[1] == "Lumen Documentation"),
        "only the organization asked for"
    );

    let change_requests = quire(
        base,
        Some("demo-admin"),
        &[
            "cr",
            "list",
            "--space",
            "Getting Started",
            "--status",
            "all",
        ],
    );
    succeeded(&change_requests);
    let printed = stdout(&change_requests);
    let numbers: Vec<&str> = printed
        .lines()
        .filter_map(|line| line.split('\t').next())
        .collect();
    assert_eq!(numbers, ["6", "5", "4", "3", "2", "1"]);
}

#[test]
fn jq_filters_the_json_a_list_prints() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let list = ["cr", "list", "--space", SPACE, "--status", "all"];

    let as_json = quire(
        base,
        Some("demo-admin"),
        &[&list[..], &["--json", "number,subject,status"]].concat(),
    );
    succeeded(&as_json);
    let expected: Vec<String> = json(&as_json)
        .as_array()
        .expect("an array")
        .iter()
        .filter(|cr| cr["status"] == "open")
        .map(|cr| cr["subject"].as_str().expect("a subject").to_string())
        .collect();
    assert_eq!(expected.len(), 3, "three open change requests");

    let filter = r#".[] | select(.status == "open") | .subject"#;
    let filtered = quire(
        base,
        Some("demo-admin"),
        &[
            &list[..],
            &["--json", "number,subject,status", "--jq", filter],
        ]
        .concat(),
    );
    succeeded(&filtered);
    let printed: Vec<String> = stdout(&filtered).lines().map(str::to_string).collect();
    assert_eq!(printed, expected, "strings print raw, one a line");

    // --jq alone implies JSON with every field.
    let count = quire(
        base,
        Some("demo-admin"),
        &[&list[..], &["--jq", "map(.authorId) | length"]].concat(),
    );
    succeeded(&count);
    assert_eq!(stdout(&count).trim(), "6");

    let wrong = quire(
        base,
        Some("demo-admin"),
        &[&list[..], &["--jq", ".[ | nope"]].concat(),
    );
    assert_eq!(wrong.status.code(), Some(1), "{}", stderr(&wrong));
    assert!(stderr(&wrong).contains("--jq"), "{}", stderr(&wrong));
    assert!(wrong.stdout.is_empty());
}

#[test]
fn json_alone_names_the_fields_and_an_unknown_field_is_a_usage_error() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    // No token needed: the names are quire's own.
    let names = quire(base, None, &["cr", "list", "--json"]);
    succeeded(&names);
    let fields: Vec<&str> = std::str::from_utf8(&names.stdout)
        .unwrap()
        .lines()
        .collect();
    for field in ["number", "subject", "status", "author", "url"] {
        assert!(fields.contains(&field), "{fields:?}");
    }

    let unknown = quire(
        base,
        Some("demo-admin"),
        &["org", "list", "--json", "id,colour"],
    );
    assert_eq!(unknown.status.code(), Some(2), "{}", stderr(&unknown));
    assert!(stderr(&unknown).contains("colour"), "{}", stderr(&unknown));
    assert!(unknown.stdout.is_empty());
}

#[test]
fn search_and_page_view_find_pages_by_title_and_path() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    let found = quire(
        base,
        Some("demo-admin"),
        &[
            "search",
            "token",
            "--space",
            "Getting Started",
            "--json",
            "title,path,space",
        ],
    );
    succeeded(&found);
    let hits = json(&found);
    let hits = hits.as_array().expect("an array");
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|hit| hit["space"] == SPACE), "{hits:?}");
    assert!(
        hits.iter().any(|hit| hit["path"] == "quickstart"),
        "{hits:?}"
    );

    // Piped, the page is its markdown as the server stores it.
    let stored =
        sandbox.read("/spaces/spc-getting-started/content/page/pg-gs-quickstart?format=markdown");
    let markdown = stored["markdown"].as_str().expect("markdown");
    for name in [
        "quickstart",
        "/quickstart",
        "Quickstart",
        "pg-gs-quickstart",
    ] {
        let page = quire(
            base,
            Some("demo-admin"),
            &["page", "view", "Getting Started", name],
        );
        succeeded(&page);
        assert_eq!(
            stdout(&page).trim_end(),
            markdown.trim_end(),
            "page named {name}"
        );
    }

    let missing = quire(
        base,
        Some("demo-admin"),
        &["page", "view", SPACE, "no-such-page"],
    );
    assert_eq!(missing.status.code(), Some(1), "{}", stderr(&missing));
    assert!(
        stderr(&missing).contains("no-such-page"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn failures_exit_with_their_own_statuses() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    let refused = quire(base, Some("not-a-token"), &["cr", "list", "--space", SPACE]);
    assert_eq!(refused.status.code(), Some(4), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("The token was refused")
            && stderr(&refused).contains("`quire auth status` says which token was sent"),
        "{}",
        stderr(&refused)
    );
    assert!(refused.stdout.is_empty());

    let signed_out = quire(base, None, &["org", "list"]);
    assert_eq!(signed_out.status.code(), Some(4), "{}", stderr(&signed_out));
    assert!(stderr(&signed_out).contains("Not signed in"));

    let missing = quire(
        base,
        Some("demo-admin"),
        &["cr", "view", "99", "--space", SPACE],
    );
    assert_eq!(missing.status.code(), Some(1), "{}", stderr(&missing));
    assert!(
        stderr(&missing).contains("Not found"),
        "{}",
        stderr(&missing)
    );

    let no_space = quire(base, Some("demo-admin"), &["cr", "view", "1"]);
    assert_eq!(no_space.status.code(), Some(2), "{}", stderr(&no_space));
    assert!(
        stderr(&no_space).contains("--space"),
        "{}",
        stderr(&no_space)
    );

    let unknown_org = quire(
        base,
        Some("demo-admin"),
        &["space", "list", "--org", "Nowhere Inc"],
    );
    assert_eq!(
        unknown_org.status.code(),
        Some(1),
        "{}",
        stderr(&unknown_org)
    );

    // A space looked for in the wrong organization: the message says where it looked.
    let elsewhere = quire(
        base,
        Some("demo-admin"),
        &[
            "cr",
            "list",
            "--space",
            "Getting Started",
            "--org",
            "Lumen OSS",
        ],
    );
    assert_eq!(elsewhere.status.code(), Some(1), "{}", stderr(&elsewhere));
    assert!(
        stderr(&elsewhere).contains("No space of Lumen OSS has the id or title “Getting Started”"),
        "{}",
        stderr(&elsewhere)
    );
}

#[test]
fn completions_know_the_subcommands_and_the_json_fields() {
    let output = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["completions", "bash"])
        .output()
        .expect("run quire");
    let script = stdout(&output);
    assert!(script.contains("quire,cr)"), "no `cr` in the bash script");
    assert!(
        script.contains("changeRequestsOpen"),
        "no --json field of `space list`"
    );
    assert!(script.contains("authorId"), "no --json field of `cr list`");
}

#[test]
fn a_list_on_a_terminal_is_a_table_with_a_header_and_coloured_statuses() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let mut app = PtyApp::spawn(
        &[
            "--api-url",
            base,
            "--token",
            "demo-admin",
            "cr",
            "list",
            "--space",
            SPACE,
            "--status",
            "all",
        ],
        80,
        24,
    );
    // The whole table is read once quire has ended: a row seen earlier may be half written.
    let status = app.wait_exit(Duration::from_secs(20)).expect("quire ends");
    assert!(status.success(), "{}", app.screen());
    app.wait_for_row("NUMBER", "SUBJECT", Duration::from_secs(30));
    let screen = app.screen();
    assert!(!screen.contains('\t'));
    let colours = app.row_colours("Clarify token scope");
    assert!(
        colours.contains(&vt100::Color::Idx(2)),
        "an open change request's status is green: {colours:?}\n{screen}"
    );
}

#[test]
fn no_color_keeps_a_terminal_table_plain_and_it_fits_a_narrow_terminal() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let mut app = PtyApp::spawn_with_env(
        &[
            "--api-url",
            base,
            "--token",
            "demo-admin",
            "cr",
            "list",
            "--space",
            SPACE,
        ],
        40,
        12,
        &[("NO_COLOR", "1")],
    );
    let status = app.wait_exit(Duration::from_secs(20)).expect("quire ends");
    assert!(status.success(), "{}", app.screen());
    app.wait_for("Kwame", Duration::from_secs(30));
    let colours = app.row_colours("Kwame");
    assert_eq!(colours, [vt100::Color::Default], "{}", app.screen());
    assert!(!String::from_utf8_lossy(&app.raw_output()).contains("\x1b[32m"));
    for row in app.screen().lines() {
        assert!(unicode_width::UnicodeWidthStr::width(row) <= 40, "{row}");
    }
}

#[test]
fn a_page_on_a_terminal_is_rendered_not_raw_markdown() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let mut app = PtyApp::spawn(
        &[
            "--api-url",
            base,
            "--token",
            "demo-admin",
            "page",
            "view",
            "Getting Started",
            "Glossary",
        ],
        80,
        24,
    );
    app.wait_for("Autonomous mobile robot", Duration::from_secs(20));
    app.wait_exit(Duration::from_secs(20)).expect("quire ends");
    let screen = app.screen();
    assert!(screen.contains("Gateway"), "{screen}");
    assert!(
        !screen.contains("**AMR**"),
        "emphasis is drawn, not written: {screen}"
    );
    assert!(!screen.contains("| :---"), "the table is drawn: {screen}");
}

/// Escape sequences, a C1 control, a bidi override and DEL, as a hostile server sends them.
const PAYLOAD: &str = "\u{1b}]0;PWN\u{7}\u{1b}[3J\u{9b}2J\u{202e}\u{7f}";
const PLANTED: [&str; 5] = ["\u{1b}]0;PWN", "\u{1b}[3J", "\u{9b}", "\u{202e}", "\u{7f}"];

/// Sends `body` to the sandbox as the admin, outside quire.
fn plant(sandbox: &SandboxProcess, method: reqwest::Method, path: &str, body: String) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let status = runtime.block_on(async {
        reqwest::Client::new()
            .request(method, format!("{}{path}", sandbox.base_url))
            .bearer_auth("demo-admin")
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .await
            .expect("sandbox answers")
            .status()
    });
    assert!(status.is_success(), "{path}: {status}");
}

#[test]
fn hostile_server_text_never_reaches_a_terminal() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.as_str();
    let paragraph = serde_json::json!({"object": "block", "type": "paragraph", "nodes": [
        {"object": "text", "leaves": [{"object": "leaf", "text": format!("HDESCRIPTION {PAYLOAD}"), "marks": []}]}
    ]});
    let subject = serde_json::json!({
        "subject": format!("HSUBJECT {PAYLOAD}"),
        "description": {"object": "document", "data": {}, "nodes": [paragraph]},
    })
    .to_string();
    plant(
        &sandbox,
        reqwest::Method::PATCH,
        &format!("/v1/spaces/{SPACE}/change-requests/1"),
        subject,
    );
    let markdown = format!("# Glossary\n\nHPAGE {PAYLOAD}\n");
    plant(
        &sandbox,
        reqwest::Method::PUT,
        &format!("/_sandbox/spaces/{SPACE}/pages/pg-gs-glossary/markdown"),
        markdown,
    );
    let runs: [(&[&str], &str); 5] = [
        (&["cr", "list", "--space", SPACE], "HSUBJECT"),
        // The view is longer than the terminal: its description is what stays on screen.
        (&["cr", "view", "1", "--space", SPACE], "HDESCRIPTION"),
        (
            &["cr", "list", "--space", SPACE, "--jq", ".[].subject"],
            "HSUBJECT",
        ),
        (&["page", "view", SPACE, "glossary"], "HPAGE"),
        (&["page", "view", SPACE, "glossary", "--raw"], "HPAGE"),
    ];
    for (args, marker) in runs {
        let mut app = PtyApp::spawn(
            &[&["--api-url", base, "--token", "demo-admin"], args].concat(),
            80,
            24,
        );
        app.wait_for(marker, Duration::from_secs(20));
        app.wait_exit(Duration::from_secs(20)).expect("quire ends");
        let written = String::from_utf8_lossy(&app.raw_output()).into_owned();
        for planted in PLANTED {
            assert!(
                !written.contains(planted),
                "{args:?} let {planted:?} through"
            );
        }
    }
}

#[test]
fn a_server_that_does_not_answer_is_named_with_exit_status_one() {
    let unused = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let base = format!("http://{}", unused.local_addr().expect("its address"));
    drop(unused);
    for args in [
        &["org", "list"][..],
        &["cr", "view", "1", "--space", SPACE][..],
        &["api", "/user"][..],
    ] {
        let down = quire(&base, Some("demo-admin"), args);
        assert_eq!(down.status.code(), Some(1), "{args:?}: {}", stderr(&down));
        assert!(
            stderr(&down).contains(&format!("Could not reach {base}/v1: connection refused")),
            "{args:?}: {}",
            stderr(&down)
        );
        assert!(down.stdout.is_empty(), "{args:?}: {}", stdout(&down));
    }
}

#[test]
fn an_empty_name_from_an_unset_variable_is_a_wrong_command_line() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let cases: [&[&str]; 7] = [
        &["cr", "list", "--space", ""],
        &["cr", "list", "--org", ""],
        &["cr", "list", "--author", ""],
        &["cr", "view", "", "--space", SPACE],
        &["page", "view", "", "quickstart"],
        &["page", "view", SPACE, ""],
        &["search", "token", "--space", ""],
    ];
    for args in cases {
        let empty = quire(base, Some("demo-admin"), args);
        assert_eq!(empty.status.code(), Some(2), "{args:?}: {}", stderr(&empty));
        assert!(
            stderr(&empty).contains("the argument is empty"),
            "{args:?}: {}",
            stderr(&empty)
        );
        assert!(empty.stdout.is_empty(), "{args:?}: {}", stdout(&empty));
    }
}

#[test]
fn a_list_prints_up_to_its_limit_and_says_when_there_are_more() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let every = quire(base, Some("demo-admin"), &["org", "list", "--json", "id"]);
    succeeded(&every);
    assert!(json(&every).as_array().map_or(0, Vec::len) > 1);
    assert_eq!(stderr(&every), "", "all of them fit the default limit");

    let one = quire(
        base,
        Some("demo-admin"),
        &["org", "list", "--limit", "1", "--json", "id"],
    );
    succeeded(&one);
    assert_eq!(json(&one).as_array().map(Vec::len), Some(1));
    assert_eq!(
        stderr(&one),
        "quire: showing 1 of more; use --limit to see more\n"
    );

    // Across every organization too, newest first within the space.
    let two = quire(
        base,
        Some("demo-admin"),
        &[
            "cr", "list", "--status", "all", "--limit", "2", "--json", "number",
        ],
    );
    succeeded(&two);
    assert_eq!(json(&two).as_array().map(Vec::len), Some(2));
    assert!(
        stderr(&two).contains("showing 2 of more"),
        "{}",
        stderr(&two)
    );
    let newest = quire(
        base,
        Some("demo-admin"),
        &[
            "cr",
            "list",
            "--space",
            SPACE,
            "--status",
            "all",
            "--limit",
            "2",
            "--jq",
            ".[].number",
        ],
    );
    succeeded(&newest);
    assert_eq!(stdout(&newest), "6\n5\n");

    let nothing = quire(base, Some("demo-admin"), &["org", "list", "--limit", "0"]);
    assert_eq!(nothing.status.code(), Some(2), "{}", stderr(&nothing));
}

#[test]
fn a_list_over_every_organization_sends_a_bounded_number_of_requests() {
    use quire::cli::listing::MAX_LIST_REQUESTS;
    use quire::sandbox::Faults;
    let server = crate::common::outage_sandbox::OutageSandbox::start();
    // Every list hands out one more page forever.
    server.sandbox.set_faults(Faults {
        never_ending_next: true,
        ..Faults::default()
    });
    let base = server.sandbox.base_url();
    let sent_so_far = || server.sandbox.request_counts().values().sum::<usize>();
    let lists: [&[&str]; 3] = [
        &["cr", "list", "--limit", "1000"],
        &["space", "list", "--limit", "1000"],
        &["search", "robot", "--limit", "1000"],
    ];
    for args in lists {
        let before = sent_so_far();
        let stopped = quire(&base, Some("demo-admin"), args);
        assert_eq!(
            stopped.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&stopped)
        );
        assert!(
            stderr(&stopped).contains(&format!("stopped after {MAX_LIST_REQUESTS} requests"))
                && stderr(&stopped).contains("--org"),
            "{args:?}: {}",
            stderr(&stopped)
        );
        let sent = sent_so_far() - before;
        assert!(sent <= MAX_LIST_REQUESTS, "{args:?}: {sent} requests");
    }
    server.shutdown();
}

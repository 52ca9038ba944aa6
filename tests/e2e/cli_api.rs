//! `quire api` as a process against `quire sandbox`: JSON on stdout a script can parse, errors on
//! stderr, and exit statuses 0 success, 1 refused, 2 a wrong command line, 4 not signed in.

use std::process::Output;

use crate::cli_lists::{json, quire, stderr};
use crate::common::sandbox_process::SandboxProcess;

const ORGANIZATION: &str = "org-acme-robotics";

/// `quire api ARGS` against `base` as `token`.
fn quire_api(base: &str, token: Option<&str>, args: &[&str]) -> Output {
    quire(base, token, &[&["api"], args].concat())
}

#[test]
fn quire_api_reads_writes_and_follows_pages() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    let listed = quire_api(base, Some("demo-admin"), &["/orgs"]);
    assert_eq!(listed.status.code(), Some(0), "{}", stderr(&listed));
    let body = json(&listed);
    let organizations = body["items"].as_array().expect("a list");
    assert!(
        organizations.iter().any(|org| org["id"] == ORGANIZATION),
        "{body}"
    );

    let path = format!("/orgs/{ORGANIZATION}");
    let renamed = quire_api(
        base,
        Some("demo-admin"),
        &["-X", "PATCH", &path, "-f", "title=Acme Scripted"],
    );
    assert_eq!(renamed.status.code(), Some(0), "{}", stderr(&renamed));
    assert_eq!(sandbox.read(&path)["title"], "Acme Scripted");

    // Ten members a page: every page followed, one list printed.
    let members = format!("/orgs/{ORGANIZATION}/members?limit=10");
    let all = quire_api(base, Some("demo-admin"), &["--paginate", &members]);
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    let count = json(&all)["items"].as_array().map_or(0, Vec::len);
    let first_page = quire_api(base, Some("demo-admin"), &[&members]);
    assert_eq!(
        json(&first_page)["items"].as_array().map_or(0, Vec::len),
        10
    );
    assert!(count > 10, "more than one page: {count}");
    if let Some(total) = json(&first_page)["count"].as_u64() {
        assert_eq!(count as u64, total, "every member");
    }

    // --jq over every page: one raw line per member, as many as the pages held.
    let ids = quire_api(
        base,
        Some("demo-admin"),
        &["--paginate", &members, "--jq", ".items[].user.id"],
    );
    assert_eq!(ids.status.code(), Some(0), "{}", stderr(&ids));
    let lines: Vec<String> = String::from_utf8_lossy(&ids.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), count, "{lines:?}");
    assert!(lines.iter().all(|id| !id.starts_with('"')), "{lines:?}");

    let broken = quire_api(base, Some("demo-admin"), &["/orgs", "--jq", ".items["]);
    assert_eq!(broken.status.code(), Some(1), "{}", stderr(&broken));
    assert!(stderr(&broken).contains("--jq"), "{}", stderr(&broken));
}

#[test]
fn quire_api_failures_have_their_own_exit_statuses() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;

    let refused = quire_api(base, Some("not-a-token"), &["/orgs"]);
    assert_eq!(refused.status.code(), Some(4), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("The token was refused"));
    assert!(!stderr(&refused).contains("r to "), "{}", stderr(&refused));
    assert!(refused.stdout.is_empty());

    let missing = quire_api(base, Some("demo-admin"), &["/spaces/no-such-space"]);
    assert_eq!(missing.status.code(), Some(1), "{}", stderr(&missing));
    assert!(
        stderr(&missing).contains("Not found"),
        "{}",
        stderr(&missing)
    );

    let signed_out = quire_api(base, None, &["/orgs"]);
    assert_eq!(signed_out.status.code(), Some(4), "{}", stderr(&signed_out));
    assert!(stderr(&signed_out).contains("Not signed in"));

    let wrong = quire_api(base, Some("demo-admin"), &["/orgs", "-f", "novalue"]);
    assert_eq!(wrong.status.code(), Some(2), "{}", stderr(&wrong));
}

#[test]
fn a_title_in_the_path_is_a_wrong_command_line_that_asks_for_the_id() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    for path in [
        "/spaces/Getting Started",
        "/spaces//change-requests/1/reviews",
    ] {
        let wrong = quire_api(base, Some("demo-admin"), &[path]);
        assert_eq!(wrong.status.code(), Some(2), "{path}: {}", stderr(&wrong));
        assert!(
            stderr(&wrong).starts_with("quire api: ") && stderr(&wrong).contains("ids"),
            "{path}: {}",
            stderr(&wrong)
        );
        assert!(
            !stderr(&wrong).contains("configuration"),
            "{}",
            stderr(&wrong)
        );
    }
}

#[test]
fn an_html_answer_is_said_as_a_web_page_and_fails() {
    let sandbox = SandboxProcess::start_with(&["--fault", "GET /orgs=html"]);
    let base = &sandbox.base_url;
    let page = quire_api(base, Some("demo-admin"), &["/orgs"]);
    assert_eq!(page.status.code(), Some(1), "{}", stderr(&page));
    assert!(page.stdout.is_empty(), "{:?}", page.stdout);
    assert!(
        stderr(&page).contains("a web page, not the API's JSON"),
        "{}",
        stderr(&page)
    );
    // As every subcommand says it.
    let listed = quire(base, Some("demo-admin"), &["org", "list"]);
    assert_eq!(listed.status.code(), Some(1), "{}", stderr(&listed));
    assert!(stderr(&listed).contains("a web page, not the API's JSON"));
}

#[test]
fn a_jq_import_is_refused_without_a_panic_or_bytes_on_stdout() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    for expression in [r#"import "x" as $p; $p"#, r#"include "x"; ."#] {
        let refused = quire_api(base, Some("demo-admin"), &["/orgs", "--jq", expression]);
        assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
        assert!(refused.stdout.is_empty(), "{:?}", refused.stdout);
        assert!(
            stderr(&refused).starts_with("quire api: --jq: "),
            "{}",
            stderr(&refused)
        );
        assert!(
            !stderr(&refused).contains("panicked"),
            "{}",
            stderr(&refused)
        );
    }
}

#[test]
fn fields_for_an_operation_without_a_body_are_refused_before_sending() {
    let server = crate::common::outage_sandbox::OutageSandbox::start();
    let base = server.sandbox.base_url();
    let ping = format!("/orgs/{ORGANIZATION}/ping");
    let refused = quire_api(
        &base,
        Some("demo-admin"),
        &["-X", "POST", &ping, "-f", "k=v"],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("takes no request body"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(server.sandbox.requests("POST", "*/ping"), 0);
    // Without fields it is sent.
    let sent = quire_api(&base, Some("demo-admin"), &["-X", "POST", &ping]);
    assert_eq!(sent.status.code(), Some(0), "{}", stderr(&sent));
    assert_eq!(server.sandbox.requests("POST", "*/ping"), 1);
    server.shutdown();
}

#[test]
fn json_out_escapes_controls_and_bidi_overrides_and_keeps_the_value() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let path = format!("/orgs/{ORGANIZATION}");
    let hostile = "Acme\u{9b}31m \u{202e}evil\u{2066}x\u{2069}\u{200f}";
    let renamed = quire_api(
        base,
        Some("demo-admin"),
        &["-X", "PATCH", &path, "-f", &format!("title={hostile}")],
    );
    assert_eq!(renamed.status.code(), Some(0), "{}", stderr(&renamed));
    for output in [
        quire_api(base, Some("demo-admin"), &[&path]),
        quire(
            base,
            Some("demo-admin"),
            &["org", "list", "--json", "id,title"],
        ),
        quire(
            base,
            Some("demo-admin"),
            &["org", "list", "--jq", "[.[].title]"],
        ),
    ] {
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = String::from_utf8(output.stdout.clone()).expect("UTF-8");
        assert!(
            !['\u{9b}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{200f}']
                .iter()
                .any(|c| text.contains(*c)),
            "{text:?}"
        );
        assert!(
            text.contains("\\u009b") && text.contains("\\u202e"),
            "{text}"
        );
        assert!(
            json(&output)
                .to_string()
                .contains(&serde_json::json!(hostile).to_string())
        );
    }
}

//! Hostile strings end to end: escape sequences, C1 controls, bidi overrides and DEL
//! planted through every writable endpoint of a `quire sandbox` process, then every screen that
//! shows them opened in the real binary in a pseudo-terminal. None of the planted sequences may
//! reach the bytes quire writes to the terminal.
//!
//! quire writes escape sequences of its own (CSI for drawing, OSC 8 for links), so the test
//! looks for the planted payloads only: markers quire never produces itself.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use quire::sandbox::{demo_ids, tokens};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

/// The attack: an OSC 52 clipboard write, an OSC 0 window title, a CSI that clears the
/// scrollback and one that moves the cursor, a C1 CSI, a bidi override and DEL. Short enough
/// for a share-link name (at most 50 characters with its tag).
const PAYLOAD: &str =
    "\u{1b}]52;c;SGFjaw==\u{7}\u{1b}]0;PWN\u{7}\u{1b}[3J\u{1b}[777;1H\u{9b}2J\u{202e}\u{7f}";

/// The planted sequences as they would reach the terminal if a screen let them through.
const PLANTED_SEQUENCES: [&str; 7] = [
    "\u{1b}]52;c;SGFjaw==",
    "\u{1b}]0;PWN",
    "\u{1b}[3J",
    "\u{1b}[777;1H",
    "\u{9b}",
    "\u{202e}",
    "\u{7f}",
];

/// A tagged payload, so each screen can wait for its own planted text.
fn hostile(tag: &str) -> String {
    format!("{tag} {PAYLOAD}")
}

/// Plain HTTP to the sandbox process as the admin, outside quire.
struct Planter {
    http: reqwest::Client,
    base_url: String,
}

impl Planter {
    async fn send(&self, method: reqwest::Method, path: &str, body: Value) -> Value {
        let response = self
            .http
            .request(method.clone(), format!("{}/v1{path}", self.base_url))
            .bearer_auth(tokens::ADMIN)
            .json(&body)
            .send()
            .await
            .expect("sandbox answers");
        let status = response.status();
        let text = response.text().await.expect("body");
        assert!(status.is_success(), "{method} {path}: {status} {text}");
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }

    async fn set_page_markdown(&self, space: &str, page: &str, markdown: &str) {
        let response = self
            .http
            .put(format!(
                "{}/_sandbox/spaces/{space}/pages/{page}/markdown",
                self.base_url
            ))
            .bearer_auth(tokens::ADMIN)
            .body(markdown.to_string())
            .send()
            .await
            .expect("sandbox answers");
        assert_eq!(response.status().as_u16(), 204, "page markdown planted");
    }
}

fn paragraph_document(text: &str) -> Value {
    json!({
        "object": "document",
        "data": {},
        "nodes": [{
            "object": "block",
            "type": "paragraph",
            "key": "hostile",
            "data": {},
            "nodes": [{
                "object": "text",
                "leaves": [{ "object": "leaf", "text": text, "marks": [] }],
            }],
        }],
    })
}

/// Plants a hostile string in every writable field the sandbox has.
async fn plant_everywhere(base_url: &str) {
    let planter = Planter {
        http: reqwest::Client::new(),
        base_url: base_url.to_string(),
    };
    let change_request = format!(
        "/spaces/{}/change-requests/{}",
        demo_ids::SPACE_GETTING_STARTED,
        demo_ids::CR_REVIEW
    );
    planter
        .send(
            reqwest::Method::PATCH,
            &change_request,
            json!({
                "subject": hostile("HSUBJECT"),
                "description": paragraph_document(&hostile("HDESCRIPTION")),
            }),
        )
        .await;
    let comment = planter
        .send(
            reqwest::Method::POST,
            &format!("{change_request}/comments"),
            json!({ "body": { "markdown": hostile("HCOMMENT") } }),
        )
        .await;
    let comment_id = comment["id"].as_str().expect("comment id");
    planter
        .send(
            reqwest::Method::POST,
            &format!("{change_request}/comments/{comment_id}/replies"),
            json!({ "body": { "markdown": hostile("HREPLY") } }),
        )
        .await;

    let site = format!("/orgs/{}/sites/{}", demo_ids::ACME, demo_ids::SITE_PARTNERS);
    planter
        .send(
            reqwest::Method::PATCH,
            &site,
            json!({ "title": hostile("HSITE") }),
        )
        .await;
    planter
        .send(
            reqwest::Method::POST,
            &format!("{site}/share-links"),
            json!({ "name": hostile("HLINK") }),
        )
        .await;
    planter
        .send(
            reqwest::Method::POST,
            &format!("{site}/section-groups"),
            json!({ "title": hostile("HGROUP") }),
        )
        .await;

    let page = format!(
        "# HPAGE heading {PAYLOAD}\n\nHPAGE text {PAYLOAD}\n\n\
         A [hostile link](https://a.example/\u{1b}]52;c;SGFjaw==\u{7}), \
         [bracketed](<https://b.example/\u{1b}]52;c;SGFjaw==\u{7}>), \
         [entities](https://c.example/&#27;]52;c;SGFjaw==&#7;&#155;2J) and \
         <https://d.example/\u{1b}]0;PWN\u{7}>.\n\n\
         ```\nHPAGE code {PAYLOAD}\n```\n\n| HPAGE | cell {PAYLOAD} |\n|---|---|\n| a | b |\n"
    );
    planter
        .set_page_markdown(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::PAGE_QUICKSTART,
            &page,
        )
        .await;
}

/// No planted sequence in what quire wrote, and every OSC quire wrote is a hyperlink (OSC 8)
/// whose parameters and target carry no control character.
fn assert_nothing_planted_reached_the_terminal(output: &[u8]) {
    let text = String::from_utf8_lossy(output);
    for planted in PLANTED_SEQUENCES {
        if let Some(at) = text.find(planted) {
            let around: String = text[at..].chars().take(60).collect();
            panic!("planted {planted:?} reached the terminal: {around:?}");
        }
    }
    for (index, _) in text.match_indices("\u{1b}]") {
        let sequence = &text[index + 2..];
        assert!(
            sequence.starts_with("8;"),
            "an OSC other than a hyperlink: {:?}",
            &sequence[..sequence.len().min(40)]
        );
        let end = sequence.find(['\u{7}', '\u{1b}']).unwrap_or(sequence.len());
        let body = &sequence[..end];
        assert!(
            !body.chars().any(char::is_control),
            "a control character inside a hyperlink: {body:?}"
        );
        assert!(
            !body.contains("SGFjaw=="),
            "planted target linked: {body:?}"
        );
    }
}

#[test]
fn hostile_strings_never_reach_the_terminal() {
    let sandbox = SandboxProcess::start();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(plant_everywhere(&sandbox.base_url));
    for visit in [visit_the_page, visit_the_change_request, visit_the_site] {
        let mut app = PtyApp::spawn(
            &["--api-url", &sandbox.base_url, "--token", tokens::ADMIN],
            120,
            35,
        );
        app.wait_for("Acme Robotics", WAIT);
        app.send("\r");
        app.wait_for("Engineering", WAIT);
        visit(&mut app);
        assert_nothing_planted_reached_the_terminal(&app.raw_output());
        app.send("q");
        assert!(app.wait_exit(WAIT).is_some(), "q quits");
        assert_nothing_planted_reached_the_terminal(&app.raw_output());
    }
}

/// The page in the reader: heading, text, links, code and a table.
fn visit_the_page(app: &mut PtyApp) {
    app.send("/getting");
    app.wait_for("Getting Started", WAIT);
    app.send("\r");
    app.send("\r");
    app.wait_for("BASICS", WAIT);
    app.send("j");
    app.send("\r");
    app.wait_for("HPAGE heading", WAIT);
    app.wait_for("hostile link", WAIT);
    // Both links whose targets held control characters are drawn (as plain text).
    app.wait_for("bracketed", WAIT);
    app.wait_for("entities", WAIT);
    app.send("G");
    app.wait_for("HPAGE code", WAIT);
}

/// The change request in the organization's list, then its changes, comments (thread and
/// reply) and reviews tab (description).
fn visit_the_change_request(app: &mut PtyApp) {
    app.send("\t");
    app.wait_for("HSUBJECT", WAIT);
    app.send("\r");
    app.wait_for("Changes (4)", WAIT);
    app.send("3");
    app.wait_for("unresolved", WAIT);
    app.send("/HCOMMENT\r");
    app.wait_for("HCOMMENT", WAIT);
    app.wait_for("HREPLY", WAIT);
    app.send("4");
    app.wait_for("HDESCRIPTION", WAIT);
}

/// The site in the organization's sites table, then its share links and structure.
fn visit_the_site(app: &mut PtyApp) {
    // Sites is the fifth tab: Spaces, Change requests, Members, Teams, Sites.
    app.send("\t\t\t\t");
    app.wait_for("4 sites", WAIT);
    app.wait_for("HSITE", WAIT);
    app.send("/HSITE\r");
    app.send("\r");
    app.wait_for("Basename", WAIT);
    app.send("\t");
    app.wait_for("HLINK", WAIT);
    app.send("\t");
    app.wait_for("HGROUP", WAIT);
}

//! Organization administration end to end: the real binary in a pseudo-terminal at 80x24 against a sandbox
//! served by a second `quire sandbox` process. Change the organization's title, write agent
//! instructions, lose the terminal mid-sentence and find the draft again in a new run, save
//! them, then create a SAML provider with an invalid and then a valid certificate (loaded from a
//! file) — reading the sandbox over HTTP after each step to check what it stored.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(30);
const ORGANIZATION: &str = "org-acme-robotics";
const CTRL_S: &str = "\u{13}";
const CTRL_U: &str = "\u{15}";

fn provider_labelled(sandbox: &SandboxProcess, label: &str) -> Option<Value> {
    let providers = sandbox.read(&format!("/orgs/{ORGANIZATION}/saml"));
    providers["items"]
        .as_array()?
        .iter()
        .find(|provider| provider["label"] == label)
        .cloned()
}

#[test]
fn title_instructions_with_a_draft_that_survives_and_a_saml_provider() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.clone();
    let args = ["--api-url", base.as_str(), "--token", "demo-admin"];
    let mut first = PtyApp::spawn(&args, 80, 24);
    first.wait_for("Acme Robotics", WAIT);
    first.send("\r");
    first.wait_for("Engineering", WAIT);

    // Settings is the last tab: one step back from Spaces.
    first.send("[");
    first.wait_for("Agent instructions", WAIT);
    first.wait_for("Call the product Fleet", WAIT);
    first.send(&format!("\r{CTRL_U}Acme Robotics International\r"));
    first.wait_for("Title*", WAIT);
    first.send("s");
    first.wait_for("Saved: Title.", WAIT);
    let organization = sandbox.read(&format!("/orgs/{ORGANIZATION}"));
    assert_eq!(organization["title"], "Acme Robotics International");

    // Agent instructions, written and then lost with the terminal before they are saved.
    first.send("D");
    first.wait_for("ctrl-s send", WAIT);
    first.send("\r\rAlways cite the page you answer from.");
    first.wait_for("Always cite the page you answer from.", WAIT);
    first.settle();
    let home = first.home().to_path_buf();
    first.close_terminal();

    let home_text = home.to_string_lossy().to_string();
    let config = home.join("config").to_string_lossy().to_string();
    let data = home.join("data").to_string_lossy().to_string();
    let env = [
        ("HOME", home_text.as_str()),
        ("XDG_CONFIG_HOME", config.as_str()),
        ("XDG_DATA_HOME", data.as_str()),
    ];
    let mut app = PtyApp::spawn_with_env(&args, 80, 24, &env);
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);
    app.send("[");
    app.wait_for("Unsaved agent instructions were restored", WAIT);
    app.send("D");
    app.wait_for("Always cite the page you answer from.", WAIT);
    app.send(CTRL_S);
    app.wait_for("Agent instructions saved.", WAIT);
    let instructions = sandbox.read(&format!("/orgs/{ORGANIZATION}/agent-instructions"));
    let stored = instructions["instructions"].to_string();
    assert!(
        stored.contains("Always cite the page you answer from."),
        "{stored}"
    );
    assert!(stored.contains("Call the product Fleet"), "kept: {stored}");

    // A SAML provider: an invalid certificate is refused before sending, a valid one (loaded
    // from a file) is sent.
    let certificate_file = home.join("idp.pem");
    std::fs::write(&certificate_file, quire::sandbox::DEMO_CERTIFICATE).expect("write the PEM");
    app.send("[");
    app.wait_for("SAML providers (2)", WAIT);
    app.send("n");
    app.wait_for("New SAML provider", WAIT);
    app.send("\rE2E IdP\r");
    app.send("jj\rhttps://idp.e2e.example/sso\r");
    app.send("j\rnot a certificate\r");
    app.send("s");
    app.wait_for("not a certificate:", WAIT);
    assert!(
        provider_labelled(&sandbox, "E2E IdP").is_none(),
        "nothing was sent"
    );
    app.send("f");
    app.wait_for("Load the certificate from a file", WAIT);
    app.send(&format!("{}\r", certificate_file.display()));
    app.wait_for("expires 2036-11-20", WAIT);
    app.send("s");
    app.wait_for("Created SAML provider “E2E IdP”", WAIT);
    let provider = provider_labelled(&sandbox, "E2E IdP").expect("the provider was stored");
    assert_eq!(provider["certificate"], quire::sandbox::DEMO_CERTIFICATE);
    assert_eq!(provider["ssoURL"], "https://idp.e2e.example/sso");
    assert_eq!(provider["status"], "pending", "no entity ID yet");
    app.send("q");
}

/// A title typed on the Settings tab and never saved outlives quire ended by SIGTERM: the next
/// run in the same HOME shows it back on the form, and `s` then saves it.
#[test]
fn an_unsaved_title_survives_sigterm_and_is_back_in_the_next_run() {
    let sandbox = SandboxProcess::start();
    let base = sandbox.base_url.clone();
    let args = ["--api-url", base.as_str(), "--token", "demo-admin"];
    let mut first = PtyApp::spawn(&args, 80, 24);
    first.wait_for("Acme Robotics", WAIT);
    first.send("\r");
    first.wait_for("Engineering", WAIT);
    first.send("[");
    first.wait_for("Call the product Fleet", WAIT);
    first.send(&format!("\r{CTRL_U}Acme Robotics Drafted\r"));
    first.wait_for("Title*", WAIT);
    first.settle();
    let pid = first.child.process_id().expect("quire's pid");
    // SAFETY: kill(2) of the quire this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGTERM) }, 0);
    first
        .wait_exit(WAIT)
        .expect("quire kept running after SIGTERM");
    let organization = sandbox.read(&format!("/orgs/{ORGANIZATION}"));
    assert_eq!(organization["title"], "Acme Robotics", "nothing was saved");

    let home = first.home().to_string_lossy().to_string();
    let config = first.home().join("config").to_string_lossy().to_string();
    let data = first.home().join("data").to_string_lossy().to_string();
    let env = [
        ("HOME", home.as_str()),
        ("XDG_CONFIG_HOME", config.as_str()),
        ("XDG_DATA_HOME", data.as_str()),
    ];
    let mut again = PtyApp::spawn_with_env(&args, 80, 24, &env);
    again.wait_for("Acme Robotics", WAIT);
    again.send("\r");
    again.wait_for("Engineering", WAIT);
    again.send("[");
    again.wait_for("Restored unsaved settings from an earlier run", WAIT);
    again.wait_for("Acme Robotics Drafted", WAIT);
    again.wait_for("Title*", WAIT);
    again.send("s");
    again.wait_for("Saved: Title.", WAIT);
    let organization = sandbox.read(&format!("/orgs/{ORGANIZATION}"));
    assert_eq!(organization["title"], "Acme Robotics Drafted");
    again.send("q");
}

/// Every persona the sandbox knows works in `--demo`: the newcomer, outside every organization,
/// is named in the header and joins Acme by its email domain.
#[test]
fn the_demo_signs_in_as_the_newcomer_the_token_names() {
    let mut app = PtyApp::spawn(&["--demo", "--token", "demo-newcomer"], 80, 24);
    app.wait_for("Noor Haddad", WAIT);
    assert!(!app.screen().contains("Amara Okafor"), "{}", app.screen());
    app.send(&format!("J{ORGANIZATION}\ry"));
    app.wait_for("Joined", WAIT);
    app.wait_for("Acme Robotics", WAIT);
}

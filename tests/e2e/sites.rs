//! Layer 4 for sites: the real binary in a pseudo-terminal against a sandbox served by a second
//! `quire sandbox` process. Rename a site, switch its visibility, create a share link and
//! deactivate it — then read the sandbox over HTTP to check what was stored.

use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn rename_a_site_switch_visibility_and_manage_a_share_link() {
    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn(
        &["--api-url", &sandbox.base_url, "--token", "demo-admin"],
        100,
        30,
    );
    app.wait_for("Acme Robotics", WAIT);
    app.send("\r");
    app.wait_for("Engineering", WAIT);
    // Sites is the fifth tab: Spaces, Change requests, Members, Teams, Sites.
    app.send("\t\t\t\t");
    // The sites table (a space is also called Partner Portal, so wait for the table itself).
    app.wait_for("4 sites", WAIT);
    app.wait_for("share-link", WAIT);
    app.send("jj\r");
    app.wait_for("Basename", WAIT);
    app.wait_for("Default space", WAIT);

    // Rename: enter edits the title, ctrl-u clears it.
    app.send("\r\u{15}Partner Hub\r");
    app.wait_for("• Title", WAIT);
    // Visibility: the picker opens on share-link; one up is unlisted.
    app.send("j\r");
    app.wait_for("Visibility: who can read the site", WAIT);
    app.send("k\r");
    app.wait_for("Unsaved: title, visibility", WAIT);
    app.send("s");
    app.wait_for("Saved: title, visibility", WAIT);
    app.wait_for("Partner Hub", WAIT);

    // Share links: create one, then deactivate it. The new link is selected by itself, and
    // deactivating asks first.
    app.send("\t");
    app.wait_for("EMEA resellers", WAIT);
    app.send("n");
    app.wait_for("New share link", WAIT);
    app.send("E2E partners\r");
    app.wait_for("Created share link", WAIT);
    // Once in the message, once as a row of the reloaded list.
    app.wait_for_count("E2E partners", 2, WAIT);
    app.send("a");
    app.wait_for("Deactivate share link “E2E partners”?", WAIT);
    app.send("y");
    app.wait_for("Deactivated “E2E partners”", WAIT);
    app.send("q");
    assert!(app.wait_exit(WAIT).is_some(), "q quits");

    let site = sandbox.read("/orgs/org-acme-robotics/sites/site-acme-partners");
    assert_eq!(site["title"], "Partner Hub");
    assert_eq!(site["visibility"], "unlisted");
    let links = sandbox.read("/orgs/org-acme-robotics/sites/site-acme-partners/share-links");
    let items = links["items"].as_array().expect("a list");
    let created = items
        .iter()
        .find(|link| link["name"] == "E2E partners")
        .unwrap_or_else(|| panic!("the new link is stored: {links}"));
    assert_eq!(created["active"], false);
    let others_active = items
        .iter()
        .filter(|link| link["name"] == "EMEA resellers")
        .all(|link| link["active"] == true);
    assert!(others_active, "only the new link was deactivated: {links}");
}

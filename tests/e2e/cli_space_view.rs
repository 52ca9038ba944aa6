//! `quire space view SPACE [--share-key KEY]` against the sandbox in its own process: the
//! space's fields, and with a share link's key the published address that key opens.

use crate::cli_lists::{json, quire, stderr};
use crate::common::sandbox_process::SandboxProcess;

const PORTAL: &str = "spc-partner-portal";
const ACTIVE_KEY: &str = "sk7f3a91c04be2d658";
const REVOKED_KEY: &str = "sk9d21b6e3a8c07f54";

#[test]
fn a_share_key_resolves_the_published_address_and_a_revoked_one_is_refused() {
    let sandbox = SandboxProcess::start();
    let base = &sandbox.base_url;
    let fields = "id,title,publishedUrl";

    let plain = quire(
        base,
        Some("demo-admin"),
        &["space", "view", PORTAL, "--json", fields],
    );
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let plain = json(&plain);
    assert_eq!(plain["id"], PORTAL);
    assert!(
        !plain["publishedUrl"].to_string().contains("shareKey"),
        "{plain}"
    );

    let shared = quire(
        base,
        Some("demo-admin"),
        &[
            "space",
            "view",
            PORTAL,
            "--share-key",
            ACTIVE_KEY,
            "--json",
            fields,
        ],
    );
    assert_eq!(shared.status.code(), Some(0), "{}", stderr(&shared));
    let shared = json(&shared);
    let published = shared["publishedUrl"].as_str().unwrap_or_default();
    assert!(
        published.ends_with(&format!("?shareKey={ACTIVE_KEY}")),
        "{shared}"
    );

    let revoked = quire(
        base,
        Some("demo-admin"),
        &["space", "view", PORTAL, "--share-key", REVOKED_KEY],
    );
    assert_eq!(revoked.status.code(), Some(1), "{}", stderr(&revoked));
    assert!(
        stderr(&revoked).contains("share link"),
        "{}",
        stderr(&revoked)
    );
}

//! Starting over what an earlier version left: loose folders and files are made private, and a
//! draft from the flat layout of old is offered again in the composer it was written in.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use crate::common::pty::PtyApp;
use crate::common::sandbox_process::SandboxProcess;
use quire::sandbox::tokens;

const WAIT: Duration = Duration::from_secs(30);
/// The reply composer on the first open thread of the demo's busiest change request.
const REPLY: &str = "spc-getting-started.cr-gs-token-scopes.reply-cmt-gs1-26";

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// `text` at `path`, 0644 in a 0755 folder, as an earlier version left it.
fn left_by_an_earlier_version(path: &Path, text: &str) {
    let folder = path.parent().unwrap();
    std::fs::create_dir_all(folder).unwrap();
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).unwrap();
}

#[test]
fn an_earlier_versions_draft_is_offered_and_its_folders_made_private() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data/quire");
    let state = home.path().join(".local/state/quire");
    let old_draft = data.join("drafts").join(format!("{REPLY}.md"));
    left_by_an_earlier_version(&old_draft, "a reply from an earlier version");
    left_by_an_earlier_version(&data.join("quire.log"), "");
    left_by_an_earlier_version(&state.join("palette-history"), "");
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();

    let sandbox = SandboxProcess::start();
    let mut app = PtyApp::spawn_in_home(
        home,
        &["--api-url", &sandbox.base_url, "--token", tokens::ADMIN],
        100,
        30,
        &[],
    );
    app.open_demo_review(WAIT);
    app.wait_for("1 unsent draft restored", WAIT);
    app.send("3");
    app.wait_for("unresolved 1/18", WAIT);
    app.send("R");
    app.wait_for("a reply from an earlier version", WAIT);

    assert!(!old_draft.exists(), "the draft moved out of the old layout");
    for folder in [&data, &data.join("drafts"), &state] {
        assert_eq!(mode(folder), 0o700, "{}", folder.display());
    }
    for file in [data.join("quire.log"), state.join("palette-history")] {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
    app.send("\u{1b}");
}

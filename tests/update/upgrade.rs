//! What an earlier version left in quire's folders: loose modes are tightened and drafts of
//! older layouts are found again by the drafts API, under the folder this session uses.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use quire::vocabulary::drafts;
use quire::vocabulary::upgrade::{carry_old_drafts, tighten};

const SERVER: &str = "https://api.example.com/v1";
const TOKEN: &str = "token-of-the-reviewer";

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Writes `text` at `path` as an earlier version did (0644, folders 0755), last written
/// `age` ago.
fn old_file(path: &Path, text: &str, age: Duration) {
    let folder = path.parent().unwrap();
    fs::create_dir_all(folder).unwrap();
    fs::set_permissions(folder, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o644)).unwrap();
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}

/// The folder of the per-server layout before servers had one spelling.
fn spelled(data: &Path, server: &str, token: &str) -> PathBuf {
    let current = drafts::directory(data, SERVER, token);
    let stem = drafts::file_name(server);
    data.join("drafts")
        .join(stem.strip_suffix(".md").unwrap())
        .join(current.file_name().unwrap())
}

const HOUR: Duration = Duration::from_secs(3600);

#[test]
fn an_earlier_versions_folders_are_tightened_and_its_drafts_offered_again() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("quire");
    let state = home.path().join("state/quire");
    let flat = data.join("drafts");
    old_file(&flat.join("spc.cr-1.reply-c9.md"), "flat reply", 3 * HOUR);
    old_file(
        &flat.join("spc.cr-1.review.md"),
        "one review draft",
        3 * HOUR,
    );
    let spelled_apart = spelled(&data, "https://API.example.com/v1/", TOKEN);
    old_file(
        &spelled_apart.join("spc.cr-2.comment.md"),
        "carried",
        2 * HOUR,
    );
    old_file(
        &spelled_apart.join("spc.cr-3.comment.md"),
        "stale",
        2 * HOUR,
    );
    old_file(&spelled_apart.join("spc.cr-4.comment.md"), "newer", HOUR);
    let someone_else = spelled(&data, "https://API.example.com/v1/", "another-token");
    old_file(&someone_else.join("spc.cr-2.comment.md"), "not mine", HOUR);
    let current = drafts::directory(&data, SERVER, TOKEN);
    old_file(&current.join("spc.cr-3.comment.md"), "fresh", HOUR);
    old_file(&current.join("spc.cr-4.comment.md"), "older", 2 * HOUR);
    old_file(&data.join("quire.log"), "log", HOUR);
    old_file(&state.join("palette-history"), "search", HOUR);
    fs::set_permissions(&data, fs::Permissions::from_mode(0o755)).unwrap();

    assert_eq!(carry_old_drafts(&data, SERVER, TOKEN, true), 5);
    tighten(&data);
    tighten(&state);

    let text = |key: &str| -> Option<String> {
        drafts::load(&current, key)
            .into_iter()
            .find(|(found, _)| found == key)
            .map(|(_, text)| text)
    };
    assert_eq!(text("spc.cr-1.reply-c9").as_deref(), Some("flat reply"));
    assert_eq!(
        text("spc.cr-1.review-approve").as_deref(),
        Some("one review draft"),
        "the single review draft opens in the approve composer"
    );
    assert_eq!(
        text("spc.cr-1.review-changes").as_deref(),
        Some("one review draft"),
        "and in the request-changes composer"
    );
    assert_eq!(text("spc.cr-2.comment").as_deref(), Some("carried"));
    assert_eq!(
        text("spc.cr-3.comment").as_deref(),
        Some("fresh"),
        "newest kept"
    );
    assert_eq!(
        text("spc.cr-4.comment").as_deref(),
        Some("newer"),
        "newest kept"
    );
    assert!(
        drafts::load(&flat, "").is_empty(),
        "the flat folder's drafts moved"
    );
    assert!(!spelled_apart.exists(), "the emptied old folder is gone");
    assert_eq!(
        drafts::load(&someone_else, ""),
        [("spc.cr-2.comment".to_string(), "not mine".to_string())],
        "another user's drafts stay theirs"
    );

    for folder in [&data, &flat, &current, &someone_else, &state] {
        assert_eq!(mode(folder), 0o700, "{}", folder.display());
    }
    for file in [
        data.join("quire.log"),
        state.join("palette-history"),
        current.join(drafts::file_name("spc.cr-2.comment")),
        current.join(drafts::file_name("spc.cr-1.review-approve")),
        someone_else.join(drafts::file_name("spc.cr-2.comment")),
    ] {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
}

#[test]
fn a_demo_session_leaves_the_flat_drafts_to_a_real_server() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("quire");
    old_file(
        &data.join("drafts/spc.cr-1.comment.md"),
        "for the real server",
        HOUR,
    );
    assert_eq!(carry_old_drafts(&data, "demo", "demo-admin", false), 0);
    assert!(drafts::load(&drafts::directory(&data, "demo", "demo-admin"), "").is_empty());
    assert_eq!(carry_old_drafts(&data, SERVER, TOKEN, true), 1);
    assert_eq!(
        drafts::load(&drafts::directory(&data, SERVER, TOKEN), ""),
        [(
            "spc.cr-1.comment".to_string(),
            "for the real server".to_string()
        )]
    );
}

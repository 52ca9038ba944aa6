//! What earlier versions left in quire's own folders, brought up to date at start: folders and
//! files made private to the user, and drafts written in an older layout moved to where this
//! version looks for them, so they are offered again.
//!
//! The layouts drafts had, oldest first:
//! 1. one flat folder, `drafts/KEY.md`, with the characters unsafe in a file name replaced by
//!    `_`, and a single review draft per change request (`SPACE.CR.review`) that both review
//!    composers (approve, request changes) opened;
//! 2. the same flat folder with keys percent-encoded (as now);
//! 3. a folder per server and user, `drafts/SERVER/TOKEN-FINGERPRINT/`, the server spelled as
//!    given (`https://API.example.com/` and `https://api.example.com` apart);
//! 4. as 3, one spelling per server (now).

use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::drafts;

/// Sets folders to 0700 and files to 0600 wherever they are looser, under `root` and `root`
/// itself. Links are neither followed nor changed, and only this user's entries are touched.
/// Returns how many entries were tightened.
pub fn tighten(root: &Path) -> usize {
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    let mut tightened = 0;
    let mut pending = vec![root.to_path_buf()];
    while let Some(path) = pending.pop() {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() || meta.uid() != me {
            continue;
        }
        if meta.is_dir() {
            tightened += usize::from(at_most(&path, &meta, 0o700));
            if let Ok(entries) = fs::read_dir(&path) {
                pending.extend(entries.flatten().map(|entry| entry.path()));
            }
        } else if meta.is_file() {
            tightened += usize::from(at_most(&path, &meta, 0o600));
        }
    }
    tightened
}

/// Gives `path` the `private` mode when group or others have any access to it.
fn at_most(path: &Path, meta: &fs::Metadata, private: u32) -> bool {
    if meta.permissions().mode() & 0o077 == 0 {
        return false;
    }
    match fs::set_permissions(path, fs::Permissions::from_mode(private)) {
        Ok(()) => true,
        Err(error) => {
            tracing::warn!(%error, path = %path.display(), "making a file of quire's private failed");
            false
        }
    }
}

/// Moves the drafts of earlier layouts that belong to this server and user into the current
/// folder. `adopt_flat` also takes the drafts of the flat layouts, which name no server or user:
/// they go to the first session that takes them, so a session on the demo sandbox should not.
/// Returns how many drafts were carried.
pub fn carry_old_drafts(data_dir: &Path, server: &str, token: &str, adopt_flat: bool) -> usize {
    let current = drafts::directory(data_dir, server, token);
    let root = data_dir.join("drafts");
    let mut carried = 0;
    for older in older_spellings(&root, server, token, &current) {
        carried += carry_folder(&older, &current, |key| vec![key.to_string()]);
        // Gone once empty; anything else in it (what a review showed) stays.
        let _ = fs::remove_dir(&older);
    }
    if adopt_flat {
        carried += carry_folder(&root, &current, keys_now);
    }
    carried
}

/// The folders of layout 3 for this server and user: any spelling of the same server.
fn older_spellings(root: &Path, server: &str, token: &str, current: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(root) else {
        return Vec::new();
    };
    let user = drafts::token_fingerprint(token);
    let wanted = drafts::server_key(server);
    entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            drafts::key_of(&format!("{name}.md"))
                .is_some_and(|spelled| drafts::server_key(&spelled) == wanted)
        })
        .map(|entry| entry.path().join(&user))
        .filter(|folder| folder != current && folder.is_dir() && !folder.is_symlink())
        .collect()
}

/// The keys a draft of the flat layouts is kept under now: the single review draft of layout 1
/// goes to both review composers, since either could have been the one it was written for.
fn keys_now(key: &str) -> Vec<String> {
    match key.strip_suffix(".review") {
        Some(change_request) => vec![
            format!("{change_request}.review-approve"),
            format!("{change_request}.review-changes"),
        ],
        None => vec![key.to_string()],
    }
}

/// Moves every draft file directly in `from` to `to`, under the keys `keys_now` gives.
fn carry_folder(from: &Path, to: &Path, keys_now: impl Fn(&str) -> Vec<String>) -> usize {
    let Ok(entries) = fs::read_dir(from) else {
        return 0;
    };
    let mut carried = 0;
    for entry in entries.flatten() {
        if !entry.file_type().is_ok_and(|kind| kind.is_file()) {
            continue;
        }
        let Some(key) = drafts::key_of(&entry.file_name().to_string_lossy()) else {
            continue;
        };
        match carry_file(&entry.path(), to, &keys_now(&key)) {
            Ok(()) => carried += 1,
            Err(error) => tracing::warn!(%error, %key, "carrying an old draft failed"),
        }
    }
    carried
}

/// Puts the draft at `old` under each of `keys` in `to`, unless a newer draft is already there,
/// and removes `old`.
fn carry_file(old: &Path, to: &Path, keys: &[String]) -> io::Result<()> {
    let Some(written) = modified(old) else {
        return Err(io::Error::other("an old draft with no modification time"));
    };
    let written = Some(written);
    drafts::create_private_dir(to)?;
    let Some((last, others)) = keys.split_last() else {
        return Ok(());
    };
    for key in others {
        let target = to.join(drafts::file_name(key));
        if modified(&target) < written {
            drafts::write_private(&target, &fs::read_to_string(old)?)?;
        }
    }
    let target = to.join(drafts::file_name(last));
    if modified(&target) < written {
        fs::rename(old, &target)
    } else {
        fs::remove_file(old)
    }
}

/// When the file was last written; None (older than any time) when it is not there.
fn modified(path: &Path) -> Option<std::time::SystemTime> {
    fs::metadata(path).and_then(|meta| meta.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn set_mode(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn loose_folders_and_files_are_tightened_and_links_left_alone() {
        let home = tempfile::tempdir().unwrap();
        let data = home.path().join("quire");
        let drafts = data.join("drafts");
        fs::create_dir_all(&drafts).unwrap();
        fs::write(data.join("quire.log"), "log").unwrap();
        fs::write(drafts.join("a.md"), "words").unwrap();
        let outside = home.path().join("outside.txt");
        fs::write(&outside, "not quire's").unwrap();
        std::os::unix::fs::symlink(&outside, drafts.join("link.md")).unwrap();
        for (path, loose) in [
            (&data, 0o755),
            (&drafts, 0o775),
            (&data.join("quire.log"), 0o644),
            (&drafts.join("a.md"), 0o640),
            (&outside, 0o644),
        ] {
            set_mode(path, loose);
        }
        assert_eq!(tighten(&data), 4);
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&drafts), 0o700);
        assert_eq!(mode(&data.join("quire.log")), 0o600);
        assert_eq!(mode(&drafts.join("a.md")), 0o600);
        assert_eq!(mode(&outside), 0o644, "a link is not followed out");
        assert_eq!(tighten(&data), 0, "nothing left to tighten");
    }

    #[test]
    fn a_missing_folder_is_no_error() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(tighten(&home.path().join("absent")), 0);
        assert_eq!(carry_old_drafts(home.path(), "demo", "t", true), 0);
    }

    #[test]
    fn review_drafts_of_the_first_layout_go_to_both_review_composers() {
        assert_eq!(
            keys_now("spc.cr-1.review"),
            ["spc.cr-1.review-approve", "spc.cr-1.review-changes"]
        );
        assert_eq!(keys_now("spc.cr-1.reply-c9"), ["spc.cr-1.reply-c9"]);
    }
}

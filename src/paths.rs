//! Where quire keeps what it writes for the user: drafts, the cache, stored logins.

use std::path::PathBuf;

/// The user's data folder for quire (`~/.local/share/quire` on Linux); `None` where the
/// system names none.
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "quire").map(|dirs| dirs.data_dir().to_path_buf())
}

//! Comments being written are saved to files as they are typed, so a failed post, a crash, a
//! kill or a quit loses nothing. One file per draft, named after what it answers.

use std::path::{Path, PathBuf};

/// A draft's file name: the key percent-encoded, so any id round-trips and no two keys share
/// a file (a `/` in an id cannot leave the directory either).
pub fn file_name(key: &str) -> String {
    let mut name = String::with_capacity(key.len() + 3);
    for byte in key.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.') {
            name.push(byte as char);
        } else {
            name.push_str(&format!("%{byte:02X}"));
        }
    }
    name.push_str(".md");
    name
}

/// The key a file name stands for; None for a name `file_name` cannot have made.
pub(crate) fn key_of(name: &str) -> Option<String> {
    let stem = name.strip_suffix(".md")?;
    let mut bytes = Vec::with_capacity(stem.len());
    let mut rest = stem.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        if first == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(first);
            rest = tail;
        }
    }
    String::from_utf8(bytes).ok()
}

pub fn save(directory: &Path, key: &str, text: &str) -> std::io::Result<()> {
    create_private_dir(directory)?;
    let path = directory.join(file_name(key));
    // Write then rename, so a crash mid-write never leaves half a draft.
    let temporary = path.with_extension("md.tmp");
    write_private(&temporary, text)?;
    std::fs::rename(&temporary, &path)
}

/// Creates `directory` and its missing parents readable by this user alone (0700): drafts are
/// unpublished words, and the log names what was read.
pub fn create_private_dir(directory: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(directory)
}

/// Writes `text` to `path` as a file only this user can read or write (0600), also when the
/// file was there before with wider permissions.
pub fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    file.write_all(text.as_bytes())
}

pub fn discard(directory: &Path, key: &str) -> std::io::Result<()> {
    match std::fs::remove_file(directory.join(file_name(key))) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// Every draft whose key starts with `prefix`, as (key, text).
pub fn load(directory: &Path, prefix: &str) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return Vec::new();
    };
    let mut drafts = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(key) = key_of(&name) else { continue };
        if !key.starts_with(prefix) {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(entry.path()) {
            drafts.push((key, text));
        }
    }
    drafts.sort();
    drafts
}

/// Where drafts live under the data directory: one folder per server and per user, so a
/// draft written as one person on one server is never offered to another person or sent to
/// another server.
///
/// `server` names the server (its base address, or `demo` for the built-in sandbox, whose port
/// changes every run). The user is known by a fingerprint of the token: it is the only identity
/// quire has before any request, it never reveals the token, and it stays the same offline.
pub fn directory(data_dir: &Path, server: &str, token: &str) -> PathBuf {
    data_dir
        .join("drafts")
        .join(file_stem(&server_key(server)))
        .join(token_fingerprint(token))
}

/// One spelling per server: `https://API.example.com/v1/` and `https://api.example.com/v1` are
/// the same place.
pub(crate) fn server_key(server: &str) -> String {
    match url::Url::parse(server) {
        Ok(url) => {
            format!(
                "{}://{}{}",
                url.scheme(),
                url.host_str().unwrap_or_default(),
                url.port()
                    .map(|port| format!(":{port}"))
                    .unwrap_or_default()
            ) + url.path().trim_end_matches('/')
        }
        Err(_) => server.trim_end_matches('/').to_string(),
    }
}

/// `file_name` without its extension: a folder name any string round-trips through.
pub(crate) fn file_stem(key: &str) -> String {
    let name = file_name(key);
    name.strip_suffix(".md").unwrap_or(&name).to_string()
}

/// The first 16 hex digits of the token's SHA-256: enough to tell users apart, useless to
/// recover the token from.
pub(crate) fn token_fingerprint(token: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(token.as_bytes());
    digest
        .iter()
        .take(8)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_are_saved_loaded_by_prefix_and_discarded() {
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), "spc.cr-1.reply-c9", "half written").unwrap();
        save(dir.path(), "spc.cr-1.comment", "new").unwrap();
        save(dir.path(), "spc.cr-2.comment", "other").unwrap();
        let loaded = load(dir.path(), "spc.cr-1.");
        assert_eq!(
            loaded,
            [
                ("spc.cr-1.comment".to_string(), "new".to_string()),
                ("spc.cr-1.reply-c9".to_string(), "half written".to_string())
            ]
        );
        discard(dir.path(), "spc.cr-1.comment").unwrap();
        discard(dir.path(), "spc.cr-1.comment").unwrap();
        assert_eq!(load(dir.path(), "spc.cr-1.").len(), 1);
    }

    #[test]
    fn drafts_are_kept_apart_by_server_and_user() {
        let data = Path::new("/data");
        let reviewer = directory(data, "https://api.gitbook.com", "demo-reviewer");
        let admin = directory(data, "https://api.gitbook.com", "demo-admin");
        let elsewhere = directory(data, "http://127.0.0.1:8080", "demo-reviewer");
        assert_ne!(reviewer, admin);
        assert_ne!(reviewer, elsewhere);
        assert_eq!(
            reviewer,
            directory(data, "https://API.gitbook.com/", "demo-reviewer"),
            "one folder per server however its address is spelled"
        );
        assert_ne!(
            directory(data, "https://x.md", "t"),
            directory(data, "https://x", "t")
        );
        let shown = reviewer.to_string_lossy();
        assert!(
            !shown.contains("demo-reviewer"),
            "the token never shows: {shown}"
        );
        assert!(reviewer.starts_with("/data/drafts"));
        assert_eq!(
            reviewer.components().count(),
            5,
            "no `/` in the server escapes: {shown}"
        );

        let dir = tempfile::tempdir().unwrap();
        let mine = directory(dir.path(), "demo", "demo-reviewer");
        let theirs = directory(dir.path(), "demo", "demo-admin");
        save(&mine, "spc.cr-1.comment", "mine").unwrap();
        assert!(
            load(&theirs, "spc.cr-1.").is_empty(),
            "another user sees none"
        );
        assert_eq!(load(&mine, "spc.cr-1.").len(), 1);
    }

    #[test]
    fn drafts_and_their_folders_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let folder = directory(root.path(), "demo", "demo-admin");
        save(&folder, "spc.cr-1.comment", "secret plans").unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&folder), 0o700);
        assert_eq!(mode(&root.path().join("drafts")), 0o700);
        assert_eq!(mode(&folder.join(file_name("spc.cr-1.comment"))), 0o600);
    }

    #[test]
    fn keys_cannot_escape_the_directory_and_round_trip() {
        assert_eq!(file_name("../../etc/passwd"), "..%2F..%2Fetc%2Fpasswd.md");
        for key in ["spc.cr/1.reply-c:9", "a/b", "a_b", "ünïcode id", "100%"] {
            assert_eq!(key_of(&file_name(key)).as_deref(), Some(key));
        }
        assert_ne!(file_name("a/b"), file_name("a_b"));
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), "s.c/1.reply-x", "kept").unwrap();
        assert_eq!(
            load(dir.path(), "s.c/1."),
            [("s.c/1.reply-x".to_string(), "kept".to_string())]
        );
    }
}

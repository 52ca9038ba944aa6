//! Comments being written are saved to files as they are typed, so a failed post, a crash, a
//! kill or a quit loses nothing. One file per draft, named after what it answers.

use std::path::{Path, PathBuf};

/// A draft's file name: the key with anything unsafe for a file name replaced.
pub fn file_name(key: &str) -> String {
    let safe: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.md")
}

pub fn save(directory: &Path, key: &str, text: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(directory)?;
    let path = directory.join(file_name(key));
    // Write then rename, so a crash mid-write never leaves half a draft.
    let temporary = path.with_extension("md.tmp");
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, &path)
}

pub fn discard(directory: &Path, key: &str) -> std::io::Result<()> {
    match std::fs::remove_file(directory.join(file_name(key))) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// Every draft whose key starts with `prefix`, as (key, text).
pub fn load(directory: &Path, prefix: &str) -> Vec<(String, String)> {
    let wanted = file_name(prefix);
    let wanted = wanted.trim_end_matches(".md");
    let Ok(entries) = std::fs::read_dir(directory) else {
        return Vec::new();
    };
    let mut drafts = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".md") else {
            continue;
        };
        if !stem.starts_with(wanted) {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(entry.path()) {
            drafts.push((stem.to_string(), text));
        }
    }
    drafts.sort();
    drafts
}

/// Where drafts live under the data directory.
pub fn directory(data_dir: &Path) -> PathBuf {
    data_dir.join("drafts")
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
    fn keys_cannot_escape_the_directory() {
        assert_eq!(file_name("../../etc/passwd"), ".._.._etc_passwd.md");
    }
}

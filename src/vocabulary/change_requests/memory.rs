//! What a user saw of a change request at their last visit, so the next visit can say what is
//! new ("since my last review"). One small JSON file per change request, in a `seen` folder
//! inside the drafts folder — which is already one folder per server and per user, so the
//! memory is per (server, user, change request) without naming either in the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::vocabulary::drafts;

/// Pages' text is remembered up to this many bytes in all; pages past it are remembered by a
/// fingerprint only (their change is still seen, the "since" diff then compares with main).
pub const MAX_REMEMBERED_TEXT: usize = 512 * 1024;

/// What was seen. Threads and replies are remembered by id and reply count rather than by
/// time: a server's clock and ours need not agree.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Seen {
    /// When this was last written (RFC 3339), for "since your last review (2 h ago)".
    pub seen_at: String,
    /// The revision at which every remembered page was seen as it has it (None: not known).
    pub revision: Option<String>,
    /// Thread (comment id) → how many replies it had.
    pub threads: BTreeMap<String, u64>,
    /// The pages the change request changed, as listed then.
    pub changed_pages: Vec<String>,
    /// Page id → the change request's markdown of it, for pages whose diff was opened.
    pub pages: BTreeMap<String, PageSeen>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PageSeen {
    pub fingerprint: String,
    /// None when it did not fit in [`MAX_REMEMBERED_TEXT`].
    pub markdown: Option<String>,
    /// The page's `updatedAt` in the change request when its text was seen: on the next
    /// visit, a page whose `updatedAt` is the same is not read again. None when unknown
    /// (the server gave none, or the memory is older than this field).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl PageSeen {
    pub fn of(markdown: &str) -> PageSeen {
        PageSeen {
            fingerprint: fingerprint(markdown),
            markdown: Some(markdown.to_string()),
            version: None,
        }
    }

    pub fn with_version(mut self, version: Option<String>) -> PageSeen {
        self.version = version;
        self
    }
}

/// A stable fingerprint of a text (FNV-1a: the same across runs and builds, unlike
/// `DefaultHasher`).
pub fn fingerprint(text: &str) -> String {
    let mut state: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        state ^= u64::from(byte);
        state = state.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{state:016x}-{}", text.len())
}

impl Seen {
    /// Drops remembered texts past the budget (the largest first), keeping their fingerprints.
    pub fn trim(&mut self) {
        let mut total: usize = self
            .pages
            .values()
            .filter_map(|page| page.markdown.as_ref().map(String::len))
            .sum();
        while total > MAX_REMEMBERED_TEXT {
            let Some(largest) = self
                .pages
                .values_mut()
                .filter(|page| page.markdown.is_some())
                .max_by_key(|page| page.markdown.as_ref().map_or(0, String::len))
            else {
                break;
            };
            total -= largest.markdown.take().map_or(0, |text| text.len());
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// None for a file that is not ours (or was damaged): it is then as if never seen.
    pub fn from_json(text: &str) -> Option<Seen> {
        serde_json::from_str(text).ok()
    }
}

/// The key (and file name stem) of a change request's memory.
pub fn key(space: &str, change_request: &str) -> String {
    format!("seen:{space}.{change_request}")
}

fn path(drafts_directory: &Path, key: &str) -> PathBuf {
    let name = drafts::file_name(key);
    let stem = name.strip_suffix(".md").unwrap_or(&name);
    drafts_directory.join("seen").join(format!("{stem}.json"))
}

pub fn load(drafts_directory: &Path, key: &str) -> Option<String> {
    std::fs::read_to_string(path(drafts_directory, key)).ok()
}

/// Writes then renames, so a crash never leaves half a file; readable by this user alone.
pub fn save(drafts_directory: &Path, key: &str, text: &str) -> std::io::Result<()> {
    let path = path(drafts_directory, key);
    if let Some(directory) = path.parent() {
        drafts::create_private_dir(directory)?;
    }
    let temporary = path.with_extension("json.tmp");
    drafts::write_private(&temporary, text)?;
    std::fs::rename(&temporary, &path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_memory_loads_back_and_stays_out_of_the_drafts() {
        let directory = tempfile::tempdir().unwrap();
        let mut seen = Seen {
            seen_at: "2026-11-23T10:00:00Z".into(),
            revision: Some("rev-1".into()),
            ..Seen::default()
        };
        seen.threads.insert("cmt-1".into(), 2);
        seen.pages.insert("pg/1".into(), PageSeen::of("# Hi\n"));
        let key = key("sp 1", "cr/7");
        save(directory.path(), &key, &seen.to_json()).unwrap();
        let loaded = Seen::from_json(&load(directory.path(), &key).unwrap()).unwrap();
        assert_eq!(loaded, seen);
        assert!(drafts::load(directory.path(), "").is_empty(), "not a draft");
        assert_eq!(load(directory.path(), "seen:other.cr"), None);
        assert_eq!(Seen::from_json("not json"), None);
    }

    #[test]
    fn trimming_keeps_fingerprints_of_texts_past_the_budget() {
        let mut seen = Seen::default();
        let big = "x".repeat(MAX_REMEMBERED_TEXT);
        seen.pages.insert("big".into(), PageSeen::of(&big));
        seen.pages.insert("small".into(), PageSeen::of("small"));
        seen.trim();
        assert_eq!(seen.pages["big"].markdown, None);
        assert_eq!(seen.pages["big"].fingerprint, fingerprint(&big));
        assert!(seen.pages["small"].markdown.is_some());
    }
}

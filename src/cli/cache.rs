//! `quire cache info` and `quire cache clear`, and the cache a session reads through: one file
//! per server and user in the data directory, named by the token's fingerprint (never the
//! token), as drafts are.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;

use crate::api::Client;
use crate::api::cache::{Cache, CacheError, DEFAULT_MAX_BYTES};
use crate::api::database::{Damage, move_aside};
use crate::config::ConfigFile;
use crate::vocabulary::drafts::{file_stem, server_key, token_fingerprint};

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum CacheCommand {
    /// Where the cache is, how big it is and how many answers it holds.
    Info,
    /// Forget everything the cache holds.
    Clear,
}

/// The cache's file for `server` (its address, or `demo`) and the user of `token`.
pub fn cache_path(data_dir: &Path, server: &str, token: &str) -> PathBuf {
    data_dir
        .join("cache")
        .join(file_stem(&server_key(server)))
        .join(format!("{}.sqlite", token_fingerprint(token)))
}

/// The size the config file allows, in bytes.
pub fn max_bytes(file: &ConfigFile) -> u64 {
    file.cache_max_mb
        .map_or(DEFAULT_MAX_BYTES, |mb| mb.saturating_mul(1024 * 1024))
}

/// Opens the session's cache, unless the config file turns it off (`Ok(None)`); why it cannot
/// be opened otherwise.
pub fn open(file: &ConfigFile, server: &str, token: &str) -> Result<Option<Cache>, CacheError> {
    if file.cache == Some(false) {
        return Ok(None);
    }
    let Some(data_dir) = crate::config::data_dir() else {
        return Ok(None);
    };
    Cache::open(&cache_path(&data_dir, server, token), max_bytes(file)).map(Some)
}

/// Gives `client` the session's cache, and with `offline` keeps it from the network. A cache
/// that cannot be opened is done without; the sentence the screen shows once says what is off
/// and how to mend it.
pub fn attach(
    client: &Client,
    file: &ConfigFile,
    server: &str,
    token: &str,
    offline: bool,
) -> Option<String> {
    client.set_offline_only(offline);
    match open(file, server, token) {
        Ok(Some(cache)) => {
            client.use_cache(cache);
            None
        }
        Ok(None) => None,
        Err(error) => {
            tracing::warn!(%error, "working without a cache");
            Some(without_cache(&error))
        }
    }
}

/// What the screen says once when the cache cannot be opened.
/// What is off and how to mend it come first: the path and SQLite's words are long, and the
/// footer of an 80-column terminal shows about sixty characters.
pub fn without_cache(error: &CacheError) -> String {
    if error.damage().is_damage() {
        format!(
            "Cache and outbox off: its file is {}; `quire cache clear` mends it ({error}).",
            damage_words(error.damage())
        )
    } else {
        format!("Cache and outbox off; `quire cache info` tells more ({error}).")
    }
}

/// What is wrong with a file that cannot serve, in words.
fn damage_words(damage: Damage) -> &'static str {
    match damage {
        Damage::NotADatabase => "damaged",
        Damage::OtherSchema => "another program's database",
        Damage::NotAFile => "not a regular file",
        Damage::ReadOnly => "not writable",
        Damage::None => "not usable",
    }
}

/// Runs `quire cache …`; the exit code.
pub fn run(
    command: CacheCommand,
    file: &ConfigFile,
    server: &str,
    token: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let Some(data_dir) = crate::config::data_dir() else {
        let _ = writeln!(err, "quire: no data directory to keep a cache in");
        return 1;
    };
    let path = cache_path(&data_dir, server, token);
    if !path.exists() {
        let _ = writeln!(
            out,
            "No cache yet for this server and token ({}).",
            path.display()
        );
        return 0;
    }
    let opened = Cache::open(&path, max_bytes(file));
    let cache = match (opened, command) {
        (Ok(cache), _) => cache,
        (Err(error), CacheCommand::Clear) if error.damage().is_damage() => {
            return start_anew(&path, &error, file, out, err);
        }
        (Err(error), _) => {
            let _ = writeln!(err, "quire: {error}");
            if error.damage().is_damage() {
                let _ = writeln!(
                    err,
                    "The file is {}: `quire cache clear` moves it aside and starts a new one.",
                    damage_words(error.damage())
                );
            }
            return 1;
        }
    };
    let done = match command {
        CacheCommand::Info => cache.info().map(|info| {
            let _ = writeln!(out, "Cache: {}", info.path.display());
            let _ = writeln!(out, "Answers kept: {}", info.entries);
            let _ = writeln!(
                out,
                "Size: {} on disk ({} of answers, at most {})",
                megabytes(info.file_bytes),
                megabytes(info.body_bytes),
                megabytes(info.max_bytes)
            );
            if file.cache == Some(false) {
                let _ = writeln!(out, "Off: the config file says `cache = false`.");
            }
        }),
        CacheCommand::Clear => cache.clear().map(|()| {
            let _ = writeln!(out, "Cleared the cache {}.", path.display());
        }),
    };
    match done {
        Ok(()) => 0,
        Err(error) => {
            let _ = writeln!(err, "quire: {error}");
            1
        }
    }
}

/// `cache clear` on a file that cannot serve: moved aside (a link itself, never what it points
/// to), with whatever outbox it held, and a new cache started in its place.
fn start_anew(
    path: &Path,
    error: &CacheError,
    file: &ConfigFile,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let aside = match move_aside(path) {
        Ok(aside) => aside,
        Err(failure) => {
            let _ = writeln!(err, "quire: {error}; moving it aside failed too: {failure}");
            return 1;
        }
    };
    if let Err(failure) = Cache::open(path, max_bytes(file)) {
        let _ = writeln!(err, "quire: a new cache could not be started: {failure}");
        return 1;
    }
    let _ = writeln!(
        out,
        "Moved the cache file ({}) aside to {}, with any queued writes it held; a new one is \
         started.",
        damage_words(error.damage()),
        aside.display()
    );
    0
}

/// A size in MB, or in KB below a megabyte, so a small cache does not read as empty.
fn megabytes(bytes: u64) -> String {
    const MB: f64 = 1024.0 * 1024.0;
    if bytes > 0 && (bytes as f64) < MB / 10.0 {
        return format!("{:.0} KB", (bytes as f64 / 1024.0).ceil());
    }
    format!("{:.1} MB", bytes as f64 / MB)
}

#[cfg(test)]
mod tests {
    use super::megabytes;

    #[test]
    fn sizes_read_in_kilobytes_below_a_tenth_of_a_megabyte() {
        assert_eq!(megabytes(0), "0.0 MB");
        assert_eq!(megabytes(1), "1 KB");
        assert_eq!(megabytes(40 * 1024), "40 KB");
        assert_eq!(megabytes(200 * 1024 * 1024), "200.0 MB");
        assert_eq!(megabytes(1536 * 1024), "1.5 MB");
    }
}

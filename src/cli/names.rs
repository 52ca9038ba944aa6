//! Space titles the scripting subcommands found before, kept per account beside its cache:
//! `--space "Getting Started"` then reads the space by its id (and checks the title still
//! matches) rather than every organization's spaces. A memo only: a wrong or lost line costs a
//! look-up, never a wrong answer.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The file of the account this process signed in with (a subcommand signs in once).
static FILE: OnceLock<PathBuf> = OnceLock::new();

/// Keeps what this process finds in the file for `server` and `token`.
pub fn keep_for(data_dir: &Path, server: &str, token: &str) {
    let file = crate::cli::cache::cache_path(data_dir, server, token).with_extension("names");
    let _ = FILE.set(file);
}

/// The id the space titled `name` (in `org`, when one was named) had last time.
pub fn known_id(org: Option<&str>, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(FILE.get()?).ok()?;
    let wanted = key(org, name)?;
    text.lines().find_map(|line| {
        let (line_key, id) = line.rsplit_once('\t')?;
        (line_key == wanted && !id.is_empty()).then(|| id.to_string())
    })
}

/// Remembers that the space titled `name` (in `org`) is `id`.
pub fn remember(org: Option<&str>, name: &str, id: &str) {
    let (Some(file), Some(wanted)) = (FILE.get(), key(org, name)) else {
        return;
    };
    if id.contains(['\t', '\n', '\r']) {
        return;
    }
    let old = std::fs::read_to_string(file).unwrap_or_default();
    let mut text: String = old
        .lines()
        .filter(|line| {
            line.rsplit_once('\t')
                .is_some_and(|(line_key, _)| line_key != wanted)
        })
        .map(|line| format!("{line}\n"))
        .collect();
    text.push_str(&format!("{wanted}\t{id}\n"));
    if let Some(directory) = file.parent()
        && crate::vocabulary::drafts::create_private_dir(directory).is_ok()
    {
        let _ = crate::vocabulary::drafts::write_private(file, &text);
    }
}

/// `ORG\tTITLE` in lower case (`*` for no organization); None for a name no line can hold.
fn key(org: Option<&str>, name: &str) -> Option<String> {
    let org = org.unwrap_or("*").to_lowercase();
    let name = name.to_lowercase();
    let fits = |text: &str| !text.contains(['\t', '\n', '\r']);
    (fits(&org) && fits(&name)).then(|| format!("{org}\t{name}"))
}

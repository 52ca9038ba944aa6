//! Texts that editors of earlier runs left behind. A quire killed while `$EDITOR` ran (`kill
//! -9`, a crash, a power cut) never took the text back from the editor's file; the next start
//! makes each such text the draft it was written for, so its composer opens with it, and
//! removes the editor's folder, so it is offered once.

use std::io;
use std::path::{Path, PathBuf};

use crate::editor_process::{DRAFT_NOTE, FILE_NAME};
use crate::ui::notice::Notice;
use crate::vocabulary::drafts;

/// Where a text left by an interrupted editor went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recovered {
    /// It is the draft in this file again: its composer opens with it.
    AsDraft(PathBuf),
    /// Its draft is not known (a folder of an older version, or drafts kept in memory only):
    /// it is this file of its own.
    Kept(PathBuf),
}

/// Recovers every text in `editing` whose quire no longer runs; texts without a known draft go
/// to `kept`. A folder that cannot be recovered is left where it is, to be tried next time.
pub fn recover(editing: &Path, kept: &Path) -> Vec<Recovered> {
    let Ok(entries) = std::fs::read_dir(editing) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| entry.path())
        .filter(|folder| !its_quire_runs(folder))
        .filter_map(|folder| match recover_one(&folder, kept) {
            Ok(recovered) => recovered,
            Err(error) => {
                tracing::warn!(%error, "recovering a text an editor left failed");
                None
            }
        })
        .collect()
}

/// The line that says what was recovered and where it went; None when nothing was.
pub fn notice(recovered: &[Recovered]) -> Option<Notice> {
    let as_drafts = recovered
        .iter()
        .filter(|each| matches!(each, Recovered::AsDraft(_)))
        .count();
    let kept: Vec<String> = recovered
        .iter()
        .filter_map(|each| match each {
            Recovered::Kept(path) => Some(path.display().to_string()),
            Recovered::AsDraft(_) => None,
        })
        .collect();
    let mut said = Vec::new();
    match as_drafts {
        0 => {}
        1 => said.push(
            "Recovered the text of an editor quire could not wait for: its composer opens with it"
                .to_string(),
        ),
        many => said.push(format!(
            "Recovered {many} texts of editors quire could not wait for: their composers open \
             with them"
        )),
    }
    if !kept.is_empty() {
        said.push(format!(
            "Recovered the text of an interrupted editor to {}",
            kept.join(", ")
        ));
    }
    (!said.is_empty()).then(|| Notice::info(said.join(". ") + "."))
}

/// The folder's name starts with the process id of the quire that made it (see
/// `editor_process`): while that process lives, its editor may still be running.
fn its_quire_runs(folder: &Path) -> bool {
    let pid = folder
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.split('-').next())
        .and_then(|pid| pid.parse::<libc::pid_t>().ok());
    match pid {
        Some(pid) if pid > 0 && pid != own_pid() => is_alive(pid),
        _ => false,
    }
}

fn own_pid() -> libc::pid_t {
    libc::pid_t::try_from(std::process::id()).unwrap_or_default()
}

fn is_alive(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    let answer = unsafe { libc::kill(pid, 0) };
    answer == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Puts one folder's text where it belongs and removes the folder; None for a folder the
/// editor's file was already gone from.
fn recover_one(folder: &Path, kept: &Path) -> io::Result<Option<Recovered>> {
    let text = match std::fs::read_to_string(folder.join(FILE_NAME)) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            std::fs::remove_dir_all(folder)?;
            return Ok(None);
        }
        Err(error) => return Err(error),
    };
    let recovered = match noted_draft(folder) {
        Some(draft) => {
            save_as_draft(&draft, &text)?;
            Recovered::AsDraft(draft)
        }
        None => {
            let name = folder.file_name().unwrap_or_default().to_string_lossy();
            let path = kept.join(format!("{name}.md"));
            drafts::create_private_dir(kept)?;
            drafts::write_private(&path, &text)?;
            Recovered::Kept(path)
        }
    };
    std::fs::remove_dir_all(folder)?;
    Ok(Some(recovered))
}

fn noted_draft(folder: &Path) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let bytes = std::fs::read(folder.join(DRAFT_NOTE)).ok()?;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

/// Writes `text` as the draft in file `draft`, the way the composer saves one.
fn save_as_draft(draft: &Path, text: &str) -> io::Result<()> {
    let not_a_draft = || io::Error::other(format!("{} is not a draft file", draft.display()));
    let directory = draft.parent().ok_or_else(not_a_draft)?;
    let name = draft.file_name().and_then(|name| name.to_str());
    let key = name.and_then(drafts::key_of).ok_or_else(not_a_draft)?;
    drafts::save(directory, &key, text)
}

/// At start: texts that editors of a killed quire left in the data directory become their
/// drafts again (or files of their own); the line that says so.
pub fn recover_at_start() -> Option<crate::ui::notice::Notice> {
    let data = crate::config::data_dir()?;
    let recovered = recover(&data.join("editing"), &data.join("recovered"));
    if !recovered.is_empty() {
        tracing::info!(?recovered, "texts of interrupted editors recovered");
    }
    notice(&recovered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor_process::EditFile;

    #[test]
    fn a_text_left_by_a_quire_that_ended_becomes_its_draft_once() {
        let root = tempfile::tempdir().unwrap();
        let editing = root.path().join("editing");
        let drafts_folder = root.path().join("drafts");
        let draft = drafts_folder.join(drafts::file_name("spc.cr-1.reply-c9"));
        let edit = EditFile::create(&editing, "before", Some(&draft)).unwrap();
        std::fs::write(edit.path(), "written in the editor").unwrap();
        let folder = edit.path().parent().unwrap().to_path_buf();
        // A quire that ended: the folder outlives it (`forget` stands for the kill).
        std::mem::forget(edit);
        let gone = folder.with_file_name("999999999-1-2");
        std::fs::rename(&folder, &gone).unwrap();
        let kept = root.path().join("recovered");
        assert_eq!(
            recover(&editing, &kept),
            [Recovered::AsDraft(draft.clone())]
        );
        assert_eq!(
            drafts::load(&drafts_folder, "spc.cr-1."),
            [(
                "spc.cr-1.reply-c9".to_string(),
                "written in the editor".to_string()
            )]
        );
        assert!(recover(&editing, &kept).is_empty(), "offered once");
    }

    #[test]
    fn a_folder_of_a_running_quire_is_left_alone_and_one_without_a_draft_is_kept_apart() {
        let root = tempfile::tempdir().unwrap();
        let editing = root.path().join("editing");
        let kept = root.path().join("recovered");
        let running = editing.join(format!("{}-1-2", a_running_process()));
        std::fs::create_dir_all(&running).unwrap();
        std::fs::write(running.join(FILE_NAME), "another quire's").unwrap();
        let orphan = editing.join("999999999-1-2");
        std::fs::create_dir(&orphan).unwrap();
        std::fs::write(orphan.join(FILE_NAME), "no draft noted").unwrap();
        let recovered = recover(&editing, &kept);
        let path = kept.join("999999999-1-2.md");
        assert_eq!(recovered, [Recovered::Kept(path.clone())]);
        assert_eq!(std::fs::read_to_string(path).unwrap(), "no draft noted");
        assert!(running.exists());
    }

    /// The test's parent: a process that surely runs, and not this one.
    fn a_running_process() -> libc::pid_t {
        // SAFETY: getppid cannot fail.
        unsafe { libc::getppid() }
    }
}

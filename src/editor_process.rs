//! The `$EDITOR` hand-off's process and file. The editor runs in a process group of its own,
//! which it holds as the terminal's foreground group while it runs: quire can then end the
//! editor itself (not only the `sh -c` around it) when quire is told to stop, and the keys the
//! terminal turns into signals (ctrl-c, ctrl-z) reach the editor alone. The text goes through
//! a file in quire's own private folder, never the shared temporary folder.

use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The file `$EDITOR` is given, in a session's folder.
pub const FILE_NAME: &str = "quire-edit.md";
/// The file beside it naming the draft file the text belongs to.
pub const DRAFT_NOTE: &str = "draft";

/// How long an editor told to end (SIGTERM) may take to save and leave before it is killed.
pub const GRACE: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(20);

/// One editing session's folder (0700) holding the file to edit (0600). Dropping it removes the
/// folder with whatever the editor left beside the file (swap and backup files).
#[derive(Debug)]
pub struct EditFile {
    folder: PathBuf,
    file: PathBuf,
}

impl EditFile {
    /// Writes `text` to a fresh file in a fresh folder under `root`, with the path of the
    /// `draft` it belongs to beside it (see [`crate::editor_leftovers`]); `root` and its missing
    /// parents are made readable by this user alone.
    pub fn create(root: &Path, text: &str, draft: Option<&Path>) -> io::Result<EditFile> {
        use std::os::unix::ffi::OsStrExt;
        crate::vocabulary::drafts::create_private_dir(root)?;
        let folder = root.join(session_name());
        // Not recursive: the folder must be new, so nobody else's folder or link is used.
        std::fs::DirBuilder::new().mode(0o700).create(&folder)?;
        let edit = EditFile {
            file: folder.join(FILE_NAME),
            folder,
        };
        write_new_private(&edit.file, text.as_bytes())?;
        if let Some(draft) = draft {
            write_new_private(&edit.folder.join(DRAFT_NOTE), draft.as_os_str().as_bytes())?;
        }
        Ok(edit)
    }

    pub fn path(&self) -> &Path {
        &self.file
    }

    pub fn read(&self) -> io::Result<String> {
        std::fs::read_to_string(&self.file)
    }
}

impl Drop for EditFile {
    fn drop(&mut self) {
        if let Err(error) = std::fs::remove_dir_all(&self.folder) {
            tracing::warn!(%error, "removing the editor's folder failed");
        }
    }
}

/// A folder name no other session of this or another quire uses. It starts with quire's
/// process id, which tells a later start whether the folder's quire still runs.
fn session_name() -> String {
    format!(
        "{}-{}-{}",
        std::process::id(),
        chrono::Utc::now().timestamp_millis(),
        fastrand::u32(..)
    )
}

/// Creates the file only if it does not exist, readable by this user alone.
fn write_new_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(bytes)
}

/// How the editor's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorEnd {
    /// It left by itself (the status does not matter: the text is kept either way).
    Left,
    /// quire was told to stop: the editor was told to end, and killed after [`GRACE`].
    Ended,
}

/// Runs `editor` on `file` in its own process group holding the terminal, until it leaves or
/// `must_stop` says quire is ending. The terminal's foreground goes back to quire's group
/// whatever happens.
pub fn run(editor: &str, file: &Path, must_stop: &dyn Fn() -> bool) -> io::Result<EditorEnd> {
    let ours = foreground_group();
    let group = spawn_in_own_group(editor, file)?;
    let end = wait(group, must_stop);
    if let Some(ours) = ours {
        hand_terminal_to(ours);
    }
    end
}

/// `$EDITOR` may carry arguments ("code --wait"): the shell splits them.
fn spawn_in_own_group(editor: &str, file: &Path) -> io::Result<libc::pid_t> {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("quire-editor")
        .arg(file);
    // SAFETY: between fork and exec the hook calls only async-signal-safe functions (setpgid,
    // getpgrp, pthread_sigmask, tcsetpgrp) and allocates nothing.
    unsafe {
        command.pre_exec(lead_own_group_in_foreground);
    }
    let child = command.spawn()?;
    // Reaped by `wait` through waitpid, which also reports a stop; `Child` would not.
    libc::pid_t::try_from(child.id()).map_err(io::Error::other)
}

/// In the child before exec: a group of its own, the terminal's foreground group, before the
/// editor first reads (a background group reading the terminal would be stopped).
fn lead_own_group_in_foreground() -> io::Result<()> {
    // SAFETY: setpgid and getpgrp on the calling process.
    let group = unsafe {
        if libc::setpgid(0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        libc::getpgrp()
    };
    hand_terminal_to(group);
    Ok(())
}

/// The terminal's foreground group now; None without a controlling terminal on stdin.
fn foreground_group() -> Option<libc::pid_t> {
    // SAFETY: tcgetpgrp reads the group of the descriptor's terminal.
    let group = unsafe { libc::tcgetpgrp(libc::STDIN_FILENO) };
    (group > 0).then_some(group)
}

/// Makes `group` the terminal's foreground group. SIGTTOU is blocked meanwhile: a process
/// outside the foreground group asking this would otherwise be stopped. Without a terminal
/// there is nothing to hand over, so a failure is ignored.
fn hand_terminal_to(group: libc::pid_t) {
    // SAFETY: signal sets are plain data initialised by sigemptyset; the mask is the calling
    // thread's and is put back as it was.
    unsafe {
        let mut blocked: libc::sigset_t = std::mem::zeroed();
        let mut previous: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut blocked);
        libc::sigaddset(&mut blocked, libc::SIGTTOU);
        libc::pthread_sigmask(libc::SIG_BLOCK, &blocked, &mut previous);
        libc::tcsetpgrp(libc::STDIN_FILENO, group);
        libc::pthread_sigmask(libc::SIG_SETMASK, &previous, std::ptr::null_mut());
    }
}

/// What waitpid says of the editor's process right now.
enum State {
    Running,
    Stopped,
    Gone,
}

fn state_of(pid: libc::pid_t) -> io::Result<State> {
    let mut status = 0;
    loop {
        // SAFETY: waitpid on our own child, status written to a local.
        let answer = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG | libc::WUNTRACED) };
        return match answer {
            0 => Ok(State::Running),
            -1 => match io::Error::last_os_error() {
                error if error.kind() == io::ErrorKind::Interrupted => continue,
                error if error.raw_os_error() == Some(libc::ECHILD) => Ok(State::Gone),
                error => Err(error),
            },
            _ if libc::WIFSTOPPED(status) => Ok(State::Stopped),
            _ => Ok(State::Gone),
        };
    }
}

fn wait(group: libc::pid_t, must_stop: &dyn Fn() -> bool) -> io::Result<EditorEnd> {
    loop {
        if must_stop() {
            tracing::info!("quire was told to stop while the editor ran");
            end_group(group);
            return Ok(EditorEnd::Ended);
        }
        match state_of(group) {
            Ok(State::Running) => {}
            Ok(State::Stopped) => suspend_beside(group),
            Ok(State::Gone) => return Ok(EditorEnd::Left),
            Err(error) => {
                end_group(group);
                return Err(error);
            }
        }
        std::thread::sleep(POLL);
    }
}

/// Ctrl-Z in the editor stopped its group: quire stops too, so the shell sees the job stopped
/// and `fg` brings it back; then the editor gets the terminal and goes on.
fn suspend_beside(group: libc::pid_t) {
    if let Some(ours) = own_group() {
        hand_terminal_to(ours);
    }
    if let Err(error) = signal_hook::low_level::raise(signal_hook::consts::SIGTSTP) {
        tracing::warn!(%error, "stopping beside the editor failed");
    }
    hand_terminal_to(group);
    signal_group(group, libc::SIGCONT);
}

fn own_group() -> Option<libc::pid_t> {
    // SAFETY: getpgrp cannot fail.
    let group = unsafe { libc::getpgrp() };
    (group > 0).then_some(group)
}

/// Tells the whole group to end, gives it [`GRACE`] to save and leave, then kills what is left.
fn end_group(group: libc::pid_t) {
    signal_group(group, libc::SIGTERM);
    // A stopped editor would not see the SIGTERM until continued.
    signal_group(group, libc::SIGCONT);
    let deadline = Instant::now() + GRACE;
    let mut reaped = false;
    while Instant::now() < deadline {
        reaped = reaped || matches!(state_of(group), Ok(State::Gone) | Err(_));
        if reaped && !group_exists(group) {
            return;
        }
        std::thread::sleep(POLL);
    }
    tracing::info!("the editor did not end in time: killed");
    signal_group(group, libc::SIGKILL);
    if !reaped {
        let mut status = 0;
        // SAFETY: a blocking waitpid on our own child, just killed.
        unsafe {
            libc::waitpid(group, &mut status, 0);
        }
    }
}

fn signal_group(group: libc::pid_t, signal: libc::c_int) {
    // SAFETY: kill(2) of the group quire made for the editor.
    unsafe {
        libc::kill(-group, signal);
    }
}

/// Whether a live process is left in the group. A member that ended stays in it as a zombie
/// until whoever adopted it waits for it, which quire cannot hurry: on Linux only live members
/// count.
#[cfg(target_os = "linux")]
fn group_exists(group: libc::pid_t) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return group_has_any_member(group);
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .any(|pid| live_member(pid, group))
}

/// `/proc/PID/stat` is `pid (comm) state ppid pgrp …`; the name may hold spaces and
/// parentheses, so the fields are read after its last `)`.
#[cfg(target_os = "linux")]
fn live_member(pid: u32, group: libc::pid_t) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let Some(close) = stat.rfind(')') else {
        return false;
    };
    let mut fields = stat[close + 1..].split_whitespace();
    let state = fields.next();
    let in_group = fields.nth(1).and_then(|pgrp| pgrp.parse().ok()) == Some(group);
    in_group && state != Some("Z")
}

#[cfg(not(target_os = "linux"))]
fn group_exists(group: libc::pid_t) -> bool {
    group_has_any_member(group)
}

fn group_has_any_member(group: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the group exists.
    unsafe { libc::kill(-group, 0) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_file_is_private_and_goes_with_its_folder() {
        let root = tempfile::tempdir().unwrap();
        let editing = root.path().join("editing");
        let edit = EditFile::create(&editing, "some words", None).unwrap();
        let folder = edit.path().parent().unwrap().to_path_buf();
        assert_eq!(mode(&editing), 0o700);
        assert_eq!(mode(&folder), 0o700);
        assert_eq!(mode(edit.path()), 0o600);
        assert_eq!(edit.read().unwrap(), "some words");
        std::fs::write(folder.join(".quire-edit.md.swp"), "left by an editor").unwrap();
        drop(edit);
        assert!(!folder.exists(), "the session's folder is removed");
        assert_eq!(std::fs::read_dir(&editing).unwrap().count(), 0);
    }
}

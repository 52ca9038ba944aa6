//! A process's children as `/proc` shows them, to check what quire leaves running (or dead but
//! not waited for: a zombie, state `Z`).

/// One child: its id, its state letter (`R`, `S`, `Z`, …) and its command line.
#[derive(Debug, Clone)]
pub struct ChildProcess {
    pub pid: u32,
    pub state: char,
    pub command: String,
}

/// The processes whose parent is `parent` right now.
pub fn children_of(parent: u32) -> Vec<ChildProcess> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let (state, ppid) = state_and_parent(pid)?;
            (ppid == parent).then(|| ChildProcess {
                pid,
                state,
                command: command_line(pid),
            })
        })
        .collect()
}

/// `/proc/PID/stat` is `pid (comm) state ppid …`; the name may hold spaces and parentheses,
/// so the fields are read after its last `)`.
fn state_and_parent(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    Some((state, ppid))
}

/// The arguments, space-separated (empty for a zombie, which has none left).
fn command_line(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|bytes| {
            String::from_utf8_lossy(&bytes)
                .split('\0')
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// Waits until process `pid` has ended (exited or killed; reaped or not), for at most
/// `deadline`; true when it has. Any process, not only a child: the kernel says when through a
/// pidfd, so nothing is polled. A process that is already gone counts as ended.
pub fn wait_for_exit(pid: u32, deadline: std::time::Duration) -> bool {
    // SAFETY: pidfd_open(2) takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    let Ok(fd) = i32::try_from(fd) else {
        return true;
    };
    if fd < 0 {
        return true;
    }
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let until = std::time::Instant::now() + deadline;
    let ended = loop {
        let left = until.saturating_duration_since(std::time::Instant::now());
        let timeout = i32::try_from(left.as_millis()).unwrap_or(i32::MAX);
        // SAFETY: one `pollfd` for the descriptor opened above.
        let ready = unsafe { libc::poll(&mut poll, 1, timeout) };
        if ready > 0 {
            break true;
        }
        if ready == 0 || left.is_zero() {
            break false;
        }
        // Interrupted by a signal: wait on for what is left. Any other failure cannot wait.
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break false;
        }
    };
    // SAFETY: the descriptor opened above, closed once.
    unsafe {
        libc::close(fd);
    }
    ended
}

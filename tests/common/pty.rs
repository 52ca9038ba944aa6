//! Runs the real `quire` binary in a pseudo-terminal and reads its screen through a VT100 parser.
//! Tests wait for text to appear (looking at the parsed screen each time bytes arrive), never
//! for a fixed time.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

use super::processes::wait_for_exit;
use super::wait::{Events, wait_until};

pub struct PtyApp {
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    bytes: Arc<AtomicUsize>,
    /// Bytes arrived, or the terminal's output ended.
    events: Events,
    writer: Option<Box<dyn Write + Send>>,
    pub child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    reader: Option<std::thread::JoinHandle<()>>,
    stop_reading: Arc<AtomicBool>,
    home: tempfile::TempDir,
}

impl PtyApp {
    /// Starts `quire` with `args` in a `cols` x `rows` terminal, with a fresh HOME so no real
    /// config or token is read.
    pub fn spawn(args: &[&str], cols: u16, rows: u16) -> PtyApp {
        PtyApp::spawn_with_env(args, cols, rows, &[])
    }

    /// As `spawn`, with extra environment variables (`EDITOR`, …).
    pub fn spawn_with_env(args: &[&str], cols: u16, rows: u16, env: &[(&str, &str)]) -> PtyApp {
        let home = tempfile::tempdir().expect("temp home");
        PtyApp::spawn_in_home(home, args, cols, rows, env)
    }

    /// As `spawn_with_env`, in a HOME the test prepared (what an earlier run left in
    /// `data/quire`, …).
    pub fn spawn_in_home(
        home: tempfile::TempDir,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> PtyApp {
        let pty = native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_quire"));
        command.args(args);
        command.env("HOME", home.path());
        command.env("XDG_CONFIG_HOME", home.path().join("config"));
        command.env("XDG_DATA_HOME", home.path().join("data"));
        command.env("TERM", "xterm-256color");
        command.env_remove("GITBOOK_TOKEN");
        command.env_remove("GITBOOK_API_URL");
        command.env_remove("QUIRE_PROFILE");
        // The demo's other people stay still unless a test asks them to act: a comment arriving
        // at a random moment would change the screen a test is reading.
        command.env("QUIRE_DEMO_ACTIVITY_SECS", "0");
        // These tests walk from the organization list; Home's own tests start with
        // `--start home`.
        command.env("QUIRE_START", "organizations");
        // No session bus: a token `quire auth login` kept in the tester's keyring stays there.
        command.env(
            "DBUS_SESSION_BUS_ADDRESS",
            format!("unix:path={}/no-bus", home.path().display()),
        );
        for (name, value) in env {
            command.env(name, value);
        }
        let child = pair.slave.spawn_command(command).expect("spawn quire");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let bytes = Arc::new(AtomicUsize::new(0));
        let stop_reading = Arc::new(AtomicBool::new(false));
        let events = Events::new();
        // Non-blocking, so the reader can let go of the master when a test closes the terminal
        // (the kernel hangs up only once every copy of the master is closed).
        let master_fd = pair.master.as_raw_fd();
        if let Some(fd) = master_fd {
            // SAFETY: fcntl on a descriptor this struct owns; flags only.
            unsafe {
                let flags = libc::fcntl(fd, libc::F_GETFL);
                libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
        }
        let reader = {
            let parser = parser.clone();
            let raw = raw.clone();
            let bytes = bytes.clone();
            let stop_reading = stop_reading.clone();
            let events = events.clone();
            std::thread::spawn(move || {
                let mut buffer = [0u8; 8192];
                while !stop_reading.load(Ordering::SeqCst) {
                    match reader.read(&mut buffer) {
                        Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                            wait_readable(master_fd);
                        }
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            bytes.fetch_add(n, Ordering::SeqCst);
                            raw.lock().unwrap().extend_from_slice(&buffer[..n]);
                            parser.lock().unwrap().process(&buffer[..n]);
                            events.happened();
                        }
                    }
                }
                events.happened();
            })
        };
        PtyApp {
            parser,
            raw,
            bytes,
            events,
            writer: Some(writer),
            child,
            master: Some(pair.master),
            reader: Some(reader),
            stop_reading,
            home,
        }
    }

    /// The fresh HOME quire runs with (its data directory is `data/quire` below it).
    pub fn home(&self) -> &std::path::Path {
        self.home.path()
    }

    /// Hands over the HOME this run used, for another run in it (what it kept on disk); this
    /// run is left a fresh, empty one.
    pub fn take_home(&mut self) -> tempfile::TempDir {
        std::mem::replace(&mut self.home, tempfile::tempdir().expect("temp home"))
    }

    /// Asserts the terminal's echo is off, as a password prompt leaves it.
    pub fn assert_echo_off(&self) {
        let master = self.master.as_ref().expect("the terminal is open");
        let off = master
            .get_termios()
            .is_some_and(|termios| termios.local_flags.bits() & libc::ECHO == 0);
        assert!(off, "the echo is on:\n{}", self.screen());
    }

    /// Resizes the terminal (quire gets SIGWINCH) and the parsed screen with it.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        let master = self.master.as_ref().expect("the terminal is open");
        master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize the pty");
        self.parser
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(rows, cols);
    }

    /// What each cell shows, row by row: its text and background, and for a visible
    /// character its colour and attributes. Erased and written blanks look alike, as they do
    /// to the eye.
    pub fn styled_rows(&self) -> Vec<String> {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        let (rows, columns) = screen.size();
        (0..rows)
            .map(|row| {
                let mut described = String::new();
                for column in 0..columns {
                    let Some(cell) = screen.cell(row, column) else {
                        continue;
                    };
                    let text = match cell.contents() {
                        "" => " ",
                        text => text,
                    };
                    described.push_str(&format!("[{text}|{:?}", cell.bgcolor()));
                    if text != " " || cell.inverse() || cell.underline() {
                        described.push_str(&format!(
                            "|{:?}|{}{}{}{}{}",
                            cell.fgcolor(),
                            u8::from(cell.bold()),
                            u8::from(cell.dim()),
                            u8::from(cell.italic()),
                            u8::from(cell.underline()),
                            u8::from(cell.inverse()),
                        ));
                    }
                    described.push(']');
                }
                described
            })
            .collect()
    }

    /// Whether some cell on screen is shown reversed (a selection, a search match).
    pub fn shows_reversed(&self) -> bool {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        let (rows, columns) = screen.size();
        (0..rows).any(|row| {
            (0..columns).any(|column| screen.cell(row, column).is_some_and(|cell| cell.inverse()))
        })
    }

    /// Waits until the reader has taken in everything written so far (no new bytes for a
    /// moment).
    pub fn settle(&self) {
        self.wait_for_output_to_settle();
    }

    /// Waits until quire is idle: no spinner (a braille character) on screen, whose turning
    /// would make two captures of the same view differ, and the output settled.
    pub fn wait_until_idle(&self, timeout: Duration) {
        let spinning = |screen: String| {
            screen
                .chars()
                .any(|c| ('\u{2800}'..='\u{28ff}').contains(&c))
        };
        let idle = wait_until(timeout, &self.events, || {
            self.settle();
            !spinning(self.screen())
        });
        assert!(
            idle,
            "quire stayed busy for {timeout:?}:\n{}",
            self.screen()
        );
    }

    /// Waits until the reader has taken in everything written so far. quire is another
    /// process and says nothing when it is done drawing: a frame is written at once, so no new
    /// bytes for a while (a tenth of a second) is taken for the end of the output.
    fn wait_for_output_to_settle(&self) {
        self.events
            .wait_for_quiet(Duration::from_millis(100), Duration::from_secs(2));
    }

    /// What wakes a wait on this terminal: bytes arriving. A test that also waits on a server
    /// adds its activity with [`Events::follow`].
    pub fn events(&self) -> &Events {
        &self.events
    }

    /// Closes the terminal as a dropped SSH connection or a killed tmux server does: quire
    /// gets a hangup and its terminal reads and writes fail from then on.
    pub fn close_terminal(&mut self) {
        self.stop_reading.store(true, Ordering::SeqCst);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        // portable-pty's writer, when dropped, types a newline and the EOF character into the
        // terminal (for programs reading lines). quire reads raw keys, so they would arrive as
        // `ctrl-j` and `ctrl-d` and edit whatever is open (ctrl-j deletes to the line's start)
        // before the hangup ends it: a closing terminal types nothing, so none is set first.
        if let Some(fd) = self.master.as_ref().and_then(|master| master.as_raw_fd()) {
            no_end_of_file_character(fd);
        }
        self.writer = None;
        self.master = None;
    }

    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// The distinct foreground colours of the printed cells on the first row holding `text`.
    pub fn row_colours(&self, text: &str) -> Vec<vt100::Color> {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        let (rows, columns) = screen.size();
        let mut colours = Vec::new();
        for (row, contents) in screen.rows(0, columns).enumerate().take(rows.into()) {
            if !contents.contains(text) {
                continue;
            }
            for column in 0..columns {
                let Some(cell) = screen.cell(row as u16, column) else {
                    continue;
                };
                if !cell.contents().trim().is_empty() && !colours.contains(&cell.fgcolor()) {
                    colours.push(cell.fgcolor());
                }
            }
            break;
        }
        colours
    }

    pub fn bytes_received(&self) -> usize {
        self.bytes.load(Ordering::SeqCst)
    }

    pub fn raw_output(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    /// Waits until `text` is on screen; panics with the screen after `timeout`.
    pub fn wait_for(&self, text: &str, timeout: Duration) {
        let shown = wait_until(timeout, &self.events, || self.screen().contains(text));
        assert!(
            shown,
            "`{text}` did not appear in {timeout:?}. Screen:\n{}",
            self.screen()
        );
    }

    /// Waits until `text` is no longer on screen; panics with the screen after `timeout`.
    pub fn wait_gone(&self, text: &str, timeout: Duration) {
        let gone = wait_until(timeout, &self.events, || !self.screen().contains(text));
        assert!(
            gone,
            "`{text}` was still there after {timeout:?}. Screen:\n{}",
            self.screen()
        );
    }

    /// Waits until one row of the screen holds both `first` and `second`.
    pub fn wait_for_row(&self, first: &str, second: &str, timeout: Duration) {
        let shown = wait_until(timeout, &self.events, || {
            self.screen()
                .lines()
                .any(|row| row.contains(first) && row.contains(second))
        });
        assert!(
            shown,
            "no row with `{first}` and `{second}` in {timeout:?}. Screen:\n{}",
            self.screen()
        );
    }

    /// Waits until `text` is on screen at least `count` times.
    pub fn wait_for_count(&self, text: &str, count: usize, timeout: Duration) {
        let shown = wait_until(timeout, &self.events, || {
            self.screen().matches(text).count() >= count
        });
        assert!(
            shown,
            "`{text}` did not appear {count} times in {timeout:?}. Screen:\n{}",
            self.screen()
        );
    }

    /// Waits until `done` holds for the screen; panics with the screen after `timeout`.
    pub fn wait_for_screen(&self, what: &str, timeout: Duration, done: impl Fn(&PtyApp) -> bool) {
        let happened = wait_until(timeout, &self.events, || done(self));
        assert!(
            happened,
            "{what} within {timeout:?}. Screen:\n{}",
            self.screen()
        );
    }

    /// From the first screen to the comments tab of the demo's busiest change request ("Clarify
    /// token scopes"), waiting at each step.
    pub fn open_demo_review_comments(&mut self, timeout: Duration) {
        self.open_demo_review(timeout);
        // The review opens on its overview; the comments are the third tab.
        self.send("3");
        self.wait_for("unresolved 1/18", timeout);
    }

    /// From the first screen to the overview of the demo's busiest change request ("Clarify
    /// token scopes"), waiting at each step.
    pub fn open_demo_review(&mut self, timeout: Duration) {
        self.wait_for("Acme Robotics", timeout);
        self.send("\r");
        self.wait_for("Change requests", timeout);
        self.send("\t");
        // At 80 columns the list cuts the subject after these words.
        self.wait_for("Clarify token", timeout);
        self.send("\r");
        self.wait_for("Changes (4)", timeout);
    }

    /// From the first screen to the demo's Quickstart in the reader, the way a user gets
    /// there: organization, space filter, page tree.
    pub fn open_demo_quickstart(&mut self, timeout: Duration) {
        self.wait_for("Acme Robotics", timeout);
        self.send("\r");
        self.wait_for("Engineering", timeout);
        self.send("/getting");
        self.wait_for("Getting Started", timeout);
        self.send("\r");
        self.send("\r");
        self.wait_for("BASICS", timeout);
        self.wait_for("Welcome to Acme Fleet", timeout);
        self.send("j");
        self.send("\r");
        self.wait_for("Quickstart  /quickstart", timeout);
        // The title shows before the page has arrived (the tree names it); a key sent before
        // then has nothing to scroll yet.
        self.wait_for("line 1/", timeout);
    }

    pub fn send(&mut self, keys: &str) {
        let writer = self.writer.as_mut().expect("the terminal is open");
        writer.write_all(keys.as_bytes()).expect("write keys");
        writer.flush().expect("flush keys");
    }

    /// Waits for the process to end; None when it is still running after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<portable_pty::ExitStatus> {
        if let Some(pid) = self.child.process_id() {
            wait_for_exit(pid, timeout);
        }
        let status = self.child.try_wait().ok().flatten();
        if status.is_some() {
            self.wait_for_output_to_settle();
        }
        status
    }
}

impl Drop for PtyApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// Blocks until the terminal has output to read (or a tenth of a second has passed, so that
/// the reader sees a request to stop).
fn wait_readable(fd: Option<std::os::unix::io::RawFd>) {
    let Some(fd) = fd else {
        return;
    };
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one `pollfd` for a descriptor this struct owns.
    unsafe {
        libc::poll(&mut poll, 1, 100);
    }
}

/// Clears the terminal's EOF character (`VEOF`), so dropping the pty writer sends no keys.
fn no_end_of_file_character(fd: std::os::unix::io::RawFd) {
    // SAFETY: `termios` is plain data filled in by `tcgetattr`; `fd` is the open master.
    unsafe {
        let mut settings: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(fd, &mut settings) == 0 {
            settings.c_cc[libc::VEOF] = 0;
            libc::tcsetattr(fd, libc::TCSANOW, &settings);
        }
    }
}

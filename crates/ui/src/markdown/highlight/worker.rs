//! Highlighting in a helper process (`quire highlight-worker`), so quire itself never holds a
//! grammar.
//!
//! syntect compiles a grammar's regexes as code reaches them, and through fancy-regex every
//! compiled regex carries its own automata and search caches: TypeScript's for the demo's
//! Quickstart block take ~6 MB (a handful of its patterns are hundreds of pieces, each a regex;
//! identical pieces share one, see `vendor/fancy-regex`). None of it can be handed back while
//! the syntax set lives, and a regex that backtracks for minutes cannot be stopped inside a
//! thread. In a process of its own both are simple: the worker holds one language's grammars at
//! a time (`Grammars`), exits after [`IDLE_EXIT`] without work (handing all of it back;
//! [`IDLE_EXIT_AFTER_PREVIEW`] after a preview's blocks), and is killed when a block outlasts
//! its budget, so a runaway regex stops burning CPU at once.
//!
//! The protocol is one JSON object per line each way: a [`Request`] per code block, a
//! [`Reply`] per request, in order. The binary turns the worker on with
//! [`use_worker_program`]; without it (tests of the library, benches) highlighting runs on
//! threads in-process as before.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::thread;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use syntect::highlighting::FontStyle;

use super::syntaxes::{find_syntax_in, highlight_theme, read_syntax_set};
use super::{
    CodeTheme, FIRST_BLOCK_BUDGETS, GRACE, Highlighted, Job, STUCK_AFTER_BUDGETS, Token,
    release_free_memory,
};
use syntect::parsing::SyntaxSet;

/// The worker exits after this long without a request: its grammars go with it. A page's
/// blocks are sent back to back, so the worker is idle once a page is coloured; reading it
/// then costs quire alone, and a page opened within the grace reuses the grammars it holds. A
/// new worker reads a syntax set built ahead of time but builds its grammars again, and a
/// page's text never waits for its colours.
pub const IDLE_EXIT: Duration = Duration::from_secs(3);

/// How long the worker waits after colouring a preview (the start of a page selected in a
/// tree): the page is likely opened next, and a worker that exited would have to read the
/// syntax set and build the same grammars again for it.
pub const IDLE_EXIT_AFTER_PREVIEW: Duration = Duration::from_secs(30);

/// The subcommand the binary answers with [`serve`].
pub const SUBCOMMAND: &str = "highlight-worker";

/// One code block to colour.
#[derive(Debug, Serialize, Deserialize)]
struct Request {
    language: String,
    lines: Vec<String>,
    /// The block's CPU budget in microseconds (the first block of a language gets more).
    budget_us: u64,
    /// The syntect theme's name ([`CodeTheme::name`]); the default one when missing.
    #[serde(default)]
    theme: String,
    /// How long the worker waits for the next request after this one, in milliseconds
    /// ([`IDLE_EXIT`] when missing).
    #[serde(default)]
    idle_exit_ms: u64,
}

impl Request {
    fn idle_exit(&self) -> Duration {
        match self.idle_exit_ms {
            0 => IDLE_EXIT,
            ms => Duration::from_millis(ms),
        }
    }
}

/// A [`Request`] as quire writes it, borrowing the block instead of copying it.
#[derive(Serialize)]
struct RequestRef<'j> {
    language: &'j str,
    lines: &'j [String],
    budget_us: u64,
    theme: &'j str,
    idle_exit_ms: u64,
}

/// The block's lines of tokens, or `None` when it stays plain.
#[derive(Debug, Serialize, Deserialize)]
struct Reply {
    lines: Option<Vec<Vec<WireToken>>>,
}

/// A token on the wire: foreground (`None` = the terminal's), font style bits, text.
#[derive(Debug, Serialize, Deserialize)]
struct WireToken(Option<(u8, u8, u8)>, u8, String);

static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
static WORKER: Mutex<Option<Worker>> = Mutex::new(None);
/// The running worker's process id, to kill it while a page holds [`WORKER`] (0: none).
static WORKER_PID: AtomicU32 = AtomicU32::new(0);
/// Set when quire quits: no worker is started again.
static STOPPED: AtomicBool = AtomicBool::new(false);
/// Numbers the workers started, so a worker's reply reader reaps only its own worker.
static SPAWNED: AtomicU64 = AtomicU64::new(0);
/// Blocks a worker took on since quire started: answered, or stuck on (tests and benches count
/// them). A request written to a worker that exited idle before reading it is not counted: it
/// is sent again, to a new worker.
static SENT: AtomicU64 = AtomicU64::new(0);

/// Highlight through `program highlight-worker` from now on (the binary passes itself).
pub fn use_worker_program(program: PathBuf) {
    let _ = PROGRAM.set(program);
}

/// Whether highlighting goes through a worker process.
pub fn worker_in_use() -> bool {
    PROGRAM.get().is_some()
}

/// Starts the worker now rather than with the first block to colour (benches and tests that
/// need its process id up front). Does nothing without a worker program.
pub fn start_worker_early() {
    let mut worker = lock_worker();
    if worker.is_none() {
        *worker = spawn_worker();
    }
}

/// How many blocks a worker took on: each distinct block of a page once, none that was
/// coloured before (for tests and benches).
pub fn blocks_sent() -> u64 {
    SENT.load(Ordering::SeqCst)
}

/// The process id of the running worker, if one runs (for tests and benches).
pub fn worker_process_id() -> Option<u32> {
    lock_worker().as_ref().map(|worker| worker.child.id())
}

/// Stops the worker now (quire is quitting): it may be in the middle of a long block, which
/// it would otherwise finish before noticing quire is gone. Never waits for a page being
/// coloured: that page's thread holds the worker, so the process is killed by its id.
pub fn stop_worker() {
    STOPPED.store(true, Ordering::SeqCst);
    match WORKER.try_lock() {
        Ok(mut worker) => *worker = None,
        Err(_) => kill_running_worker(),
    }
}

fn kill_running_worker() {
    let pid = WORKER_PID.load(Ordering::SeqCst);
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(pid)
        && pid > 0
    {
        // SAFETY: `pid` is our own child, not yet waited for (its `Child` waits on drop), so
        // the id cannot have been reused by another process.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

fn lock_worker() -> std::sync::MutexGuard<'static, Option<Worker>> {
    WORKER.lock().unwrap_or_else(PoisonError::into_inner)
}

struct Worker {
    /// Which start this is (see [`SPAWNED`]).
    serial: u64,
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<Option<Reply>>,
    /// The language (as written, lower case) of the last block sent to it.
    last_language: Option<String>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        WORKER_PID.store(0, Ordering::SeqCst);
        let _ = self.child.kill();
        let _ = self.child.wait();
        announce_reaped(self.child.id());
    }
}

/// The workers waited for (their process ids), announced to [`wait_until_reaped`].
static REAPED: (Mutex<Vec<u32>>, Condvar) = (Mutex::new(Vec::new()), Condvar::new());

/// Says a worker has been waited for: in the log (where a look from outside the process can
/// see it) and to [`wait_until_reaped`].
fn announce_reaped(pid: u32) {
    tracing::info!("highlight worker {pid} ended and was waited for");
    let (reaped, announced) = &REAPED;
    let mut reaped = reaped.lock().unwrap_or_else(PoisonError::into_inner);
    // A few are enough to look back on: only the latest workers are waited on.
    if reaped.len() >= 16 {
        reaped.remove(0);
    }
    reaped.push(pid);
    announced.notify_all();
}

/// Waits until the worker `pid` has been waited for (no zombie left), at most `deadline`;
/// whether it was (for tests).
pub fn wait_until_reaped(pid: u32, deadline: Duration) -> bool {
    let (reaped, announced) = &REAPED;
    let reaped = reaped.lock().unwrap_or_else(PoisonError::into_inner);
    announced
        .wait_timeout_while(reaped, deadline, |reaped| !reaped.contains(&pid))
        .is_ok_and(|(_, timeout)| !timeout.timed_out())
}

fn spawn_worker() -> Option<Worker> {
    if STOPPED.load(Ordering::SeqCst) {
        return None;
    }
    let program = PROGRAM.get()?;
    let mut child = Command::new(program)
        .arg(SUBCOMMAND)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .inspect_err(|error| tracing::warn!(%error, "could not start the highlight worker"))
        .ok()?;
    let stdin = child.stdin.take()?;
    let stdout = child.stdout.take()?;
    let serial = SPAWNED.fetch_add(1, Ordering::SeqCst);
    let (sender, replies) = mpsc::channel();
    let reader = thread::Builder::new()
        .name("quire-highlight-replies".into())
        .spawn(move || {
            forward_replies(stdout, &sender);
            reap_if_current(serial);
        });
    if reader.is_err() {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    }
    WORKER_PID.store(child.id(), Ordering::SeqCst);
    Some(Worker {
        serial,
        child,
        stdin,
        replies,
        last_language: None,
    })
}

/// Passes the worker's replies on until its output ends (it exited) or nobody listens.
fn forward_replies(stdout: ChildStdout, sender: &mpsc::Sender<Option<Reply>>) {
    for line in BufReader::new(stdout).lines() {
        let reply = line.ok().and_then(|line| serde_json::from_str(&line).ok());
        let ended = reply.is_none();
        if sender.send(reply).is_err() || ended {
            return;
        }
    }
    let _ = sender.send(None);
}

/// The worker whose output ended (it went idle, or died) is dropped, which waits for it: left
/// in its slot it would stay a zombie until the next page with code. If a page holds the slot,
/// this waits its turn; by then the page has usually found the worker gone and replaced it,
/// and a newer worker is left alone.
fn reap_if_current(serial: u64) {
    let mut worker = lock_worker();
    if worker
        .as_ref()
        .is_some_and(|worker| worker.serial == serial)
    {
        *worker = None;
    }
}

/// What became of one block sent to the worker.
enum Outcome {
    Done(Option<Highlighted>),
    /// The worker had exited (idle) before it read the request: send it again to a new one.
    Gone,
    /// It outlasted its budget or the worker died on it: plain, and the worker is replaced.
    Failed,
}

/// Highlights `jobs` in the worker process, which then waits `idle` for more; `Err` with the
/// first block not done when there is no worker program or none could be started (the
/// caller then highlights the rest in-process).
pub(super) fn highlight_in_worker(
    jobs: &[Job],
    budget: Duration,
    idle: Duration,
    on_block: &mut dyn FnMut(usize, Highlighted),
) -> Result<(), usize> {
    if PROGRAM.get().is_none() {
        return Err(0);
    }
    let mut worker = lock_worker();
    for (index, job) in jobs.iter().enumerate() {
        if job.language.trim().is_empty() {
            continue;
        }
        let language = job.language.to_ascii_lowercase();
        let mut attempts = 0;
        let result = loop {
            attempts += 1;
            if worker.is_none() {
                *worker = spawn_worker();
            }
            let Some(running) = worker.as_mut() else {
                // Quitting: the rest stays plain. Otherwise no worker could start: the
                // caller colours the page in-process.
                if STOPPED.load(Ordering::SeqCst) {
                    break None;
                }
                return Err(index);
            };
            // The worker holds one language's grammars at a time: a block of another language
            // than the last one it coloured builds its grammar's regexes again.
            let block_budget = if running.last_language.as_ref() == Some(&language) {
                budget
            } else {
                budget * FIRST_BLOCK_BUDGETS
            };
            running.last_language = Some(language.clone());
            match send_block(running, job, block_budget, idle) {
                Outcome::Done(result) => break result,
                Outcome::Gone if attempts < 2 => *worker = None,
                Outcome::Gone | Outcome::Failed => {
                    // Dropping the worker kills it: a runaway regex stops here.
                    *worker = None;
                    break None;
                }
            }
        };
        if let Some(lines) = result {
            on_block(index, lines);
        }
    }
    Ok(())
}

fn send_block(worker: &mut Worker, job: &Job, budget: Duration, idle: Duration) -> Outcome {
    let Some(line) = request_line(job, budget, idle) else {
        return Outcome::Done(None);
    };
    if worker.stdin.write_all(&line).is_err() || worker.stdin.flush().is_err() {
        return Outcome::Gone;
    }
    // The worker counts the budget in CPU time; a busy machine stretches it in wall time.
    match worker
        .replies
        .recv_timeout(budget * STUCK_AFTER_BUDGETS + GRACE)
    {
        Ok(Some(reply)) => {
            SENT.fetch_add(1, Ordering::SeqCst);
            Outcome::Done(reply.lines.map(from_wire))
        }
        // Output ended: the worker exited, either idle before it read this request or dying
        // on it. Either way the request is sent once more to a new worker. (An answer that
        // could not be read ends the replies too: that worker is killed rather than waited on.)
        Ok(None) | Err(RecvTimeoutError::Disconnected) => {
            let _ = worker.child.kill();
            let _ = worker.child.wait();
            Outcome::Gone
        }
        Err(RecvTimeoutError::Timeout) => {
            SENT.fetch_add(1, Ordering::SeqCst);
            Outcome::Failed
        }
    }
}

/// One request as a line of JSON; `None` if it cannot be written (never, for these types).
fn request_line(job: &Job, budget: Duration, idle: Duration) -> Option<Vec<u8>> {
    let request = RequestRef {
        language: &job.language,
        lines: &job.lines,
        budget_us: u64::try_from(budget.as_micros()).unwrap_or(u64::MAX),
        theme: job.theme.name(),
        idle_exit_ms: u64::try_from(idle.as_millis()).unwrap_or(u64::MAX).max(1),
    };
    let mut line = serde_json::to_vec(&request).ok()?;
    line.push(b'\n');
    Some(line)
}

fn from_wire(lines: Vec<Vec<WireToken>>) -> Highlighted {
    lines
        .into_iter()
        .map(|tokens| {
            tokens
                .into_iter()
                .map(|WireToken(foreground, font, text)| Token {
                    foreground,
                    font: FontStyle::from_bits_truncate(font),
                    text,
                })
                .collect()
        })
        .collect()
}

fn to_wire(lines: Highlighted) -> Vec<Vec<WireToken>> {
    lines
        .into_iter()
        .map(|tokens| {
            tokens
                .into_iter()
                .map(|token| WireToken(token.foreground, token.font.bits(), token.text))
                .collect()
        })
        .collect()
}

/// The worker's side: reads the syntax set, then answers requests from stdin until it closes
/// or [`IDLE_EXIT`] passes without one.
pub fn serve() {
    let (sender, requests) = mpsc::channel::<String>();
    let reader = thread::Builder::new()
        .name("quire-highlight-requests".into())
        .spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
    if reader.is_err() {
        return;
    }
    let mut grammars = Grammars::read();
    highlight_theme(CodeTheme::default());
    release_free_memory();
    let never_cancelled = AtomicBool::new(false);
    let mut stdout = std::io::stdout().lock();
    let mut idle = IDLE_EXIT;
    while let Ok(line) = requests.recv_timeout(idle) {
        let lines = serde_json::from_str::<Request>(&line)
            .ok()
            .and_then(|request| {
                idle = request.idle_exit();
                let job = Job {
                    language: request.language,
                    lines: request.lines,
                    theme: CodeTheme::from_name(&request.theme).unwrap_or_default(),
                };
                let budget = Duration::from_micros(request.budget_us);
                let set = grammars.for_language(&job.language);
                super::budget::highlight_one(set, &job, budget, &never_cancelled)
            })
            .map(to_wire);
        let Ok(mut reply) = serde_json::to_string(&Reply { lines }) else {
            return;
        };
        reply.push('\n');
        if stdout.write_all(reply.as_bytes()).is_err() || stdout.flush().is_err() {
            return;
        }
    }
}

/// The worker's grammars, those of one language at a time. syntect keeps every regex it
/// compiles for as long as its syntax set lives, and one language's can be big: TypeScript's
/// for a ten-line block took ~15 MB, the demo Quickstart's eight languages ~30 MB together
/// (before fancy-regex shared identical pieces; ~6 MB for TypeScript's since).
/// Holding one language at a time, the worker never holds more than the biggest. Blocks come
/// grouped by language (see [`super::reuse::Distinct`]), so a page builds each of its
/// languages once; reading a fresh syntax set takes a few milliseconds.
struct Grammars {
    set: SyntaxSet,
    /// The syntax whose grammars `set` may hold, by name (a language's aliases share one).
    language: Option<String>,
    /// How many times a syntax set was read.
    reads: u32,
}

impl Grammars {
    fn read() -> Grammars {
        Grammars {
            set: read_syntax_set(),
            language: None,
            reads: 1,
        }
    }

    /// The set to colour a block of `language` with: a fresh one when this one holds another
    /// language's grammars, the old one dropped (and its memory handed back) first.
    fn for_language(&mut self, language: &str) -> &SyntaxSet {
        let Some(name) = find_syntax_in(&self.set, language).map(|syntax| syntax.name.clone())
        else {
            return &self.set;
        };
        if self.language.as_ref().is_some_and(|held| *held != name) {
            drop(std::mem::take(&mut self.set));
            release_free_memory();
            self.set = read_syntax_set();
            self.reads += 1;
        }
        self.language = Some(name);
        &self.set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_reads_a_fresh_syntax_set_when_the_language_changes() {
        let mut grammars = Grammars::read();
        for language in ["rust", "rs", "rust", "klingon", "rust"] {
            grammars.for_language(language);
        }
        assert_eq!(
            grammars.reads, 1,
            "one language, under two names, and an unknown one"
        );
        for language in ["python", "py", "typescript", "ts", "rust"] {
            grammars.for_language(language);
        }
        assert_eq!(grammars.reads, 4);
    }

    fn read_back(job: &Job, idle: Duration) -> Request {
        let line = request_line(job, Duration::from_millis(50), idle).unwrap();
        serde_json::from_slice(&line).unwrap()
    }

    #[test]
    fn the_worker_waits_as_long_as_the_last_request_asked() {
        let job = Job {
            language: "rust".into(),
            lines: vec!["fn main() {}".into()],
            theme: CodeTheme::default(),
        };
        let request = read_back(&job, IDLE_EXIT_AFTER_PREVIEW);
        assert_eq!(request.idle_exit(), IDLE_EXIT_AFTER_PREVIEW);
        assert_eq!(request.lines, job.lines);
        assert_eq!(read_back(&job, IDLE_EXIT).idle_exit(), IDLE_EXIT);
        let from_an_older_quire: Request =
            serde_json::from_str(r#"{"language":"rust","lines":[],"budget_us":1}"#).unwrap();
        assert_eq!(from_an_older_quire.idle_exit(), IDLE_EXIT);
    }
}

//! Highlighting with a time budget per block, on worker threads (or in the worker process):
//! a block over its budget, stuck, or panicking inside syntect is left plain.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use syntect::easy::HighlightLines;
use syntect::parsing::SyntaxSet;

use super::reuse::{Distinct, Recent};
#[cfg(test)]
use super::syntaxes::grammar_ready;
use super::syntaxes::{find_syntax, find_syntax_in, highlight_theme, syntax_index, syntaxes};
use super::{
    CodeTheme, FIRST_BLOCK_BUDGETS, GRACE, Highlighted, Job, STUCK_AFTER_BUDGETS, Token, worker,
};
#[cfg(test)]
use syntect::highlighting::ThemeSet;

/// Highlights every block; `None` for a block left plain (unknown language, over budget,
/// panic).
#[cfg(test)]
pub(super) fn highlight_all(jobs: Vec<Job>, budget: Duration) -> Vec<Option<Highlighted>> {
    let mut results: Vec<Option<Highlighted>> = vec![None; jobs.len()];
    highlight_each(jobs, budget, worker::IDLE_EXIT, |index, lines| {
        results[index] = Some(lines)
    });
    results
}

/// Highlights the blocks and hands each coloured one to `on_block` as soon as it is done, so
/// a big page never holds the tokens of all its blocks at once. Each distinct block is
/// coloured once, its copies given the same colours ([`Distinct`]). Blocks left plain
/// (unknown language, over budget, panic) are skipped. `worker_idle` is how long a worker
/// process waits for more work once this page's blocks are done.
pub(in crate::markdown) fn highlight_each(
    jobs: Vec<Job>,
    budget: Duration,
    worker_idle: Duration,
    mut on_block: impl FnMut(usize, Highlighted),
) {
    let distinct = Distinct::of(jobs, Recent::everywhere(), &mut on_block);
    if distinct.jobs.is_empty() {
        return;
    }
    highlight_distinct(
        Arc::clone(&distinct.jobs),
        budget,
        worker_idle,
        &mut |index, lines| distinct.deliver(index, lines, &mut on_block),
    );
}

/// Highlights `jobs` in order, in the worker process when there is one, else on threads.
fn highlight_distinct(
    jobs: Arc<Vec<Job>>,
    budget: Duration,
    worker_idle: Duration,
    on_block: &mut dyn FnMut(usize, Highlighted),
) {
    // Before anything here reads the syntax set: with a worker process, quire never does.
    let start = match worker::highlight_in_worker(&jobs, budget, worker_idle, on_block) {
        Ok(()) => return,
        Err(next) => next,
    };
    let count = jobs.len();
    if jobs[start.min(count)..]
        .iter()
        .all(|job| find_syntax(&job.language).is_none())
    {
        return;
    }
    // Read the theme and the syntax set here, not inside the blocks' budgets.
    highlight_theme(CodeTheme::default());
    let budgets = Arc::new(block_budgets(&jobs, budget));
    let mut next = start;
    while next < count {
        let (sender, receiver) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let worker_jobs = Arc::clone(&jobs);
        let worker_budgets = Arc::clone(&budgets);
        let worker_cancel = Arc::clone(&cancel);
        let start = next;
        let spawned = thread::Builder::new()
            .name("quire-highlight".into())
            .spawn(move || {
                work(
                    &worker_jobs,
                    &worker_budgets,
                    start,
                    &worker_cancel,
                    &sender,
                )
            });
        if spawned.is_err() {
            break;
        }
        loop {
            let block_budget = budgets.get(next).copied().unwrap_or(budget);
            match receiver.recv_timeout(block_budget * STUCK_AFTER_BUDGETS + GRACE) {
                Ok((index, result)) => {
                    if let Some(lines) = result {
                        on_block(index, lines);
                    }
                    next = index + 1;
                    if next >= count {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    // Block `next` is stuck (or killed its worker): leave it plain, move on.
                    cancel.store(true, Ordering::Relaxed);
                    next += 1;
                    break;
                }
            }
        }
    }
}

/// Each block's budget: [`FIRST_BLOCK_BUDGETS`] of them for the first block of a language
/// this process highlights, which compiles the grammar's regexes it reaches.
fn block_budgets(jobs: &[Job], budget: Duration) -> Vec<Duration> {
    jobs.iter()
        .map(|job| {
            let first = find_syntax(&job.language)
                .and_then(syntax_index)
                .and_then(|index| highlighted_before().get(index))
                .is_some_and(|seen| !seen.swap(true, Ordering::Relaxed));
            if first {
                budget * FIRST_BLOCK_BUDGETS
            } else {
                budget
            }
        })
        .collect()
}

/// One flag per syntax of [`syntaxes`]: whether a block of it was given to highlight.
fn highlighted_before() -> &'static [AtomicBool] {
    static SEEN: OnceLock<Vec<AtomicBool>> = OnceLock::new();
    SEEN.get_or_init(|| {
        (0..syntaxes().syntaxes().len())
            .map(|_| AtomicBool::new(false))
            .collect()
    })
}

fn work(
    jobs: &[Job],
    budgets: &[Duration],
    start: usize,
    cancel: &AtomicBool,
    sender: &mpsc::Sender<(usize, Option<Highlighted>)>,
) {
    for (index, job) in jobs.iter().enumerate().skip(start) {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let Some(&budget) = budgets.get(index) else {
            return;
        };
        let result = highlight_one(syntaxes(), job, budget, cancel);
        if sender.send((index, result)).is_err() {
            return;
        }
    }
}

/// One block with the grammars of `set`, `None` when it stays plain (unknown language, over
/// budget, cancelled, or a panic inside syntect).
pub(super) fn highlight_one(
    set: &SyntaxSet,
    job: &Job,
    budget: Duration,
    cancel: &AtomicBool,
) -> Option<Highlighted> {
    catch_unwind(AssertUnwindSafe(|| {
        highlight_block(set, job, budget, cancel)
    }))
    .ok()
    .flatten()
}

fn highlight_block(
    set: &SyntaxSet,
    job: &Job,
    budget: Duration,
    cancel: &AtomicBool,
) -> Option<Highlighted> {
    let syntax = find_syntax_in(set, &job.language)?;
    let theme = highlight_theme(job.theme);
    let default_foreground = theme.settings.foreground;
    let mut highlighter = HighlightLines::new(syntax, theme);
    let work = WorkClock::start();
    let mut lines = Vec::with_capacity(job.lines.len());
    let mut with_newline = String::new();
    for line in &job.lines {
        if work.spent() > budget || cancel.load(Ordering::Relaxed) {
            return None;
        }
        with_newline.clear();
        with_newline.push_str(line);
        with_newline.push('\n');
        let regions = highlighter.highlight_line(&with_newline, set).ok()?;
        let tokens = regions
            .into_iter()
            .filter_map(|(style, text)| {
                let text = text.trim_end_matches('\n');
                if text.is_empty() {
                    return None;
                }
                let colour = style.foreground;
                let foreground =
                    (Some(colour) != default_foreground).then_some((colour.r, colour.g, colour.b));
                Some(Token {
                    foreground,
                    font: style.font_style,
                    text: text.to_string(),
                })
            })
            .collect();
        lines.push(tokens);
    }
    Some(lines)
}

/// Measures the work a thread does: its CPU time where the system tells it, else the wall
/// clock. Waiting for a core on a busy machine is not highlighting work.
struct WorkClock {
    cpu_start: Option<Duration>,
    wall_start: Instant,
}

impl WorkClock {
    fn start() -> WorkClock {
        WorkClock {
            cpu_start: thread_cpu_time(),
            wall_start: Instant::now(),
        }
    }

    fn spent(&self) -> Duration {
        match (self.cpu_start, thread_cpu_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => self.wall_start.elapsed(),
        }
    }
}

#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only into `time`, a valid timespec on this stack frame.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    if status != 0 {
        return None;
    }
    let seconds = u64::try_from(time.tv_sec).ok()?;
    let nanos = u32::try_from(time.tv_nsec).ok()?;
    Some(Duration::new(seconds, nanos))
}

#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlighting_colours_keywords_and_keeps_text() {
        let jobs = vec![Job {
            language: "rust".into(),
            lines: vec!["fn main() {}".into()],
            theme: CodeTheme::default(),
        }];
        let results = highlight_all(jobs, Duration::from_secs(60));
        let lines = results[0].as_ref().expect("highlighted");
        let text: String = lines[0].iter().map(|token| token.text.as_str()).collect();
        assert_eq!(text, "fn main() {}");
        assert!(lines[0].iter().any(|token| token.foreground.is_some()));
    }

    fn default_budget() -> Duration {
        crate::markdown::RenderOptions::default().highlight_budget
    }

    /// The demo's languages, each seen for the first time in its own block, all highlight:
    /// every grammar loads and colours. Whether the first block fits the user's budget is a
    /// matter of speed in the build users run, measured by `cargo bench --bench markdown` (its "grammars ready"); a
    /// debug build on a busy machine may take longer, and a test must not fail for that.
    #[test]
    fn every_language_of_the_demo_highlights_the_first_time() {
        let samples = [
            ("rust", "let robot = Robot::new(\"AMR-2291-X\")?;"),
            ("python", "robot = client.robots.create(serial=\"AMR\")"),
            (
                "typescript",
                "const robot: Robot = await fleet.robots.create({ serial });",
            ),
            ("ts", "export interface Robot { id: string }"),
            ("go", "robot, err := client.Robots.Create(ctx, params)"),
            (
                "sql",
                "SELECT id, serial FROM robots WHERE site = 'berlin-dc';",
            ),
            ("toml", "[fleet]\ntoken = \"abc\" # secret"),
            ("bash", "curl -X POST \"$URL\" -H 'Accept: */*'"),
            ("json", "{\"serial\": \"AMR\", \"count\": 3}"),
            ("yaml", "fleet:\n  token: abc"),
        ];
        let jobs = samples
            .iter()
            .map(|(language, code)| Job {
                language: (*language).into(),
                lines: code.lines().map(str::to_string).collect(),
                theme: CodeTheme::default(),
            })
            .collect();
        let results = highlight_all(jobs, Duration::from_secs(60));
        for ((language, _), result) in samples.iter().zip(results) {
            let lines = result.unwrap_or_else(|| panic!("{language} was left plain"));
            assert!(
                lines
                    .iter()
                    .flatten()
                    .any(|token| token.foreground.is_some()),
                "{language} has no colour: {lines:?}"
            );
        }
    }

    #[test]
    fn the_code_theme_chooses_the_colours() {
        let job = |theme| Job {
            language: "rust".into(),
            lines: vec!["fn main() { let x = \"text\"; }".into()],
            theme,
        };
        let colours = |theme| -> Vec<Option<(u8, u8, u8)>> {
            let results = highlight_all(vec![job(theme)], default_budget());
            let lines = results[0].clone().expect("highlighted");
            lines[0].iter().map(|token| token.foreground).collect()
        };
        let dark = colours(CodeTheme::Base16OceanDark);
        let light = colours(CodeTheme::InspiredGitHub);
        assert!(dark.iter().any(Option::is_some) && light.iter().any(Option::is_some));
        assert_ne!(dark, light);
        for (index, name) in CodeTheme::NAMES.iter().enumerate() {
            assert_eq!(CodeTheme::from_name(name), Some(CodeTheme::ALL[index]));
            assert_eq!(CodeTheme::ALL[index].name(), *name);
            assert!(
                ThemeSet::load_defaults().themes.contains_key(*name),
                "syntect has no {name}"
            );
        }
        assert_eq!(CodeTheme::from_name("nope"), None);
    }

    /// Highlighting compiles only the regexes the code reaches, never a whole grammar: all of
    /// a grammar's regexes take tens of MB (a language no other test warms).
    #[test]
    fn highlighting_does_not_build_the_whole_grammar() {
        let jobs = vec![Job {
            language: "ruby".into(),
            lines: vec!["def robot(serial) = Robot.new(serial)".into()],
            theme: CodeTheme::default(),
        }];
        let results = highlight_all(jobs, Duration::from_secs(60));
        let lines = results[0].as_ref().expect("highlighted");
        assert!(lines[0].iter().any(|token| token.foreground.is_some()));
        assert!(!grammar_ready("ruby"));
    }

    #[test]
    fn a_block_over_budget_stays_plain_and_the_rest_still_highlight() {
        let slow = Job {
            language: "rust".into(),
            lines: vec!["let x = 1;".into(); 200_000],
            theme: CodeTheme::default(),
        };
        let quick = Job {
            language: "rust".into(),
            lines: vec!["let y = 2;".into()],
            theme: CodeTheme::default(),
        };
        let results = highlight_all(vec![slow, quick], Duration::from_millis(100));
        assert!(results[0].is_none());
    }
}

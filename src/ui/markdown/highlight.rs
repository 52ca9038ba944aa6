//! Fenced code through syntect (with two-face's syntax set), with a time budget per block.
//!
//! A grammar is built (its rules read and its regexes compiled) the first time it is used,
//! which takes far longer than highlighting a block. Compiled regexes are big (all of
//! TypeScript's take ~50 MB), so they are compiled as syntect reaches them, and only those a
//! page's code needs are ever built: the first block of a language in the process pays for
//! them, and gets [`FIRST_BLOCK_BUDGETS`] budgets for it, so the budget still measures
//! highlighting work. At start only the syntax set is read ([`warm_syntax_set`]), which would
//! otherwise make the first colouring slow.
//!
//! Some of syntect's regexes backtrack for minutes on unlucky input, so blocks are highlighted
//! on a worker thread: the worker gives up on a block once its budget is spent (checked after
//! every line), and if one line alone outlasts the budget the caller stops waiting, shows that
//! block plain and carries on with a fresh worker. A panic inside syntect also means "plain".

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use ratatui::style::{Color, Modifier, Style};
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, ThemeSet};
use syntect::parsing::syntax_definition::{
    Context, ContextReference, MatchOperation, MatchPattern, Pattern,
};
use syntect::parsing::{Regex, SyntaxReference, SyntaxSet, SyntaxSetBuilder};

use super::ColorDepth;

mod ascii_classes;
pub mod worker;

use ascii_classes::ascii_classes;

/// The syntect themes code can be coloured with (those syntect ships). Each theme's default
/// foreground is left to the terminal, so a dark one still reads on a light background.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CodeTheme {
    /// Dark, because terminals mostly are: the default.
    #[default]
    Base16OceanDark,
    Base16EightiesDark,
    Base16MochaDark,
    Base16OceanLight,
    InspiredGitHub,
    SolarizedDark,
    SolarizedLight,
}

impl CodeTheme {
    const ALL: [CodeTheme; 7] = [
        CodeTheme::Base16OceanDark,
        CodeTheme::Base16EightiesDark,
        CodeTheme::Base16MochaDark,
        CodeTheme::Base16OceanLight,
        CodeTheme::InspiredGitHub,
        CodeTheme::SolarizedDark,
        CodeTheme::SolarizedLight,
    ];

    /// The names a theme file's `[code] theme` accepts.
    pub const NAMES: [&'static str; 7] = [
        "base16-ocean.dark",
        "base16-eighties.dark",
        "base16-mocha.dark",
        "base16-ocean.light",
        "InspiredGitHub",
        "Solarized (dark)",
        "Solarized (light)",
    ];

    /// syntect's name for the theme.
    pub fn name(self) -> &'static str {
        let index = CodeTheme::ALL
            .iter()
            .position(|theme| *theme == self)
            .unwrap_or(0);
        CodeTheme::NAMES[index]
    }

    /// The theme syntect calls `name` (any case).
    pub fn from_name(name: &str) -> Option<CodeTheme> {
        let index = CodeTheme::NAMES
            .iter()
            .position(|known| known.eq_ignore_ascii_case(name.trim()))?;
        Some(CodeTheme::ALL[index])
    }
}

/// Extra time the caller waits past the budget before abandoning a stuck worker.
const GRACE: Duration = Duration::from_millis(10);

/// The budget is counted in the worker's CPU time, which a busy machine stretches into more
/// wall time: the caller, which can only watch the clock, waits this many budgets before it
/// takes a block that does not come back for stuck.
const STUCK_AFTER_BUDGETS: u32 = 20;

/// How many budgets the first block of a language gets: it compiles the regexes of the
/// grammar's contexts it reaches, which costs more than highlighting it (rust, python,
/// typescript and go stayed plain when that was charged to a single budget).
const FIRST_BLOCK_BUDGETS: u32 = 10;

/// One code block to highlight: its language token and its (sanitized) lines.
pub(super) struct Job {
    pub language: String,
    pub lines: Vec<String>,
    pub theme: CodeTheme,
}

/// A highlighted run of code.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Token {
    /// `None` for the theme's default foreground.
    pub foreground: Option<(u8, u8, u8)>,
    pub font: FontStyle,
    pub text: String,
}

type Highlighted = Vec<Vec<Token>>;

/// Languages warmed at start: what documentation pages show most.
const COMMON_LANGUAGES: &[&str] = &[
    "rust", "python", "ts", "js", "go", "sql", "sh", "json", "yaml", "toml",
];

/// two-face's syntax set: syntect's defaults plus TypeScript, TOML and many more, in the
/// fancy-regex flavour (no C regex library), with ASCII character classes.
static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();

fn syntaxes() -> &'static SyntaxSet {
    SYNTAXES.get_or_init(|| with_ascii_classes(two_face::syntax::extra_newlines()))
}

/// Whether this process has read the syntax set (with a highlight worker, it never does).
pub fn syntax_set_in_memory() -> bool {
    SYNTAXES.get().is_some()
}

/// Hands memory the allocator holds free back to the system. glibc keeps what a big piece of
/// work freed (reading the syntax set, highlighting a 1 MB page) in its arenas, where it still
/// counts as resident; elsewhere this does nothing.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of malloc's own arenas to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// `set` with every regex's Unicode classes made ASCII ([`ascii_classes`] says why). The set
/// is rebuilt from its definitions in the same order, so the syntaxes' links into each other
/// stay valid. Its regexes are not compiled here: that is still per grammar, when needed.
fn with_ascii_classes(set: SyntaxSet) -> SyntaxSet {
    let mut ascii = SyntaxSetBuilder::new();
    for definition in set.into_builder().syntaxes() {
        let mut definition = definition.clone();
        for context in definition.contexts.values_mut() {
            for pattern in &mut context.patterns {
                if let Pattern::Match(matcher) = pattern
                    && let Cow::Owned(rewritten) = ascii_classes(matcher.regex.regex_str())
                {
                    matcher.regex = Regex::new(rewritten);
                }
            }
        }
        ascii.add(definition);
    }
    ascii.build()
}

/// One cell per syntax of [`syntaxes`], filled once its grammar is built with the other
/// syntaxes it embeds. `OnceLock` makes a second thread asking for a grammar being built wait
/// for it instead of building it again.
fn grammar_cells() -> &'static [OnceLock<Vec<usize>>] {
    static CELLS: OnceLock<Vec<OnceLock<Vec<usize>>>> = OnceLock::new();
    CELLS.get_or_init(|| {
        (0..syntaxes().syntaxes().len())
            .map(|_| OnceLock::new())
            .collect()
    })
}

fn syntax_index(syntax: &SyntaxReference) -> Option<usize> {
    syntaxes()
        .syntaxes()
        .iter()
        .position(|known| std::ptr::eq(known, syntax))
}

/// Builds the grammar of `syntax`, and of the syntaxes it embeds, unless built already; waits
/// while another thread builds one. Slow the first time: run it off the UI thread.
fn prepare_grammar(syntax: &'static SyntaxReference) {
    let Some(first) = syntax_index(syntax) else {
        return;
    };
    let mut pending = vec![first];
    let mut seen = vec![first];
    while let Some(index) = pending.pop() {
        let Some(cell) = grammar_cells().get(index) else {
            continue;
        };
        for embedded in cell.get_or_init(|| build_grammar(index)) {
            if !seen.contains(embedded) {
                seen.push(*embedded);
                pending.push(*embedded);
            }
        }
    }
}

/// Reads the syntax set and the theme, without building any grammar, and hands the memory the
/// reading needed back to the system. The app runs this on a background thread at start: it
/// takes most of a second, which the first page with code would otherwise wait for.
pub fn warm_syntax_set() {
    highlight_theme(CodeTheme::default());
    syntaxes();
    release_free_memory();
}

/// Builds the grammars of the languages pages use most, every regex of them (~80 MB). For
/// measuring grammars: the app never does this, it compiles only the regexes code reaches.
pub fn warm_common_grammars() {
    highlight_theme(CodeTheme::default());
    for language in COMMON_LANGUAGES {
        if let Some(syntax) = find_syntax(language) {
            prepare_grammar(syntax);
        }
    }
}

/// Whether `language`'s grammar is built in full (false for a language without one).
pub fn grammar_ready(language: &str) -> bool {
    find_syntax(language)
        .and_then(syntax_index)
        .and_then(|index| grammar_cells().get(index))
        .is_some_and(|cell| cell.get().is_some())
}

/// Builds a grammar: syntect reads a grammar's rules and compiles its regexes lazily, the
/// first time a line reaches them, so a block's first lines would pay for it. Here every
/// context of the syntax is read and every regex compiled up front. Returns the other
/// syntaxes its contexts lead to (embedded languages), which need building too.
fn build_grammar(syntax_index: usize) -> Vec<usize> {
    let mut embedded = Vec::new();
    let built = catch_unwind(AssertUnwindSafe(|| {
        let mut context_index = 0;
        while let Some(context) = context_at(syntax_index, context_index) {
            for pattern in &context.patterns {
                let references: Vec<&ContextReference> = match pattern {
                    Pattern::Include(reference) => vec![reference],
                    Pattern::Match(matcher) => {
                        compile(matcher);
                        let mut references = match &matcher.operation {
                            MatchOperation::Push(targets) | MatchOperation::Set(targets) => {
                                targets.iter().collect()
                            }
                            MatchOperation::Pop | MatchOperation::None => Vec::new(),
                        };
                        references.extend(&matcher.with_prototype);
                        references
                    }
                };
                for other in references.into_iter().filter_map(reference_syntax) {
                    if other != syntax_index && !embedded.contains(&other) {
                        embedded.push(other);
                    }
                }
            }
            context_index += 1;
        }
    }));
    if built.is_err() {
        tracing::warn!(syntax_index, "building a grammar panicked");
    }
    embedded
}

/// Compiles a pattern's regex. One with back-references is compiled per match with the
/// captured text substituted, and used as it stands only when there is none; as it stands it
/// may not even compile (syntect would panic), so it is tried first.
fn compile(matcher: &MatchPattern) {
    if !matcher.has_captures || Regex::try_compile(matcher.regex.regex_str()).is_none() {
        matcher.regex.is_match("");
    }
}

/// The syntax a linked context reference points into.
fn reference_syntax(reference: &ContextReference) -> Option<usize> {
    let id = serde_json::to_value(reference.id().ok()?).ok()?;
    id.get("syntax_index")?.as_u64()?.try_into().ok()
}

/// A context of a syntax by position. syntect keeps context ids opaque but serializable;
/// going through serde is the one public way to name them. `None` past the last context.
fn context_at(syntax_index: usize, context_index: usize) -> Option<&'static Context> {
    let reference: ContextReference = serde_json::from_value(serde_json::json!({
        "Direct": { "syntax_index": syntax_index, "context_index": context_index }
    }))
    .ok()?;
    reference.resolve(syntaxes()).ok()
}

/// The syntect theme for `theme`; syntect's themes are read together, once.
fn highlight_theme(theme: CodeTheme) -> &'static syntect::highlighting::Theme {
    static THEMES: OnceLock<ThemeSet> = OnceLock::new();
    static FALLBACK: OnceLock<syntect::highlighting::Theme> = OnceLock::new();
    let themes = THEMES.get_or_init(ThemeSet::load_defaults);
    themes
        .themes
        .get(theme.name())
        .unwrap_or_else(|| FALLBACK.get_or_init(Default::default))
}

/// The syntax for a fence's language token, accepting common aliases.
fn find_syntax(language: &str) -> Option<&'static SyntaxReference> {
    let lower = language.to_ascii_lowercase();
    let token = match lower.as_str() {
        "" | "text" | "txt" | "plain" | "plaintext" | "none" => return None,
        "typescript" | "mts" | "cts" => "ts",
        "jsx" | "mjs" | "cjs" | "node" | "javascript" => "js",
        "shell" | "zsh" | "console" | "terminal" | "shellscript" | "bash" => "sh",
        "golang" => "go",
        "yml" => "yaml",
        "c++" => "cpp",
        "csharp" | "c#" => "cs",
        "py3" | "python3" => "py",
        other => other,
    };
    syntaxes().find_syntax_by_token(token)
}

/// Highlights every block; `None` for a block left plain (unknown language, over budget,
/// panic).
#[cfg(test)]
pub(super) fn highlight_all(jobs: Vec<Job>, budget: Duration) -> Vec<Option<Highlighted>> {
    let mut results: Vec<Option<Highlighted>> = vec![None; jobs.len()];
    highlight_each(jobs, budget, |index, lines| results[index] = Some(lines));
    results
}

/// Highlights the blocks in order and hands each coloured one to `on_block` as soon as it is
/// done, so a big page never holds the tokens of all its blocks at once. Blocks left plain
/// (unknown language, over budget, panic) are skipped.
pub(super) fn highlight_each(
    jobs: Vec<Job>,
    budget: Duration,
    mut on_block: impl FnMut(usize, Highlighted),
) {
    // Before anything here reads the syntax set: with a worker process, quire never does.
    let start = match worker::highlight_in_worker(&jobs, budget, &mut on_block) {
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
    let jobs = Arc::new(jobs);
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
        let result = highlight_one(job, budget, cancel);
        if sender.send((index, result)).is_err() {
            return;
        }
    }
}

/// One block, `None` when it stays plain (unknown language, over budget, cancelled, or a
/// panic inside syntect).
fn highlight_one(job: &Job, budget: Duration, cancel: &AtomicBool) -> Option<Highlighted> {
    catch_unwind(AssertUnwindSafe(|| highlight_block(job, budget, cancel)))
        .ok()
        .flatten()
}

fn highlight_block(job: &Job, budget: Duration, cancel: &AtomicBool) -> Option<Highlighted> {
    let syntax = find_syntax(&job.language)?;
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
        let regions = highlighter.highlight_line(&with_newline, syntaxes()).ok()?;
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

/// The terminal style of a highlighted token on top of the code block's style.
pub(super) fn token_style(token: &Token, base: Style, depth: ColorDepth) -> Style {
    let mut style = base;
    if let Some((red, green, blue)) = token.foreground {
        style = style.fg(map_colour(red, green, blue, depth));
    }
    if token.font.contains(FontStyle::BOLD) {
        style = style.add_modifier(Modifier::BOLD);
    }
    if token.font.contains(FontStyle::ITALIC) {
        style = style.add_modifier(Modifier::ITALIC);
    }
    if token.font.contains(FontStyle::UNDERLINE) {
        style = style.add_modifier(Modifier::UNDERLINED);
    }
    style
}

pub(super) fn map_colour(red: u8, green: u8, blue: u8, depth: ColorDepth) -> Color {
    match depth {
        ColorDepth::TrueColor => Color::Rgb(red, green, blue),
        ColorDepth::Ansi256 => Color::Indexed(nearest_xterm(red, green, blue)),
        ColorDepth::Ansi16 => nearest_ansi16(red, green, blue),
    }
}

/// The nearest of the 6×6×6 cube and the grey ramp of the 256-colour palette.
fn nearest_xterm(red: u8, green: u8, blue: u8) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let nearest_level = |value: u8| -> usize {
        (0..6)
            .min_by_key(|index| (i32::from(LEVELS[*index]) - i32::from(value)).abs())
            .unwrap_or(0)
    };
    let distance = |a: (u8, u8, u8)| -> i32 {
        let dr = i32::from(a.0) - i32::from(red);
        let dg = i32::from(a.1) - i32::from(green);
        let db = i32::from(a.2) - i32::from(blue);
        dr * dr + dg * dg + db * db
    };
    let (r, g, b) = (
        nearest_level(red),
        nearest_level(green),
        nearest_level(blue),
    );
    let cube_index = 16 + 36 * r + 6 * g + b;
    let cube_distance = distance((LEVELS[r], LEVELS[g], LEVELS[b]));
    let average = (u32::from(red) + u32::from(green) + u32::from(blue)) / 3;
    let grey_step = (average.saturating_sub(8) / 10).min(23);
    let grey = u8::try_from(8 + 10 * grey_step).unwrap_or(238);
    let grey_distance = distance((grey, grey, grey));
    let index = if grey_distance < cube_distance {
        232 + grey_step as usize
    } else {
        cube_index
    };
    u8::try_from(index).unwrap_or(15)
}

/// The nearest named ANSI colour by hue: syntax themes use soft pastels, which plain RGB
/// distance would turn all grey; hue keeps keywords, strings and numbers apart.
fn nearest_ansi16(red: u8, green: u8, blue: u8) -> Color {
    let (r, g, b) = (f32::from(red), f32::from(green), f32::from(blue));
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let lightness = (max + min) / 2.0 / 255.0;
    let chroma = (max - min) / 255.0;
    if chroma < 0.1 {
        return if lightness < 0.55 {
            Color::DarkGray
        } else if lightness < 0.85 {
            Color::Gray
        } else {
            Color::White
        };
    }
    let hue = if max == r {
        60.0 * (((g - b) / (max - min)).rem_euclid(6.0))
    } else if max == g {
        60.0 * ((b - r) / (max - min) + 2.0)
    } else {
        60.0 * ((r - g) / (max - min) + 4.0)
    };
    let light = lightness > 0.65;
    let (normal, bright) = match hue {
        h if !(20.0..330.0).contains(&h) => (Color::Red, Color::LightRed),
        h if h < 70.0 => (Color::Yellow, Color::LightYellow),
        h if h < 160.0 => (Color::Green, Color::LightGreen),
        h if h < 200.0 => (Color::Cyan, Color::LightCyan),
        h if h < 260.0 => (Color::Blue, Color::LightBlue),
        _ => (Color::Magenta, Color::LightMagenta),
    };
    if light { bright } else { normal }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_colours_map_to_their_ansi_names() {
        assert_eq!(nearest_ansi16(205, 0, 0), Color::Red);
        assert_eq!(nearest_ansi16(0, 205, 0), Color::Green);
        assert_eq!(nearest_ansi16(0, 0, 238), Color::Blue);
        assert_eq!(nearest_ansi16(255, 255, 255), Color::White);
        assert_eq!(nearest_ansi16(127, 127, 127), Color::DarkGray);
        // base16-ocean's pastels keep distinct hues.
        assert_eq!(nearest_ansi16(0xa3, 0xbe, 0x8c), Color::Green);
        assert_eq!(nearest_ansi16(0xb4, 0x8e, 0xad), Color::Magenta);
        assert_eq!(nearest_ansi16(0x8f, 0xa1, 0xb3), Color::Blue);
    }

    #[test]
    fn xterm_mapping_picks_cube_or_grey() {
        assert_eq!(nearest_xterm(255, 0, 0), 196);
        assert_eq!(nearest_xterm(0, 0, 0), 16);
        assert_eq!(nearest_xterm(128, 128, 128), 244);
        assert_eq!(nearest_xterm(95, 135, 175), 67);
    }

    #[test]
    fn aliases_find_syntaxes_and_unknown_languages_do_not() {
        for language in [
            "rust",
            "rs",
            "py",
            "python",
            "ts",
            "typescript",
            "tsx",
            "toml",
            "sql",
            "sh",
            "bash",
            "json",
            "yml",
            "go",
        ] {
            assert!(find_syntax(language).is_some(), "{language}");
        }
        assert!(find_syntax("klingon").is_none());
        assert!(find_syntax("").is_none());
    }

    #[test]
    fn highlighting_colours_keywords_and_keeps_text() {
        let jobs = vec![Job {
            language: "rust".into(),
            lines: vec!["fn main() {}".into()],
            theme: CodeTheme::default(),
        }];
        let results = highlight_all(jobs, default_budget());
        let lines = results[0].as_ref().expect("highlighted");
        let text: String = lines[0].iter().map(|token| token.text.as_str()).collect();
        assert_eq!(text, "fn main() {}");
        assert!(lines[0].iter().any(|token| token.foreground.is_some()));
    }

    fn default_budget() -> Duration {
        super::super::RenderOptions::default().highlight_budget
    }

    /// The demo's languages, each seen for the first time in its own block, all highlight
    /// within the budget a user gets: compiling a grammar's regexes fits the first block's.
    #[test]
    fn every_language_highlights_the_first_time_with_the_default_budget() {
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
        let results = highlight_all(jobs, default_budget());
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
        let results = highlight_all(jobs, default_budget());
        let lines = results[0].as_ref().expect("highlighted");
        assert!(lines[0].iter().any(|token| token.foreground.is_some()));
        assert!(!grammar_ready("ruby"));
    }

    /// Warming reaches syntect's contexts through serde: if syntect ever changed how it
    /// serializes context ids, warming would silently do nothing. It must find them all.
    #[test]
    fn grammars_are_built_from_every_context() {
        let rust = find_syntax("rust").and_then(syntax_index).expect("rust");
        let contexts = (0..)
            .take_while(|index| context_at(rust, *index).is_some())
            .count();
        assert!(contexts > 50, "only {contexts} contexts");
    }

    #[test]
    fn warming_builds_the_common_grammars() {
        warm_common_grammars();
        for language in COMMON_LANGUAGES {
            assert!(grammar_ready(language), "{language}");
        }
        assert!(!grammar_ready("klingon"));
    }

    /// The code blocks of the demo's Quickstart page (one per common language).
    fn quickstart_blocks() -> Vec<(String, Vec<String>)> {
        let page = include_str!("../../sandbox/demo/pages/quickstart.md");
        let mut blocks = Vec::new();
        let mut open: Option<(String, Vec<String>)> = None;
        for line in page.lines() {
            match (line.trim_start().strip_prefix("```"), open.take()) {
                (Some(_), Some(block)) => blocks.push(block),
                (Some(language), None) => open = Some((language.to_string(), Vec::new())),
                (None, Some((language, mut lines))) => {
                    lines.push(format!("{line}\n"));
                    open = Some((language, lines));
                }
                (None, None) => {}
            }
        }
        blocks
    }

    fn styles_with(set: &SyntaxSet, syntax_name: &str, lines: &[String]) -> Vec<String> {
        let syntax = set.find_syntax_by_name(syntax_name).expect("syntax");
        let mut highlighter = HighlightLines::new(syntax, highlight_theme(CodeTheme::default()));
        lines
            .iter()
            .map(|line| format!("{:?}", highlighter.highlight_line(line, set).expect("line")))
            .collect()
    }

    /// ASCII classes change nothing on the code documentation shows: every Quickstart block
    /// is coloured exactly as with the grammars' Unicode classes.
    #[test]
    fn ascii_classes_colour_the_quickstart_code_as_before() {
        let unicode = two_face::syntax::extra_newlines();
        let blocks = quickstart_blocks();
        assert!(blocks.len() >= 8, "{} blocks", blocks.len());
        for (language, lines) in blocks {
            let Some(syntax) = find_syntax(&language) else {
                continue;
            };
            assert_eq!(
                styles_with(syntaxes(), &syntax.name, &lines),
                styles_with(&unicode, &syntax.name, &lines),
                "{language}"
            );
        }
    }

    /// Every rewritten regex of the common grammars still compiles.
    #[test]
    fn rewritten_regexes_of_the_common_grammars_compile() {
        for language in COMMON_LANGUAGES {
            let syntax = find_syntax(language)
                .and_then(syntax_index)
                .expect("syntax");
            let patterns = (0..)
                .map_while(|index| context_at(syntax, index))
                .flat_map(|context| &context.patterns);
            for pattern in patterns {
                if let Pattern::Match(matcher) = pattern
                    && !matcher.has_captures
                {
                    let regex = matcher.regex.regex_str();
                    assert!(Regex::try_compile(regex).is_none(), "{language}: {regex}");
                }
            }
        }
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
        let started = Instant::now();
        let results = highlight_all(vec![slow, quick], Duration::from_millis(100));
        assert!(results[0].is_none());
        // The second block may itself be slow in a debug build; it must not wait on the first.
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}

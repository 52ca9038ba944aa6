//! Fenced code through syntect, with a time budget per block.
//!
//! Some of syntect's regexes backtrack for minutes on unlucky input, so blocks are highlighted
//! on a worker thread: the worker gives up on a block once its budget is spent (checked after
//! every line), and if one line alone outlasts the budget the caller stops waiting, shows that
//! block plain and carries on with a fresh worker. A panic inside syntect also means "plain".

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use ratatui::style::{Color, Modifier, Style};
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, ThemeSet};
use syntect::parsing::{SyntaxReference, SyntaxSet};

use super::ColorDepth;

/// The syntect theme: dark, because terminals mostly are; its default foreground is left to
/// the terminal so it reads on light backgrounds too.
const HIGHLIGHT_THEME: &str = "base16-ocean.dark";

/// Extra time the caller waits past the budget before abandoning a stuck worker.
const GRACE: Duration = Duration::from_millis(10);

/// One code block to highlight: its language token and its (sanitized) lines.
pub(super) struct Job {
    pub language: String,
    pub lines: Vec<String>,
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

fn syntaxes() -> &'static SyntaxSet {
    static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();
    SYNTAXES.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn highlight_theme() -> &'static syntect::highlighting::Theme {
    static THEME: OnceLock<syntect::highlighting::Theme> = OnceLock::new();
    THEME.get_or_init(|| {
        ThemeSet::load_defaults()
            .themes
            .remove(HIGHLIGHT_THEME)
            .unwrap_or_default()
    })
}

/// The syntax for a fence's language token, accepting common aliases.
fn find_syntax(language: &str) -> Option<&'static SyntaxReference> {
    let lower = language.to_ascii_lowercase();
    let token = match lower.as_str() {
        "" | "text" | "txt" | "plain" | "plaintext" | "none" => return None,
        "ts" | "tsx" | "typescript" | "jsx" | "mjs" | "cjs" | "node" | "javascript" => "js",
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
pub(super) fn highlight_all(jobs: Vec<Job>, budget: Duration) -> Vec<Option<Highlighted>> {
    let count = jobs.len();
    let mut results: Vec<Option<Highlighted>> = vec![None; count];
    if jobs.iter().all(|job| find_syntax(&job.language).is_none()) {
        return results;
    }
    // Load the syntaxes and theme here, not inside the first block's budget.
    highlight_theme();
    let jobs = Arc::new(jobs);
    let mut next = 0;
    while next < count {
        let (sender, receiver) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let worker_jobs = Arc::clone(&jobs);
        let worker_cancel = Arc::clone(&cancel);
        let start = next;
        let spawned = thread::Builder::new()
            .name("quire-highlight".into())
            .spawn(move || work(&worker_jobs, start, budget, &worker_cancel, &sender));
        if spawned.is_err() {
            break;
        }
        loop {
            match receiver.recv_timeout(budget + GRACE) {
                Ok((index, result)) => {
                    results[index] = result;
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
    results
}

fn work(
    jobs: &[Job],
    start: usize,
    budget: Duration,
    cancel: &AtomicBool,
    sender: &mpsc::Sender<(usize, Option<Highlighted>)>,
) {
    for (index, job) in jobs.iter().enumerate().skip(start) {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let result = catch_unwind(AssertUnwindSafe(|| highlight_block(job, budget, cancel)))
            .ok()
            .flatten();
        if sender.send((index, result)).is_err() {
            return;
        }
    }
}

fn highlight_block(job: &Job, budget: Duration, cancel: &AtomicBool) -> Option<Highlighted> {
    let started = Instant::now();
    let syntax = find_syntax(&job.language)?;
    let theme = highlight_theme();
    let default_foreground = theme.settings.foreground;
    let mut highlighter = HighlightLines::new(syntax, theme);
    let mut lines = Vec::with_capacity(job.lines.len());
    let mut with_newline = String::new();
    for line in &job.lines {
        if started.elapsed() > budget || cancel.load(Ordering::Relaxed) {
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
            "rust", "rs", "py", "python", "ts", "sh", "bash", "json", "yml", "go",
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
        }];
        let results = highlight_all(jobs, Duration::from_secs(30));
        let lines = results[0].as_ref().expect("highlighted");
        let text: String = lines[0].iter().map(|token| token.text.as_str()).collect();
        assert_eq!(text, "fn main() {}");
        assert!(lines[0].iter().any(|token| token.foreground.is_some()));
    }

    #[test]
    fn a_block_over_budget_stays_plain_and_the_rest_still_highlight() {
        let slow = Job {
            language: "rust".into(),
            lines: vec!["let x = 1;".into(); 200_000],
        };
        let quick = Job {
            language: "rust".into(),
            lines: vec!["let y = 2;".into()],
        };
        let started = Instant::now();
        let results = highlight_all(vec![slow, quick], Duration::from_millis(100));
        assert!(results[0].is_none());
        // The second block may itself be slow in a debug build; it must not wait on the first.
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}

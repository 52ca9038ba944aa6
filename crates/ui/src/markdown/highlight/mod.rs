//! Fenced code through syntect (with two-face's syntax set), with a time budget per block.
//!
//! A grammar is built (its rules read and its regexes compiled) the first time it is used,
//! which takes far longer than highlighting a block. Compiled regexes are big (all of
//! TypeScript's took ~25 MB before fancy-regex shared identical pieces), so they are compiled
//! as syntect reaches them, and only those a
//! page's code needs are ever built: the first block of a language in the process pays for
//! them, and gets [`FIRST_BLOCK_BUDGETS`] budgets for it, so the budget still measures
//! highlighting work. At start only the syntax set is read ([`warm_syntax_set`]), which would
//! otherwise make the first colouring slow.
//!
//! Some of syntect's regexes backtrack for minutes on unlucky input, so blocks are highlighted
//! on a worker thread: the worker gives up on a block once its budget is spent (checked after
//! every line), and if one line alone outlasts the budget the caller stops waiting, shows that
//! block plain and carries on with a fresh worker. A panic inside syntect also means "plain".

use std::time::Duration;

use syntect::highlighting::FontStyle;

mod ascii_classes;
mod atomic_tails;
mod budget;
mod colours;
mod reuse;
mod syntaxes;
pub mod worker;

pub use crate::code_colours::CodeTheme;
pub(super) use budget::highlight_each;
pub(super) use colours::token_style;
pub use syntaxes::{grammar_ready, syntax_set_in_memory, warm_common_grammars, warm_syntax_set};

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

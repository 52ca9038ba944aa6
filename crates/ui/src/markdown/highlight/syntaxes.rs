//! The syntax set (two-face's, with ASCII character classes), syntect's themes, and grammars
//! built on demand: what highlighting reads, each loaded once per process.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use syntect::highlighting::ThemeSet;
use syntect::parsing::syntax_definition::{
    Context, ContextReference, MatchOperation, MatchPattern, Pattern,
};
use syntect::parsing::{Regex, SyntaxReference, SyntaxSet, SyntaxSetBuilder};

use super::ascii_classes::ascii_classes;
use super::atomic_tails::atomic_tails;
use super::{CodeTheme, release_free_memory};
#[cfg(test)]
use syntect::easy::HighlightLines;

/// Languages warmed at start: what documentation pages show most.
const COMMON_LANGUAGES: &[&str] = &[
    "rust", "python", "ts", "js", "go", "sql", "sh", "json", "yaml", "toml",
];

/// two-face's syntax set: syntect's defaults plus TypeScript, TOML and many more, in the
/// fancy-regex flavour (no C regex library), with ASCII character classes.
static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();

/// [`with_rewritten_regexes`] of two-face's set, built ahead of time. Building it takes a worker
/// most of a second at every start, most of it in syntect's builder compressing every syntax's
/// rules again (deflate at its best level); read from here it is ready in milliseconds, its
/// syntaxes' rules still compressed until used. A test checks that it is what building it now
/// gives (and says how to write it again).
const SHIPPED_SYNTAXES: &[u8] = include_bytes!("../../../assets/ascii-syntaxes.packdump");

pub(super) fn syntaxes() -> &'static SyntaxSet {
    SYNTAXES.get_or_init(read_syntax_set)
}

/// A syntax set of its own, none of its grammars built: the worker process reads one per
/// language it colours ([`super::worker`] says why).
pub(super) fn read_syntax_set() -> SyntaxSet {
    let set = syntect::dumps::from_uncompressed_data(SHIPPED_SYNTAXES)
        .inspect_err(|error| tracing::warn!(%error, "the shipped syntax set is unreadable"))
        .unwrap_or_else(|_| with_rewritten_regexes(two_face::syntax::extra_newlines()));
    release_shipped_pages();
    set
}

/// The set read copies what it needs of [`SHIPPED_SYNTAXES`] (~1 MB in the binary), so the
/// pages reading it brought in are handed back rather than kept resident: they are the
/// binary's own, read again from it should the set be read again.
fn release_shipped_pages() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf only reads a system setting.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(0);
        if page == 0 {
            return;
        }
        let start = SHIPPED_SYNTAXES.as_ptr() as usize;
        let first = start.div_ceil(page) * page;
        let last = (start + SHIPPED_SYNTAXES.len()) / page * page;
        if last > first {
            // SAFETY: `first..last` lies inside a static the binary maps read-only from its
            // own file. Dropping those pages changes no byte of it: the next read of them
            // faults the same bytes back in from the file.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_DONTNEED,
                );
            }
        }
    }
}

/// Whether this process has read the syntax set (with a highlight worker, it never does).
pub fn syntax_set_in_memory() -> bool {
    SYNTAXES.get().is_some()
}

/// `set` with every regex's Unicode classes made ASCII ([`ascii_classes`] says why) and the
/// hard tails of its atomic parts in atomic groups ([`atomic_tails`]: TypeScript's compiled
/// regexes take less than half the memory). The set is rebuilt from its definitions in the
/// same order, so the syntaxes' links into each other stay valid. Its regexes are not
/// compiled here: that is still per grammar, when needed.
fn with_rewritten_regexes(set: SyntaxSet) -> SyntaxSet {
    with_regexes_rewritten_by(set, rewritten_regex)
}

fn with_regexes_rewritten_by(
    set: SyntaxSet,
    rewrite: impl for<'a> Fn(&'a str) -> Cow<'a, str>,
) -> SyntaxSet {
    let mut rewritten = SyntaxSetBuilder::new();
    for definition in set.into_builder().syntaxes() {
        let mut definition = definition.clone();
        for context in definition.contexts.values_mut() {
            for pattern in &mut context.patterns {
                if let Pattern::Match(matcher) = pattern
                    && let Cow::Owned(regex) = rewrite(matcher.regex.regex_str())
                {
                    matcher.regex = Regex::new(regex);
                }
            }
        }
        rewritten.add(definition);
    }
    rewritten.build()
}

/// A grammar's regex as the shipped syntax set has it; borrowed when unchanged.
fn rewritten_regex(regex: &str) -> Cow<'_, str> {
    match ascii_classes(regex) {
        Cow::Borrowed(regex) => atomic_tails(regex),
        Cow::Owned(ascii) => Cow::Owned(atomic_tails(&ascii).into_owned()),
    }
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

pub(super) fn syntax_index(syntax: &SyntaxReference) -> Option<usize> {
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

/// Builds the grammars of the languages pages use most, every regex of them (~60 MB). For
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
pub(super) fn highlight_theme(theme: CodeTheme) -> &'static syntect::highlighting::Theme {
    static THEMES: OnceLock<ThemeSet> = OnceLock::new();
    static FALLBACK: OnceLock<syntect::highlighting::Theme> = OnceLock::new();
    let themes = THEMES.get_or_init(ThemeSet::load_defaults);
    themes
        .themes
        .get(theme.name())
        .unwrap_or_else(|| FALLBACK.get_or_init(Default::default))
}

/// The syntax for a fence's language token, accepting common aliases.
pub(super) fn find_syntax(language: &str) -> Option<&'static SyntaxReference> {
    find_syntax_in(syntaxes(), language)
}

/// [`find_syntax`] in `set`.
pub(super) fn find_syntax_in<'s>(
    set: &'s SyntaxSet,
    language: &str,
) -> Option<&'s SyntaxReference> {
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
    set.find_syntax_by_token(token)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let page = include_str!("../../../../sandbox/src/demo/pages/quickstart.md");
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

    /// The atomic groups change no colour: the Quickstart blocks, and TypeScript that reaches
    /// the rewritten look-aheads, are coloured as with the ASCII rewrite alone.
    #[test]
    fn atomic_tails_colour_code_as_before() {
        let ascii_only =
            with_regexes_rewritten_by(two_face::syntax::extra_newlines(), ascii_classes);
        let script = super::super::atomic_tails::tests::SCRIPT_LINES
            .iter()
            .map(|line| format!("{line}\n"))
            .collect();
        let mut blocks = quickstart_blocks();
        blocks.push(("typescript".to_string(), script));
        blocks.push(("tsx".to_string(), blocks[blocks.len() - 1].1.clone()));
        for (language, lines) in blocks {
            let Some(syntax) = find_syntax(&language) else {
                continue;
            };
            assert_eq!(
                styles_with(syntaxes(), &syntax.name, &lines),
                styles_with(&ascii_only, &syntax.name, &lines),
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

    /// The shipped syntax set is two-face's of today with today's rewrites. After
    /// updating two-face or syntect, or changing the rewrite, write it again with
    /// `QUIRE_WRITE_SYNTAX_SET=1 cargo test -p quire-ui shipped_syntax_set`.
    #[test]
    fn the_shipped_syntax_set_is_built_from_todays_grammars() {
        let built = with_rewritten_regexes(two_face::syntax::extra_newlines());
        let file = tempfile::NamedTempFile::new().unwrap();
        syntect::dumps::dump_to_uncompressed_file(&built, file.path()).unwrap();
        let bytes = std::fs::read(file.path()).unwrap();
        if std::env::var_os("QUIRE_WRITE_SYNTAX_SET").is_some() {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/ascii-syntaxes.packdump"
            );
            std::fs::write(path, &bytes).unwrap();
        }
        assert!(
            syntect::dumps::from_uncompressed_data::<SyntaxSet>(SHIPPED_SYNTAXES).is_ok(),
            "the shipped syntax set is read as it stands, not rebuilt"
        );
        assert!(
            bytes == SHIPPED_SYNTAXES,
            "the shipped syntax set is stale: write it again as the comment above says"
        );
    }
}

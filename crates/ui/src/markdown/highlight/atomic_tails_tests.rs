use super::atomic_tails;

use fancy_regex::RegexBuilder;

fn compiled(pattern: &str) -> fancy_regex::Regex {
    RegexBuilder::new(pattern)
        .oniguruma_mode(true)
        .build()
        .expect("pattern compiles")
}

#[test]
fn a_hard_tail_of_a_look_ahead_becomes_atomic() {
    assert_eq!(
        atomic_tails(r"a(?=b*(c|(?<!x)d))z"),
        r"a(?=b*(?>(c|(?<!x)d)))z"
    );
    assert_eq!(atomic_tails(r"(?<=a(b|\bc))x"), r"(?<=a(?>(b|\bc)))x");
    assert_eq!(atomic_tails(r"(?!a(b|\bc))x"), r"(?!a(?>(b|\bc)))x");
    assert_eq!(atomic_tails(r"(?>a(b|\bc))x"), r"(?>a(?>(b|\bc)))x");
}

#[test]
fn the_body_of_a_look_ahead_ending_the_pattern_becomes_atomic() {
    assert_eq!(atomic_tails(r"x(?=a|\bc)"), r"x(?=(?>a|\bc))");
    assert_eq!(
        atomic_tails(r"x+(?=\s*(=|:(?<!\.)F))"),
        r"x+(?=(?>\s*(?>(=|:(?<!\.)F))))"
    );
    assert_eq!(atomic_tails(r"(?=a(b|\bc))"), r"(?=(?>a(?>(b|\bc))))");
    assert_eq!(
        atomic_tails(r"(?:x(?:(?=a|\bc)))"),
        r"(?:x(?:(?=(?>a|\bc))))"
    );
    // Not at the end, or in an alternation: fancy-regex runs it as a look-ahead.
    assert_eq!(atomic_tails(r"x(?=a|\bc)y"), r"x(?=a|\bc)y");
    assert_eq!(atomic_tails(r"x(?=a|\bc)|y"), r"x(?=a|\bc)|y");
    // An easy body is compiled whole already; a group of just a look-around is left alone.
    assert_eq!(
        atomic_tails(r"(?:a|b)(?x:(?=\s*$|\s+\#))"),
        r"(?:a|b)(?x:(?=\s*$|\s+\#))"
    );
}

#[test]
fn the_pattern_itself_is_atomic() {
    assert_eq!(atomic_tails(r"x+(y|\bz)"), r"x+(?>(y|\bz))");
    assert_eq!(atomic_tails(r"x|y+(y|\bz)"), r"x|y+(?>(y|\bz))");
    assert_eq!(atomic_tails(r"(?i:a(b|\bc))"), r"(?i:a(?>(b|\bc)))");
}

#[test]
fn tails_nest_down_through_groups_and_optional_elements() {
    assert_eq!(
        atomic_tails(r"a(?=b*(c(?:d|e\b)))z"),
        r"a(?=b*(?>(c(?>(?:d|e\b)))))z"
    );
    assert_eq!(atomic_tails(r"a(?=b(c|\bd)?)z"), r"a(?=b(?>(c|\bd)?))z");
    assert_eq!(atomic_tails(r"a(?=b(c|\bd)??)z"), r"a(?=b(?>(c|\bd)??))z");
    assert_eq!(
        atomic_tails(r"a(?=b(?<name>c|d(?=e)))z"),
        r"a(?=b(?>(?<name>c|d(?=e))))z"
    );
}

#[test]
fn what_is_not_a_hard_tail_stays() {
    for pattern in [
        // Easy: fancy-regex compiles it whole already.
        r"a(?=b*(c|d))",
        // Something follows it.
        r"x+(y|\bz)x",
        r"a(?=b(c|\bd)e)z",
        // Repeated: its body is not a tail.
        r"a(?=b(c|\bd)*)z",
        r"a(?=b(c|\bd){2})z",
        r"a(?=b(c|\bd)?+)z",
        // Alone in its branch: fancy-regex compiles it as a tail already.
        r"a(?=(c|\bd))z",
        r"(c|\bd)",
        // Look-arounds and atomic groups are atomic already.
        r"a(?=b(?=c|\bd))z",
        r"a(?=b(?>c|\bd))z",
        // Back-references and conditionals.
        r"(a)(?=b(c|\bd))\1",
        r"(a)?(?(1)b|c(d|\be))",
        // Not a pattern.
        r"a(?=b(c|\bd)",
        r"a(?=b(c|\bd)))",
        "",
    ] {
        assert_eq!(atomic_tails(pattern), pattern);
    }
}

#[test]
fn escapes_classes_and_comments_are_read_and_kept() {
    assert_eq!(
        atomic_tails(r"\((?=\)[)(\]](b|\bc))z"),
        r"\((?=\)[)(\]](?>(b|\bc)))z"
    );
    assert_eq!(
        atomic_tails(r"a(?=b(?# ( )(c|\bd))z"),
        r"a(?=b(?# ( )(?>(c|\bd)))z"
    );
    assert_eq!(
        atomic_tails("(?x) a (?= \\( # a ( comment\n [)(] (b|\\bc) # tail\n )z"),
        "(?x) a (?= \\( # a ( comment\n [)(] (?>(b|\\bc)) # tail\n )z"
    );
    // Without extended mode a `#` is a literal, and `(?x:…)` ends extended mode with it.
    assert_eq!(atomic_tails(r"a(?=#(b|\bc))z"), r"a(?=#(?>(b|\bc)))z");
    assert_eq!(
        atomic_tails("(?x:a)(?=# \n(b|\\bc))z"),
        "(?x:a)(?=# \n(?>(b|\\bc)))z"
    );
    assert_eq!(
        atomic_tails(r"a(?=\x{28}[[:alpha:]\d](b|\bc))z"),
        r"a(?=\x{28}[[:alpha:]\d](?>(b|\bc)))z"
    );
}

#[test]
fn capture_groups_keep_their_numbers() {
    let original = r"(\w+)(?=\s*(=\s*(async\s+)?function|:\s*(?<!\.)(\w+)\b|(\()))";
    let rewritten = atomic_tails(original);
    assert_ne!(rewritten, original);
    let (before, after) = (compiled(original), compiled(&rewritten));
    assert_eq!(before.captures_len(), after.captures_len());
    for line in [
        "const f = async function () {}",
        "let g: Function = h",
        "handler(event)",
        "nothing here",
    ] {
        let positions = |regex: &fancy_regex::Regex| {
            regex.captures(line).expect("no error").map(|captures| {
                captures
                    .iter()
                    .map(|group| group.map(|found| found.range()))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(positions(&before), positions(&after), "{line}");
    }
}

/// Lines of TypeScript and JavaScript that reach the patterns this rewrites most: arrow
/// functions, function expressions, type annotations, generics, destructuring.
pub(in crate::markdown::highlight) const SCRIPT_LINES: &[&str] = &[
    "const add = (a: number, b: number): number => a + b;",
    "let handler = async function (event) { return event; };",
    "export const fetchAll = async <T,>(urls: string[]): Promise<T[]> => {",
    "const pick: <K extends keyof T>(key: K) => T[K] = (key) => obj[key];",
    "var legacy = function* gen() { yield 1; };",
    "callback: Function = () => {},",
    "onClick: (event: MouseEvent) => void;",
    "const { a, b: [c, d] } = source;",
    "private readonly cache = new Map<string, Array<number>>();",
    "static create = async ({ id, name }: Props): Promise<Robot> => new Robot(id, name);",
    "x = y => y * 2, z = function () {}",
    "type Fn = (...args: any[]) => unknown;",
    "let f: (this: Window, ...rest: string[]) => void = noop;",
    "obj.method = async (a = 1, { b } = {}) => await a;",
    "const sum = nums.reduce((acc, n) => acc + n, 0);",
    "const re = /=>\\s*function/g, s = `${a => a}`;",
    "function overloaded(x: string): string; // comment => here",
    "export default class Fleet<T extends Robot = Robot> implements Api {",
    "if (a < b && c > d) { return <div>{items.map(i => <li key={i}>{i}</li>)}</div>; }",
    "abstract get size(): number",
    "declare module \"fleet\" { export function connect(url?: string): void }",
];

/// The code blocks of the demo's Quickstart page, one line each.
fn quickstart_lines() -> Vec<&'static str> {
    include_str!("../../../../sandbox/src/demo/pages/quickstart.md")
        .lines()
        .collect()
}

/// Every match pattern of two-face's grammars, as the ASCII rewrite leaves it, once each.
fn grammar_patterns() -> Vec<String> {
    let mut patterns = std::collections::BTreeSet::new();
    for definition in two_face::syntax::extra_newlines().into_builder().syntaxes() {
        for context in definition.contexts.values() {
            for pattern in &context.patterns {
                if let syntect::parsing::syntax_definition::Pattern::Match(matcher) = pattern {
                    let ascii =
                        super::super::ascii_classes::ascii_classes(matcher.regex.regex_str());
                    patterns.insert(ascii.into_owned());
                }
            }
        }
    }
    patterns.into_iter().collect()
}

/// What syntect keeps of a search from `start`: the groups' spans, `None` for no match.
type Found = Option<Vec<Option<std::ops::Range<usize>>>>;

fn search(regex: &fancy_regex::Regex, line: &str, start: usize) -> Result<Found, String> {
    regex
        .captures_from_pos(line, start)
        .map(|captures| {
            captures.map(|captures| {
                captures
                    .iter()
                    .map(|group| group.map(|found| found.range()))
                    .collect()
            })
        })
        .map_err(|error| error.to_string())
}

/// Where syntect starts searches: each token of a line (a word, or one other character).
fn token_starts(line: &str) -> impl Iterator<Item = usize> + '_ {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    line.char_indices()
        .scan(None, move |previous: &mut Option<char>, (at, c)| {
            let starts = !matches!(*previous, Some(before) if word(before) && word(c));
            *previous = Some(c);
            Some(starts.then_some(at))
        })
        .flatten()
}

/// Every pattern of the grammars the rewrite changes finds, from every token of every line
/// of the corpus, the same match with the same groups as before (as syntect searches, with a
/// line's newline). Where the original gives up (its backtracking limit, lowered here to keep
/// the test quick) any answer is taken: syntect reads that as no match.
#[test]
fn rewritten_grammar_patterns_match_as_before() {
    let lines: Vec<String> = quickstart_lines()
        .into_iter()
        .chain(SCRIPT_LINES.iter().copied())
        .map(|line| format!("{line}\n"))
        .collect();
    let limited = |pattern: &str| {
        RegexBuilder::new(pattern)
            .oniguruma_mode(true)
            .backtrack_limit(20_000)
            .build()
            .expect("pattern compiles")
    };
    let mut changed = 0;
    for pattern in grammar_patterns() {
        let rewritten = atomic_tails(&pattern);
        if rewritten == pattern {
            continue;
        }
        changed += 1;
        let (before, after) = (limited(&pattern), limited(&rewritten));
        assert_eq!(before.captures_len(), after.captures_len(), "{pattern}");
        for line in &lines {
            for start in token_starts(line) {
                let Ok(expected) = search(&before, line, start) else {
                    continue;
                };
                assert_eq!(
                    search(&after, line, start),
                    Ok(expected),
                    "{pattern}\n{rewritten}\n{line:?} from {start}"
                );
            }
        }
    }
    assert!(changed > 0, "the rewrite changed no pattern");
}

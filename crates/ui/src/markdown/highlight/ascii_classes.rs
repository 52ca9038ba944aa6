//! Rewrites a grammar's regex so its shorthand classes match ASCII only.
//!
//! fancy-regex hands `\w`, `\d` and `\s` to the `regex` engine in Unicode mode, where each
//! becomes a large UTF-8 automaton (thousands of states for `\w`), built again for every regex
//! that uses it, forwards and in reverse, with lazy-DFA caches on top. Grammars use them in
//! nearly every rule, so building the common grammars cost ~200 MB. Code identifiers, numbers
//! and indentation are ASCII in practice: with ASCII classes a grammar costs a fraction of
//! that, and a non-ASCII letter in code at worst stays unstyled.
//!
//! The rewrite is a small lexer that follows fancy-regex's own reading of a pattern: escapes
//! (`\\w` stays a backslash and a `w`), character classes with their nesting (inside a class
//! `\w` becomes the bare ranges), `(?#…)` comments and, in patterns that turn on extended mode,
//! `#` comments to the end of the line, both copied untouched. POSIX classes (`[:alpha:]`) are
//! ASCII in fancy-regex already.

use std::borrow::Cow;

const WORD: &str = "0-9A-Za-z_";
const DIGIT: &str = "0-9";
const SPACE: &str = r"\t\n\x0B\x0C\r ";
const LETTER: &str = "A-Za-z";

/// A class that matches nothing, for a Unicode property without ASCII members.
const NOTHING: &str = r"[^\x00-\x{10FFFF}]";
/// A class that matches anything, the complement of such a property.
const ANYTHING: &str = r"[\x00-\x{10FFFF}]";

/// The ASCII members of the Unicode properties grammars use for identifiers, by name in
/// regex's loose spelling (lower case, no spaces, `_` or `-`). Other properties (scripts,
/// emoji…) are left as they are.
const PROPERTIES: &[(&[&str], &str)] = &[
    (
        &[
            "l",
            "letter",
            "alpha",
            "alphabetic",
            "l&",
            "lc",
            "casedletter",
        ],
        LETTER,
    ),
    (&["lu", "uppercaseletter", "upper", "uppercase"], "A-Z"),
    (&["ll", "lowercaseletter", "lower", "lowercase"], "a-z"),
    (&["n", "number", "nd", "decimalnumber", "digit"], DIGIT),
    (&["alnum"], "0-9A-Za-z"),
    (&["word", "w"], WORD),
    (&["pc", "connectorpunctuation"], "_"),
    (&["space", "whitespace"], SPACE),
    (
        &[
            "lm",
            "modifierletter",
            "lo",
            "otherletter",
            "lt",
            "titlecaseletter",
            "nl",
            "letternumber",
            "no",
            "othernumber",
            "m",
            "mark",
            "combiningmark",
            "mn",
            "nonspacingmark",
            "mc",
            "spacingmark",
            "me",
            "enclosingmark",
        ],
        "",
    ),
];

/// `pattern` with `\w`, `\d`, `\s`, their negations and the identifier properties (`\p{L}`,
/// `\p{N}`…) made ASCII; borrowed when it has none of them.
pub(super) fn ascii_classes(pattern: &str) -> Cow<'_, str> {
    if !has_class_escape(pattern) {
        return Cow::Borrowed(pattern);
    }
    let mut rewriter = Rewriter {
        pattern,
        at: 0,
        out: String::with_capacity(pattern.len() + 32),
        extended: turns_on_extended_mode(pattern),
    };
    rewriter.rewrite();
    Cow::Owned(rewriter.out)
}

fn has_class_escape(pattern: &str) -> bool {
    pattern.as_bytes().windows(2).any(|pair| {
        pair[0] == b'\\'
            && matches!(
                pair[1],
                b'w' | b'W' | b'd' | b'D' | b's' | b'S' | b'p' | b'P'
            )
    })
}

/// Whether some flag group turns on `x` (whitespace and `#` comments ignored). Then every `#`
/// outside a class is taken for a comment: where it was a literal in a part without `x`, the
/// rest of that line is only left as it was, never misread.
fn turns_on_extended_mode(pattern: &str) -> bool {
    pattern.match_indices("(?").any(|(start, _)| {
        pattern[start + 2..]
            .chars()
            .take_while(|flag| flag.is_ascii_alphabetic())
            .any(|flag| flag == 'x')
    })
}

/// The ASCII members of a class escape's letter (`w`, `d`, `s`, `p`…) and whether the escape
/// is negated, with the length of what follows the backslash; `None` for any other escape.
fn class_escape(after_backslash: &str) -> Option<(&'static str, bool, usize)> {
    let letter = after_backslash.chars().next()?;
    let members = match letter.to_ascii_lowercase() {
        'w' => WORD,
        'd' => DIGIT,
        's' => SPACE,
        'p' => return property(after_backslash),
        _ => return None,
    };
    Some((members, letter.is_ascii_uppercase(), 1))
}

/// `p{Name}`, `p{^Name}`, `P{Name}` or `pL` (after the backslash) for a property of
/// [`PROPERTIES`].
fn property(after_backslash: &str) -> Option<(&'static str, bool, usize)> {
    let mut negated = after_backslash.starts_with('P');
    let (name, length) = match after_backslash[1..].strip_prefix('{') {
        Some(braced) => {
            let close = braced.find('}')?;
            (&braced[..close], close + 3)
        }
        None => {
            let letter = after_backslash[1..].chars().next()?;
            (
                &after_backslash[1..1 + letter.len_utf8()],
                1 + letter.len_utf8(),
            )
        }
    };
    let name = match name.strip_prefix('^') {
        Some(rest) => {
            negated = !negated;
            rest
        }
        None => name,
    };
    let loose: String = name
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let (_, members) = PROPERTIES
        .iter()
        .find(|(names, _)| names.contains(&loose.as_str()))?;
    Some((members, negated, length))
}

struct Rewriter<'a> {
    pattern: &'a str,
    at: usize,
    out: String,
    extended: bool,
}

impl Rewriter<'_> {
    fn rewrite(&mut self) {
        while let Some(next) = self.next_char() {
            match next {
                '\\' => self.escape(false),
                '[' => self.class(),
                '#' if self.extended => {
                    self.out.push('#');
                    self.copy_through('\n');
                }
                '(' if self.rest().starts_with("?#") => {
                    self.out.push('(');
                    self.copy_through(')');
                }
                other => self.out.push(other),
            }
        }
    }

    fn rest(&self) -> &str {
        &self.pattern[self.at..]
    }

    fn next_char(&mut self) -> Option<char> {
        let next = self.rest().chars().next()?;
        self.at += next.len_utf8();
        Some(next)
    }

    /// A character class from just after its `[` to its closing `]`, nested classes included,
    /// read as fancy-regex reads it: a `]` right after the opening `[` or `[^` is a literal.
    fn class(&mut self) {
        self.out.push('[');
        for opening in ["^", "]"] {
            if self.rest().starts_with(opening) {
                self.out.push_str(opening);
                self.at += 1;
            }
        }
        let mut depth = 1;
        while let Some(next) = self.next_char() {
            match next {
                '\\' => self.escape(true),
                '[' => {
                    depth += 1;
                    self.out.push('[');
                }
                ']' => {
                    self.out.push(']');
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                other => self.out.push(other),
            }
        }
    }

    /// The escape after a backslash just read: a class escape as its ASCII members (bare
    /// ranges inside a class, a class of its own outside one), any other as it was.
    fn escape(&mut self, inside_class: bool) {
        let Some((members, negated, length)) = class_escape(self.rest()) else {
            self.out.push('\\');
            if let Some(escaped) = self.next_char() {
                self.out.push(escaped);
            }
            return;
        };
        self.at += length;
        let class = match (members.is_empty(), negated) {
            (true, false) => NOTHING.to_string(),
            (true, true) => ANYTHING.to_string(),
            (false, true) => format!("[^{members}]"),
            (false, false) if inside_class => members.to_string(),
            (false, false) => format!("[{members}]"),
        };
        self.out.push_str(&class);
    }

    fn copy_through(&mut self, last: char) {
        while let Some(next) = self.next_char() {
            self.out.push(next);
            if next == last {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ascii_classes;

    #[test]
    fn shorthands_become_ascii_classes() {
        assert_eq!(
            ascii_classes(r"\w+\s*=\d"),
            r"[0-9A-Za-z_]+[\t\n\x0B\x0C\r ]*=[0-9]"
        );
        assert_eq!(
            ascii_classes(r"\W\D\S"),
            r"[^0-9A-Za-z_][^0-9][^\t\n\x0B\x0C\r ]"
        );
    }

    #[test]
    fn inside_a_class_shorthands_become_ranges() {
        assert_eq!(ascii_classes(r"[\w.-]"), r"[0-9A-Za-z_.-]");
        assert_eq!(ascii_classes(r"[^\s\d]"), r"[^\t\n\x0B\x0C\r 0-9]");
        assert_eq!(ascii_classes(r"[\W]"), r"[[^0-9A-Za-z_]]");
        assert_eq!(
            ascii_classes(r"[]\w][[:alpha:]\d]"),
            r"[]0-9A-Za-z_][[:alpha:]0-9]"
        );
    }

    #[test]
    fn identifier_properties_become_ascii() {
        assert_eq!(
            ascii_classes(r"[_$\p{L}][_$\p{L}\p{N}]*"),
            r"[_$A-Za-z][_$A-Za-z0-9]*"
        );
        assert_eq!(ascii_classes(r"\pL\P{Nd}\p{^Lu}"), r"[A-Za-z][^0-9][^A-Z]");
        assert_eq!(
            ascii_classes(r"[\p{Mn}\p{Pc}]\p{Nl}"),
            r"[[^\x00-\x{10FFFF}]_][^\x00-\x{10FFFF}]"
        );
        assert_eq!(ascii_classes(r"\p{Letter_Number}"), r"[^\x00-\x{10FFFF}]");
    }

    #[test]
    fn escaped_backslashes_and_other_escapes_stay() {
        assert_eq!(ascii_classes(r"\\w\bx\p{Greek}"), r"\\w\bx\p{Greek}");
        assert_eq!(ascii_classes(r"[\]\w]"), r"[\]0-9A-Za-z_]");
        assert_eq!(ascii_classes("plain"), "plain");
    }

    #[test]
    fn comments_stay_as_written() {
        assert_eq!(ascii_classes(r"(?# [\w )\w"), r"(?# [\w )[0-9A-Za-z_]");
        assert_eq!(
            ascii_classes("(?x) \\w # a [ comment \\w\n \\d"),
            "(?x) [0-9A-Za-z_] # a [ comment \\w\n [0-9]"
        );
        // Without extended mode a `#` is a literal.
        assert_eq!(ascii_classes(r"#\w"), r"#[0-9A-Za-z_]");
    }
}

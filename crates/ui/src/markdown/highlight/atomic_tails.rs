//! Makes the last element of a pattern's atomic parts an atomic group when that saves
//! fancy-regex compiling it in pieces.
//!
//! fancy-regex hands the parts of a pattern it cannot run itself (look-arounds, word
//! boundaries, atomic groups…) to its backtracking VM and compiles every other part into a
//! regex-automata delegate. Inside a sequence, every element from the first hard one on is
//! compiled as if something after it could make it backtrack, and that passes down into each
//! alternative of a group: an alternation with one hard alternative has all its easy siblings
//! compiled piece by piece, a delegate (its own automata, caches, prefilter) for each piece.
//! TypeScript's "function assignment" look-aheads (a big alternation, one branch of it with
//! look-behinds) took ~6 MB a pattern that way, ~1 MB rewritten.
//!
//! Nothing after the last element of an atomic part can make it backtrack, so wrapping it in
//! `(?>…)` matches the same; fancy-regex compiles what an atomic group holds as if nothing
//! followed, whole alternatives as single delegates. Atomic parts are the pattern itself
//! (a search keeps the first match it finds), the body of an atomic group, and the body of a
//! look-around: grammars are written for Oniguruma, where look-arounds are atomic; in
//! fancy-regex they are not, but backtracking into one can only change what its groups
//! captured, which nothing can observe in a pattern without back-references or conditionals
//! (those are left alone). In a tail, a group's own last elements are in a tail too, and so on
//! down. Added groups capture nothing, so capture numbers stay. One more: fancy-regex runs a
//! look-ahead that ends the pattern as part of the pattern (`a(?=b)` as `(a)b`, a look-ahead
//! of TypeScript's "function assignment" patterns among them), where all of its body is
//! compiled in pieces unless the body is wrapped whole.
//!
//! The rewrite reads the pattern as text (escapes, classes, comments and extended mode as
//! fancy-regex reads them) so that all else stays byte for byte; fancy-regex's parse of the
//! result is then checked to be the original's with atomic groups added in tails only, else
//! the pattern stays as it was.

use std::borrow::Cow;

use fancy_regex::Expr;

/// `pattern` with each hard last element of its atomic parts in an atomic group; borrowed
/// when there is none, or the pattern is one this leaves alone.
pub(super) fn atomic_tails(pattern: &str) -> Cow<'_, str> {
    let Some(tree) = Reader::new(pattern).pattern() else {
        return Cow::Borrowed(pattern);
    };
    let mut tails = Vec::new();
    tails_of_alternation(&tree, true, &mut tails);
    tails.extend(trailing_look_ahead(&tree));
    if tails.is_empty() {
        return Cow::Borrowed(pattern);
    }
    let rewritten = wrapped(pattern, &tails);
    if only_tails_wrapped(pattern, &rewritten, tails.len()) {
        Cow::Owned(rewritten)
    } else {
        Cow::Borrowed(pattern)
    }
}

/// `pattern` with `(?>` before and `)` after each span of `tails`.
fn wrapped(pattern: &str, tails: &[(usize, usize)]) -> String {
    let mut marks: Vec<(usize, bool)> = tails
        .iter()
        .flat_map(|&(start, end)| [(start, true), (end, false)])
        .collect();
    // At one position, groups closing come before groups opening.
    marks.sort_by_key(|&(at, opens)| (at, opens));
    let mut out = String::with_capacity(pattern.len() + 4 * tails.len());
    let mut copied = 0;
    for (at, opens) in marks {
        out.push_str(&pattern[copied..at]);
        out.push_str(if opens { "(?>" } else { ")" });
        copied = at;
    }
    out.push_str(&pattern[copied..]);
    out
}

/// Whether fancy-regex reads `rewritten` as `original` with exactly `added` atomic groups,
/// each around an element in a tail of an atomic part, and `original` has nothing (a
/// back-reference, a conditional) that could tell a look-around's backtracking apart.
fn only_tails_wrapped(original: &str, rewritten: &str, added: usize) -> bool {
    let (Ok(before), Ok(after)) = (Expr::parse_tree(original), Expr::parse_tree(rewritten)) else {
        return false;
    };
    before.backrefs.is_empty()
        && !has_conditional(&before.expr)
        && wrapped_tails(&before.expr, &after.expr, true) == Some(added)
}

fn has_conditional(expr: &Expr) -> bool {
    match expr {
        Expr::Conditional { .. } | Expr::BackrefExistsCondition(_) => true,
        Expr::Concat(children) | Expr::Alt(children) => children.iter().any(has_conditional),
        Expr::Group(child)
        | Expr::LookAround(child, _)
        | Expr::AtomicGroup(child)
        | Expr::Repeat { child, .. } => has_conditional(child),
        _ => false,
    }
}

/// How many atomic groups `after` adds to `before`, if it adds them only around elements in
/// a tail (`tail`: whether `before` itself is one) and is otherwise the same.
fn wrapped_tails(before: &Expr, after: &Expr, tail: bool) -> Option<usize> {
    match (before, after) {
        (Expr::AtomicGroup(before), Expr::AtomicGroup(after)) => wrapped_tails(before, after, true),
        (_, Expr::AtomicGroup(after)) if tail => Some(1 + wrapped_tails(before, after, true)?),
        (Expr::Concat(before), Expr::Concat(after)) if before.len() == after.len() => {
            let last = before.len().saturating_sub(1);
            before
                .iter()
                .zip(after)
                .enumerate()
                .map(|(index, (before, after))| wrapped_tails(before, after, tail && index == last))
                .sum()
        }
        (Expr::Alt(before), Expr::Alt(after)) if before.len() == after.len() => before
            .iter()
            .zip(after)
            .map(|(before, after)| wrapped_tails(before, after, tail))
            .sum(),
        (Expr::Group(before), Expr::Group(after)) => wrapped_tails(before, after, tail),
        (Expr::LookAround(before, kind), Expr::LookAround(after, same)) if kind == same => {
            wrapped_tails(before, after, true)
        }
        (
            Expr::Repeat {
                child: before,
                lo,
                hi,
                greedy,
            },
            Expr::Repeat {
                child: after,
                lo: same_lo,
                hi: same_hi,
                greedy: same_greedy,
            },
        ) if (lo, hi, greedy) == (same_lo, same_hi, same_greedy) => {
            wrapped_tails(before, after, tail && (*lo, *hi) == (0, 1))
        }
        _ => (before == after).then_some(0),
    }
}

/// An alternation: its branches, each a sequence of elements.
type Alternation = Vec<Vec<Element>>;

/// One element of a sequence, with its quantifier: its span in the pattern and what the
/// rewrite needs to know of it.
struct Element {
    start: usize,
    end: usize,
    /// Something fancy-regex runs in its VM: a look-around, an atomic group (possessive
    /// quantifiers are ones), a word boundary, `\G`, `\K`, `\Z`.
    hard: bool,
    quantifier: Quantifier,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq)]
enum Quantifier {
    None,
    /// `?`, `??` or `{0,1}`: taking the element or not, nothing after it within.
    Optional,
    Other,
}

enum Kind {
    /// A character, an escape, a class, `.`, an anchor.
    Atom,
    /// `(?i)`: flags for what follows, matching nothing.
    Flags,
    /// A capturing or non-capturing group (named or not, with flags or not).
    Group { body: Alternation, capturing: bool },
    /// A look-around or an atomic group: its body is an atomic part. `body_span`: where the
    /// body is in the pattern.
    Atomic {
        body: Alternation,
        opener: Atomic,
        body_span: (usize, usize),
    },
}

#[derive(Clone, Copy, PartialEq)]
enum Atomic {
    LookAhead,
    OtherLookAround,
    Group,
}

impl Element {
    /// What fancy-regex reads as a look-around: one, or a non-capturing group of just one
    /// (such a group leaves no trace in its parse).
    fn look_around(&self) -> Option<&Element> {
        match &self.kind {
            Kind::Atomic {
                opener: Atomic::LookAhead | Atomic::OtherLookAround,
                ..
            } => Some(self),
            Kind::Group {
                body,
                capturing: false,
            } if self.quantifier == Quantifier::None => only_element(body)?.look_around(),
            _ => None,
        }
    }
}

/// The one element of an alternation of one branch (flags aside).
fn only_element(alternation: &Alternation) -> Option<&Element> {
    let [branch] = alternation.as_slice() else {
        return None;
    };
    let mut matching = branch
        .iter()
        .filter(|element| !matches!(element.kind, Kind::Flags));
    let only = matching.next()?;
    matching.next().is_none().then_some(only)
}

/// The body of the look-ahead that ends the pattern's one branch, if hard. fancy-regex moves
/// that look-ahead's body out into the pattern (`a(?=b)` runs as `(a)b`), where it is
/// compiled as if more followed, unless atomic.
fn trailing_look_ahead(pattern: &Alternation) -> Option<(usize, usize)> {
    let mut alternation = pattern;
    // Non-capturing groups around all of it leave no trace in fancy-regex's parse.
    while let Some(Element {
        kind: Kind::Group {
            body,
            capturing: false,
        },
        quantifier: Quantifier::None,
        ..
    }) = only_element(alternation)
    {
        alternation = body;
    }
    let [branch] = alternation.as_slice() else {
        return None;
    };
    let last = branch
        .iter()
        .rev()
        .find(|element| !matches!(element.kind, Kind::Flags))?;
    match &last.look_around()?.kind {
        Kind::Atomic {
            body,
            opener: Atomic::LookAhead,
            body_span,
        } if body.iter().flatten().any(|element| element.hard) => Some(*body_span),
        _ => None,
    }
}

/// Collects the spans to wrap in the branches of `alternation`, which is a tail if `tail`.
fn tails_of_alternation(alternation: &Alternation, tail: bool, tails: &mut Vec<(usize, usize)>) {
    for branch in alternation {
        let matching: Vec<&Element> = branch
            .iter()
            .filter(|element| !matches!(element.kind, Kind::Flags))
            .collect();
        let in_sequence = matching.len() > 1;
        for (index, element) in matching.iter().enumerate() {
            let last = index + 1 == matching.len();
            tails_of_element(element, tail && last, in_sequence, tails);
        }
    }
}

/// A hard tail after other elements is wrapped: alone in its branch, fancy-regex compiles it
/// as a tail already, and an easy one it compiles whole. A look-around in a group is left
/// as it is: what it holds is compiled as a tail anyway.
fn tails_of_element(
    element: &Element,
    tail: bool,
    in_sequence: bool,
    tails: &mut Vec<(usize, usize)>,
) {
    match &element.kind {
        Kind::Atomic { body, .. } => tails_of_alternation(body, true, tails),
        Kind::Group { body, .. } => {
            let body_is_tail = tail && element.quantifier != Quantifier::Other;
            if body_is_tail && element.hard && in_sequence && element.look_around().is_none() {
                tails.push((element.start, element.end));
            }
            tails_of_alternation(body, body_is_tail, tails);
        }
        Kind::Atom | Kind::Flags => {}
    }
}

/// Reads a pattern's structure as fancy-regex does; `None` for what the rewrite leaves
/// alone: back-references, conditionals, subroutine calls, or what it cannot read.
struct Reader<'a> {
    pattern: &'a str,
    at: usize,
    /// Extended mode (`x`): whitespace and `#` comments ignored. As in fancy-regex, flags set
    /// by `(?x)` last to the end of the pattern or of the `(?flags:…)` group around them.
    extended: bool,
    depth: usize,
}

/// Deeper nesting than any grammar has: such a pattern is left as it is.
const MAX_DEPTH: usize = 64;

impl<'a> Reader<'a> {
    fn new(pattern: &'a str) -> Self {
        Self {
            pattern,
            at: 0,
            extended: false,
            depth: 0,
        }
    }

    fn pattern(mut self) -> Option<Alternation> {
        let alternation = self.alternation()?;
        (self.at == self.pattern.len()).then_some(alternation)
    }

    fn rest(&self) -> &'a str {
        &self.pattern[self.at..]
    }

    fn peek(&self) -> Option<u8> {
        self.pattern.as_bytes().get(self.at).copied()
    }

    /// Branches up to a `)` (not taken) or the end.
    fn alternation(&mut self) -> Option<Alternation> {
        let mut branches = vec![self.branch()?];
        while self.peek() == Some(b'|') {
            self.at += 1;
            branches.push(self.branch()?);
        }
        Some(branches)
    }

    fn branch(&mut self) -> Option<Vec<Element>> {
        let mut elements = Vec::new();
        loop {
            self.skip_ignored()?;
            match self.peek() {
                None | Some(b'|' | b')') => return Some(elements),
                Some(_) => elements.push(self.element()?),
            }
        }
    }

    /// Whitespace and comments: `(?#…)` always, whitespace and `#…` lines in extended mode.
    fn skip_ignored(&mut self) -> Option<()> {
        loop {
            let rest = self.rest();
            if rest.starts_with("(?#") {
                let close = comment_end(rest)?;
                self.at += close;
            } else if self.extended && rest.starts_with('#') {
                self.at += rest.find('\n').map_or(rest.len(), |newline| newline + 1);
            } else if self.extended && rest.starts_with([' ', '\t', '\r', '\n']) {
                self.at += 1;
            } else {
                return Some(());
            }
        }
    }

    fn element(&mut self) -> Option<Element> {
        let start = self.at;
        let (kind, mut hard) = self.atom()?;
        let quantifier = self.quantifier(&mut hard)?;
        Some(Element {
            start,
            end: self.at,
            hard,
            quantifier,
            kind,
        })
    }

    /// The element without its quantifier, and whether it is hard.
    fn atom(&mut self) -> Option<(Kind, bool)> {
        let rest = self.rest();
        let first = rest.chars().next()?;
        match first {
            '(' => self.group(),
            '\\' => self.escape(),
            '[' => {
                self.at += class_end(rest)?;
                Some((Kind::Atom, false))
            }
            '*' | '+' | '?' => None,
            other => {
                self.at += other.len_utf8();
                Some((Kind::Atom, false))
            }
        }
    }

    /// An escape outside a class; back-references and subroutine calls are not read.
    fn escape(&mut self) -> Option<(Kind, bool)> {
        let letter = self.rest()[1..].chars().next()?;
        if letter.is_ascii_digit() || matches!(letter, 'k' | 'g') {
            return None;
        }
        self.at += 1 + letter.len_utf8();
        let braced = matches!(letter, 'x' | 'u' | 'U' | 'p' | 'P' | 'o' | 'N');
        if braced && self.rest().starts_with('{') {
            self.at += self.rest().find('}')? + 1;
        }
        let hard = matches!(letter, 'b' | 'B' | 'G' | 'K' | 'Z');
        Some((Kind::Atom, hard))
    }

    fn group(&mut self) -> Option<(Kind, bool)> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let opener = Opener::read(self.rest())?;
        self.at += opener.length;
        let extended_before = self.extended;
        let kind = match opener.kind {
            OpenerKind::Flags {
                extended, scoped, ..
            } => {
                if let Some(extended) = extended {
                    self.extended = extended;
                }
                if !scoped {
                    self.depth -= 1;
                    return Some((Kind::Flags, false));
                }
                opener.kind
            }
            other => other,
        };
        let body_start = self.at;
        let body = self.alternation()?;
        if self.peek() != Some(b')') {
            return None;
        }
        let body_span = (body_start, self.at);
        self.at += 1;
        self.depth -= 1;
        if matches!(opener.kind, OpenerKind::Flags { .. }) {
            self.extended = extended_before;
        }
        Some(match kind {
            OpenerKind::Atomic(opener) => (
                Kind::Atomic {
                    body,
                    opener,
                    body_span,
                },
                true,
            ),
            OpenerKind::Group { capturing } | OpenerKind::Flags { capturing, .. } => {
                let hard = body.iter().flatten().any(|element| element.hard);
                (Kind::Group { body, capturing }, hard)
            }
        })
    }

    /// The quantifier after an element, if any; a possessive one makes the element hard.
    fn quantifier(&mut self, hard: &mut bool) -> Option<Quantifier> {
        let element_end = self.at;
        self.skip_ignored()?;
        let quantifier = match self.peek() {
            Some(b'?') => Some((0, Some(1), 1)),
            Some(b'*') => Some((0, None, 1)),
            Some(b'+') => Some((1, None, 1)),
            Some(b'{') => repeat(self.rest()),
            _ => None,
        };
        let Some((low, high, length)) = quantifier else {
            // What was skipped stays outside the element (here and after a quantifier),
            // so a group added around it never takes in a comment.
            self.at = element_end;
            return Some(Quantifier::None);
        };
        self.at += length;
        let mut end = self.at;
        self.skip_ignored()?;
        if self.peek() == Some(b'?') {
            self.at += 1;
            end = self.at;
        }
        if self.peek() == Some(b'+') {
            self.at += 1;
            *hard = true;
            return Some(Quantifier::Other);
        }
        self.at = end;
        Some(if (low, high) == (0, Some(1)) {
            Quantifier::Optional
        } else {
            Quantifier::Other
        })
    }
}

/// What a `(` opens.
struct Opener {
    kind: OpenerKind,
    /// Bytes from the `(` to the body.
    length: usize,
}

#[derive(Clone, Copy)]
enum OpenerKind {
    /// A plain or named group, capturing or not (`(?:`).
    Group {
        capturing: bool,
    },
    Atomic(Atomic),
    /// `(?flags)` or `(?flags:…)` (`scoped`); `extended` if the flags set or clear `x`.
    Flags {
        extended: Option<bool>,
        scoped: bool,
        capturing: bool,
    },
}

impl Opener {
    fn read(from_paren: &str) -> Option<Opener> {
        let after = &from_paren[1..];
        let Some(question) = after.strip_prefix('?') else {
            return Some(Opener::new(OpenerKind::Group { capturing: true }, 1));
        };
        for (opening, kind) in [
            ("=", Atomic::LookAhead),
            ("!", Atomic::OtherLookAround),
            ("<=", Atomic::OtherLookAround),
            ("<!", Atomic::OtherLookAround),
            (">", Atomic::Group),
        ] {
            if question.starts_with(opening) {
                return Some(Opener::new(OpenerKind::Atomic(kind), 2 + opening.len()));
            }
        }
        if let Some(name) = question
            .strip_prefix("P<")
            .or_else(|| question.strip_prefix('<'))
        {
            let close = name.find('>')?;
            return Some(Opener::new(
                OpenerKind::Group { capturing: true },
                from_paren.len() - name.len() + close + 1,
            ));
        }
        if let Some(name) = question.strip_prefix('\'') {
            let close = name.find('\'')?;
            return Some(Opener::new(
                OpenerKind::Group { capturing: true },
                from_paren.len() - name.len() + close + 1,
            ));
        }
        Opener::flags(question)
    }

    fn new(kind: OpenerKind, length: usize) -> Opener {
        Opener { kind, length }
    }

    /// `(?imsxU-imsxU)` or `(?imsxU-imsxU:`, from after the `?`.
    fn flags(after_question: &str) -> Option<Opener> {
        let mut extended = None;
        let mut cleared = false;
        for (index, flag) in after_question.char_indices() {
            match flag {
                'i' | 'm' | 's' | 'U' | 'u' => {}
                'x' => extended = Some(!cleared),
                '-' if !cleared => cleared = true,
                ':' | ')' => {
                    // `(?)`, `(?-)` and `(?-:` are not flags; `(?:` is a plain group.
                    let empty = if cleared { index == 1 } else { index == 0 };
                    let scoped = flag == ':';
                    if empty && (cleared || !scoped) {
                        return None;
                    }
                    let kind = OpenerKind::Flags {
                        extended,
                        scoped,
                        capturing: false,
                    };
                    return Some(Opener::new(kind, 2 + index + 1));
                }
                _ => return None,
            }
        }
        None
    }
}

/// Length of a `(?#…)` comment from its `(`, as fancy-regex reads it (`\)` does not end it).
fn comment_end(from_paren: &str) -> Option<usize> {
    let bytes = from_paren.as_bytes();
    let mut at = 3;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b')' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
    None
}

/// Length of a character class from its `[`, nested classes included; a `]` right after the
/// opening `[` or `[^` is a literal, as fancy-regex reads it.
fn class_end(from_bracket: &str) -> Option<usize> {
    let bytes = from_bracket.as_bytes();
    let mut at = 1;
    for opening in [b'^', b']'] {
        if bytes.get(at) == Some(&opening) {
            at += 1;
        }
    }
    let mut depth = 1;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 2,
            b'[' => {
                depth += 1;
                at += 1;
            }
            b']' => {
                depth -= 1;
                at += 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => at += 1,
        }
    }
    None
}

/// `{n}`, `{n,}`, `{,m}` or `{n,m}` at the start of `from_brace`: low, high (`None`: no
/// bound) and length; `None` when the brace is a literal.
fn repeat(from_brace: &str) -> Option<(usize, Option<usize>, usize)> {
    let close = from_brace.find('}')?;
    let inside = &from_brace[1..close];
    let number = |text: &str| -> Option<Option<usize>> {
        if text.is_empty() {
            Some(None)
        } else if text.bytes().all(|byte| byte.is_ascii_digit()) {
            text.parse().ok().map(Some)
        } else {
            None
        }
    };
    let (low, high) = match inside.split_once(',') {
        Some((low, high)) => (number(low)?, number(high)?),
        None => {
            let exact = number(inside)??;
            (Some(exact), Some(exact))
        }
    };
    Some((low.unwrap_or(0), high, close + 1))
}

#[cfg(test)]
#[path = "atomic_tails_tests.rs"]
pub(super) mod tests;

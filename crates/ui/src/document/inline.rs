//! The inside of a block: runs of text with marks, and links. Read from a Document's nodes,
//! written as escaped markdown-like text, and parsed back.

use serde_json::{Value, json};

/// The marks the text form can hold, in the order they open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Bold,
    Italic,
    Strikethrough,
    Code,
}

impl Mark {
    pub const ALL: [Mark; 4] = [Mark::Bold, Mark::Italic, Mark::Strikethrough, Mark::Code];

    pub fn name(self) -> &'static str {
        match self {
            Mark::Bold => "bold",
            Mark::Italic => "italic",
            Mark::Strikethrough => "strikethrough",
            Mark::Code => "code",
        }
    }

    fn from_name(name: &str) -> Option<Mark> {
        Mark::ALL.into_iter().find(|mark| mark.name() == name)
    }

    fn delimiter(self) -> &'static str {
        match self {
            Mark::Bold => "**",
            Mark::Italic => "_",
            Mark::Strikethrough => "~~",
            Mark::Code => "`",
        }
    }
}

/// Text with the same marks (kept sorted, without repeats).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaf {
    pub text: String,
    pub marks: Vec<Mark>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(Leaf),
    Link { url: String, leaves: Vec<Leaf> },
}

/// Characters that mean something inside a line and are written with a backslash.
const INLINE_SPECIALS: &[char] = &['\\', '*', '_', '`', '~', '[', ']'];

pub(super) fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        if INLINE_SPECIALS.contains(&character) {
            escaped.push('\\');
        }
        escaped.push(character);
    }
    escaped
}

// ---------------------------------------------------------------------------------------------
// Document nodes → inlines

/// The inlines of a block's nodes; None when something there has no text form (another
/// inline, an unknown mark, a line break inside the text).
pub(super) fn read(nodes: &[Value]) -> Option<Vec<Inline>> {
    let mut inlines = Vec::new();
    for node in nodes {
        match node.get("object").and_then(Value::as_str) {
            Some("text") => {
                for leaf in read_text(node)? {
                    push_leaf(&mut inlines, leaf);
                }
            }
            Some("inline") if node.get("type").and_then(Value::as_str) == Some("link") => {
                let url = node
                    .pointer("/data/ref/url")
                    .and_then(Value::as_str)
                    .filter(|_| {
                        node.pointer("/data/ref/kind").and_then(Value::as_str) == Some("url")
                    })?;
                let url_fits = !url.is_empty()
                    && !url.contains(|c: char| c.is_whitespace())
                    && !url.contains(['(', ')']);
                let children = node.get("nodes").and_then(Value::as_array)?;
                let mut leaves = Vec::new();
                for child in children {
                    if child.get("object").and_then(Value::as_str) != Some("text") {
                        return None;
                    }
                    for leaf in read_text(child)? {
                        push_merged(&mut leaves, leaf);
                    }
                }
                if !url_fits || leaves.is_empty() {
                    return None;
                }
                inlines.push(Inline::Link {
                    url: url.to_string(),
                    leaves,
                });
            }
            _ => return None,
        }
    }
    Some(inlines)
}

/// The non-empty leaves of a text node, in either shape: `{leaves: [...]}` or `{text, marks}`.
fn read_text(node: &Value) -> Option<Vec<Leaf>> {
    let leaves: Vec<&Value> = match node.get("leaves").and_then(Value::as_array) {
        Some(leaves) => leaves.iter().collect(),
        None => vec![node],
    };
    let mut read = Vec::new();
    for leaf in leaves {
        let text = leaf.get("text").and_then(Value::as_str).unwrap_or("");
        if text.contains(['\n', '\r']) {
            return None;
        }
        let mut marks = Vec::new();
        for mark in leaf
            .get("marks")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
        {
            let name = mark
                .get("type")
                .and_then(Value::as_str)
                .or_else(|| mark.as_str())?;
            marks.push(Mark::from_name(name)?);
        }
        marks.sort();
        marks.dedup();
        if !text.is_empty() {
            read.push(Leaf {
                text: text.to_string(),
                marks,
            });
        }
    }
    Some(read)
}

/// Appends a leaf, joining it to the one before when their marks are the same.
fn push_merged(leaves: &mut Vec<Leaf>, leaf: Leaf) {
    match leaves.last_mut() {
        Some(last) if last.marks == leaf.marks => last.text.push_str(&leaf.text),
        _ => leaves.push(leaf),
    }
}

fn push_leaf(inlines: &mut Vec<Inline>, leaf: Leaf) {
    match inlines.last_mut() {
        Some(Inline::Text(last)) if last.marks == leaf.marks => last.text.push_str(&leaf.text),
        _ => inlines.push(Inline::Text(leaf)),
    }
}

/// The characters of the inlines without any marks: what a reader sees.
pub(super) fn plain(inlines: &[Inline]) -> String {
    let mut plain = String::new();
    for inline in inlines {
        match inline {
            Inline::Text(leaf) => plain.push_str(&leaf.text),
            Inline::Link { leaves, .. } => {
                for leaf in leaves {
                    plain.push_str(&leaf.text);
                }
            }
        }
    }
    plain
}

// ---------------------------------------------------------------------------------------------
// Inlines → text

fn write_leaf(leaf: &Leaf, out: &mut String) {
    for mark in &leaf.marks {
        out.push_str(mark.delimiter());
    }
    out.push_str(&escape(&leaf.text));
    for mark in leaf.marks.iter().rev() {
        out.push_str(mark.delimiter());
    }
}

pub(super) fn to_text(inlines: &[Inline]) -> String {
    let mut out = String::new();
    for inline in inlines {
        match inline {
            Inline::Text(leaf) => write_leaf(leaf, &mut out),
            Inline::Link { url, leaves } => {
                out.push('[');
                for leaf in leaves {
                    write_leaf(leaf, &mut out);
                }
                out.push_str("](");
                out.push_str(url);
                out.push(')');
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Inlines → Document nodes

fn leaf_json(leaf: &Leaf) -> Value {
    let marks: Vec<Value> = leaf
        .marks
        .iter()
        .map(|mark| json!({ "object": "mark", "type": mark.name(), "data": {} }))
        .collect();
    json!({ "object": "leaf", "text": leaf.text, "marks": marks })
}

fn text_json(leaves: &[&Leaf]) -> Value {
    let leaves: Vec<Value> = leaves.iter().map(|leaf| leaf_json(leaf)).collect();
    json!({ "object": "text", "leaves": leaves })
}

/// A block's nodes: runs of leaves as one text node each, links as inline nodes.
pub(super) fn to_nodes(inlines: &[Inline]) -> Vec<Value> {
    let mut nodes = Vec::new();
    let mut run: Vec<&Leaf> = Vec::new();
    for inline in inlines {
        match inline {
            Inline::Text(leaf) => run.push(leaf),
            Inline::Link { url, leaves } => {
                if !run.is_empty() {
                    nodes.push(text_json(&run));
                    run.clear();
                }
                let leaves: Vec<&Leaf> = leaves.iter().collect();
                nodes.push(json!({
                    "object": "inline",
                    "type": "link",
                    "isVoid": false,
                    "data": { "ref": { "kind": "url", "url": url } },
                    "nodes": [text_json(&leaves)],
                }));
            }
        }
    }
    if !run.is_empty() {
        nodes.push(text_json(&run));
    }
    nodes
}

// ---------------------------------------------------------------------------------------------
// Text → inlines

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Char(char),
    /// A delimiter without a partner, read as the characters it is made of.
    Literal(&'static str),
    Toggle(Mark),
    Link {
        url: String,
        inner: Vec<Token>,
    },
}

/// Splits a line into characters, mark toggles and links. A backslash makes the next
/// character plain; `[text](address)` is a link only when it is closed.
fn tokenize(characters: &[char]) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut index = 0;
    while index < characters.len() {
        let character = characters[index];
        let next = characters.get(index + 1).copied();
        match character {
            '\\' if next.is_some_and(|c| c.is_ascii_punctuation()) => {
                tokens.push(Token::Char(next.unwrap_or('\\')));
                index += 2;
                continue;
            }
            '*' if next == Some('*') => {
                tokens.push(Token::Toggle(Mark::Bold));
                index += 2;
                continue;
            }
            '~' if next == Some('~') => {
                tokens.push(Token::Toggle(Mark::Strikethrough));
                index += 2;
                continue;
            }
            '_' => tokens.push(Token::Toggle(Mark::Italic)),
            '`' => tokens.push(Token::Toggle(Mark::Code)),
            '[' => {
                if let Some((inner_end, url, after)) = link_at(characters, index) {
                    tokens.push(Token::Link {
                        url,
                        inner: tokenize(&characters[index + 1..inner_end]),
                    });
                    index = after;
                    continue;
                }
                tokens.push(Token::Char('['));
            }
            other => tokens.push(Token::Char(other)),
        }
        index += 1;
    }
    tokens
}

/// For a `[` at `start`: where its text ends (the `]`), its address, and the index after `)`.
fn link_at(characters: &[char], start: usize) -> Option<(usize, String, usize)> {
    let mut index = start + 1;
    while index < characters.len() {
        match characters[index] {
            '\\' => index += 2,
            '[' => return None,
            ']' => break,
            _ => index += 1,
        }
    }
    let close = index;
    if characters.get(close + 1) != Some(&'(') || close == start + 1 {
        return None;
    }
    let url_start = close + 2;
    let url_end = url_start + characters[url_start..].iter().position(|c| *c == ')')?;
    let url: String = characters[url_start..url_end].iter().collect();
    if url.is_empty() || url.contains(|c: char| c.is_whitespace() || c == '(') {
        return None;
    }
    Some((close, url, url_end + 1))
}

/// A toggle without a partner (an odd one out, the last of its kind) is plain text, so a lone
/// `_` in `snake_case` typed by hand stays an underscore.
fn unpaired_toggles_as_text(tokens: &mut [Token]) {
    for mark in Mark::ALL {
        let positions: Vec<usize> = tokens
            .iter()
            .enumerate()
            .filter(|(_, token)| **token == Token::Toggle(mark))
            .map(|(index, _)| index)
            .collect();
        if positions.len() % 2 == 1
            && let Some(last) = positions.last()
        {
            tokens[*last] = Token::Literal(mark.delimiter());
        }
    }
}

/// Leaves of a run of tokens; links inside are flattened by the caller.
fn leaves_of(tokens: &[Token], inlines: &mut Vec<Inline>, in_link: bool) -> Vec<Leaf> {
    let mut active: Vec<Mark> = Vec::new();
    let mut leaves: Vec<Leaf> = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, active: &[Mark], leaves: &mut Vec<Leaf>| {
        if !current.is_empty() {
            let mut marks = active.to_vec();
            marks.sort();
            push_merged(
                leaves,
                Leaf {
                    text: std::mem::take(current),
                    marks,
                },
            );
        }
    };
    for token in tokens {
        match token {
            Token::Char(character) => current.push(*character),
            Token::Toggle(mark) => {
                flush(&mut current, &active, &mut leaves);
                match active.iter().position(|open| open == mark) {
                    Some(position) => {
                        active.remove(position);
                    }
                    None => active.push(*mark),
                }
            }
            Token::Literal(text) => current.push_str(text),
            Token::Link { url, inner } => {
                flush(&mut current, &active, &mut leaves);
                if in_link {
                    continue;
                }
                for leaf in leaves.drain(..) {
                    push_leaf(inlines, leaf);
                }
                let mut inner = inner.clone();
                unpaired_toggles_as_text(&mut inner);
                let link_leaves = leaves_of(&inner, &mut Vec::new(), true);
                if !link_leaves.is_empty() {
                    inlines.push(Inline::Link {
                        url: url.clone(),
                        leaves: link_leaves,
                    });
                }
            }
        }
    }
    flush(&mut current, &active, &mut leaves);
    leaves
}

/// Parses one line of inline text.
pub(super) fn parse(text: &str) -> Vec<Inline> {
    let characters: Vec<char> = text.chars().collect();
    let mut tokens = tokenize(&characters);
    unpaired_toggles_as_text(&mut tokens);
    let mut inlines = Vec::new();
    let rest = leaves_of(&tokens, &mut inlines, false);
    for leaf in rest {
        push_leaf(&mut inlines, leaf);
    }
    inlines
}

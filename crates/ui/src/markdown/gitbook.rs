//! GitBook's template blocks (`{% hint %}`, `{% tabs %}`, …) are not markdown: pulldown-cmark
//! would show them as raw text. This pass splits the source into plain markdown chunks and a
//! tree of tag blocks, so the renderer can draw each tag as a terminal callout.
//!
//! Tags inside fenced code and inline code spans are left alone: they are code samples.

use std::collections::HashMap;

/// Opening tags nested deeper than this are shown as labels instead of containers, so a page
/// with thousands of nested `{% hint %}` cannot blow the renderer's stack.
const MAX_TAG_DEPTH: usize = 32;

/// One piece of a page: markdown text, a tag that stands alone, or a tag with a body.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    Markdown(String),
    Tag(Tag),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Tag {
    /// The tag's name in lower case, e.g. `hint`, `content-ref`.
    pub name: String,
    /// `key="value"` arguments, keys in lower case.
    pub arguments: Vec<(String, String)>,
    /// Bare quoted strings, e.g. the path of `{% include "path" %}`.
    pub positional: Vec<String>,
    /// `None` for a tag without an end tag.
    pub body: Option<Vec<Node>>,
}

impl Tag {
    pub(super) fn argument(&self, key: &str) -> Option<&str> {
        self.arguments
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(key))
            .map(|(_, value)| value.as_str())
    }
}

/// A lexical token: text between tags, or one `{% … %}` tag.
#[derive(Debug)]
enum Token {
    Text(String),
    Tag(RawTag),
}

#[derive(Debug)]
struct RawTag {
    name: String,
    arguments: Vec<(String, String)>,
    positional: Vec<String>,
}

/// Splits a page into markdown chunks and GitBook tag blocks.
pub(super) fn split(source: &str) -> Vec<Node> {
    if !source.contains("{%") {
        return vec![Node::Markdown(source.to_string())];
    }
    build_tree(tokenize(source))
}

fn tokenize(source: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut text = String::new();
    let mut fence: Option<(char, usize)> = None;
    for line in source.split_inclusive('\n') {
        if let Some((fence_char, fence_length)) = fence {
            text.push_str(line);
            if closes_fence(line, fence_char, fence_length) {
                fence = None;
            }
            continue;
        }
        if let Some(opened) = opens_fence(line) {
            fence = Some(opened);
            text.push_str(line);
            continue;
        }
        tokenize_line(line, &mut text, &mut tokens);
    }
    if !text.is_empty() {
        tokens.push(Token::Text(text));
    }
    tokens
}

/// The fence character and length when `line` opens a fenced code block.
pub(super) fn opens_fence(line: &str) -> Option<(char, usize)> {
    let trimmed = line.trim_start();
    let fence_char = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = trimmed.chars().take_while(|c| *c == fence_char).count();
    if length < 3 {
        return None;
    }
    // A backtick fence's info string may not contain backticks; otherwise it is inline code.
    if fence_char == '`' && trimmed[length..].contains('`') {
        return None;
    }
    Some((fence_char, length))
}

pub(super) fn closes_fence(line: &str, fence_char: char, fence_length: usize) -> bool {
    let trimmed = line.trim();
    let length = trimmed.chars().take_while(|c| *c == fence_char).count();
    length >= fence_length && trimmed.len() == length * fence_char.len_utf8()
}

/// Moves one line into tokens, cutting out `{% … %}` tags that are not inside inline code.
fn tokenize_line(line: &str, text: &mut String, tokens: &mut Vec<Token>) {
    let bytes = line.as_bytes();
    let mut index = 0;
    let mut copied_until = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'`' => {
                let run = bytes[index..].iter().take_while(|b| **b == b'`').count();
                index = skip_code_span(line, index, run);
            }
            b'{' if bytes.get(index + 1) == Some(&b'%') => {
                let Some(close) = line[index + 2..].find("%}") else {
                    break;
                };
                let end = index + 2 + close + 2;
                text.push_str(&line[copied_until..index]);
                if !text.is_empty() {
                    tokens.push(Token::Text(std::mem::take(text)));
                }
                if let Some(tag) = parse_tag(&line[index + 2..end - 2]) {
                    tokens.push(Token::Tag(tag));
                }
                index = end;
                copied_until = end;
            }
            _ => index += 1,
        }
    }
    text.push_str(&line[copied_until..]);
}

/// The index after an inline code span opened by `run` backticks at `start`, or after the
/// backticks alone when the span is never closed.
fn skip_code_span(line: &str, start: usize, run: usize) -> usize {
    let bytes = line.as_bytes();
    let mut index = start + run;
    while index < bytes.len() {
        if bytes[index] == b'`' {
            let closing = bytes[index..].iter().take_while(|b| **b == b'`').count();
            if closing == run {
                return index + closing;
            }
            index += closing;
        } else {
            index += 1;
        }
    }
    start + run
}

/// Parses the inside of `{% name key="value" "positional" %}`.
fn parse_tag(inside: &str) -> Option<RawTag> {
    let inside = inside.trim();
    let name_end = inside
        .find(|c: char| c.is_whitespace())
        .unwrap_or(inside.len());
    let name = inside[..name_end].to_ascii_lowercase();
    if name.is_empty() {
        return None;
    }
    let mut arguments = Vec::new();
    let mut positional = Vec::new();
    let mut rest = inside[name_end..].trim_start();
    while !rest.is_empty() {
        if let Some((value, after)) = quoted(rest) {
            positional.push(value);
            rest = after.trim_start();
            continue;
        }
        let key_end = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let key = rest[..key_end].to_ascii_lowercase();
        rest = rest[key_end..].trim_start();
        if let Some(after_equals) = rest.strip_prefix('=') {
            let after_equals = after_equals.trim_start();
            let (value, after) = quoted(after_equals).unwrap_or_else(|| {
                let end = after_equals
                    .find(char::is_whitespace)
                    .unwrap_or(after_equals.len());
                (after_equals[..end].to_string(), &after_equals[end..])
            });
            arguments.push((key, value));
            rest = after.trim_start();
        } else if !key.is_empty() {
            arguments.push((key, String::new()));
        } else {
            // A stray character; skip it so the loop always advances.
            let skip = rest.chars().next().map_or(1, char::len_utf8);
            rest = rest[skip..].trim_start();
        }
    }
    Some(RawTag {
        name,
        arguments,
        positional,
    })
}

/// A leading `"…"` or `'…'` string and what follows it.
fn quoted(text: &str) -> Option<(String, &str)> {
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &text[1..];
    match body.find(quote) {
        Some(end) => Some((body[..end].to_string(), &body[end + 1..])),
        None => Some((body.to_string(), "")),
    }
}

/// An open container while building the tree.
struct OpenTag {
    tag: RawTag,
    children: Vec<Node>,
}

fn build_tree(tokens: Vec<Token>) -> Vec<Node> {
    // A tag has a body only if its end tag comes later; remember the last end of each name.
    let mut last_end: HashMap<String, usize> = HashMap::new();
    for (index, token) in tokens.iter().enumerate() {
        if let Token::Tag(tag) = token
            && let Some(opened) = tag.name.strip_prefix("end")
        {
            last_end.insert(opened.to_string(), index);
        }
    }
    let mut root: Vec<Node> = Vec::new();
    let mut stack: Vec<OpenTag> = Vec::new();
    let mut suppressed: HashMap<String, usize> = HashMap::new();
    for (index, token) in tokens.into_iter().enumerate() {
        match token {
            Token::Text(text) => push_node(&mut root, &mut stack, Node::Markdown(text)),
            Token::Tag(tag) => {
                if let Some(opened) = tag.name.strip_prefix("end") {
                    close_tag(opened, &mut root, &mut stack, &mut suppressed);
                } else if last_end.get(&tag.name).is_some_and(|end| *end > index) {
                    if stack.len() >= MAX_TAG_DEPTH {
                        *suppressed.entry(tag.name.clone()).or_default() += 1;
                        push_node(&mut root, &mut stack, leaf(tag));
                    } else {
                        stack.push(OpenTag {
                            tag,
                            children: Vec::new(),
                        });
                    }
                } else {
                    push_node(&mut root, &mut stack, leaf(tag));
                }
            }
        }
    }
    while let Some(open) = stack.pop() {
        let node = finish(open);
        push_node(&mut root, &mut stack, node);
    }
    root
}

fn close_tag(
    name: &str,
    root: &mut Vec<Node>,
    stack: &mut Vec<OpenTag>,
    suppressed: &mut HashMap<String, usize>,
) {
    if let Some(count) = suppressed.get_mut(name)
        && *count > 0
    {
        *count -= 1;
        return;
    }
    let Some(position) = stack.iter().rposition(|open| open.tag.name == name) else {
        return;
    };
    while stack.len() > position {
        let Some(open) = stack.pop() else { break };
        let node = finish(open);
        push_node(root, stack, node);
    }
}

fn leaf(tag: RawTag) -> Node {
    Node::Tag(Tag {
        name: tag.name,
        arguments: tag.arguments,
        positional: tag.positional,
        body: None,
    })
}

fn finish(open: OpenTag) -> Node {
    Node::Tag(Tag {
        name: open.tag.name,
        arguments: open.tag.arguments,
        positional: open.tag.positional,
        body: Some(open.children),
    })
}

fn push_node(root: &mut Vec<Node>, stack: &mut [OpenTag], node: Node) {
    match stack.last_mut() {
        Some(open) => open.children.push(node),
        None => root.push(node),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(node: &Node) -> &Tag {
        match node {
            Node::Tag(tag) => tag,
            Node::Markdown(text) => panic!("expected a tag, got markdown {text:?}"),
        }
    }

    #[test]
    fn plain_markdown_is_one_chunk() {
        assert_eq!(split("# Hi\n"), vec![Node::Markdown("# Hi\n".into())]);
    }

    #[test]
    fn a_hint_becomes_a_container_with_its_arguments() {
        let nodes =
            split("before\n{% hint style=\"warning\" %}\nBe **careful**.\n{% endhint %}\nafter\n");
        assert_eq!(nodes.len(), 3);
        let hint = tag(&nodes[1]);
        assert_eq!(hint.name, "hint");
        assert_eq!(hint.argument("style"), Some("warning"));
        let body = hint.body.as_ref().expect("body");
        assert_eq!(body, &vec![Node::Markdown("\nBe **careful**.\n".into())]);
    }

    #[test]
    fn tabs_nest() {
        let nodes = split(
            "{% tabs %}\n{% tab title=\"A\" %}\na\n{% endtab %}\n{% tab title='B' %}\nb\n{% endtab %}\n{% endtabs %}",
        );
        let tabs = tag(&nodes[0]);
        let tabs_body = tabs.body.as_ref().expect("body");
        let titles: Vec<_> = tabs_body
            .iter()
            .filter_map(|node| match node {
                Node::Tag(tab) => tab.argument("title"),
                Node::Markdown(_) => None,
            })
            .collect();
        assert_eq!(titles, vec!["A", "B"]);
    }

    #[test]
    fn tags_inside_fences_and_inline_code_stay_text() {
        let source = "```liquid\n{% hint style=\"info\" %}\n```\nUse `{% endhint %}` to close.\n";
        assert_eq!(split(source), vec![Node::Markdown(source.into())]);
    }

    #[test]
    fn a_tag_without_an_end_is_a_leaf_and_positional_strings_are_kept() {
        let nodes =
            split("{% include \"snippets/intro.md\" %}\n{% embed url=\"https://x.test\" %}\n");
        let include = tag(&nodes[0]);
        assert_eq!(include.positional, vec!["snippets/intro.md".to_string()]);
        assert!(include.body.is_none());
        assert_eq!(tag(&nodes[2]).argument("url"), Some("https://x.test"));
    }

    #[test]
    fn stray_end_tags_vanish_and_unclosed_tags_close_at_the_end() {
        let nodes = split("{% endhint %}a{% hint %}b{% endhint %}{% tabs %}");
        assert_eq!(nodes[0], Node::Markdown("a".into()));
        assert!(tag(&nodes[1]).body.is_some());
        assert!(tag(&nodes[2]).body.is_none());
    }

    #[test]
    fn deep_tag_nesting_is_capped() {
        let depth = 10_000;
        let source = "{% hint %}".repeat(depth) + "x" + &"{% endhint %}".repeat(depth);
        let nodes = split(&source);
        let mut level = 0;
        let mut current = &nodes;
        while let Some(Node::Tag(Tag {
            body: Some(body), ..
        })) = current.first()
        {
            level += 1;
            current = body;
        }
        assert_eq!(level, MAX_TAG_DEPTH);
    }
}

//! Blocks as lines of text and back: `#` headings, `-` and `1.` lists, fenced code, `>` quotes,
//! paragraphs, and the placeholders of kept blocks.

use serde_json::{Value, json};

use super::inline;
use super::placeholder_number;

pub(super) use super::inline::escape as escape_inline;

const FENCE: &str = "```";

fn kind(block: &Value) -> Option<&str> {
    if block.get("object").and_then(Value::as_str) != Some("block") {
        return None;
    }
    block.get("type").and_then(Value::as_str)
}

fn children(block: &Value) -> &[Value] {
    block
        .get("nodes")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Whether a block's `data` holds nothing the text would lose: no keys but `allowed`, and an
/// alignment (if any) that is the default one.
fn plain_data(block: &Value, allowed: &[&str]) -> bool {
    let Some(data) = block.get("data") else {
        return true;
    };
    let Some(data) = data.as_object() else {
        return data.is_null();
    };
    data.iter().all(|(key, value)| match key.as_str() {
        "align" => matches!(value.as_str(), Some("start" | "left")),
        other => allowed.contains(&other),
    })
}

/// The inline text of a block that holds only inlines; None when it cannot be written or has
/// no visible characters (a blank line would end it).
fn inline_text(block: &Value) -> Option<String> {
    let inlines = inline::read(children(block))?;
    if inline::plain(&inlines).trim().is_empty() {
        return None;
    }
    Some(inline::to_text(&inlines))
}

/// A paragraph's text, with what would read as the start of another block escaped.
fn paragraph_text(block: &Value) -> Option<String> {
    let text = inline_text(block)?;
    Some(escape_line_start(&text))
}

fn escape_line_start(text: &str) -> String {
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && text[digits..].starts_with('.') {
        return format!("{}\\{}", &text[..digits], &text[digits..]);
    }
    match text.chars().next() {
        Some('#' | '>' | '-' | '+' | '<') => format!("\\{text}"),
        _ => text.to_string(),
    }
}

/// A block as text: `Some("")` for an empty paragraph (dropped), None for a block to keep.
pub(super) fn block_to_text(block: &Value) -> Option<String> {
    let kind = kind(block)?;
    match kind {
        "paragraph" if plain_data(block, &[]) => {
            let inlines = inline::read(children(block))?;
            if inlines.is_empty() {
                return Some(String::new());
            }
            paragraph_text(block)
        }
        "heading-1" | "heading-2" | "heading-3" if plain_data(block, &[]) => {
            let level = kind.strip_prefix("heading-")?.parse::<usize>().ok()?;
            Some(format!("{} {}", "#".repeat(level), inline_text(block)?))
        }
        "list-unordered" | "list-ordered" if plain_data(block, &[]) => list_to_text(block, kind),
        "code" if plain_data(block, &["syntax"]) => code_to_text(block),
        "blockquote" if plain_data(block, &[]) => quote_to_text(block),
        _ => None,
    }
}

/// Each item one line; an item holds exactly one paragraph (or its inlines directly).
fn list_to_text(block: &Value, kind: &str) -> Option<String> {
    let items = children(block);
    if items.is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    for (index, item) in items.iter().enumerate() {
        if self::kind(item) != Some("list-item") || !plain_data(item, &[]) {
            return None;
        }
        let text = match children(item) {
            [paragraph] if self::kind(paragraph) == Some("paragraph") => {
                plain_data(paragraph, &[]).then(|| inline_text(paragraph))??
            }
            _ => inline_text(item)?,
        };
        let marker = if kind == "list-ordered" {
            format!("{}.", index + 1)
        } else {
            "-".to_string()
        };
        lines.push(format!("{marker} {text}"));
    }
    Some(lines.join("\n"))
}

/// A fence with the language; lines from `code-line` children, or from one text child.
fn code_to_text(block: &Value) -> Option<String> {
    let syntax = block
        .pointer("/data/syntax")
        .and_then(Value::as_str)
        .unwrap_or("");
    if syntax.contains(|c: char| c.is_whitespace() || c == '`') {
        return None;
    }
    let mut lines: Vec<String> = Vec::new();
    for child in children(block) {
        match child.get("object").and_then(Value::as_str) {
            Some("block") if kind(child) == Some("code-line") => lines.push(code_line(child)?),
            Some("text") => {
                let text = raw_text(child)?;
                lines.extend(text.split('\n').map(str::to_string));
            }
            _ => return None,
        }
    }
    if lines
        .iter()
        .any(|line| line.trim_start().starts_with(FENCE))
    {
        return None;
    }
    let mut text = format!("{FENCE}{syntax}\n");
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(FENCE);
    Some(text)
}

/// The text of a code line: unmarked text only, on one line.
fn code_line(line: &Value) -> Option<String> {
    let mut text = String::new();
    for child in children(line) {
        let part = raw_text(child)?;
        if part.contains(['\n', '\r']) {
            return None;
        }
        text.push_str(&part);
    }
    Some(text)
}

/// The characters of a text node whose leaves carry no marks.
fn raw_text(node: &Value) -> Option<String> {
    if node.get("object").and_then(Value::as_str) != Some("text") {
        return None;
    }
    let leaves: Vec<&Value> = match node.get("leaves").and_then(Value::as_array) {
        Some(leaves) => leaves.iter().collect(),
        None => vec![node],
    };
    let mut text = String::new();
    for leaf in leaves {
        let marked = leaf
            .get("marks")
            .and_then(Value::as_array)
            .is_some_and(|marks| !marks.is_empty());
        if marked {
            return None;
        }
        text.push_str(leaf.get("text").and_then(Value::as_str).unwrap_or(""));
    }
    (!text.contains('\r')).then_some(text)
}

/// `> ` before each paragraph, a lone `>` between them.
fn quote_to_text(block: &Value) -> Option<String> {
    let paragraphs = children(block);
    if paragraphs.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    for paragraph in paragraphs {
        if kind(paragraph) != Some("paragraph") || !plain_data(paragraph, &[]) {
            return None;
        }
        parts.push(format!("> {}", inline_text(paragraph)?));
    }
    Some(parts.join("\n>\n"))
}

// ---------------------------------------------------------------------------------------------
// Text → blocks

fn block_json(kind: &str, data: Value, nodes: Vec<Value>) -> Value {
    json!({ "object": "block", "type": kind, "isVoid": false, "data": data, "nodes": nodes })
}

fn inline_block(kind: &str, text: &str) -> Value {
    block_json(kind, json!({}), inline::to_nodes(&inline::parse(text)))
}

fn heading(line: &str) -> Option<(usize, &str)> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    if !(1..=3).contains(&hashes) {
        return None;
    }
    line[hashes..].strip_prefix(' ').map(|text| (hashes, text))
}

fn unordered_item(line: &str) -> Option<&str> {
    line.strip_prefix("- ").or_else(|| line.strip_prefix("* "))
}

fn ordered_item(line: &str) -> Option<&str> {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    line[digits..].strip_prefix(". ")
}

fn quote_line(line: &str) -> Option<&str> {
    if line == ">" {
        return Some("");
    }
    line.strip_prefix("> ").or_else(|| line.strip_prefix('>'))
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// A line that begins a block of its own rather than continuing a paragraph.
fn starts_block(line: &str) -> bool {
    line.starts_with(FENCE)
        || placeholder_number(line).is_some()
        || heading(line).is_some()
        || unordered_item(line).is_some()
        || ordered_item(line).is_some()
        || quote_line(line).is_some()
}

pub(super) fn parse_blocks(text: &str, kept: &[Value]) -> Result<Vec<Value>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        if is_blank(line) {
            index += 1;
        } else if let Some(syntax) = line.strip_prefix(FENCE) {
            let start = index + 1;
            let end = lines[start..]
                .iter()
                .position(|line| line.trim_end() == FENCE)
                .map_or(lines.len(), |offset| start + offset);
            blocks.push(code_block(syntax.trim(), &lines[start..end]));
            index = end + 1;
        } else if let Some(number) = placeholder_number(line) {
            let block = kept.get(number.wrapping_sub(1)).ok_or_else(|| {
                format!(
                    "line {} stands for kept block {number}, and there {}",
                    index + 1,
                    match kept.len() {
                        0 => "are none".to_string(),
                        1 => "is only 1".to_string(),
                        count => format!("are only {count}"),
                    }
                )
            })?;
            blocks.push(block.clone());
            index += 1;
        } else if let Some((level, text)) = heading(line) {
            blocks.push(inline_block(&format!("heading-{level}"), text));
            index += 1;
        } else if unordered_item(line).is_some() {
            index = list(&lines, index, "list-unordered", unordered_item, &mut blocks);
        } else if ordered_item(line).is_some() {
            index = list(&lines, index, "list-ordered", ordered_item, &mut blocks);
        } else if quote_line(line).is_some() {
            index = quote(&lines, index, &mut blocks);
        } else {
            let mut text = line.to_string();
            index += 1;
            while index < lines.len() && !is_blank(lines[index]) && !starts_block(lines[index]) {
                text.push(' ');
                text.push_str(lines[index]);
                index += 1;
            }
            blocks.push(inline_block("paragraph", &text));
        }
    }
    Ok(blocks)
}

fn code_block(syntax: &str, lines: &[&str]) -> Value {
    let data = if syntax.is_empty() {
        json!({})
    } else {
        json!({ "syntax": syntax })
    };
    let code_lines: Vec<Value> = lines
        .iter()
        .map(|line| {
            let text = json!({ "object": "text", "leaves": [
                { "object": "leaf", "text": line, "marks": [] }
            ]});
            block_json("code-line", json!({}), vec![text])
        })
        .collect();
    block_json("code", data, code_lines)
}

/// Consecutive items of one kind; a line that starts nothing continues the item above.
fn list(
    lines: &[&str],
    mut index: usize,
    kind: &str,
    item_text: fn(&str) -> Option<&str>,
    blocks: &mut Vec<Value>,
) -> usize {
    let mut items: Vec<String> = Vec::new();
    while index < lines.len() && !is_blank(lines[index]) {
        let line = lines[index];
        if let Some(text) = item_text(line) {
            items.push(text.to_string());
        } else if starts_block(line) {
            break;
        } else if let Some(last) = items.last_mut() {
            last.push(' ');
            last.push_str(line);
        }
        index += 1;
    }
    let items = items
        .iter()
        .map(|text| {
            let paragraph = inline_block("paragraph", text);
            block_json("list-item", json!({}), vec![paragraph])
        })
        .collect();
    blocks.push(block_json(kind, json!({}), items));
    index
}

/// Consecutive `>` lines; a lone `>` separates paragraphs.
fn quote(lines: &[&str], mut index: usize, blocks: &mut Vec<Value>) -> usize {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    while let Some(text) = lines.get(index).and_then(|line| quote_line(line)) {
        if is_blank(text) {
            paragraphs.extend(current.take());
        } else {
            match current.as_mut() {
                Some(current) => {
                    current.push(' ');
                    current.push_str(text);
                }
                None => current = Some(text.to_string()),
            }
        }
        index += 1;
    }
    paragraphs.extend(current);
    let nodes: Vec<Value> = paragraphs
        .iter()
        .map(|text| inline_block("paragraph", text))
        .collect();
    if !nodes.is_empty() {
        blocks.push(block_json("blockquote", json!({}), nodes));
    }
    index
}

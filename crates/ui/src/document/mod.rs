//! The one Document editor: a rich-text Document (the shape of a change request's
//! description) as markdown-like text to edit, and that text back as a Document.
//!
//! Paragraphs, headings 1–3, bulleted and numbered lists, code blocks, quotes, the marks bold,
//! italic, strikethrough and code, and links to addresses convert both ways. Any other block
//! (an image, a hint, a table, a list with nested lists…) is kept exactly as it was: the text
//! holds a placeholder line `<!-- quire:keep N -->` where it stands, and the block comes back
//! from it unchanged. [`kept_notice`] says how many such blocks there are, before saving.
//!
//! Text is escaped so that it reads back as the same text: `\*` is a star, not bold.

mod inline;
mod text;

use serde_json::{Value, json};

pub use inline::{Inline, Leaf, Mark};

/// A Document as editable text, with the blocks the text cannot hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EditableText {
    pub text: String,
    /// Blocks kept as they are; placeholder `N` stands for `kept[N - 1]`.
    pub kept: Vec<Value>,
}

/// The placeholder line standing for kept block `number` (1-based).
pub fn placeholder(number: usize) -> String {
    format!("<!-- quire:keep {number} -->")
}

/// The number of a placeholder line, if the line is one.
fn placeholder_number(line: &str) -> Option<usize> {
    line.trim_end()
        .strip_prefix("<!-- quire:keep ")?
        .strip_suffix(" -->")?
        .trim()
        .parse()
        .ok()
}

/// What the user is told before saving when blocks are kept: "2 blocks quire cannot edit are
/// kept as they are".
pub fn kept_notice(count: usize) -> Option<String> {
    match count {
        0 => None,
        1 => Some("1 block quire cannot edit is kept as it is".to_string()),
        _ => Some(format!(
            "{count} blocks quire cannot edit are kept as they are"
        )),
    }
}

/// The top-level blocks of a Document, also when it is wrapped as `{document: {...}}`.
fn top_blocks(document: &Value) -> &[Value] {
    let document = document.get("document").unwrap_or(document);
    document
        .get("nodes")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The Document as text to edit. A Document given as `{markdown}` is that markdown.
pub fn to_text(document: &Value) -> EditableText {
    if let Some(markdown) = document.get("markdown").and_then(Value::as_str) {
        return EditableText {
            text: markdown.to_string(),
            kept: Vec::new(),
        };
    }
    let mut parts = Vec::new();
    let mut kept = Vec::new();
    for block in top_blocks(document) {
        match text::block_to_text(block) {
            Some(text) if text.is_empty() => {}
            Some(text) => parts.push(text),
            None => {
                kept.push(block.clone());
                parts.push(placeholder(kept.len()));
            }
        }
    }
    EditableText {
        text: parts.join("\n\n"),
        kept,
    }
}

/// The text back as a Document; `kept` are the blocks its placeholders stand for. Fails only
/// on a placeholder that names no kept block.
pub fn from_text(text: &str, kept: &[Value]) -> Result<Value, String> {
    let nodes = text::parse_blocks(text, kept)?;
    Ok(json!({ "object": "document", "data": {}, "nodes": nodes }))
}

/// Markdown to draw a Document with: the editable text, each kept block replaced by a note
/// saying what kind of block is there.
pub fn display_markdown(document: &Value) -> String {
    let editable = to_text(document);
    editable
        .text
        .lines()
        .map(|line| match placeholder_number(line) {
            Some(number) => {
                let block = editable.kept.get(number.saturating_sub(1));
                if let Some(text) = block.and_then(shown_as_text) {
                    return text;
                }
                let kind = block
                    .and_then(|block| block.get("type"))
                    .and_then(Value::as_str)
                    .unwrap_or("unknown");
                format!(
                    "*[a {} block, shown in the web app]*",
                    text::escape_inline(kind)
                )
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A kept block whose only trouble is a line break or carriage return inside its text (which
/// the editable text cannot hold) is still shown, each break as a space; the screen's
/// sanitizing shows any other control character as a stand-in.
fn shown_as_text(block: &Value) -> Option<String> {
    let mut flat = block.clone();
    flatten_breaks(&mut flat);
    text::block_to_text(&flat).filter(|text| !text.is_empty())
}

fn flatten_breaks(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                match child {
                    Value::String(text) if key == "text" => {
                        *text = text.replace(['\n', '\r'], " ");
                    }
                    _ => flatten_breaks(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(flatten_breaks),
        _ => {}
    }
}

#[cfg(test)]
mod tests;

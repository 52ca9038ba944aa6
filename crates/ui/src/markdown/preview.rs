//! The start of a page, for a preview that costs one screenful's work: the markdown is cut at
//! a block boundary, and GitBook blocks or a code fence left open by the cut are closed, so the
//! first screen looks as it will when the whole page is read.

use super::gitbook::{closes_fence, opens_fence};

/// Tags are closed for at most this many open blocks (GitBook nesting is capped the same way).
const MAX_OPEN_TAGS: usize = 32;

/// The start of `markdown` to parse for a preview: about `max_bytes` (never more, unless one
/// line is longer), cut after a blank line outside code when there is one. `None` when the
/// page is short enough to parse whole.
pub fn preview_source(markdown: &str, max_bytes: usize) -> Option<String> {
    if markdown.len() <= max_bytes {
        return None;
    }
    let cut = cut_point(markdown, max_bytes);
    let prefix = &markdown[..cut.at];
    let mut source = String::with_capacity(prefix.len() + 64);
    source.push_str(prefix);
    if let Some((fence_char, length)) = cut.open_fence {
        if !source.ends_with('\n') {
            source.push('\n');
        }
        source.extend(std::iter::repeat_n(fence_char, length));
        source.push('\n');
    }
    for name in open_tags(prefix, &markdown[cut.at..]) {
        source.push_str(&format!("\n{{% end{name} %}}\n"));
    }
    Some(source)
}

struct Cut {
    at: usize,
    /// The fence the cut falls inside, if it does.
    open_fence: Option<(char, usize)>,
}

/// After the last blank line outside fenced code within `max_bytes`; else after the last whole
/// line; else at the last character boundary.
fn cut_point(markdown: &str, max_bytes: usize) -> Cut {
    let mut position = 0;
    let mut fence: Option<(char, usize)> = None;
    let mut after_blank = None;
    let mut after_line = None;
    for line in markdown.split_inclusive('\n') {
        let end = position + line.len();
        if end > max_bytes {
            break;
        }
        match fence {
            Some((fence_char, length)) => {
                if closes_fence(line, fence_char, length) {
                    fence = None;
                }
            }
            None => fence = opens_fence(line),
        }
        if fence.is_none() && line.trim().is_empty() {
            after_blank = Some(end);
        }
        after_line = Some((end, fence));
        position = end;
    }
    if let Some(at) = after_blank {
        return Cut {
            at,
            open_fence: None,
        };
    }
    if let Some((at, open_fence)) = after_line {
        return Cut { at, open_fence };
    }
    let mut at = max_bytes.min(markdown.len());
    while !markdown.is_char_boundary(at) {
        at -= 1;
    }
    Cut {
        at,
        open_fence: None,
    }
}

/// GitBook tags opened in `prefix` and not closed there, innermost first, whose end tag comes
/// later in the page (`rest`): in the whole page they hold a body, so the preview closes them.
fn open_tags(prefix: &str, rest: &str) -> Vec<String> {
    let mut open: Vec<String> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for line in prefix.split_inclusive('\n') {
        match fence {
            Some((fence_char, length)) => {
                if closes_fence(line, fence_char, length) {
                    fence = None;
                }
                continue;
            }
            None => {
                fence = opens_fence(line);
                if fence.is_some() {
                    continue;
                }
            }
        }
        for name in tag_names(line) {
            match name.strip_prefix("end") {
                Some(closed) => {
                    if let Some(at) = open.iter().rposition(|name| name == closed) {
                        open.truncate(at);
                    }
                }
                None => open.push(name),
            }
        }
    }
    open.into_iter()
        .rev()
        .filter(|name| rest.contains(&format!("end{name}")))
        .take(MAX_OPEN_TAGS)
        .collect()
}

/// The names (lower case) of the `{% name … %}` tags on one line.
fn tag_names(line: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("{%") {
        let after = &rest[start + 2..];
        let Some(close) = after.find("%}") else {
            break;
        };
        let name = after[..close]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if !name.is_empty() {
            names.push(name);
        }
        rest = &after[close + 2..];
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_page_is_parsed_whole() {
        assert_eq!(preview_source("# Hi\n\ntext\n", 100), None);
    }

    #[test]
    fn the_cut_falls_after_a_blank_line_outside_code() {
        let markdown = "one\n\n```\na\n\nb\n```\n\nthree\n".repeat(20);
        let source = preview_source(&markdown, 12).expect("cut");
        assert_eq!(source, "one\n\n");
        let source = preview_source(&markdown, 22).expect("cut");
        assert_eq!(
            source, "one\n\n```\na\n\nb\n```\n\n",
            "not inside the fence"
        );
    }

    #[test]
    fn open_gitbook_blocks_and_fences_are_closed() {
        let markdown = format!(
            "{{% hint style=\"info\" %}}\n{}\n{{% endhint %}}\n",
            "word ".repeat(100)
        );
        let source = preview_source(&markdown, 60).expect("cut");
        assert!(source.ends_with("\n{% endhint %}\n"), "{source}");
        let code = format!("```rust\n{}```\n", "let x = 1;\n".repeat(50));
        let source = preview_source(&code, 40).expect("cut");
        assert!(source.ends_with("let x = 1;\n```\n"), "{source}");
    }

    #[test]
    fn a_tag_without_an_end_on_the_page_is_not_closed() {
        let markdown = format!("{{% include \"a.md\" %}}\n\n{}", "text\n\n".repeat(50));
        let source = preview_source(&markdown, 40).expect("cut");
        assert!(!source.contains("endinclude"), "{source}");
    }

    #[test]
    fn a_page_of_one_long_line_is_cut_at_a_character_boundary() {
        let markdown = "é".repeat(100);
        let source = preview_source(&markdown, 11).expect("cut");
        assert_eq!(source, "é".repeat(5));
    }
}

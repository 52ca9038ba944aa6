//! Footnotes: their numbers and superscript markers, and the placeholder definitions that let a
//! reference find a definition in another chunk of the page.

use pulldown_cmark::{Event, Tag, TagEnd};

use super::Builder;

impl Builder<'_> {
    /// Whether `event` belongs to a placeholder footnote definition (and so is dropped).
    pub(super) fn skips_stub_footnote(&mut self, event: &Event<'_>) -> bool {
        if self.in_stub_footnote {
            if matches!(event, Event::End(TagEnd::FootnoteDefinition)) {
                self.in_stub_footnote = false;
            }
            return true;
        }
        if let Event::Start(Tag::FootnoteDefinition(label)) = event
            && self.stub_footnotes.contains(&label.to_lowercase())
        {
            self.in_stub_footnote = true;
            return true;
        }
        false
    }

    /// The footnote's number: 1 for the first label met on the page, 2 for the next…
    pub(super) fn footnote_number(&mut self, label: &str) -> usize {
        let label = label.to_lowercase();
        let next = self.footnote_numbers.len() + 1;
        match self.footnote_numbers.get(&label) {
            Some(number) => *number,
            None => {
                self.footnote_numbers.insert(label, next);
                next
            }
        }
    }
}

/// A footnote's number in superscript digits: `¹²`.
pub(super) fn footnote_marker(number: usize) -> String {
    const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    number
        .to_string()
        .bytes()
        .map(|digit| SUPERSCRIPTS[usize::from(digit.saturating_sub(b'0')).min(9)])
        .collect()
}

/// At most this many footnote labels are tracked per page: enough for any real page, and a
/// hostile one cannot make every chunk carry thousands of placeholders.
const MAX_FOOTNOTE_LABELS: usize = 1_000;

/// The labels (lower-cased) of the footnote definitions in `markdown`: lines that start,
/// after at most three spaces, with `[^label]:`.
pub(super) fn footnote_labels(markdown: &str) -> std::collections::HashSet<String> {
    let mut labels = std::collections::HashSet::new();
    for line in markdown.lines() {
        if labels.len() >= MAX_FOOTNOTE_LABELS {
            break;
        }
        let trimmed = line.trim_start_matches(' ');
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        let Some(label) = trimmed
            .strip_prefix("[^")
            .and_then(|rest| rest.split_once("]:"))
            .map(|(label, _)| label.to_lowercase())
        else {
            continue;
        };
        if !label.is_empty() && !label.contains(['[', ']']) {
            labels.insert(label);
        }
    }
    labels
}

/// The labels (lower-cased) that `chunk` refers to as `[^label]`, definitions included.
fn footnote_references(chunk: &str) -> std::collections::HashSet<String> {
    let mut references = std::collections::HashSet::new();
    for (start, _) in chunk.match_indices("[^") {
        let rest = &chunk[start + 2..];
        if let Some(end) = rest.find(']')
            && end > 0
            && end <= 200
        {
            references.insert(rest[..end].to_lowercase());
        }
        if references.len() >= MAX_FOOTNOTE_LABELS {
            break;
        }
    }
    references
}

/// The chunk with a placeholder definition appended for each footnote it refers to that is
/// defined elsewhere on the page, so pulldown-cmark turns those references into footnote
/// references instead of raw `[^label]` text. Returns the placeholders' labels so their
/// definitions can be dropped. Only labels the chunk uses get one, so the work stays in
/// proportion to the chunk.
pub(super) fn with_footnote_stubs<'a>(
    chunk: &'a str,
    page_labels: &std::collections::HashSet<String>,
) -> (std::borrow::Cow<'a, str>, std::collections::HashSet<String>) {
    if page_labels.is_empty() || !chunk.contains("[^") {
        return (std::borrow::Cow::Borrowed(chunk), Default::default());
    }
    let defined_here = footnote_labels(chunk);
    let stubs: std::collections::HashSet<String> = footnote_references(chunk)
        .into_iter()
        .filter(|label| page_labels.contains(label) && !defined_here.contains(label))
        .collect();
    if stubs.is_empty() {
        return (std::borrow::Cow::Borrowed(chunk), stubs);
    }
    let mut source = String::with_capacity(chunk.len() + stubs.len() * 16);
    source.push_str(chunk);
    for label in &stubs {
        source.push_str(&format!("\n\n[^{label}]: -\n"));
    }
    (std::borrow::Cow::Owned(source), stubs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footnote_markers_are_superscript_numbers() {
        assert_eq!(footnote_marker(12), "¹²");
        assert_eq!(footnote_marker(3), "³");
    }

    #[test]
    fn a_chunk_gets_placeholders_only_for_the_footnotes_it_uses() {
        let page_labels: std::collections::HashSet<String> =
            (0..5_000).map(|n| format!("l{n}")).collect();
        let (source, stubs) = with_footnote_stubs("see[^l42] and [^unknown]", &page_labels);
        assert_eq!(
            stubs.len(),
            1,
            "one placeholder, not one per label on the page"
        );
        assert!(source.len() < 100, "{source}");
        let many: String = (0..5_000).map(|n| format!("[^l{n}]: x\n")).collect();
        assert_eq!(footnote_labels(&many).len(), MAX_FOOTNOTE_LABELS);
    }

    #[test]
    fn footnote_labels_are_found_at_line_starts_only() {
        let markdown = "Text[^a].\n\n[^A]: one\n   [^b-2]: two\n    [^code]: no\n[^]: no\n";
        let mut labels: Vec<String> = footnote_labels(markdown).into_iter().collect();
        labels.sort();
        assert_eq!(labels, ["a", "b-2"]);
    }
}

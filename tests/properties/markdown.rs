//! Property tests for the markdown renderer: any input — markdown syntax soup,
//! GitBook blocks, control characters, wide and combining characters — parses and lays out
//! without panicking, into a number of rows bounded by the input's size, within a time bounded
//! per kilobyte.

use crate::common::proptest_runner;
use proptest::prelude::*;
use quire::ui::markdown::{MAX_ROWS, MarkdownDoc};
use quire::ui::theme::Theme;

/// Pieces that switch the parser's states on and off, mixed with arbitrary characters.
const FRAGMENTS: &[&str] = &[
    "\n",
    "\n\n",
    " ",
    "    ",
    "\t",
    "#",
    "## ",
    "###### ",
    "```",
    "```rust\n",
    "~~~",
    "`",
    "|",
    "| a | b |\n",
    "|---|:--:|\n",
    "---\n",
    "***",
    "*",
    "_",
    "**",
    "~~",
    "[",
    "]",
    "](",
    ")",
    "![",
    "<",
    ">",
    "> ",
    "- ",
    "- [x] ",
    "1. ",
    "99999999999. ",
    "[^1]",
    "[^1]: ",
    "\\",
    "&amp;",
    "&#27;",
    "&#155;",
    "&#x202e;",
    "<https://a.example/x>",
    "https://b.example/",
    "{% hint style=\"info\" %}",
    "{% endhint %}",
    "{% tabs %}",
    "{% tab title=\"t\" %}",
    "{% endtab %}",
    "{% endtabs %}",
    "{% code title=\"x\" %}",
    "{% endcode %}",
    "{% embed url=\"https://e.example\" %}",
    "{% content-ref url=\"a.md\" %}",
    "{%",
    "%}",
    "<details>",
    "</details>",
    "<summary>",
    "$$",
    "word",
    "averyveryverylongwordwithoutanybreak",
    "é",
    "e\u{301}",
    "漢字",
    "🚀",
    "👩‍👩‍👧",
    "\u{1b}[2J",
    "\u{1b}]52;c;SGFjaw==\u{7}",
    "\u{9b}",
    "\u{202e}",
    "\u{7f}",
    "\u{200b}",
    "\r",
    "\0",
];

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(FRAGMENTS).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ]
}

fn markdown_input() -> impl Strategy<Value = String> {
    proptest::collection::vec(fragment(), 0..400).prop_map(|pieces| pieces.concat())
}

/// Widths from a 1-column terminal to a wide one.
const WIDTHS: [u16; 4] = [1, 12, 80, 300];

/// At most this many rows for `input` at `width`: every character on a row of its own, plus
/// frames and separators for every source line, and the truncation line.
fn rows_allowed(input: &str, width: u16) -> usize {
    let characters = input.chars().count();
    let source_lines = input.lines().count() + 1;
    let per_row = usize::from(width.max(1));
    let bound = 16 * (characters / per_row + 1) + 8 * source_lines + 16;
    bound.min(MAX_ROWS + 1)
}

#[test]
fn any_input_renders_without_panic_in_bounded_rows() {
    let theme = Theme::default();
    let mut runner = proptest_runner(192);
    runner
        .run(&markdown_input(), |input| {
            let doc = MarkdownDoc::parse(&input, &theme);
            for width in WIDTHS {
                let layout = doc.layout(width);
                prop_assert!(
                    layout.lines.len() <= rows_allowed(&input, width),
                    "{} rows at width {width} for {} bytes",
                    layout.lines.len(),
                    input.len()
                );
                prop_assert!(layout.heading_rows.len() <= doc.headings().len());
                let first = doc.layout_first(width, 24);
                prop_assert!(first.lines.len() <= layout.lines.len().max(25));
            }
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{failure}"));
}

/// Big inputs too, fewer of them: the rows stay bounded when the page is large. (How long
/// they take is measured in `benches/markdown.rs`: on a busy machine a time bound here would
/// fail at random.)
#[test]
fn large_inputs_render_in_bounded_rows() {
    let theme = Theme::default();
    let mut runner = proptest_runner(8);
    let large =
        proptest::collection::vec(fragment(), 20_000..40_000).prop_map(|pieces| pieces.concat());
    runner
        .run(&large, |input| {
            let doc = MarkdownDoc::parse(&input, &theme);
            let layout = doc.layout(80);
            prop_assert!(layout.lines.len() <= rows_allowed(&input, 80));
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{failure}"));
}

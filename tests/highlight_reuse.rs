//! Each distinct code block reaches the `quire highlight-worker` process once: a page's copies
//! of a block get the colours of the first, and a page opened after its preview sends only
//! the blocks the preview did not have. (The real binary as the worker, counted at the pipe.)

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use quire::ui::markdown::{MarkdownDoc, RenderOptions, highlight_worker};
use quire::ui::theme::Theme;

/// A fenced block; `marker` makes its first line findable in a layout.
fn block(language: &str, marker: &str) -> String {
    format!("```{language}\nlet {marker} = compute(1, \"two\"); // three\n```\n\n")
}

/// How many styled runs each row showing `marker` has, one entry per row.
fn runs_of_rows_with(doc: &MarkdownDoc, marker: &str) -> Vec<usize> {
    doc.layout(80)
        .lines
        .iter()
        .filter(|line| line.spans.iter().any(|span| span.content.contains(marker)))
        .map(|line| line.spans.len())
        .collect()
}

fn colour(markdown: &str, complete: bool) -> MarkdownDoc {
    let theme = Theme::default();
    let plain = if complete {
        MarkdownDoc::parse(markdown, &theme)
    } else {
        MarkdownDoc::parse_preview(markdown, &theme)
    };
    plain.highlighted(&theme, &RenderOptions::default())
}

#[test]
fn each_distinct_block_reaches_the_worker_once_and_every_copy_is_coloured() {
    highlight_worker::use_worker_program(PathBuf::from(env!("CARGO_BIN_EXE_quire")));

    let mut page = String::from("# Repeated code\n\n");
    for copy in 0..25 {
        page.push_str(&format!("Step {copy}.\n\n"));
        page.push_str(&block("rust", "alpha"));
        page.push_str(&block("python", "beta"));
        page.push_str(&block("rust", "gamma"));
    }
    let plain_runs = runs_of_rows_with(&MarkdownDoc::parse(&page, &Theme::default()), "alpha");
    let sent_before = highlight_worker::blocks_sent();
    let coloured = colour(&page, true);
    assert_eq!(
        highlight_worker::blocks_sent() - sent_before,
        3,
        "75 blocks, 3 distinct"
    );
    for marker in ["alpha", "beta", "gamma"] {
        let runs = runs_of_rows_with(&coloured, marker);
        assert_eq!(runs.len(), 25, "{marker}: {runs:?}");
        assert!(
            runs.iter()
                .all(|count| *count == runs[0] && *count > plain_runs[0]),
            "every copy of {marker} is coloured like the first: {runs:?}"
        );
    }

    // A preview of the start of another page, then that page: the page sends only what the
    // preview did not colour, and its copies of the preview's blocks come coloured too.
    let start = format!(
        "# Next\n\n{}{}",
        block("go", "delta"),
        block("sh", "epsilon")
    );
    let whole = format!("{start}{}{}", block("go", "zeta"), block("go", "delta"));
    let sent_before = highlight_worker::blocks_sent();
    let preview = colour(&start, false);
    assert_eq!(highlight_worker::blocks_sent() - sent_before, 2);
    let opened = colour(&whole, true);
    assert_eq!(
        highlight_worker::blocks_sent() - sent_before,
        3,
        "opening the page sent its one new block"
    );
    let delta = runs_of_rows_with(&opened, "delta");
    assert_eq!(delta.len(), 2);
    assert_eq!(delta, [runs_of_rows_with(&preview, "delta")[0]; 2]);
    assert!(runs_of_rows_with(&opened, "zeta")[0] > 1);

    highlight_worker::stop_worker();
}

//! `quire cr diff N`: what a change request changes, page by page, as a unified diff (main
//! against the change request), from the same line diff the review screen draws. Coloured on
//! a terminal; plain for a pipe or under NO_COLOR.

use std::io::Write;

use crate::api::{ChangedPage, Client, SemanticChangeType};
use crate::cli::output::Streams;
use crate::cli::script::{Failure, Outcome};
use crate::ui::diff::{Hunk, LineKind, diff_pages};

/// Semantic changes read; the rest are said to be left out.
const CHANGES_READ: u32 = 500;

pub(super) async fn run(
    client: &Client,
    space: &str,
    number: &str,
    streams: &mut Streams,
) -> Outcome {
    streams.progress("Reading the change request");
    let changes = client
        .change_request_changes(space, number, CHANGES_READ)
        .await?;
    let mut printed = 0;
    for change in &changes.changes {
        let Some(page) = &change.page else { continue };
        let (before, after) = match change.change_type {
            SemanticChangeType::PageCreated => (false, true),
            SemanticChangeType::PageEdited => (true, true),
            SemanticChangeType::PageDeleted => (true, false),
            _ => continue,
        };
        let old = if before {
            main_side(client, space, &page.id).await?
        } else {
            String::new()
        };
        let new = if after {
            client
                .get_change_request_page_markdown(space, number, &page.id)
                .await?
                .markdown
                .unwrap_or_default()
        } else {
            String::new()
        };
        streams.done();
        print_page(streams, page, before, after, &old, &new);
        printed += 1;
    }
    streams.done();
    if let Some(more) = changes.more.filter(|more| *more > 0) {
        let _ = writeln!(streams.err, "{more} more changes are not shown.");
    }
    if printed == 0 && streams.out_is_terminal {
        let _ = writeln!(streams.err, "No page content changed.");
    }
    Ok(())
}

/// Main's version of a page; a page main no longer has is empty.
async fn main_side(client: &Client, space: &str, page: &str) -> Result<String, Failure> {
    match client.get_page_markdown(space, page).await {
        Ok(page) => Ok(page.markdown.unwrap_or_default()),
        Err(error) if error.is_not_found() => Ok(String::new()),
        Err(error) => Err(error.into()),
    }
}

fn print_page(
    streams: &mut Streams,
    page: &ChangedPage,
    before: bool,
    after: bool,
    old: &str,
    new: &str,
) {
    let name = streams
        .shown(page.path.as_deref().unwrap_or(&page.title))
        .into_owned();
    let name = name.trim_start_matches('/');
    let old_name = if before {
        format!("a/{name}")
    } else {
        "/dev/null".into()
    };
    let new_name = if after {
        format!("b/{name}")
    } else {
        "/dev/null".into()
    };
    let paint = Painter(streams.colour);
    let header = [
        format!("diff --quire a/{name} b/{name}"),
        format!("--- {old_name}"),
        format!("+++ {new_name}"),
    ];
    for line in header {
        let _ = writeln!(streams.out, "{}", paint.sgr("1", &line));
    }
    for hunk in &diff_pages(old, new).hunks {
        print_hunk(streams, hunk, paint);
    }
}

fn print_hunk(streams: &mut Streams, hunk: &Hunk, paint: Painter) {
    let count = |kind: LineKind| hunk.lines.iter().filter(|line| line.kind != kind).count();
    let old_count = count(LineKind::Added);
    let new_count = count(LineKind::Removed);
    let range = |start: usize, count: usize| {
        // An empty side starts at the line before it, as diff -u writes it.
        let start = if count == 0 {
            start.saturating_sub(1)
        } else {
            start
        };
        format!("{start},{count}")
    };
    let at = format!(
        "@@ -{} +{} @@",
        range(hunk.old_start, old_count),
        range(hunk.new_start, new_count)
    );
    let _ = writeln!(streams.out, "{}", paint.sgr("36", &at));
    for line in &hunk.lines {
        let text: String = line
            .pieces
            .iter()
            .map(|(_, piece)| piece.as_str())
            .collect();
        let text = streams.shown(&text);
        let (mark, sgr) = match line.kind {
            LineKind::Same => (' ', None),
            LineKind::Added => ('+', Some("32")),
            LineKind::Removed => ('-', Some("31")),
        };
        let line = format!("{mark}{text}");
        let line = match sgr {
            Some(sgr) => paint.sgr(sgr, &line),
            None => line,
        };
        let _ = writeln!(streams.out, "{line}");
    }
}

#[derive(Clone, Copy)]
struct Painter(bool);

impl Painter {
    fn sgr(self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

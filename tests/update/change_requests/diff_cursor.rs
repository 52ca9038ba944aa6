//! The diff's line cursor on the demo's "Clarify token scopes" Quickstart diff (unified at
//! 120 columns): `j`/`k` a line, `n` a change, `J`/`K` a page, and `c` on a line naming the
//! block the comment goes on, with the nearest block for a line that has none.

use crate::common::char_key;
use crate::common::review::{review, screen};
use quire::app::{Model, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::{ComposeTarget, Overlay};
use quire::ui::diff::DiffSide;

fn row_text(model: &Model, row: usize) -> String {
    let view = screen(model).diff_view.as_ref().expect("a diff");
    view.lines[row]
        .spans
        .iter()
        .map(|span| span.content.as_ref())
        .collect()
}

fn cursor_text(model: &Model) -> String {
    row_text(model, screen(model).diff_cursor)
}

/// Presses `j` until the cursor's row holds `needle`.
fn walk_to(model: &mut Model, needle: &str) {
    for _ in 0..200 {
        if cursor_text(model).contains(needle) {
            return;
        }
        update(model, char_key('j'));
    }
    panic!("no line holds {needle}");
}

fn composer_target(model: &Model) -> (ComposeTarget, String, Option<String>) {
    match &screen(model).overlay {
        Some(Overlay::Composer {
            target, composer, ..
        }) => (
            target.clone(),
            composer.title.clone(),
            composer.note.clone(),
        ),
        other => panic!("the composer opens: {other:?}"),
    }
}

async fn on_the_changes_tab() -> crate::common::review::Loaded {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 35).await;
    update(&mut loaded.model, char_key('2'));
    assert!(screen(&loaded.model).diff_view.is_some());
    loaded
}

#[tokio::test]
async fn j_and_k_move_the_cursor_a_line_at_a_time_and_skip_wrapped_rows() {
    let mut loaded = on_the_changes_tab().await;
    let model = &mut loaded.model;
    assert_eq!(screen(model).diff_cursor, 0);
    update(model, char_key('j'));
    assert!(
        cursor_text(model).contains("@@ -1 +1 @@"),
        "{}",
        cursor_text(model)
    );
    update(model, char_key('j'));
    assert!(cursor_text(model).contains("# Quickstart"));
    // Line 3 wraps over several rows at this width; one `j` passes all of them.
    walk_to(model, "This quickstart takes you");
    let line_three = screen(model).diff_cursor;
    update(model, char_key('j'));
    assert!(
        cursor_text(model).contains("an API token (see"),
        "{}",
        cursor_text(model)
    );
    assert!(
        screen(model).diff_cursor > line_three + 1,
        "wrapped rows skipped"
    );
    update(model, char_key('k'));
    assert_eq!(screen(model).diff_cursor, line_three);
    // The page does not change: `J`/`K` do that.
    assert_eq!(screen(model).page_selection.selected, 0);
    update(model, char_key('G'));
    let last = screen(model).diff_cursor;
    let scroll = screen(model).diff_scroll;
    assert!(
        scroll > 0 && scroll <= last && last - scroll < 30,
        "the cursor stays in view"
    );
    update(model, char_key('g'));
    assert_eq!(screen(model).diff_cursor, 0);
}

#[tokio::test]
async fn shift_j_and_k_change_the_page_and_the_cursor_starts_at_its_top() {
    let mut loaded = on_the_changes_tab().await;
    walk_to(&mut loaded.model, "This quickstart takes you");
    headless::settle(&mut loaded.model, &loaded.effects, char_key('J')).await;
    let shown = screen(&loaded.model);
    assert_eq!(shown.page_selection.selected, 1);
    assert_ne!(shown.sides_page.as_deref(), Some(demo_ids::PAGE_QUICKSTART));
    assert_eq!(shown.diff_cursor, 0);
    headless::settle(&mut loaded.model, &loaded.effects, char_key('K')).await;
    assert_eq!(screen(&loaded.model).page_selection.selected, 0);
}

#[tokio::test]
async fn n_puts_the_cursor_on_the_changed_line_not_the_context_above_it() {
    let mut loaded = on_the_changes_tab().await;
    let model = &mut loaded.model;
    update(model, char_key('n'));
    let shown = screen(model);
    let origin = shown
        .diff_view
        .as_ref()
        .unwrap()
        .origin(shown.diff_cursor)
        .unwrap();
    assert!(
        matches!(
            origin.side,
            DiffSide::Old | DiffSide::New | DiffSide::Paired
        ),
        "{origin:?}"
    );
    assert!(
        cursor_text(model).contains("-an API token"),
        "{}",
        cursor_text(model)
    );
    assert_eq!(shown.hunk_position().unwrap(), "change 1/4 · page 1/4");
}

#[tokio::test]
async fn c_on_an_added_line_comments_on_its_paragraph_and_says_so() {
    let mut loaded = on_the_changes_tab().await;
    let model = &mut loaded.model;
    walk_to(model, "+an API token with the `fleet:write`");
    update(model, char_key('c'));
    let (target, title, note) = composer_target(model);
    let ComposeTarget::BlockComment {
        page, node, line, ..
    } = target
    else {
        panic!("{target:?}")
    };
    assert_eq!(page, demo_ids::PAGE_QUICKSTART);
    assert!(node.is_some(), "the paragraph's key");
    assert_eq!(line, 3, "the paragraph starts on line 3");
    assert_eq!(
        title,
        "Comment on the paragraph 'This quickstart takes you f…' · Quickstart, line 3"
    );
    assert_eq!(note, None, "the cursor is on the block itself");
}

#[tokio::test]
async fn c_on_a_blank_line_takes_the_nearest_block_and_says_which() {
    let mut loaded = on_the_changes_tab().await;
    let model = &mut loaded.model;
    walk_to(model, "+robot or the built-in");
    update(model, char_key('j'));
    assert!(
        cursor_text(model).trim_end().ends_with("6    6"),
        "{}",
        cursor_text(model)
    );
    update(model, char_key('c'));
    let (target, title, note) = composer_target(model);
    let ComposeTarget::BlockComment { node, .. } = target else {
        panic!("{target:?}")
    };
    assert!(node.is_some());
    // Blocks above and below are as near: the one below, which the blank line opens.
    assert!(
        title.starts_with("Comment on the hint 'No robot at hand?"),
        "{title}"
    );
    assert_eq!(
        note.as_deref(),
        Some("Line 6 is in no block (a blank line): the comment goes on the nearest block.")
    );
}

#[tokio::test]
async fn c_on_a_removed_line_goes_on_the_block_that_replaces_it() {
    let mut loaded = on_the_changes_tab().await;
    let model = &mut loaded.model;
    walk_to(model, "-built-in **simulator**");
    update(model, char_key('c'));
    let (target, title, note) = composer_target(model);
    let ComposeTarget::BlockComment { node, line, .. } = target else {
        panic!("{target:?}")
    };
    assert!(node.is_some());
    assert_eq!(line, 3);
    assert!(title.contains("'This quickstart takes you f…'"), "{title}");
    assert_eq!(
        note.as_deref(),
        Some(
            "Line 5 of main is removed here; a comment is on the change request's text, so it goes on the block that replaces it."
        )
    );
}

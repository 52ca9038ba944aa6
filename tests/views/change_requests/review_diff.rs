//! The diff with thread markers (80x24 and 40x12), the comments tab marking
//! what is new since the last review, and the changes tab showing only what changed since.
//! Every size draws without panic.

use crate::common::char_key;
use crate::common::review::{Loaded, review, screen};
use quire::api::{Client, ClientConfig, Token};
use quire::app::view::chrome;
use quire::app::{Model, Msg, update};
use quire::headless;
use quire::sandbox::{demo_ids, tokens};
use quire::screens::change_requests::review::ReviewTab;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn render(model: &mut Model, width: u16, height: u16) -> String {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

/// The one way this file changes tabs (the tab keys may move; only this changes then).
fn open_tab(model: &mut Model, tab: ReviewTab) {
    let index = ReviewTab::ALL
        .iter()
        .position(|t| *t == tab)
        .expect("a tab");
    let key = char::from_digit(index as u32 + 1, 10).expect("a digit");
    update(model, char_key(key));
}

fn keys(model: &mut Model, keys: &str) {
    for c in keys.chars() {
        update(model, char_key(c));
    }
}

/// A review visited once, then someone comments and edits the Quickstart over HTTP, then the
/// review is opened again two hours after the first visit.
async fn return_visit() -> Loaded {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    open_tab(&mut loaded.model, ReviewTab::Comments);
    open_tab(&mut loaded.model, ReviewTab::Changes);
    let mut seen = screen(&loaded.model).since.now.clone();
    seen.seen_at = (chrono::Utc::now() - chrono::TimeDelta::hours(2)).to_rfc3339();
    let base = loaded.sandbox.base_url();
    let client = Client::new(ClientConfig::new(
        base.clone(),
        Token::new(tokens::REVIEWER),
    ))
    .unwrap();
    client
        .post_comment(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            "Does the new step need a screenshot?",
            Some(demo_ids::PAGE_QUICKSTART),
        )
        .await
        .unwrap();
    let page = client
        .get_change_request_page_markdown(
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            demo_ids::PAGE_QUICKSTART,
        )
        .await
        .unwrap()
        .markdown
        .unwrap()
        .replace("# Quickstart", "# Quickstart in five minutes");
    let root = base.trim_end_matches('/').trim_end_matches("/v1");
    reqwest::Client::new()
        .put(format!(
            "{root}/_sandbox/spaces/{}/change-requests/{}/pages/{}/markdown",
            demo_ids::SPACE_GETTING_STARTED,
            demo_ids::CR_REVIEW,
            demo_ids::PAGE_QUICKSTART
        ))
        .bearer_auth(tokens::ADMIN)
        .body(page)
        .send()
        .await
        .unwrap();
    // The comment and the edit carry the sandbox's real time: measure ages from now (not the
    // pinned demo "now"), so they read "just now" and the last visit "2 h ago" whatever the day.
    loaded.model.environment.clock = quire::ui::time::Clock::Real;
    headless::settle(&mut loaded.model, &loaded.effects, char_key('r')).await;
    let key = screen(&loaded.model).memory_key();
    let memory = Msg::DraftsLoaded {
        prefix: key.clone(),
        drafts: vec![(key, seen.to_json())],
    };
    headless::settle(&mut loaded.model, &loaded.effects, memory).await;
    loaded
}

#[tokio::test]
async fn the_diff_with_thread_markers() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    open_tab(&mut loaded.model, ReviewTab::Changes);
    insta::assert_snapshot!("diff_threads_top_80x24", render(&mut loaded.model, 80, 24));
    // The requirements change, with a thread on its block.
    keys(&mut loaded.model, "nn");
    insta::assert_snapshot!(
        "diff_threads_block_80x24",
        render(&mut loaded.model, 80, 24)
    );
    // At 40x12 from the start: the page-wide threads row on top, cursor on it.
    let mut narrow = review(tokens::ADMIN, demo_ids::CR_REVIEW, 40, 12).await;
    open_tab(&mut narrow.model, ReviewTab::Changes);

    insta::assert_snapshot!("diff_threads_top_40x12", render(&mut narrow.model, 40, 12));
}

#[tokio::test]
async fn what_is_new_since_the_last_review() {
    let mut loaded = return_visit().await;
    insta::assert_snapshot!(
        "since_news_80x24",
        crate::common::review::steady_ages(&render(&mut loaded.model, 80, 24))
    );
    open_tab(&mut loaded.model, ReviewTab::Comments);
    insta::assert_snapshot!(
        "since_comments_80x24",
        crate::common::review::steady_ages(&render(&mut loaded.model, 80, 24))
    );
    insta::assert_snapshot!(
        "since_comments_40x12",
        crate::common::review::steady_ages(&render(&mut loaded.model, 40, 12))
    );
    open_tab(&mut loaded.model, ReviewTab::Changes);
    headless::settle(&mut loaded.model, &loaded.effects, char_key('L')).await;
    insta::assert_snapshot!(
        "since_changes_80x24",
        crate::common::review::steady_ages(&render(&mut loaded.model, 80, 24))
    );
    insta::assert_snapshot!(
        "since_changes_40x12",
        crate::common::review::steady_ages(&render(&mut loaded.model, 40, 12))
    );
    // No size makes it panic.
    for width in (0..=130u16).step_by(3).chain([1, 20]) {
        for height in (0..=40u16).step_by(4).chain([1, 5]) {
            render(&mut loaded.model, width.max(1), height.max(1));
        }
    }
}

/// `c` on a removed line: the composer names the block the comment goes on and says why; at
/// 40x12 in a few words, so none of it is cut.
#[tokio::test]
async fn a_comment_on_a_removed_line_says_where_it_goes() {
    for (width, height) in [(80, 24), (40, 12)] {
        let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, width, height).await;
        open_tab(&mut loaded.model, ReviewTab::Changes);
        // The first change, then the second removed line.
        keys(&mut loaded.model, "njc");
        insta::assert_snapshot!(
            format!("removed_line_composer_{width}x{height}"),
            render(&mut loaded.model, width, height)
        );
    }
}

/// The composer's title on a diff block gives up its parts (the quote, then the page) as the
/// terminal narrows, so "line 3" is always whole; only below the shortest form is it ended by
/// "…", never cut mid-word.
#[tokio::test]
async fn a_block_comment_title_shortens_by_parts() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    open_tab(&mut loaded.model, ReviewTab::Changes);
    keys(&mut loaded.model, "njc");
    let title_at = |model: &mut Model, width: u16| {
        let drawn = render(model, width, 12);
        let top = drawn
            .lines()
            .find(|line| line.contains('┌'))
            .unwrap_or_default()
            .to_string();
        top.split('┌')
            .nth(1)
            .unwrap_or_default()
            .split(['─', '┐'])
            .next()
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let mut shown = Vec::new();
    for width in 20..=90u16 {
        let title = title_at(&mut loaded.model, width);
        assert!(
            title.ends_with("line 3") || title.ends_with('…'),
            "{width}: {title}"
        );
        if !shown.iter().any(|(_, seen)| *seen == title) {
            shown.push((width, title));
        }
    }
    let titles: Vec<&str> = shown.iter().map(|(_, title)| title.as_str()).collect();
    assert_eq!(
        titles[titles.len() - 4..],
        [
            "Comment on line 3",
            "Comment on the paragraph, line 3",
            "Comment on the paragraph · Quickstart, line 3",
            "Comment on the paragraph 'This quickstart takes you f…' · Quickstart, line 3",
        ],
        "{shown:?}"
    );
}

/// The rows above the composer's top border.
fn above_composer(drawn: &str) -> String {
    drawn
        .lines()
        .take_while(|line| !line.contains('┌'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `c` on a line of the diff: the composer leaves the block it comments on in sight, at
/// 80x24 whole and at 40x12 its first rows, drawn over the header.
#[tokio::test]
async fn a_line_comment_keeps_its_block_in_sight() {
    for (width, height) in [(80, 24), (40, 12)] {
        let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, width, height).await;
        open_tab(&mut loaded.model, ReviewTab::Changes);
        // The first change, then the second removed line: the comment goes on the lines that
        // replace it.
        keys(&mut loaded.model, "njc");
        let drawn = render(&mut loaded.model, width, height);
        let above = above_composer(&drawn);
        assert!(
            above.contains("This quickstart takes you"),
            "{width}x{height}:\n{drawn}"
        );
        if width == 80 {
            assert!(above.contains("5+robot or the built-in"), "{drawn}");
        }
    }
}

/// On a narrow terminal the page list folds to one row above the diff, naming the page, its
/// place and the keys that step through the pages; the diff takes the whole width.
#[tokio::test]
async fn the_page_list_folds_to_a_row_on_a_narrow_terminal() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 40, 12).await;
    open_tab(&mut loaded.model, ReviewTab::Changes);
    let drawn = render(&mut loaded.model, 40, 12);
    let rows: Vec<&str> = drawn.lines().collect();
    assert!(
        rows[5].contains("Quickstart") && rows[5].contains("1/4 J/K"),
        "{drawn}"
    );
    assert!(rows[6..11].iter().all(|row| !row.contains('│')), "{drawn}");
    keys(&mut loaded.model, "J");
    let drawn = render(&mut loaded.model, 40, 12);
    assert!(drawn.lines().nth(5).unwrap().contains("2/4 J/K"), "{drawn}");
    // Wide enough for both, the list is back beside the diff.
    let drawn = render(&mut loaded.model, 80, 24);
    assert!(
        drawn.lines().nth(7).unwrap().contains("Token scopes"),
        "{drawn}"
    );
}

/// A thread on a block names the block's first words beside its page on the comments tab.
#[tokio::test]
async fn a_block_thread_names_its_block_on_the_comments_tab() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 120, 40).await;
    open_tab(&mut loaded.model, ReviewTab::Changes);
    open_tab(&mut loaded.model, ReviewTab::Comments);
    let mut drawn = String::new();
    for _ in 0..30 {
        drawn = render(&mut loaded.model, 120, 40);
        if drawn.contains("on Quickstart, the list 'A token with the `fleet:wri…'") {
            return;
        }
        keys(&mut loaded.model, "j");
    }
    panic!("no thread names its block:\n{drawn}");
}

/// `s` on a terminal too narrow for side by side says so; widening the terminal answers it,
/// so the notice goes without a key.
#[tokio::test]
async fn the_side_by_side_refusal_goes_once_the_terminal_is_wide_enough() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    open_tab(&mut loaded.model, ReviewTab::Changes);
    keys(&mut loaded.model, "s");
    let drawn = render(&mut loaded.model, 80, 24);
    assert!(drawn.contains("Side by side needs"), "{drawn}");
    let drawn = render(&mut loaded.model, 100, 24);
    assert!(
        drawn.contains("Side by side needs"),
        "still too narrow:\n{drawn}"
    );
    let drawn = render(&mut loaded.model, 200, 24);
    assert!(!drawn.contains("Side by side needs"), "{drawn}");
}

/// The help on a narrow terminal wraps a long description under the description column, not
/// under the keys.
#[tokio::test]
async fn the_help_wraps_descriptions_under_their_column() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 40, 12).await;
    open_tab(&mut loaded.model, ReviewTab::Changes);
    keys(&mut loaded.model, "?");
    let drawn = render(&mut loaded.model, 40, 12);
    let keys_row = drawn
        .lines()
        .find(|row| row.contains("read the change"))
        .unwrap_or_else(|| panic!("{drawn}"));
    let column = keys_row.find("read the change").unwrap();
    let next = drawn
        .lines()
        .skip_while(|row| !row.contains("read the change"))
        .nth(1)
        .unwrap();
    let text_at = next.find(|c: char| c.is_alphanumeric()).unwrap();
    assert_eq!(text_at, column, "{drawn}");
}

//! Layer 2 for review: each tab, the reaction picker, the composer and the merge pre-flight,
//! drawn at 80x24 and 40x12, and a sweep over sizes that must never panic.

use crate::common::char_key;
use crate::common::review::review;
use crate::common::views::{draw_only, sizes_to_try};
use quire::app::view::chrome;
use quire::app::{Model, Msg, update};
use quire::sandbox::{demo_ids, tokens};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn render(model: &mut Model, width: u16, height: u16) -> String {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

async fn scene(keys: &str) -> Model {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    for c in keys.chars() {
        update(&mut loaded.model, char_key(c));
    }
    loaded.model
}

// Tabs by number: 1 overview, 2 changes, 3 comments, 4 reviews.
const SCENES: &[(&str, &str)] = &[
    ("review_changes", "2"),
    ("review_comments", "3n"),
    ("review_reviews", "4"),
    ("review_picker", "3+"),
    ("review_composer", "3RGood point"),
    ("review_preflight", "2M"),
    ("review_comments_filtered", "3/scope"),
    ("review_subject", "2S"),
    ("review_template_prompt", "ttpl-how-to-guide"),
    ("review_overview", ""),
];

#[tokio::test]
async fn review_states_at_80x24_and_40x12() {
    for (name, keys) in SCENES {
        let mut model = scene(keys).await;
        insta::assert_snapshot!(
            format!("{name}_80x24"),
            crate::common::review::steady_ages(&render(&mut model, 80, 24))
        );
        insta::assert_snapshot!(
            format!("{name}_40x12"),
            crate::common::review::steady_ages(&render(&mut model, 40, 12))
        );
    }
}

#[tokio::test]
async fn review_states_draw_at_every_size_without_panic() {
    for (name, keys) in SCENES {
        let mut model = scene(keys).await;
        for (width, height) in sizes_to_try() {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                draw_only(&mut model, width, height)
            }));
            assert!(result.is_ok(), "{name} panicked at {width}x{height}");
        }
    }
}

#[tokio::test]
async fn an_empty_thread_filter_says_so_and_how_to_clear_it() {
    let mut model = scene("3/gett").await;
    let screen = render(&mut model, 80, 24);
    assert!(
        screen.contains("No matches for 'gett' — esc clears"),
        "{screen}"
    );
}

#[tokio::test]
async fn the_merge_preflight_keeps_its_keys_at_40x12() {
    let mut model = scene("2M").await;
    let small = render(&mut model, 40, 12);
    assert!(small.contains("esc not now"), "{small}");
    let large = render(&mut model, 80, 24);
    assert!(!large.contains("(s)"), "proper plurals: {large}");
}

/// The pre-flight at 40x12 scrolled to its end: the warnings above, the merge rules in view.
#[tokio::test]
async fn the_merge_preflight_scrolled_to_its_end_at_40x12() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 40, 12).await;
    for c in "2Mjjjjjj".chars() {
        update(&mut loaded.model, char_key(c));
    }
    let drawn = render(&mut loaded.model, 40, 12);
    insta::assert_snapshot!(
        "review_preflight_scrolled_40x12",
        crate::common::review::steady_ages(&drawn)
    );
}

/// The pre-flight once the links check came back with links a merge would break: the
/// warning among the others, its list beneath it.
#[tokio::test]
async fn the_merge_preflight_lists_the_links_it_would_break_at_80x24_and_40x12() {
    use crate::common::review::plant_markdown;
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    plant_markdown(
        &loaded,
        Some(demo_ids::CR_REVIEW),
        demo_ids::PAGE_QUICKSTART,
        "# Quickstart\n\nSee [the ghost](ghost-page.md).\n",
    )
    .await;
    plant_markdown(
        &loaded,
        None,
        demo_ids::PAGE_WELCOME,
        "# Welcome\n\nRead [the checklist](launch-checklist-internal.md).\n",
    )
    .await;
    quire::headless::settle(&mut loaded.model, &loaded.effects, char_key('M')).await;
    insta::assert_snapshot!(
        "review_preflight_breaking_links_80x24",
        crate::common::review::steady_ages(&render(&mut loaded.model, 80, 24))
    );
    update(
        &mut loaded.model,
        Msg::Resize {
            width: 40,
            height: 12,
        },
    );
    for c in "jjjjj".chars() {
        update(&mut loaded.model, char_key(c));
    }
    insta::assert_snapshot!(
        "review_preflight_breaking_links_scrolled_40x12",
        crate::common::review::steady_ages(&render(&mut loaded.model, 40, 12))
    );
}

/// `M` on a merged change request: the reason in the notice row, the key struck through.
#[tokio::test]
async fn m_on_a_merged_change_request_at_80x24_and_40x12() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_MERGED, 80, 24).await;
    update(&mut loaded.model, char_key('M'));
    for (width, height) in [(80, 24), (40, 12)] {
        let drawn = render(&mut loaded.model, width, height);
        assert!(!drawn.contains("pre-flight"), "{drawn}");
        insta::assert_snapshot!(
            format!("review_merged_m_{width}x{height}"),
            crate::common::review::steady_ages(&drawn)
        );
    }
}

#[tokio::test]
async fn a_reply_keeps_the_comment_it_answers_in_sight() {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    let model = &mut loaded.model;
    crate::common::review::open_tab(
        model,
        quire::screens::change_requests::review::ReviewTab::Comments,
    );
    let author = {
        let screen = crate::common::review::screen(model);
        let row = screen.selected_row().unwrap();
        let thread = &screen.threads()[row.thread];
        thread.comment.posted_by.clone().unwrap().display_name
    };
    update(model, char_key('R'));
    // The smallest size: the composer used to cover everything below the header.
    let drawn = render(model, 40, 12);
    let composer_top = drawn
        .lines()
        .position(|line| line.contains("Reply to"))
        .expect("the composer");
    let comment_row = drawn
        .lines()
        .position(|line| line.contains(&author))
        .expect("the comment is shown");
    assert!(comment_row < composer_top, "{drawn}");
}

#[tokio::test]
async fn comment_bodies_are_drawn_as_markdown() {
    let mut model = scene("3").await;
    let drawn = render(&mut model, 120, 40);
    assert!(!drawn.contains("**"), "no raw bold markers: {drawn}");
    assert!(!drawn.contains("`"), "no raw code ticks: {drawn}");
}

/// The tab line (fourth row) of a drawn screen.
fn tab_line(drawn: &str) -> String {
    let row = drawn.lines().nth(3).unwrap_or_default();
    row.trim_matches('"').trim_end().to_string()
}

/// Every "n/total" on the line has one of `totals` whole after its slash, and every count in
/// parentheses is closed: nothing is cut inside a number.
fn counters_are_whole(line: &str, totals: &[&str]) -> bool {
    let slashes = line.split('/').skip(1).all(|after| {
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        totals.contains(&digits.as_str())
    });
    slashes && line.matches('(').count() == line.matches(')').count()
}

#[tokio::test]
async fn the_tab_line_shows_its_counters_whole_or_not_at_all() {
    let mut changes = scene("2").await;
    let mut comments = scene("3n").await;
    let mut shown = Vec::new();
    for width in 30..=200u16 {
        let line = tab_line(&render(&mut changes, width, 24));
        assert!(counters_are_whole(&line, &["4"]), "{width}: {line}");
        assert!(
            !line.contains("page") || line.contains("page 1/4"),
            "{width}: {line}"
        );
        let line = tab_line(&render(&mut comments, width, 24));
        assert!(counters_are_whole(&line, &["18"]), "{width}: {line}");
        assert!(
            !line.contains("unresolved") || line.contains("unresolved 2/18"),
            "{width}: {line}"
        );
        if [30, 40, 50, 60, 80, 100, 120].contains(&width) {
            shown.push(format!(
                "{width:>3} {}",
                tab_line(&render(&mut changes, width, 24))
            ));
            shown.push(format!("{width:>3} {line}"));
        }
    }
    insta::assert_snapshot!("review_tab_line_at_widths", shown.join("\n"));
}

/// Every tab key drawn on the line ("2") is followed by a name, long or short: never a bare
/// number with its count.
fn tabs_are_named(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().enumerate().all(|(at, word)| {
        !["1", "2", "3", "4"].contains(word)
            || words
                .get(at + 1)
                .is_some_and(|next| next.chars().all(char::is_alphabetic))
    })
}

#[tokio::test]
async fn every_tab_keeps_a_name_and_the_active_one_stays() {
    for (keys, long, short) in [
        ("", "Overview", "Ovw"),
        ("2", "Changes", "Chg"),
        ("3n", "Comments", "Cmt"),
        ("4", "Reviews", "Rev"),
    ] {
        let mut model = scene(keys).await;
        for width in 20..=200u16 {
            let line = tab_line(&render(&mut model, width, 24));
            assert!(tabs_are_named(&line), "{width}: {line}");
            assert!(
                line.contains(long) || line.contains(short),
                "{width}: {line}"
            );
        }
        // At 40 columns all four tabs are there, each named.
        let line = tab_line(&render(&mut model, 40, 12));
        for name in ["1 O", "2 C", "3 C", "4 R"] {
            assert!(line.contains(name), "{name} in {line}");
        }
    }
}

/// `t` then enter: the question says the template's pages stay in this change request.
#[tokio::test]
async fn the_template_question_names_the_change_request() {
    let mut model = scene("ttpl-how-to-guide").await;
    update(
        &mut model,
        crate::common::key(ratatui::crossterm::event::KeyCode::Enter),
    );
    for (width, height) in [(80, 24), (40, 12)] {
        insta::assert_snapshot!(
            format!("review_template_confirm_{width}x{height}"),
            crate::common::review::steady_ages(&render(&mut model, width, height))
        );
    }
}

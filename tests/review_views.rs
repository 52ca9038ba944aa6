//! Layer 2 for review: each tab, the reaction picker, the composer and the merge pre-flight,
//! drawn at 80x24 and 40x12, and a sweep over sizes that must never panic.

mod common;

use common::char_key;
use common::review::review;
use quire::app::{Model, Msg, update};
use quire::sandbox::{demo_ids, tokens};
use quire::ui::chrome;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn render(model: &mut Model, width: u16, height: u16) -> String {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

/// Draws without turning the buffer into text (the test backend cannot print a 0-wide one).
fn draw_only(model: &mut Model, width: u16, height: u16) {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
}

async fn scene(keys: &str) -> Model {
    let mut loaded = review(tokens::ADMIN, demo_ids::CR_REVIEW, 80, 24).await;
    for c in keys.chars() {
        update(&mut loaded.model, char_key(c));
    }
    loaded.model
}

const SCENES: &[(&str, &str)] = &[
    ("review_changes", ""),
    ("review_comments", "2n"),
    ("review_reviews", "3"),
    ("review_picker", "2+"),
    ("review_composer", "2RGood point"),
    ("review_preflight", "M"),
];

#[tokio::test]
async fn review_states_at_80x24_and_40x12() {
    for (name, keys) in SCENES {
        let mut model = scene(keys).await;
        insta::assert_snapshot!(format!("{name}_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(format!("{name}_40x12"), render(&mut model, 40, 12));
    }
}

#[tokio::test]
async fn review_states_draw_at_every_size_without_panic() {
    for (name, keys) in SCENES {
        let mut model = scene(keys).await;
        for width in (1..=300u16)
            .step_by(7)
            .chain([0, 1, 2, 80, 120, 300, 2000, 4000])
        {
            for height in (1..=100u16).step_by(9).chain([0, 1, 2, 24, 100]) {
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    draw_only(&mut model, width, height)
                }));
                assert!(result.is_ok(), "{name} panicked at {width}x{height}");
            }
        }
    }
}

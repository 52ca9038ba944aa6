//! The reader with a focused link, and the space screen's preview focused and zoomed, as insta
//! snapshots at 80x24 and 40x12 drawn from the demo sandbox reached with a user's keys.

use crate::common::views::{demo_scene, render};
use quire::app::Model;
use quire::sandbox::tokens;

async fn scene(keys: &str) -> Model {
    demo_scene(tokens::READER, keys).await
}

macro_rules! snapshot_both {
    ($name:literal, $model:expr) => {{
        let mut model = $model;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

/// Lumen OSS → Lumen Documentation (its tree, "What is Lumen?" previewed).
const LUMEN_DOCS: &str = "j\r/Lumen Doc\r\r";

#[tokio::test]
async fn reader_with_a_focused_link() {
    // The third link: a page of the same space by its path.
    snapshot_both!(
        "reader_focused_link",
        scene(&format!("{LUMEN_DOCS}\r\t\t\t")).await
    );
}

#[tokio::test]
async fn reader_after_following_a_link() {
    snapshot_both!(
        "reader_followed_link",
        scene(&format!("{LUMEN_DOCS}\r\t\t\t\r")).await
    );
}

#[tokio::test]
async fn preview_focused_and_scrolled() {
    snapshot_both!(
        "space_preview_focused",
        scene(&format!("{LUMEN_DOCS}\tjjj")).await
    );
}

#[tokio::test]
async fn preview_zoomed() {
    snapshot_both!(
        "space_preview_zoomed",
        scene(&format!("{LUMEN_DOCS}\tz")).await
    );
}

#[tokio::test]
async fn tree_zoomed() {
    snapshot_both!("space_tree_zoomed", scene(&format!("{LUMEN_DOCS}z")).await);
}

#[tokio::test]
async fn the_focused_link_is_drawn_in_the_selection_style() {
    let mut model = scene(&format!("{LUMEN_DOCS}\r\t\t\t")).await;
    let selection = model.theme.style("selection");
    let backend = crate::common::views::draw(&mut model, 80, 24);
    let buffer = backend.buffer();
    let row: String = (0..80)
        .map(|x| buffer.cell((x, 14)).unwrap().symbol().to_string())
        .collect();
    let column = row.find("install it").expect("the link's row") as u16;
    let styled = |x: u16| buffer.cell((x, 14)).unwrap().bg;
    assert_eq!(styled(column), selection.bg.unwrap());
    assert_eq!(
        styled(column + 9),
        selection.bg.unwrap(),
        "the whole link text"
    );
    assert_ne!(
        styled(column + 11),
        selection.bg.unwrap(),
        "its target is not"
    );
}

#[tokio::test]
async fn tiny_terminals_draw_without_panicking() {
    for keys in [
        format!("{LUMEN_DOCS}\r\t\t\t"),
        format!("{LUMEN_DOCS}\tjz"),
        format!("{LUMEN_DOCS}z"),
    ] {
        let mut model = scene(&keys).await;
        for (width, height) in [(1, 1), (20, 5), (2, 3)] {
            render(&mut model, width, height);
        }
    }
}

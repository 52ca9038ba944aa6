//! The Translations tab with its popups as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data and reached with
//! the keys a user would type.

use crate::common::views::{demo_scene as scene, render};
use quire::sandbox::tokens;

macro_rules! snapshot_both {
    ($name:literal, $model:expr) => {{
        let mut model = $model;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

/// Acme → the Translations tab.
const TRANSLATIONS: &str = "\r\t\t\t\t\t\t";

#[tokio::test]
async fn translations_list_with_details() {
    snapshot_both!(
        "translations_list",
        scene(tokens::ADMIN, TRANSLATIONS).await
    );
}

/// Instructions are drawn as markdown: brackets and stars the user wrote show as written, not
/// with the backslashes that keep them literal in markdown.
#[tokio::test]
async fn translation_instructions_show_brackets_and_stars_as_written() {
    let keys = format!("{TRANSLATIONS}j");
    let mut model = scene(tokens::ADMIN, &keys).await;
    let screen = render(&mut model, 100, 30);
    assert!(screen.contains("[product names]"), "{screen}");
    assert!(screen.contains("2*3*4"), "{screen}");
    assert!(!screen.contains('\\'), "{screen}");
}

#[tokio::test]
async fn translations_pending_without_result() {
    let keys = format!("{TRANSLATIONS}jj");
    snapshot_both!("translations_pending", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn translations_language_picker() {
    let keys = format!("{TRANSLATIONS}n/port");
    snapshot_both!(
        "translations_new_language",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn translations_instructions_editor() {
    let keys = format!("{TRANSLATIONS}e");
    snapshot_both!(
        "translations_instructions",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn translations_delete_asks_first() {
    let keys = format!("{TRANSLATIONS}d");
    snapshot_both!(
        "translations_delete_confirm",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn translations_refused_for_a_reader() {
    let keys = format!("{TRANSLATIONS}x");
    snapshot_both!("translations_refused", scene(tokens::READER, &keys).await);
}

//! The space operations and the Trash tab as insta snapshots at 80x24 and 40x12, drawn from the
//! sandbox's demo data, reached with the keys a user would type.

use crate::common::views::{demo_scene as scene, render};
use quire::sandbox::tokens;

macro_rules! snapshot_both {
    ($name:literal, $model:expr) => {{
        let mut model = $model;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

/// Acme → Spaces, the filter on "handbook": Employee Handbook selected.
const HANDBOOK: &str = "\r/handbook\r";

#[tokio::test]
async fn trash_tab() {
    snapshot_both!("trash", scene(tokens::ADMIN, "\r\t\t\t\t\t").await);
}

#[tokio::test]
async fn trash_after_a_restore() {
    snapshot_both!(
        "trash_restored",
        scene(tokens::ADMIN, "\r\t\t\t\t\tu").await
    );
}

/// The PATCH dates the space today: the date is replaced so the picture holds any day.
fn undated(screen: String) -> String {
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    screen.replace(&today, "YYYY-MM-DD")
}

#[tokio::test]
async fn locked_space_badge_and_details() {
    let mut model = scene(tokens::ADMIN, &format!("{HANDBOOK}x")).await;
    insta::assert_snapshot!("space_locked_80x24", undated(render(&mut model, 80, 24)));
    insta::assert_snapshot!("space_locked_40x12", undated(render(&mut model, 40, 12)));
}

#[tokio::test]
async fn delete_confirmation() {
    snapshot_both!(
        "space_delete_confirm",
        scene(tokens::ADMIN, &format!("{HANDBOOK}d")).await
    );
}

#[tokio::test]
async fn deleted_notice() {
    snapshot_both!(
        "space_deleted",
        scene(tokens::ADMIN, &format!("{HANDBOOK}dy")).await
    );
}

#[tokio::test]
async fn rename_prompt() {
    snapshot_both!(
        "space_rename",
        scene(tokens::ADMIN, &format!("{HANDBOOK}R")).await
    );
}

#[tokio::test]
async fn language_picker() {
    snapshot_both!(
        "space_language",
        scene(tokens::ADMIN, &format!("{HANDBOOK}a")).await
    );
}

#[tokio::test]
async fn reviewers_picker() {
    snapshot_both!(
        "space_reviewers",
        scene(tokens::ADMIN, &format!("{HANDBOOK}Mj\rj ")).await
    );
}

#[tokio::test]
async fn refused_for_a_reader() {
    snapshot_both!(
        "space_refused",
        scene(tokens::READER, &format!("{HANDBOOK}x")).await
    );
}

/// `t`: the template's id typed, then the question that says the pages skip review.
#[tokio::test]
async fn template_question() {
    snapshot_both!(
        "space_template_prompt",
        scene(tokens::ADMIN, &format!("{HANDBOOK}ttpl-how-to-guide")).await
    );
    snapshot_both!(
        "space_template_confirm",
        scene(tokens::ADMIN, &format!("{HANDBOOK}ttpl-how-to-guide\r")).await
    );
}

/// An id the server does not know, in words of its own.
#[tokio::test]
async fn template_unknown_id() {
    snapshot_both!(
        "space_template_unknown",
        scene(tokens::ADMIN, &format!("{HANDBOOK}ttpl-nope\ry")).await
    );
}

//! Moving around, as insta snapshots at 80x24 and 40x12: the command palette (empty,
//! narrowed with matches marked, offering a search) and the grouped `?` help (top, searched),
//! drawn from the demo data reached with the keys a user types.

use crate::common::views::{demo_scene, render};
use quire::app::Model;
use quire::sandbox::tokens;

async fn scene(keys: &str) -> Model {
    demo_scene(tokens::ADMIN, keys).await
}

macro_rules! snapshot_both {
    ($name:literal, $model:expr) => {{
        let mut model = $model;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

#[tokio::test]
async fn palette() {
    snapshot_both!("palette_empty", scene("\r:").await);
    // The inbox loaded (tab, then back with `[`): its change requests are places to go.
    snapshot_both!("palette_change_request", scene("\r\t[:scopes").await);
    snapshot_both!("palette_search_offered", scene("\r:qzx").await);
    snapshot_both!("palette_nothing", scene(":qzx").await);
}

#[tokio::test]
async fn help() {
    snapshot_both!("help_grouped", scene("\r?").await);
    snapshot_both!("help_searched", scene("\r?/tab").await);
}

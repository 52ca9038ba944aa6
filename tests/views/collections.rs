//! The collection actions and the move and transfer flow as insta snapshots at 80x24 and
//! 40x12, drawn from the sandbox's demo data and reached with the keys a user types.

use crate::common::views::{demo_scene, draw};
use quire::app::Model;
use quire::sandbox::tokens;
use ratatui::style::Modifier;

/// A model after typing `keys` on the organizations screen of a fresh demo sandbox.
async fn scene(keys: &str) -> Model {
    demo_scene(tokens::ADMIN, keys).await
}

async fn snapshots(name: &str, keys: &str) {
    let mut model = scene(keys).await;
    insta::assert_snapshot!(
        format!("{name}_80x24"),
        draw(&mut model, 80, 24).to_string()
    );
    insta::assert_snapshot!(
        format!("{name}_40x12"),
        draw(&mut model, 40, 12).to_string()
    );
}

/// Acme, Engineering selected: `n` with a title typed.
#[tokio::test]
async fn new_collection_prompt() {
    snapshots("collections_new_prompt", "\rnRunbooks").await;
}

/// Acme, Product Docs selected: the delete question counts what is inside.
#[tokio::test]
async fn delete_question() {
    snapshots("collections_delete_question", "\rjjjd").await;
}

/// Acme, Platform (open Engineering) selected: the move targets with their paths.
#[tokio::test]
async fn move_targets() {
    snapshots("collections_move_targets", "\rjm").await;
}

/// Acme, Getting Started: into Product Docs, where among its spaces?
#[tokio::test]
async fn move_position() {
    snapshots("collections_move_position", "\rjjjjm\r").await;
}

/// Acme, Employee Handbook: transfer to Lumen, the question naming both organizations.
#[tokio::test]
async fn transfer_question() {
    snapshots("collections_transfer_question", "\rGkT\r").await;
}

/// Acme, Engineering: the default level picker.
#[tokio::test]
async fn default_level_picker() {
    snapshots("collections_default_level", "\rL").await;
}

/// Lumen, Governance (the demo admin holds only `create` there): rename is refused with the
/// reason, and the footer strikes the refused actions through.
#[tokio::test]
async fn refused_rename_is_explained_and_struck_through() {
    let mut model = scene("j\rjR").await;
    let backend = draw(&mut model, 80, 24);
    insta::assert_snapshot!("collections_refused_80x24", backend.to_string());
    insta::assert_snapshot!(
        "collections_refused_40x12",
        draw(&mut model, 40, 12).to_string()
    );
    let buffer = backend.buffer();
    let footer = buffer.area.height - 1;
    let crossed = |text: &str| {
        let row: String = (0..buffer.area.width)
            .map(|x| buffer[(x, footer)].symbol().to_string())
            .collect();
        let start = row.find(text).expect("hint shown") as u16;
        (start..start + text.len() as u16)
            .all(|x| buffer[(x, footer)].modifier.contains(Modifier::CROSSED_OUT))
    };
    assert!(crossed("rename"), "rename is struck through");
    assert!(!crossed("new"), "new is allowed");
}

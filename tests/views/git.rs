//! The git sync screen as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo
//! data, reached with the keys a user would type.

use crate::common::views::{demo_scene as scene, render};
use quire::sandbox::tokens;

macro_rules! snapshot_both {
    ($name:literal, $model:expr) => {{
        let mut model = $model;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

/// Acme → Getting Started → git sync.
const SYNCED: &str = "\r/getting\r\rI";
/// Acme → Employee Handbook (no git provider) → git sync.
const UNSYNCED: &str = "\r/handbook\r\rI";
/// Acme → Fleet API Reference (legacy installation) → git sync.
const LEGACY: &str = "\r/fleet api\r\rI";

#[tokio::test]
async fn git_info() {
    snapshot_both!("git_info", scene(tokens::ADMIN, SYNCED).await);
}

#[tokio::test]
async fn no_git_provider() {
    snapshot_both!("git_none", scene(tokens::ADMIN, UNSYNCED).await);
}

#[tokio::test]
async fn legacy_installation_removal_asks_first() {
    snapshot_both!(
        "git_legacy_confirm",
        scene(tokens::ADMIN, &format!("{LEGACY}d")).await
    );
}

#[tokio::test]
async fn import_form_masks_credentials() {
    let keys = format!("{UNSYNCED}ihttps://ada:s3cret@github.com/acme/handbook");
    let mut model = scene(tokens::ADMIN, &keys).await;
    let screen = render(&mut model, 80, 24);
    assert!(!screen.contains("s3cret"), "{screen}");
    snapshot_both!("git_import_form", model);
}

#[tokio::test]
async fn export_confirmation_names_the_branch() {
    let keys = format!("{SYNCED}e\t\tdocs: sync\r");
    snapshot_both!("git_export_confirm", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn refused_for_a_reader() {
    snapshot_both!(
        "git_refused",
        scene(tokens::READER, &format!("{SYNCED}i")).await
    );
}

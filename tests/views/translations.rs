//! The Translations and OpenAPI tabs, a spec's versions and a version's files as insta
//! snapshots at 80x24 and 40x12, drawn from the sandbox's demo data, reached with the keys a
//! user would type.

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
/// Acme → the OpenAPI tab.
const OPENAPI: &str = "\r\t\t\t\t\t\t\t";

#[tokio::test]
async fn translations_list_with_details() {
    snapshot_both!(
        "translations_list",
        scene(tokens::ADMIN, TRANSLATIONS).await
    );
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

#[tokio::test]
async fn openapi_list_with_errors() {
    let keys = format!("{OPENAPI}j");
    snapshot_both!("openapi_errors", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn openapi_slug_checked_as_typed() {
    let keys = format!("{OPENAPI}npet--store");
    snapshot_both!(
        "openapi_new_slug_refused",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn openapi_visibility_asks_first() {
    let keys = format!("{OPENAPI}v");
    snapshot_both!(
        "openapi_visibility_confirm",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn openapi_versions_latest_marked() {
    let keys = format!("{OPENAPI}\r");
    snapshot_both!("openapi_versions", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn openapi_version_file_highlighted() {
    let keys = format!("{OPENAPI}\r\rjjj\r");
    snapshot_both!("openapi_version_file", scene(tokens::ADMIN, &keys).await);
}

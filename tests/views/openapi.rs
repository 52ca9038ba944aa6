//! The OpenAPI tab, a spec's versions and a version's files as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data and reached with
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

/// Acme → the OpenAPI tab.
const OPENAPI: &str = "\r\t\t\t\t\t\t\t";

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

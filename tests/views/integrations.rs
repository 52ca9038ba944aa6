//! The Integrations tab, its search and filters, and an integration's details as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data and reached with
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

/// Acme → the Integrations tab.
const INTEGRATIONS: &str = "\r\t\t\t\t\t\t\t\t\t";

#[tokio::test]
async fn integrations_catalogue() {
    snapshot_both!("integrations_tab", scene(tokens::ADMIN, INTEGRATIONS).await);
}

#[tokio::test]
async fn integrations_search() {
    snapshot_both!(
        "integrations_search",
        scene(tokens::ADMIN, &format!("{INTEGRATIONS}/an")).await
    );
}

#[tokio::test]
async fn integrations_filter_popup() {
    snapshot_both!(
        "integrations_filters",
        scene(tokens::ADMIN, &format!("{INTEGRATIONS}fljjl")).await
    );
}

#[tokio::test]
async fn integration_details() {
    snapshot_both!(
        "integration_details",
        scene(tokens::ADMIN, &format!("{INTEGRATIONS}/slack\r\r")).await
    );
}

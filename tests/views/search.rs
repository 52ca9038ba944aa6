//! Finding things as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data
//! reached with the keys a user types: organization and space search, the links report and its
//! broken tab, a page's backlinks, the files and a file's details, and the reader opened at a
//! search hit's section.

use crate::common::views::{demo_scene, render};
use quire::app::Model;
use quire::sandbox::tokens;

/// A model after typing `keys` on the organizations screen of a fresh demo sandbox.
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

/// Acme → the Getting Started space, found with the tree's filter.
const GETTING_STARTED: &str = "\r/Getting\r\r";

#[tokio::test]
async fn organization_search() {
    snapshot_both!("search_empty", scene("\rs").await);
    snapshot_both!("search_organization", scene("\rstoken").await);
    snapshot_both!("search_nothing_found", scene("\rszzqx").await);
    // esc hands the keys to the results; two rows down is the second section.
    snapshot_both!(
        "search_opened_at_section",
        scene("\rstoken\u{1b}jjj\r").await
    );
}

#[tokio::test]
async fn space_search() {
    snapshot_both!(
        "search_space",
        scene(&format!("{GETTING_STARTED}swebhook")).await
    );
}

#[tokio::test]
async fn links_report_and_backlinks() {
    snapshot_both!("links_report", scene(&format!("{GETTING_STARTED}L")).await);
    snapshot_both!(
        "links_report_broken",
        scene(&format!("{GETTING_STARTED}L\t")).await
    );
    // The first page of the tree is Welcome; Quickstart is next.
    snapshot_both!(
        "backlinks_of_a_page",
        scene(&format!("{GETTING_STARTED}jb")).await
    );
}

#[tokio::test]
async fn files_and_details() {
    snapshot_both!("files", scene(&format!("{GETTING_STARTED}F")).await);
    snapshot_both!(
        "files_details",
        scene(&format!("{GETTING_STARTED}F\r")).await
    );
}

//! The Members tab and a member's details, with their popups, as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data and reached with
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

/// Acme → Members.
const MEMBERS: &str = "\r\t\t";

#[tokio::test]
async fn members_list() {
    snapshot_both!("people_members", scene(tokens::ADMIN, MEMBERS).await);
}

#[tokio::test]
async fn members_searched_and_sorted_by_last_seen() {
    let keys = format!("{MEMBERS}/maya\rss");
    snapshot_both!("people_members_search", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn member_details() {
    let keys = format!("{MEMBERS}/jonas\r\r");
    snapshot_both!("people_member_details", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn member_role_picker_and_confirmation() {
    let keys = format!("{MEMBERS}/jonas\r\re");
    snapshot_both!(
        "people_member_role_picker",
        scene(tokens::ADMIN, &keys).await
    );
    let keys = format!("{keys}G\r");
    snapshot_both!(
        "people_member_role_confirm",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn member_removal_asks_naming_them() {
    let keys = format!("{MEMBERS}d");
    snapshot_both!("people_member_remove", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn member_changes_refused_for_a_reader() {
    let keys = format!("{MEMBERS}e");
    snapshot_both!("people_member_refused", scene(tokens::READER, &keys).await);
}

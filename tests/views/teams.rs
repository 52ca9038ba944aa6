//! The Teams tab and a team's members, with their popups, as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data and reached with
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

/// Acme → Teams.
const TEAMS: &str = "\r\t\t\t";

#[tokio::test]
async fn teams_list() {
    snapshot_both!("people_teams", scene(tokens::ADMIN, TEAMS).await);
}

#[tokio::test]
async fn team_creation_title_and_initial_members() {
    let keys = format!("{TEAMS}n{}", "x".repeat(65));
    snapshot_both!(
        "people_team_title_too_long",
        scene(tokens::ADMIN, &keys).await
    );
    let keys = format!("{TEAMS}nField Ops\r");
    snapshot_both!(
        "people_team_initial_members",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn team_deletion_asks_first() {
    let keys = format!("{TEAMS}d");
    snapshot_both!("people_team_delete", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn team_members_and_bulk_confirmation() {
    let keys = format!("{TEAMS}\r");
    snapshot_both!("people_team_members", scene(tokens::ADMIN, &keys).await);
    let keys = format!("{TEAMS}\r  B/jonas \r");
    snapshot_both!(
        "people_team_bulk_confirm",
        scene(tokens::ADMIN, &keys).await
    );
}

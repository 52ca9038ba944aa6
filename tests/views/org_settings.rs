//! The Settings tab, its form and questions, and joining an organization, as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data and reached with
//! the keys a user would type.
//! Every scene of the SSO and Settings tabs also draws at tiny sizes.

use crate::common::views::{demo_scene as scene, render};
use crate::sso::SSO;
use quire::sandbox::tokens;

macro_rules! snapshot_both {
    ($name:literal, $model:expr) => {{
        let mut model = $model;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

/// Acme → the Settings tab (the last).
const SETTINGS: &str = "\r[";

#[tokio::test]
async fn settings_form_with_instructions() {
    snapshot_both!("admin_settings", scene(tokens::ADMIN, SETTINGS).await);
}

#[tokio::test]
async fn settings_with_an_invalid_hostname_being_typed() {
    let keys = format!("{SETTINGS}jj\r No");
    snapshot_both!("admin_settings_invalid", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn merge_rules_picker() {
    let keys = format!("{SETTINGS}G\r");
    snapshot_both!(
        "admin_settings_merge_rules",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn agent_instructions_editor() {
    snapshot_both!(
        "admin_instructions_editor",
        scene(tokens::ADMIN, &format!("{SETTINGS}D")).await
    );
}

#[tokio::test]
async fn leaving_with_unsaved_settings_asks() {
    let keys = format!("{SETTINGS}\r!\r\x1b");
    snapshot_both!("admin_settings_leave", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn revoke_invite_confirmation() {
    let keys = format!("{SETTINGS}xinv-acme-summit\r");
    snapshot_both!("admin_settings_revoke", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn settings_for_a_reader_are_read_only() {
    snapshot_both!(
        "admin_settings_reader",
        scene(tokens::READER, SETTINGS).await
    );
}

#[tokio::test]
async fn join_refused_in_words() {
    let keys = "Jorg-acme-robotics\ry";
    snapshot_both!(
        "admin_join_refused",
        scene(quire::sandbox::OUTSIDER_TOKEN, keys).await
    );
}

/// Every scene of these tabs draws at sizes far too small for it without panicking.
#[tokio::test]
async fn tiny_terminals_do_not_panic() {
    let scenes = [
        SSO.to_string(),
        format!("{SSO}n\rGoogle\rjjj\rnot a certificate\r"),
        format!("{SSO}\rjjjjj\r"),
        format!("{SSO}d"),
        SETTINGS.to_string(),
        format!("{SETTINGS}jj\r No"),
        format!("{SETTINGS}D"),
        format!("{SETTINGS}G\r"),
        "Jorg-x".to_string(),
    ];
    for keys in scenes {
        let mut model = scene(tokens::ADMIN, &keys).await;
        for (width, height) in [(1, 1), (5, 3), (12, 4), (20, 6), (30, 40), (200, 8)] {
            let _ = render(&mut model, width, height);
        }
    }
}

//! The SSO tab, its form and questions, as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data and reached with
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

/// Acme → the SSO tab (second from the end).
pub(crate) const SSO: &str = "\r[[";

#[tokio::test]
async fn sso_providers() {
    snapshot_both!("admin_sso", scene(tokens::ADMIN, SSO).await);
}

#[tokio::test]
async fn sso_for_a_reader_is_read_only() {
    snapshot_both!("admin_sso_reader", scene(tokens::READER, SSO).await);
}

#[tokio::test]
async fn new_provider_form_with_a_bad_certificate() {
    let keys = format!("{SSO}n\rGoogle\rjjj\rnot a certificate\r");
    snapshot_both!(
        "admin_sso_form_bad_certificate",
        scene(tokens::ADMIN, &keys).await
    );
}

#[tokio::test]
async fn edit_form_of_okta() {
    snapshot_both!(
        "admin_sso_form_edit",
        scene(tokens::ADMIN, &format!("{SSO}\r")).await
    );
}

#[tokio::test]
async fn role_picker_in_the_form() {
    let keys = format!("{SSO}\rjjjjj\r");
    snapshot_both!("admin_sso_role_picker", scene(tokens::ADMIN, &keys).await);
}

#[tokio::test]
async fn delete_asks_naming_the_provider() {
    snapshot_both!(
        "admin_sso_delete",
        scene(tokens::ADMIN, &format!("{SSO}d")).await
    );
}

/// The loaded PEM is typed on one line (no line-break glyphs), and a key that breaks it is
/// refused under the field at once, before the field is left.
#[tokio::test]
async fn editing_the_certificate_is_one_line_and_checked_as_typed() {
    let keys = format!("{SSO}\rjjj\rx");
    snapshot_both!(
        "admin_sso_form_certificate_typing",
        scene(tokens::ADMIN, &keys).await
    );
}

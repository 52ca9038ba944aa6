//! Sites screens as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data
//! (reached with the same keys a user would type), plus a no-panic sweep over sizes.

use std::net::SocketAddr;

use crate::common::views::{draw_only, sizes_to_try};
use crate::common::*;
use quire::api::{Client, ClientConfig, Token};
use quire::app::view::chrome;
use quire::app::{Model, Msg, Size, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, tokens};
use quire::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

fn render(model: &mut Model, width: u16, height: u16) -> String {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

/// A model on the organizations screen of a fresh sandbox, after typing `keys` with `token`.
async fn demo(token: &str, keys: &str) -> (Model, Effects, Sandbox) {
    let sandbox = Sandbox::start(
        SocketAddr::from(([127, 0, 0, 1], 0)),
        SandboxOptions::default(),
    )
    .await
    .unwrap();
    let client = Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token))).unwrap();
    let effects = Effects {
        client: Some(client),
        drafts: None,
        theme: Theme::default(),
        render: Default::default(),
    };
    let mut model = organizations_model(80, 24);
    headless::start(&mut model, &effects).await;
    headless::type_keys(&mut model, &effects, keys).await;
    (model, effects, sandbox)
}

async fn scene(token: &str, keys: &str) -> Model {
    let (model, _, sandbox) = demo(token, keys).await;
    sandbox.shutdown().await;
    model
}

/// Acme → Sites tab.
const SITES: &str = "\r\t\t\t\t";
/// Acme → Sites → Acme Developer Docs (the first site).
const DOCS: &str = "\r\t\t\t\t\r";
/// Acme → Sites → Customer Portal (the fourth site) → its Adaptive tab.
const CUSTOMERS: &str = "\r\t\t\t\tjjj\r\t\t\t\t";
/// Acme → Sites → Partner Portal (the third site).
const PARTNERS: &str = "\r\t\t\t\tjj\r";

macro_rules! snapshot_both {
    ($name:literal, $model:expr) => {{
        let mut model = $model;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

async fn form_dirty() -> Model {
    let (mut model, effects, sandbox) = demo(tokens::ADMIN, DOCS).await;
    // Title: type " v2"; visibility: pick unlisted.
    headless::type_keys(&mut model, &effects, "\r v2\rj\rj\r").await;
    sandbox.shutdown().await;
    model
}

async fn form_invalid() -> Model {
    let (mut model, effects, sandbox) = demo(tokens::ADMIN, DOCS).await;
    // The title cut to one letter, still being typed.
    headless::type_keys(&mut model, &effects, "\r").await;
    for _ in 0..40 {
        update(&mut model, key(KeyCode::Backspace));
    }
    headless::type_keys(&mut model, &effects, "A").await;
    sandbox.shutdown().await;
    model
}

/// The Customer Portal's schema given a `title` on its first claim, then ctrl-s: not sent, and
/// the composer says which claim and which keyword the service would refuse.
async fn schema_refused() -> Model {
    let (mut model, effects, sandbox) = demo(tokens::ADMIN, &format!("{CUSTOMERS}e")).await;
    for _ in 0..40 {
        update(&mut model, key(KeyCode::Up));
    }
    for _ in 0..4 {
        update(&mut model, key(KeyCode::Down));
    }
    update(&mut model, key(KeyCode::Home));
    headless::type_keys(&mut model, &effects, "\"title\": \"Beta\", ").await;
    update(&mut model, ctrl('s'));
    sandbox.shutdown().await;
    model
}

async fn proxy_invalid() -> Model {
    let (mut model, effects, sandbox) = demo(tokens::ADMIN, DOCS).await;
    headless::type_keys(&mut model, &effects, "G\rnot a proxy\r").await;
    sandbox.shutdown().await;
    model
}

/// `Bad Name!` typed as the basename, then ctrl-s while still typing: the save is refused,
/// naming the field, with the cursor on it.
async fn save_blocked_by_basename() -> Model {
    let (mut model, effects, sandbox) = demo(tokens::ADMIN, DOCS).await;
    headless::type_keys(&mut model, &effects, "jj\r").await;
    for _ in 0..40 {
        update(&mut model, key(KeyCode::Backspace));
    }
    headless::type_keys(&mut model, &effects, "Bad Name!").await;
    update(&mut model, ctrl('s'));
    sandbox.shutdown().await;
    model
}

#[tokio::test]
async fn sites_list() {
    snapshot_both!("sites_list", scene(tokens::ADMIN, SITES).await);
    snapshot_both!(
        "sites_list_published_only",
        scene(tokens::ADMIN, &format!("{SITES}p")).await
    );
}

/// `n`: the new site's title, refused while it is one letter; `d` on a published site: the
/// question names it and the address that stops answering.
#[tokio::test]
async fn creating_and_deleting_a_site_ask_first() {
    snapshot_both!(
        "sites_new_title",
        scene(tokens::ADMIN, &format!("{SITES}nR")).await
    );
    snapshot_both!(
        "sites_delete_confirm",
        scene(tokens::ADMIN, &format!("{SITES}d")).await
    );
}

#[tokio::test]
async fn site_settings_form() {
    snapshot_both!("site_form_clean", scene(tokens::ADMIN, DOCS).await);
    snapshot_both!("site_form_dirty", form_dirty().await);
    snapshot_both!("site_form_invalid_title", form_invalid().await);
    snapshot_both!("site_form_invalid_proxy", proxy_invalid().await);
    snapshot_both!("site_form_save_blocked", save_blocked_by_basename().await);
    snapshot_both!("site_form_read_only", scene(tokens::READER, DOCS).await);
    snapshot_both!(
        "site_publish_confirm",
        scene(tokens::ADMIN, &format!("{DOCS}P")).await
    );
}

#[tokio::test]
async fn site_other_tabs() {
    snapshot_both!(
        "site_share_links",
        scene(tokens::ADMIN, &format!("{PARTNERS}\t")).await
    );
    snapshot_both!(
        "site_share_link_deactivate_confirm",
        scene(tokens::ADMIN, &format!("{PARTNERS}\ta")).await
    );
    snapshot_both!(
        "site_section_groups",
        scene(tokens::ADMIN, &format!("{DOCS}\t\t")).await
    );
    snapshot_both!(
        "site_structure",
        scene(tokens::ADMIN, &format!("{DOCS}\t\t\t")).await
    );
    snapshot_both!("site_adaptive", scene(tokens::ADMIN, CUSTOMERS).await);
    snapshot_both!("site_adaptive_schema_refused", schema_refused().await);
}

#[tokio::test]
async fn access_view() {
    snapshot_both!(
        "access_view",
        scene(tokens::ADMIN, &format!("{SITES}A")).await
    );
    snapshot_both!(
        "access_view_revoke_confirm",
        scene(tokens::ADMIN, &format!("{SITES}Ajjjjx")).await
    );
}

/// Every sites state drawn at every width 1..300 and height 1..100 (a diagonal sweep plus the
/// edges): none may panic.
#[tokio::test]
async fn every_sites_state_draws_at_every_size_without_panic() {
    let scenes: Vec<(&str, Model)> = vec![
        ("sites list", scene(tokens::ADMIN, SITES).await),
        (
            "new site title",
            scene(tokens::ADMIN, &format!("{SITES}nR")).await,
        ),
        (
            "delete site confirm",
            scene(tokens::ADMIN, &format!("{SITES}d")).await,
        ),
        ("form clean", scene(tokens::ADMIN, DOCS).await),
        ("form dirty", form_dirty().await),
        ("form invalid", form_invalid().await),
        ("form read-only", scene(tokens::READER, DOCS).await),
        (
            "publish confirm",
            scene(tokens::ADMIN, &format!("{DOCS}P")).await,
        ),
        (
            "visibility picker",
            scene(tokens::ADMIN, &format!("{DOCS}j\r")).await,
        ),
        (
            "share links",
            scene(tokens::ADMIN, &format!("{PARTNERS}\t")).await,
        ),
        (
            "share link prompt",
            scene(tokens::ADMIN, &format!("{PARTNERS}\tn")).await,
        ),
        ("groups", scene(tokens::ADMIN, &format!("{DOCS}\t\t")).await),
        (
            "structure",
            scene(tokens::ADMIN, &format!("{DOCS}\t\t\t")).await,
        ),
        (
            "adaptive",
            scene(tokens::ADMIN, "\r\t\t\t\tjjj\r\t\t\t\t").await,
        ),
        (
            "schema composer",
            scene(tokens::ADMIN, "\r\t\t\t\tjjj\r\t\t\t\te").await,
        ),
        ("schema refused", schema_refused().await),
        ("access", scene(tokens::ADMIN, &format!("{SITES}A")).await),
        (
            "access confirm",
            scene(tokens::ADMIN, &format!("{SITES}Ajjjjx")).await,
        ),
    ];
    let sizes = sizes_to_try();
    for (name, mut model) in scenes {
        for &(width, height) in &sizes {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                draw_only(&mut model, width, height)
            }));
            assert!(result.is_ok(), "{name} panicked at {width}x{height}");
        }
    }
    let _ = Size::default();
}

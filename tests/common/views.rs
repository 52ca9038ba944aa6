//! Drawing a model as text and reaching a scene of the demo with the keys a user would type,
//! for the view snapshot suites.

use std::net::SocketAddr;

use quire::api::{Client, ClientConfig, Token};
use quire::app::view::chrome;
use quire::app::{Model, Msg, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions};
use quire::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The whole screen at `width`x`height`, drawn (its cells keep their styles). Like the
/// runtime, the model keeps where rows and tabs were drawn, for the next click.
pub fn draw(model: &mut Model, width: u16, height: u16) -> TestBackend {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let mut hits = Default::default();
    terminal
        .draw(|frame| hits = chrome::draw_noting_hits(frame, model))
        .unwrap();
    model.mouse.hits = hits;
    terminal.backend().clone()
}

/// The whole screen at `width`x`height`, as text.
pub fn render(model: &mut Model, width: u16, height: u16) -> String {
    draw(model, width, height).to_string()
}

/// A model after typing `keys` from the organizations screen of a fresh demo sandbox, as the
/// holder of `token`.
pub async fn demo_scene(token: &str, keys: &str) -> Model {
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
    let mut model = super::organizations_model(80, 24);
    headless::start(&mut model, &effects).await;
    headless::type_keys(&mut model, &effects, keys).await;
    sandbox.shutdown().await;
    model
}

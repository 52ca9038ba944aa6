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

/// Draws without turning the buffer into text (the test backend cannot print a 0-wide one).
pub fn draw_only(model: &mut Model, width: u16, height: u16) {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
}

/// Terminal sizes a screen must draw at without panicking: every pair of the smallest sizes
/// (where a layout's arithmetic runs out of room), each side of the widths and heights where
/// layouts change (40, 60, 80 and 120 columns; 12 and 24 rows) against a few of the other, and
/// sizes no terminal has. A resize lays a screen out again, so each size costs a whole layout:
/// these few hundred find what a sweep of every size found, in a fraction of the time.
pub fn sizes_to_try() -> Vec<(u16, u16)> {
    const SMALL: [u16; 9] = [0, 1, 2, 3, 4, 5, 8, 10, 13];
    const WIDTHS: [u16; 19] = [
        20, 30, 39, 40, 41, 59, 60, 61, 79, 80, 81, 100, 119, 120, 121, 160, 200, 250, 300,
    ];
    const HEIGHTS: [u16; 10] = [11, 12, 13, 20, 23, 24, 25, 40, 50, 100];
    let mut sizes = Vec::new();
    for width in SMALL {
        sizes.extend(SMALL.map(|height| (width, height)));
        sizes.extend([(width, 24), (width, 100)]);
    }
    for width in WIDTHS {
        sizes.extend([1, 5, 12, 24, 50].map(|height| (width, height)));
    }
    for height in HEIGHTS {
        sizes.extend([1, 20, 40, 80, 120].map(|width| (width, height)));
    }
    sizes.extend([
        (300, 100),
        (2000, 50),
        (4000, 10),
        (80, 2000),
        (u16::MAX, 3),
    ]);
    sizes
}

//! Themes and the header as insta snapshots: the reader on the demo's Quickstart (with its
//! code) in each built-in theme at 80x24 with every cell's colours and modifiers, one theme at
//! 40x12, and the header's "who · where" at both sizes.

use std::fmt::Write as _;
use std::net::SocketAddr;

use crate::common::*;
use quire::api::models::User;
use quire::api::{Client, ClientConfig, Token};
use quire::app::view::chrome;
use quire::app::{Model, Msg, Size, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, SandboxOptions, tokens};
use quire::screens::Screen;
use quire::screens::organizations::Organizations;
use quire::ui::markdown::{ColorDepth, RenderOptions};
use quire::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Style;

/// From the organizations screen to the Quickstart's first code block in the reader.
const QUICKSTART_CODE: &str = "\r/getting\r\rj\r/curl\r";

fn draw(model: &mut Model, width: u16, height: u16) -> Buffer {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().buffer().clone()
}

/// The screen as text, then each row's runs of one style: `row: [fg bg modifiers] "text"`.
fn styled_dump(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let row: String = (0..area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        let _ = writeln!(out, "{row}");
    }
    out.push_str("--- styles ---\n");
    for y in 0..area.height {
        let mut runs: Vec<(Style, String)> = Vec::new();
        for x in 0..area.width {
            let cell = &buffer[(x, y)];
            let style = cell.style();
            match runs.last_mut() {
                Some((last, text)) if *last == style => text.push_str(cell.symbol()),
                _ => runs.push((style, cell.symbol().to_string())),
            }
        }
        for (style, text) in runs {
            if text.trim().is_empty()
                && style.bg.is_none_or(|bg| bg == ratatui::style::Color::Reset)
            {
                continue;
            }
            let _ = writeln!(
                out,
                "{y:>2}: [{:?} {:?} {:?}] {text:?}",
                style.fg.unwrap_or_default(),
                style.bg.unwrap_or_default(),
                style.add_modifier
            );
        }
    }
    out
}

/// The theme `name` as quire runs it: its styles, and its code colours at 256 colours unless
/// the theme keeps code to fewer.
fn effects_for(theme: &Theme, client: Client) -> Effects {
    let code = theme.code();
    let depth = code
        .max_depth
        .map_or(ColorDepth::Ansi256, |max| max.min(ColorDepth::Ansi256));
    Effects {
        client: Some(client),
        drafts: None,
        theme: theme.clone(),
        render: RenderOptions {
            color_depth: depth,
            code_theme: code.theme,
            ..RenderOptions::default()
        },
    }
}

/// A model after typing `keys` from the organizations screen of a fresh demo sandbox in
/// `theme`, signed in as the demo admin on "demo sandbox".
async fn themed_scene(theme: &Theme, keys: &str) -> Model {
    let sandbox = Sandbox::start(
        SocketAddr::from(([127, 0, 0, 1], 0)),
        SandboxOptions::default(),
    )
    .await
    .unwrap();
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .unwrap();
    let me: User = client.current_user().await.unwrap();
    let effects = effects_for(theme, client);
    let mut environment = environment();
    environment.server_label = "demo sandbox".into();
    environment.render = effects.render;
    let mut model = Model::new(
        Screen::Organizations(Organizations::default()),
        environment,
        Size {
            width: 80,
            height: 24,
        },
    );
    model.theme = theme.clone();
    update(&mut model, Msg::SignedInAs(me));
    headless::start(&mut model, &effects).await;
    headless::type_keys(&mut model, &effects, keys).await;
    sandbox.shutdown().await;
    model
}

async fn quickstart_in(name: &str) -> Model {
    let theme = Theme::built_in(name).expect("built-in theme");
    let model = themed_scene(&theme, QUICKSTART_CODE).await;
    let text = model.top().title();
    assert_eq!(text, "Quickstart", "reached the reader");
    model
}

#[tokio::test]
async fn quickstart_in_ansi16() {
    let mut model = quickstart_in("ansi16").await;
    insta::assert_snapshot!(
        "quickstart_ansi16_80x24",
        styled_dump(&draw(&mut model, 80, 24))
    );
    insta::assert_snapshot!(
        "quickstart_ansi16_40x12",
        styled_dump(&draw(&mut model, 40, 12))
    );
}

#[tokio::test]
async fn quickstart_in_dark() {
    let mut model = quickstart_in("dark").await;
    insta::assert_snapshot!(
        "quickstart_dark_80x24",
        styled_dump(&draw(&mut model, 80, 24))
    );
}

#[tokio::test]
async fn quickstart_in_light() {
    let mut model = quickstart_in("light").await;
    insta::assert_snapshot!(
        "quickstart_light_80x24",
        styled_dump(&draw(&mut model, 80, 24))
    );
}

#[tokio::test]
async fn quickstart_in_high_contrast() {
    let mut model = quickstart_in("high-contrast").await;
    insta::assert_snapshot!(
        "quickstart_high_contrast_80x24",
        styled_dump(&draw(&mut model, 80, 24))
    );
}

/// High contrast reads on a light terminal as on a dark one: no cell is left in the
/// terminal's own colours, and no text is drawn in its background's colour.
#[tokio::test]
async fn high_contrast_paints_every_cell_with_its_own_colours() {
    use ratatui::style::Color;
    use ratatui::text::Span;
    let mut model = quickstart_in("high-contrast").await;
    for (width, height) in [(80, 24), (40, 12)] {
        let buffer = draw(&mut model, width, height);
        for (index, cell) in buffer.content.iter().enumerate() {
            let at = (index % width as usize, index / width as usize);
            // The column after a wide character is that character's, not a cell of its own.
            let covered = index
                .checked_sub(1)
                .is_some_and(|before| Span::raw(buffer.content[before].symbol()).width() > 1);
            if covered {
                continue;
            }
            assert_ne!(cell.bg, Color::Reset, "{at:?} {cell:?}");
            assert_ne!(cell.fg, Color::Reset, "{at:?} {cell:?}");
            if !cell.symbol().trim().is_empty() {
                assert_ne!(cell.fg, cell.bg, "{at:?} {cell:?}");
            }
        }
    }
}

#[tokio::test]
async fn the_header_says_who_and_where() {
    let mut model = themed_scene(&Theme::default(), "").await;
    let wide = draw(&mut model, 80, 24);
    let header: String = (0..80).map(|x| wide[(x, 0)].symbol().to_string()).collect();
    assert!(header.contains("Amara Okafor · demo sandbox"), "{header}");
    insta::assert_snapshot!("header_organizations_80x24", render_text(&wide));
    insta::assert_snapshot!(
        "header_organizations_40x12",
        render_text(&draw(&mut model, 40, 12))
    );
    let mut reader = quickstart_in("ansi16").await;
    let narrow = draw(&mut reader, 40, 12);
    let header: String = (0..40)
        .map(|x| narrow[(x, 0)].symbol().to_string())
        .collect();
    assert!(
        header.contains("Quickstart"),
        "the last crumb keeps its place: {header}"
    );
}

#[tokio::test]
async fn no_size_panics_in_any_theme() {
    for (name, _) in quire::ui::theme::BUILT_IN {
        let mut model = quickstart_in(name).await;
        for (width, height) in [(1, 1), (20, 5), (40, 12), (120, 40)] {
            draw(&mut model, width, height);
        }
    }
}

fn render_text(buffer: &Buffer) -> String {
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

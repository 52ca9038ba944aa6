//! `quire screenshots`: renders screens from the demo data into SVG pictures, so the README's
//! pictures are produced by a command, not by hand.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::Path;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

use crate::api::{Client, ClientConfig, Token};
use crate::app::{Environment, Model, Msg, Size};
use crate::headless;
use crate::runtime::Effects;
use crate::sandbox::{Sandbox, SandboxOptions, tokens};
use crate::screens::Screen;
use crate::screens::organizations::Organizations;
use crate::ui::chrome;
use crate::ui::markdown::{ColorDepth, RenderOptions};
use crate::ui::theme::Theme;

const WIDTH: u16 = 100;
const HEIGHT: u16 = 30;

/// One picture: a name and the keys that lead to it from the organizations screen.
const SCENES: &[(&str, &str)] = &[
    ("organizations", ""),
    ("organization", "\r"),
    ("space", "\r/getting\r\r"),
    ("page", "\r/getting\r\rjj\r"),
    ("change-requests", "\r\t"),
    ("review-changes", "\r\t\r"),
    ("review-comments", "\r\t\r2n"),
    ("review-merge", "\r\t\rM"),
    // The organization's tabs: Spaces, Change requests, Members, Teams, Sites, Trash,
    // Translations, OpenAPI, Clusters, Integrations, SSO, Settings.
    ("members", "\r\t\t"),
    ("teams", "\r\t\t\t"),
    ("team", "\r\t\t\t\r"),
    ("sites", "\r\t\t\t\t"),
    ("site-settings", "\r\t\t\t\t\r"),
    ("site-share-links", "\r\t\t\t\tjj\r\t"),
    ("site-structure", "\r\t\t\t\t\r\t\t\t"),
    ("sites-access", "\r\t\t\t\tA"),
    ("move-picker", "\r/Handbook\rm"),
    ("trash", "\r\t\t\t\t\t"),
    ("translations", "\r\t\t\t\t\t\t"),
    ("openapi", "\r\t\t\t\t\t\t\t"),
    ("clusters", "\r\t\t\t\t\t\t\t\t"),
    ("conversation", "\r\t\t\t\t\t\t\t\t\r\r"),
    ("integrations", "\r\t\t\t\t\t\t\t\t\t"),
    ("sso", "\r\t\t\t\t\t\t\t\t\t\t"),
    ("organization-settings", "\r\t\t\t\t\t\t\t\t\t\t\t"),
    ("search", "\rsproduction allows 50"),
    ("links", "\r/getting\r\rL"),
    ("files", "\r/getting\r\rF"),
    ("git-sync", "\r/getting\r\rI"),
];

pub async fn write_all(directory: &Path) -> std::io::Result<Vec<String>> {
    std::fs::create_dir_all(directory)?;
    let sandbox = Sandbox::start(
        SocketAddr::from(([127, 0, 0, 1], 0)),
        SandboxOptions::default(),
    )
    .await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .map_err(|e| std::io::Error::other(e.to_string()))?;
    let render = RenderOptions {
        color_depth: ColorDepth::TrueColor,
        ..RenderOptions::default()
    };
    let effects = Effects {
        client: Some(client),
        drafts: None,
        theme: Theme::default(),
        render,
    };
    let mut written = Vec::new();
    for (name, keys) in SCENES {
        let mut model = Model::new(
            Screen::Organizations(Organizations::default()),
            Environment {
                server_label: "demo sandbox · demo-admin".into(),
                config_path: "~/.config/quire/config.toml".into(),
                render,
            },
            Size::default(),
        );
        let resize = Msg::Resize {
            width: WIDTH,
            height: HEIGHT,
        };
        headless::settle(&mut model, &effects, resize).await;
        headless::start(&mut model, &effects).await;
        headless::type_keys(&mut model, &effects, keys).await;
        let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT))
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        terminal
            .draw(|frame| chrome::draw(frame, &model))
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let path = directory.join(format!("{name}.svg"));
        std::fs::write(&path, to_svg(terminal.backend().buffer()))?;
        written.push(path.display().to_string());
    }
    sandbox.shutdown().await;
    Ok(written)
}

/// The buffer as an SVG: one rectangle per background run, one text element per cell.
pub fn to_svg(buffer: &Buffer) -> String {
    const CELL_WIDTH: f32 = 8.4;
    const CELL_HEIGHT: f32 = 17.0;
    let area = buffer.area;
    let width = area.width as f32 * CELL_WIDTH;
    let height = area.height as f32 * CELL_HEIGHT;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14">"#
    );
    let _ = write!(
        svg,
        r##"<rect width="100%" height="100%" fill="{}"/>"##,
        hex(Color::Reset, false)
    );
    for y in 0..area.height {
        for x in 0..area.width {
            let Some(cell) = buffer.cell((area.x + x, area.y + y)) else {
                continue;
            };
            let reversed = cell.modifier.contains(Modifier::REVERSED);
            let (fg, bg) = if reversed {
                (cell.bg, cell.fg)
            } else {
                (cell.fg, cell.bg)
            };
            let px = x as f32 * CELL_WIDTH;
            let py = y as f32 * CELL_HEIGHT;
            if bg != Color::Reset || reversed {
                let _ = write!(
                    svg,
                    r#"<rect x="{px}" y="{py}" width="{CELL_WIDTH}" height="{CELL_HEIGHT}" fill="{}"/>"#,
                    hex(bg, !reversed)
                );
            }
            let symbol = cell.symbol();
            if symbol.trim().is_empty() {
                continue;
            }
            let weight = if cell.modifier.contains(Modifier::BOLD) {
                r#" font-weight="bold""#
            } else {
                ""
            };
            let style = if cell.modifier.contains(Modifier::ITALIC) {
                r#" font-style="italic""#
            } else {
                ""
            };
            let _ = write!(
                svg,
                r#"<text x="{px}" y="{}" fill="{}"{weight}{style}>{}</text>"#,
                py + CELL_HEIGHT - 4.0,
                hex(fg, true),
                escape(symbol)
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A dark terminal's palette for the 16 ANSI colours.
fn hex(color: Color, foreground: bool) -> String {
    let rgb = match color {
        Color::Reset if foreground => (0xd0, 0xd0, 0xd0),
        Color::Reset => (0x1c, 0x1c, 0x1c),
        Color::Black => (0x1c, 0x1c, 0x1c),
        Color::Red => (0xcd, 0x31, 0x31),
        Color::Green => (0x0d, 0xbc, 0x79),
        Color::Yellow => (0xe5, 0xe5, 0x10),
        Color::Blue => (0x24, 0x72, 0xc8),
        Color::Magenta => (0xbc, 0x3f, 0xbc),
        Color::Cyan => (0x11, 0xa8, 0xcd),
        Color::Gray => (0xcc, 0xcc, 0xcc),
        Color::DarkGray => (0x76, 0x76, 0x76),
        Color::LightRed => (0xf1, 0x4c, 0x4c),
        Color::LightGreen => (0x23, 0xd1, 0x8b),
        Color::LightYellow => (0xf5, 0xf5, 0x43),
        Color::LightBlue => (0x3b, 0x8e, 0xea),
        Color::LightMagenta => (0xd6, 0x70, 0xd6),
        Color::LightCyan => (0x29, 0xb8, 0xdb),
        Color::White => (0xe5, 0xe5, 0xe5),
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(index) => (index, index, index),
    };
    format!("#{:02x}{:02x}{:02x}", rgb.0, rgb.1, rgb.2)
}

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
use crate::app::view::chrome;
use crate::app::{Environment, Model, Msg, Size};
use crate::headless;
use crate::runtime::Effects;
use crate::sandbox::{Sandbox, SandboxOptions, tokens};
use crate::screens::Screen;
use crate::screens::home::HomeScreen;
use crate::screens::organizations::Organizations;
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

/// The Quickstart's code in the reader, in each built-in theme: (picture, theme, whether the
/// terminal's background is light).
const THEME_SCENES: &[(&str, &str, bool)] = &[
    ("theme-ansi16", "ansi16", false),
    ("theme-dark", "dark", false),
    ("theme-light", "light", true),
    ("theme-high-contrast", "high-contrast", false),
];

/// From the organizations screen to the Quickstart's first code block.
const QUICKSTART_CODE_KEYS: &str = "\r/getting\r\rj\r/curl\r";

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
                clock: crate::ui::time::Clock::Real,
            },
            Size::default(),
        );
        let buffer = draw_scene(&mut model, &effects, keys).await?;
        let path = directory.join(format!("{name}.svg"));
        std::fs::write(&path, to_svg(&buffer))?;
        written.push(path.display().to_string());
    }
    written.extend(write_theme_scenes(directory, &sandbox).await?);
    written.extend(write_home_scenes(directory, &sandbox, render).await?);
    sandbox.shutdown().await;
    Ok(written)
}

/// Home as the demo reviewer sees it, at 80x24 and at 160x45.
async fn write_home_scenes(
    directory: &Path,
    sandbox: &Sandbox,
    render: RenderOptions,
) -> std::io::Result<Vec<String>> {
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::REVIEWER),
    ))
    .map_err(|e| std::io::Error::other(e.to_string()))?;
    let effects = Effects {
        client: Some(client),
        drafts: None,
        theme: Theme::default(),
        render,
    };
    let mut written = Vec::new();
    for (width, height) in [(80, 24), (160, 45)] {
        let home = HomeScreen::new(crate::api::home::default_sections());
        let mut model = Model::new(
            Screen::Home(Box::new(home)),
            Environment {
                server_label: "demo sandbox · demo-reviewer".into(),
                config_path: "~/.config/quire/config.toml".into(),
                render,
                clock: crate::ui::time::Clock::Real,
            },
            Size::default(),
        );
        let buffer = draw_scene_at(&mut model, &effects, "", (width, height)).await?;
        let path = directory.join(format!("home-{width}x{height}.svg"));
        std::fs::write(&path, to_svg(&buffer))?;
        written.push(path.display().to_string());
    }
    Ok(written)
}

/// The [`THEME_SCENES`] pictures: each theme as quire runs it (its code theme, truecolor code
/// unless the theme keeps code to 16 colours), on a dark or light terminal background.
async fn write_theme_scenes(directory: &Path, sandbox: &Sandbox) -> std::io::Result<Vec<String>> {
    let mut written = Vec::new();
    for (name, theme_name, light) in THEME_SCENES {
        let theme = Theme::built_in(theme_name)
            .ok_or_else(|| std::io::Error::other(format!("no theme {theme_name}")))?;
        let code = theme.code();
        let render = RenderOptions {
            color_depth: code.max_depth.unwrap_or(ColorDepth::TrueColor),
            code_theme: code.theme,
            ..RenderOptions::default()
        };
        let client = Client::new(ClientConfig::new(
            sandbox.base_url(),
            Token::new(tokens::ADMIN),
        ))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
        let effects = Effects {
            client: Some(client),
            drafts: None,
            theme: theme.clone(),
            render,
        };
        let mut model = Model::new(
            Screen::Organizations(Organizations::default()),
            Environment {
                server_label: "demo sandbox".into(),
                config_path: "~/.config/quire/config.toml".into(),
                render,
                clock: crate::ui::time::Clock::Real,
            },
            Size::default(),
        );
        model.theme = theme;
        model.signed_in_as = Some("Amara Okafor".into());
        let buffer = draw_scene(&mut model, &effects, QUICKSTART_CODE_KEYS).await?;
        let path = directory.join(format!("{name}.svg"));
        let background = if *light {
            Background::Light
        } else {
            Background::Dark
        };
        std::fs::write(&path, to_svg_on(&buffer, background))?;
        written.push(path.display().to_string());
    }
    Ok(written)
}

/// The terminal's own background (and default text) a picture is drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Background {
    Dark,
    Light,
}

/// The buffer as an SVG on a dark terminal.
pub fn to_svg(buffer: &Buffer) -> String {
    to_svg_on(buffer, Background::Dark)
}

/// The buffer as an SVG: one rectangle per background run, one text element per cell.
pub fn to_svg_on(buffer: &Buffer, background: Background) -> String {
    let hex = |color: Color, foreground: bool| hex_on(color, foreground, background);
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

/// A terminal's palette for the 16 ANSI colours (the default colours follow its background),
/// and xterm's for the 256 indexed ones.
fn hex_on(color: Color, foreground: bool, background: Background) -> String {
    let light = background == Background::Light;
    let rgb = match color {
        Color::Reset if foreground && light => (0x1c, 0x1c, 0x1c),
        Color::Reset if light => (0xfa, 0xfa, 0xfa),
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
        Color::Indexed(index) => xterm_rgb(index, background),
    };
    format!("#{:02x}{:02x}{:02x}", rgb.0, rgb.1, rgb.2)
}

/// xterm's colour for a 256-colour palette index: the 16 named colours, the 6×6×6 cube, then
/// the grey ramp.
fn xterm_rgb(index: u8, background: Background) -> (u8, u8, u8) {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    const NAMED: [Color; 16] = [
        Color::Black,
        Color::Red,
        Color::Green,
        Color::Yellow,
        Color::Blue,
        Color::Magenta,
        Color::Cyan,
        Color::Gray,
        Color::DarkGray,
        Color::LightRed,
        Color::LightGreen,
        Color::LightYellow,
        Color::LightBlue,
        Color::LightMagenta,
        Color::LightCyan,
        Color::White,
    ];
    match index {
        0..=15 => {
            let hex = hex_on(NAMED[index as usize], true, background);
            let channel = |at: usize| u8::from_str_radix(&hex[at..at + 2], 16).unwrap_or(0);
            (channel(1), channel(3), channel(5))
        }
        16..=231 => {
            let cube = index - 16;
            (
                LEVELS[(cube / 36) as usize],
                LEVELS[(cube / 6 % 6) as usize],
                LEVELS[(cube % 6) as usize],
            )
        }
        _ => {
            let grey = 8 + 10 * (index - 232);
            (grey, grey, grey)
        }
    }
}

/// A scene as the terminal shows it: the model sized to the pictures, started, the keys typed.
async fn draw_scene(
    model: &mut Model,
    effects: &Effects,
    keys: &str,
) -> std::io::Result<ratatui::buffer::Buffer> {
    draw_scene_at(model, effects, keys, (WIDTH, HEIGHT)).await
}

/// [`draw_scene`] in a terminal of `(width, height)`.
async fn draw_scene_at(
    model: &mut Model,
    effects: &Effects,
    keys: &str,
    (width, height): (u16, u16),
) -> std::io::Result<ratatui::buffer::Buffer> {
    let resize = Msg::Resize { width, height };
    headless::settle(model, effects, resize).await;
    headless::start(model, effects).await;
    headless::type_keys(model, effects, keys).await;
    let mut terminal = Terminal::new(TestBackend::new(width, height))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    terminal
        .draw(|frame| chrome::draw(frame, model))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(terminal.backend().buffer().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_colours_are_drawn_in_xterm_colours() {
        assert_eq!(xterm_rgb(16, Background::Dark), (0, 0, 0));
        assert_eq!(xterm_rgb(25, Background::Dark), (0, 95, 175));
        assert_eq!(xterm_rgb(231, Background::Dark), (255, 255, 255));
        assert_eq!(xterm_rgb(232, Background::Dark), (8, 8, 8));
        assert_eq!(xterm_rgb(255, Background::Dark), (238, 238, 238));
        assert_eq!(xterm_rgb(1, Background::Dark), (0xcd, 0x31, 0x31));
        assert_eq!(hex_on(Color::Reset, false, Background::Light), "#fafafa");
    }
}

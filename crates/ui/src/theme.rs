//! Named styles. Widgets ask the theme for a meaning ("selection", "heading2"), never for a
//! colour, so a theme file can restyle everything and the default stays within 16 colours.
//!
//! Four themes are built in ([`BUILT_IN`]); a theme file (built in or the user's) names only the
//! styles it changes and is laid over the default theme. Its `[code]` table chooses how fenced
//! code is coloured ([`CodeSettings`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

use crate::code_colours::{CodeTheme, ColorDepth};

/// The theme compiled into the binary: every style name, in the 16 named colours.
pub const DEFAULT_THEME: &str = include_str!("../../../themes/default.toml");

/// The themes that ship with quire, by name. `ansi16` is the default: it uses only the 16 named
/// colours, so over any SSH link the terminal's own palette (dark, light, or tuned by its user)
/// decides how it looks, where fixed 256-colour or RGB values may clash with it.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("ansi16", include_str!("../../../themes/ansi16.toml")),
    ("dark", include_str!("../../../themes/dark.toml")),
    ("light", include_str!("../../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../../themes/high-contrast.toml"),
    ),
];

/// The style under every other: the screen's own colours (none: the terminal's).
pub const BACKGROUND: &str = "background";

/// The built-in theme used when neither `--theme` nor the config file names one.
pub const DEFAULT_THEME_NAME: &str = "ansi16";

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    styles: HashMap<String, Style>,
    code: CodeSettings,
}

/// How fenced code is coloured under this theme.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CodeSettings {
    /// The syntect theme that picks the colours.
    pub theme: CodeTheme,
    /// At most this many colours, whatever the terminal could show: `ansi16` keeps code within
    /// the 16 named colours (mapped by hue) like the rest of its styles.
    pub max_depth: Option<ColorDepth>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    #[serde(default)]
    styles: HashMap<String, StyleSpec>,
    code: Option<CodeSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CodeSpec {
    theme: Option<String>,
    colors: Option<String>,
}

#[derive(Debug, Deserialize)]
struct StyleSpec {
    fg: Option<String>,
    bg: Option<String>,
    #[serde(default)]
    modifiers: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ThemeError {
    #[error("theme file is not valid TOML: {0}")]
    Toml(#[from] toml::de::Error),
    #[error("style `{style}`: unknown colour `{colour}`")]
    Colour { style: String, colour: String },
    #[error("style `{style}`: unknown modifier `{modifier}`")]
    Modifier { style: String, modifier: String },
    #[error("[code] theme `{0}` is not one quire knows; known: {known}", known = CodeTheme::NAMES.join(", "))]
    CodeTheme(String),
    #[error("[code] colors takes \"16\", \"256\" or \"truecolor\", not `{0}`")]
    CodeColors(String),
    #[error("no theme `{name}`: built-in themes are {known}, or give a theme file's path", known = built_in_names().join(", "))]
    Unknown { name: String },
    #[error("cannot read the theme {path}: {message}")]
    Read { path: String, message: String },
    #[error("theme {path}: {source}")]
    InFile {
        path: String,
        #[source]
        source: Box<ThemeError>,
    },
}

/// The names of the built-in themes, for help and errors.
pub fn built_in_names() -> Vec<&'static str> {
    BUILT_IN.iter().map(|(name, _)| *name).collect()
}

impl Default for Theme {
    fn default() -> Self {
        // The built-in theme is tested below, so this cannot fail at run time.
        Theme::from_toml(DEFAULT_THEME).unwrap_or(Theme {
            styles: HashMap::new(),
            code: CodeSettings::default(),
        })
    }
}

impl Theme {
    /// Parses a theme file. Styles it does not name fall back to the default theme's.
    pub fn from_toml(source: &str) -> Result<Theme, ThemeError> {
        let file: ThemeFile = toml::from_str(source)?;
        let mut styles = HashMap::new();
        for (name, spec) in file.styles {
            styles.insert(name.clone(), spec.to_style(&name)?);
        }
        let code = match file.code {
            Some(spec) => spec.to_settings()?,
            None => CodeSettings::default(),
        };
        Ok(Theme { styles, code })
    }

    /// Layers `overrides` on top of this theme (its `[code]` settings win too).
    pub fn merged_with(mut self, overrides: Theme) -> Theme {
        self.styles.extend(overrides.styles);
        self.code = overrides.code;
        self
    }

    /// A built-in theme by name, laid over the default one.
    pub fn built_in(name: &str) -> Option<Theme> {
        let (_, source) = BUILT_IN.iter().find(|(known, _)| *known == name)?;
        // Every built-in theme is tested to parse.
        let theme = Theme::from_toml(source).ok()?;
        Some(Theme::default().merged_with(theme))
    }

    /// The theme `choice` names: a built-in name, a file's path, or the name of a file in
    /// `config_dir/themes/` (`.toml` may be left off). A file is laid over the default theme.
    /// No choice is the default theme.
    pub fn resolve(choice: Option<&str>, config_dir: Option<&Path>) -> Result<Theme, ThemeError> {
        let Some(choice) = choice.map(str::trim).filter(|c| !c.is_empty()) else {
            return Ok(Theme::built_in(DEFAULT_THEME_NAME).unwrap_or_default());
        };
        if let Some(theme) = Theme::built_in(choice) {
            return Ok(theme);
        }
        let path = theme_path(choice, config_dir).ok_or_else(|| ThemeError::Unknown {
            name: choice.to_string(),
        })?;
        let text = std::fs::read_to_string(&path).map_err(|error| ThemeError::Read {
            path: path.display().to_string(),
            message: error.to_string(),
        })?;
        let theme = Theme::from_toml(&text).map_err(|error| ThemeError::InFile {
            path: path.display().to_string(),
            source: Box::new(error),
        })?;
        Ok(Theme::default().merged_with(theme))
    }

    /// How fenced code is coloured.
    pub fn code(&self) -> CodeSettings {
        self.code
    }

    /// The names of the styles this theme sets.
    pub fn style_names(&self) -> impl Iterator<Item = &str> {
        self.styles.keys().map(String::as_str)
    }

    /// This theme for `NO_COLOR`: no colours at all, and a style that stood out by its
    /// background (the selection, badges, the active tab, search matches) is shown reversed
    /// instead, so it still stands out.
    pub fn without_colours(mut self) -> Theme {
        for (name, style) in self.styles.iter_mut() {
            // The screen's own background is not something to stand out from the rest.
            let had_background =
                name != BACKGROUND && style.bg.is_some_and(|bg| bg != Color::Reset);
            style.fg = None;
            style.bg = None;
            style.underline_color = None;
            if had_background {
                *style = style.add_modifier(Modifier::REVERSED);
            }
        }
        self
    }

    /// The style for a meaning; an unknown name is the terminal's default style.
    pub fn style(&self, name: &str) -> Style {
        self.styles.get(name).copied().unwrap_or_default()
    }

    /// Gives every cell left in the terminal's default colours the theme's `background`
    /// colours, so a theme that sets them reads the same on a dark or a light terminal. Cells
    /// cleared under a popup are among them. A theme without them leaves the terminal's own.
    pub fn paint_background(&self, buffer: &mut Buffer) {
        let base = self.style(BACKGROUND);
        let (fg, bg) = (base.fg, base.bg);
        if fg.is_none() && bg.is_none() {
            return;
        }
        for cell in &mut buffer.content {
            if let Some(bg) = bg
                && cell.bg == Color::Reset
            {
                cell.bg = bg;
            }
            if let Some(fg) = fg
                && cell.fg == Color::Reset
            {
                cell.fg = fg;
            }
        }
    }

    /// Heading style by level 1-6.
    pub fn heading(&self, level: u8) -> Style {
        self.style(&format!("heading{}", level.clamp(1, 6)))
    }
}

/// Where the theme file `choice` is: a path as given when it exists or is absolute, else the
/// config directory's `themes/NAME[.toml]`. `None` when neither exists (an unknown name).
fn theme_path(choice: &str, config_dir: Option<&Path>) -> Option<PathBuf> {
    let given = PathBuf::from(choice);
    if given.is_absolute() || given.is_file() {
        return Some(given);
    }
    let mut in_config = config_dir?.join("themes").join(choice);
    if in_config.extension().is_none() {
        in_config.set_extension("toml");
    }
    in_config.is_file().then_some(in_config)
}

impl CodeSpec {
    fn to_settings(&self) -> Result<CodeSettings, ThemeError> {
        let theme = match &self.theme {
            Some(name) => {
                CodeTheme::from_name(name).ok_or_else(|| ThemeError::CodeTheme(name.clone()))?
            }
            None => CodeTheme::default(),
        };
        let max_depth = match self.colors.as_deref() {
            None => None,
            Some("16") => Some(ColorDepth::Ansi16),
            Some("256") => Some(ColorDepth::Ansi256),
            Some("truecolor" | "24bit") => Some(ColorDepth::TrueColor),
            Some(other) => return Err(ThemeError::CodeColors(other.to_string())),
        };
        Ok(CodeSettings { theme, max_depth })
    }
}

impl StyleSpec {
    fn to_style(&self, name: &str) -> Result<Style, ThemeError> {
        let mut style = Style::default();
        if let Some(fg) = &self.fg {
            style = style.fg(parse_colour(name, fg)?);
        }
        if let Some(bg) = &self.bg {
            style = style.bg(parse_colour(name, bg)?);
        }
        for modifier in &self.modifiers {
            style = style.add_modifier(parse_modifier(name, modifier)?);
        }
        Ok(style)
    }
}

fn parse_colour(style: &str, colour: &str) -> Result<Color, ThemeError> {
    let unknown = || ThemeError::Colour {
        style: style.to_string(),
        colour: colour.to_string(),
    };
    if colour.eq_ignore_ascii_case("reset") {
        return Ok(Color::Reset);
    }
    // "color123": an entry of the terminal's 256-colour palette.
    if let Some(index) = colour
        .strip_prefix("color")
        .and_then(|index| index.parse::<u8>().ok())
    {
        return Ok(Color::Indexed(index));
    }
    colour.parse::<Color>().map_err(|_| unknown())
}

fn parse_modifier(style: &str, modifier: &str) -> Result<Modifier, ThemeError> {
    Ok(match modifier {
        "bold" => Modifier::BOLD,
        "dim" => Modifier::DIM,
        "italic" => Modifier::ITALIC,
        "underlined" => Modifier::UNDERLINED,
        "reversed" => Modifier::REVERSED,
        "crossed" => Modifier::CROSSED_OUT,
        _ => {
            return Err(ThemeError::Modifier {
                style: style.to_string(),
                modifier: modifier.to_string(),
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_theme_parses() {
        let theme = Theme::from_toml(DEFAULT_THEME).expect("built-in theme");
        assert_eq!(theme.style("selection").bg, Some(Color::Cyan));
    }

    #[test]
    fn without_colours_keeps_backgrounds_visible_as_reverse() {
        let theme = Theme::default().without_colours();
        let selection = theme.style("selection");
        assert_eq!((selection.fg, selection.bg), (None, None));
        assert!(selection.add_modifier.contains(Modifier::REVERSED));
        let tab = theme.style("tab_active");
        assert!(
            tab.add_modifier
                .contains(Modifier::BOLD | Modifier::REVERSED)
        );
        assert!(theme.heading(1).fg.is_none());
        assert!(
            theme.heading(0).add_modifier.contains(Modifier::BOLD),
            "0 clamps to h1"
        );
        assert_eq!(theme.heading(9), theme.heading(6));
    }

    #[test]
    fn the_built_in_theme_uses_only_the_16_ansi_colours() {
        let theme = Theme::default();
        for style in theme.styles.values() {
            for colour in [style.fg, style.bg].into_iter().flatten() {
                assert!(
                    !matches!(colour, Color::Rgb(..) | Color::Indexed(_)),
                    "{colour:?}"
                );
            }
        }
    }

    fn only_named_colours(theme: &Theme) -> bool {
        theme.styles.values().all(|style| {
            [style.fg, style.bg]
                .into_iter()
                .flatten()
                .all(|colour| !matches!(colour, Color::Rgb(..) | Color::Indexed(_)))
        })
    }

    #[test]
    fn every_built_in_theme_parses_and_has_every_default_style() {
        let default = Theme::default();
        for (name, source) in BUILT_IN {
            let own = Theme::from_toml(source).unwrap_or_else(|e| panic!("{name}: {e}"));
            for style in own.style_names() {
                assert!(
                    default.styles.contains_key(style),
                    "{name} sets `{style}`, which the default theme does not know"
                );
            }
            let theme = Theme::built_in(name).expect("built in");
            for style in default.style_names() {
                assert!(theme.styles.contains_key(style), "{name} lacks `{style}`");
            }
        }
        assert_eq!(
            Theme::built_in("ansi16"),
            Some(Theme::default().merged_with(Theme::from_toml(BUILT_IN[0].1).unwrap()))
        );
    }

    #[test]
    fn the_default_is_ansi16_and_it_keeps_code_to_16_colours() {
        let theme = Theme::resolve(None, None).unwrap();
        assert_eq!(Some(&theme), Theme::built_in("ansi16").as_ref());
        assert!(only_named_colours(&theme));
        assert_eq!(theme.code().max_depth, Some(ColorDepth::Ansi16));
        assert!(only_named_colours(
            &Theme::built_in("high-contrast").unwrap()
        ));
    }

    #[test]
    fn dark_and_light_use_the_256_colour_palette_and_their_own_code_theme() {
        let dark = Theme::built_in("dark").unwrap();
        let light = Theme::built_in("light").unwrap();
        assert_eq!(dark.style("selection").bg, Some(Color::Indexed(111)));
        assert_eq!(light.style("selection").bg, Some(Color::Indexed(25)));
        assert_eq!(dark.code().theme, CodeTheme::Base16EightiesDark);
        assert_eq!(light.code().theme, CodeTheme::InspiredGitHub);
        assert_eq!(light.code().max_depth, None);
    }

    #[test]
    fn high_contrast_has_no_dim_or_dark_grey_text() {
        let theme = Theme::built_in("high-contrast").unwrap();
        for (name, style) in &theme.styles {
            assert_ne!(style.fg, Some(Color::DarkGray), "{name}");
            assert!(!style.add_modifier.contains(Modifier::DIM), "{name}");
        }
        assert!(
            theme
                .style("selection")
                .add_modifier
                .contains(Modifier::BOLD)
        );
    }

    #[test]
    fn high_contrast_brings_its_own_background_and_foreground() {
        let theme = Theme::built_in("high-contrast").unwrap();
        let base = theme.style(BACKGROUND);
        assert_eq!((base.fg, base.bg), (Some(Color::White), Some(Color::Black)));
        for (name, style) in &theme.styles {
            if let (Some(fg), Some(bg)) = (style.fg, style.bg) {
                assert_ne!(fg, bg, "{name}");
            }
        }
        let mut buffer = Buffer::empty(ratatui::layout::Rect::new(0, 0, 3, 1));
        buffer[(1, 0)].set_style(theme.style("selection"));
        theme.paint_background(&mut buffer);
        let painted: Vec<(Color, Color)> = buffer.content.iter().map(|c| (c.fg, c.bg)).collect();
        assert_eq!(
            painted,
            [
                (Color::White, Color::Black),
                (Color::Black, Color::LightYellow),
                (Color::White, Color::Black)
            ]
        );
        let bare = Theme::built_in("high-contrast").unwrap().without_colours();
        assert!(
            !bare
                .style(BACKGROUND)
                .add_modifier
                .contains(Modifier::REVERSED),
            "NO_COLOR does not reverse the whole screen"
        );
    }

    #[test]
    fn the_other_built_in_themes_leave_the_terminal_its_background() {
        for name in ["ansi16", "dark", "light"] {
            let base = Theme::built_in(name).unwrap().style(BACKGROUND);
            assert_eq!((base.fg, base.bg), (None, None), "{name}");
        }
    }

    #[test]
    fn an_unknown_theme_name_lists_the_built_in_ones() {
        let error = Theme::resolve(Some("solarised"), None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("no theme `solarised`"), "{error}");
        for name in ["ansi16", "dark", "light", "high-contrast"] {
            assert!(error.contains(name), "{error}");
        }
    }

    #[test]
    fn a_theme_file_by_name_in_the_config_directory_or_by_path_is_laid_over_the_default() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("themes")).unwrap();
        let file = dir.path().join("themes").join("mine.toml");
        std::fs::write(
            &file,
            "[code]\ntheme = \"Solarized (light)\"\n[styles]\nselection = { bg = \"color202\" }\n",
        )
        .unwrap();
        for choice in ["mine", "mine.toml", file.to_str().unwrap()] {
            let theme = Theme::resolve(Some(choice), Some(dir.path())).unwrap();
            assert_eq!(theme.style("selection").bg, Some(Color::Indexed(202)));
            assert_eq!(theme.style("border"), Theme::default().style("border"));
            assert_eq!(theme.code().theme, CodeTheme::SolarizedLight);
        }
        std::fs::write(&file, "[code]\ntheme = \"nope\"\n").unwrap();
        let error = Theme::resolve(Some("mine"), Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("mine.toml") && error.contains("InspiredGitHub"),
            "{error}"
        );
    }

    #[test]
    fn a_bad_colour_names_the_style() {
        let error = Theme::from_toml("[styles]\ntext = { fg = \"plaid\" }").unwrap_err();
        assert!(error.to_string().contains("`text`"));
        let error = Theme::from_toml("[styles]\ntext = { fg = \"color256\" }").unwrap_err();
        assert!(error.to_string().contains("color256"));
    }
}

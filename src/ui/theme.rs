//! Named styles. Widgets ask the theme for a meaning ("selection", "heading2"), never for a
//! colour, so a theme file can restyle everything and the default stays within 16 colours.

use std::collections::HashMap;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

/// The theme compiled into the binary.
pub const DEFAULT_THEME: &str = include_str!("../../themes/default.toml");

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    styles: HashMap<String, Style>,
}

#[derive(Debug, Deserialize)]
struct ThemeFile {
    #[serde(default)]
    styles: HashMap<String, StyleSpec>,
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
}

impl Default for Theme {
    fn default() -> Self {
        // The built-in theme is tested below, so this cannot fail at run time.
        Theme::from_toml(DEFAULT_THEME).unwrap_or(Theme {
            styles: HashMap::new(),
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
        Ok(Theme { styles })
    }

    /// Layers `overrides` on top of this theme.
    pub fn merged_with(mut self, overrides: Theme) -> Theme {
        self.styles.extend(overrides.styles);
        self
    }

    /// This theme for `NO_COLOR`: no colours at all, and a style that stood out by its
    /// background (the selection, badges, the active tab, search matches) is shown reversed
    /// instead, so it still stands out.
    pub fn without_colours(mut self) -> Theme {
        for style in self.styles.values_mut() {
            let had_background = style.bg.is_some_and(|bg| bg != Color::Reset);
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

    /// Heading style by level 1-6.
    pub fn heading(&self, level: u8) -> Style {
        self.style(&format!("heading{}", level.clamp(1, 6)))
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

    #[test]
    fn a_bad_colour_names_the_style() {
        let error = Theme::from_toml("[styles]\ntext = { fg = \"plaid\" }").unwrap_err();
        assert!(error.to_string().contains("`text`"));
    }
}

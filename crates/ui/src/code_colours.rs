//! How code and colours may be shown: the syntect theme code is coloured with, and how many
//! colours the terminal can show. Plain values, read by the theme file and used by the
//! markdown renderer alike.

/// How many colours the terminal can show; syntect's RGB colours are mapped down to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum ColorDepth {
    #[default]
    Ansi16,
    Ansi256,
    TrueColor,
}

/// The syntect themes code can be coloured with (those syntect ships). Each theme's default
/// foreground is left to the terminal, so a dark one still reads on a light background.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CodeTheme {
    /// Dark, because terminals mostly are: the default.
    #[default]
    Base16OceanDark,
    Base16EightiesDark,
    Base16MochaDark,
    Base16OceanLight,
    InspiredGitHub,
    SolarizedDark,
    SolarizedLight,
}

impl CodeTheme {
    pub(crate) const ALL: [CodeTheme; 7] = [
        CodeTheme::Base16OceanDark,
        CodeTheme::Base16EightiesDark,
        CodeTheme::Base16MochaDark,
        CodeTheme::Base16OceanLight,
        CodeTheme::InspiredGitHub,
        CodeTheme::SolarizedDark,
        CodeTheme::SolarizedLight,
    ];

    /// The names a theme file's `[code] theme` accepts.
    pub const NAMES: [&'static str; 7] = [
        "base16-ocean.dark",
        "base16-eighties.dark",
        "base16-mocha.dark",
        "base16-ocean.light",
        "InspiredGitHub",
        "Solarized (dark)",
        "Solarized (light)",
    ];

    /// syntect's name for the theme.
    pub fn name(self) -> &'static str {
        let index = CodeTheme::ALL
            .iter()
            .position(|theme| *theme == self)
            .unwrap_or(0);
        CodeTheme::NAMES[index]
    }

    /// The theme syntect calls `name` (any case).
    pub fn from_name(name: &str) -> Option<CodeTheme> {
        let index = CodeTheme::NAMES
            .iter()
            .position(|known| known.eq_ignore_ascii_case(name.trim()))?;
        Some(CodeTheme::ALL[index])
    }
}

//! How quire looks on this terminal: the theme the flags and the config file choose, and how
//! many colours code is drawn in.

use color_eyre::eyre::Result;

use crate::cli::start::usage;
use crate::ui::markdown::{ColorDepth, RenderOptions};
use crate::ui::theme::Theme;

/// The theme `--theme` names, else the profile's `theme` in the config file, else the default
/// (ansi16).
pub(crate) fn load_theme(
    flag: Option<&str>,
    configured: Option<&str>,
    config_path: Option<&std::path::Path>,
) -> Result<Theme> {
    let choice = flag.or(configured);
    let config_dir = config_path.and_then(|path| path.parent());
    Theme::resolve(choice, config_dir).map_err(usage)
}

/// How pages are rendered: code coloured with the theme's syntect theme, in as many colours as
/// the terminal shows (or `--colors` says) but no more than the theme allows, and not at all
/// under NO_COLOR.
pub(crate) fn render_options(
    theme: &Theme,
    colors: Option<&str>,
    no_color: bool,
) -> Result<RenderOptions> {
    let code = theme.code();
    let mut depth = color_depth(colors)?;
    // An explicit --colors wins; a guessed depth is capped by the theme.
    if colors.is_none()
        && let Some(max) = code.max_depth
    {
        depth = depth.min(max);
    }
    Ok(RenderOptions {
        color_depth: depth,
        code_theme: code.theme,
        highlight: !no_color,
        ..RenderOptions::default()
    })
}

fn color_depth(flag: Option<&str>) -> Result<ColorDepth> {
    match flag {
        Some("16") => Ok(ColorDepth::Ansi16),
        Some("256") => Ok(ColorDepth::Ansi256),
        Some("truecolor" | "24bit") => Ok(ColorDepth::TrueColor),
        Some(other) => Err(usage(format_args!(
            "--colors takes 16, 256 or truecolor, not `{other}`"
        ))),
        None => {
            let colorterm = std::env::var("COLORTERM").unwrap_or_default();
            let term = std::env::var("TERM").unwrap_or_default();
            Ok(if colorterm == "truecolor" || colorterm == "24bit" {
                ColorDepth::TrueColor
            } else if term.contains("256color") {
                ColorDepth::Ansi256
            } else {
                ColorDepth::Ansi16
            })
        }
    }
}

//! Highlighted tokens to terminal styles: syntect's RGB colours mapped down to the terminal's
//! colour depth.

use ratatui::style::{Color, Modifier, Style};
use syntect::highlighting::FontStyle;

use super::Token;
use crate::markdown::ColorDepth;

/// The terminal style of a highlighted token on top of the code block's style.
pub(in crate::markdown) fn token_style(token: &Token, base: Style, depth: ColorDepth) -> Style {
    let mut style = base;
    if let Some((red, green, blue)) = token.foreground {
        style = style.fg(map_colour(red, green, blue, depth));
    }
    if token.font.contains(FontStyle::BOLD) {
        style = style.add_modifier(Modifier::BOLD);
    }
    if token.font.contains(FontStyle::ITALIC) {
        style = style.add_modifier(Modifier::ITALIC);
    }
    if token.font.contains(FontStyle::UNDERLINE) {
        style = style.add_modifier(Modifier::UNDERLINED);
    }
    style
}

pub(super) fn map_colour(red: u8, green: u8, blue: u8, depth: ColorDepth) -> Color {
    match depth {
        ColorDepth::TrueColor => Color::Rgb(red, green, blue),
        ColorDepth::Ansi256 => Color::Indexed(nearest_xterm(red, green, blue)),
        ColorDepth::Ansi16 => nearest_ansi16(red, green, blue),
    }
}

/// The nearest of the 6×6×6 cube and the grey ramp of the 256-colour palette.
fn nearest_xterm(red: u8, green: u8, blue: u8) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let nearest_level = |value: u8| -> usize {
        (0..6)
            .min_by_key(|index| (i32::from(LEVELS[*index]) - i32::from(value)).abs())
            .unwrap_or(0)
    };
    let distance = |a: (u8, u8, u8)| -> i32 {
        let dr = i32::from(a.0) - i32::from(red);
        let dg = i32::from(a.1) - i32::from(green);
        let db = i32::from(a.2) - i32::from(blue);
        dr * dr + dg * dg + db * db
    };
    let (r, g, b) = (
        nearest_level(red),
        nearest_level(green),
        nearest_level(blue),
    );
    let cube_index = 16 + 36 * r + 6 * g + b;
    let cube_distance = distance((LEVELS[r], LEVELS[g], LEVELS[b]));
    let average = (u32::from(red) + u32::from(green) + u32::from(blue)) / 3;
    let grey_step = (average.saturating_sub(8) / 10).min(23);
    let grey = u8::try_from(8 + 10 * grey_step).unwrap_or(238);
    let grey_distance = distance((grey, grey, grey));
    let index = if grey_distance < cube_distance {
        232 + grey_step as usize
    } else {
        cube_index
    };
    u8::try_from(index).unwrap_or(15)
}

/// The nearest named ANSI colour by hue: syntax themes use soft pastels, which plain RGB
/// distance would turn all grey; hue keeps keywords, strings and numbers apart.
fn nearest_ansi16(red: u8, green: u8, blue: u8) -> Color {
    let (r, g, b) = (f32::from(red), f32::from(green), f32::from(blue));
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let lightness = (max + min) / 2.0 / 255.0;
    let chroma = (max - min) / 255.0;
    if chroma < 0.1 {
        return if lightness < 0.55 {
            Color::DarkGray
        } else if lightness < 0.85 {
            Color::Gray
        } else {
            Color::White
        };
    }
    let hue = if max == r {
        60.0 * (((g - b) / (max - min)).rem_euclid(6.0))
    } else if max == g {
        60.0 * ((b - r) / (max - min) + 2.0)
    } else {
        60.0 * ((r - g) / (max - min) + 4.0)
    };
    let light = lightness > 0.65;
    let (normal, bright) = match hue {
        h if !(20.0..330.0).contains(&h) => (Color::Red, Color::LightRed),
        h if h < 70.0 => (Color::Yellow, Color::LightYellow),
        h if h < 160.0 => (Color::Green, Color::LightGreen),
        h if h < 200.0 => (Color::Cyan, Color::LightCyan),
        h if h < 260.0 => (Color::Blue, Color::LightBlue),
        _ => (Color::Magenta, Color::LightMagenta),
    };
    if light { bright } else { normal }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_colours_map_to_their_ansi_names() {
        assert_eq!(nearest_ansi16(205, 0, 0), Color::Red);
        assert_eq!(nearest_ansi16(0, 205, 0), Color::Green);
        assert_eq!(nearest_ansi16(0, 0, 238), Color::Blue);
        assert_eq!(nearest_ansi16(255, 255, 255), Color::White);
        assert_eq!(nearest_ansi16(127, 127, 127), Color::DarkGray);
        // base16-ocean's pastels keep distinct hues.
        assert_eq!(nearest_ansi16(0xa3, 0xbe, 0x8c), Color::Green);
        assert_eq!(nearest_ansi16(0xb4, 0x8e, 0xad), Color::Magenta);
        assert_eq!(nearest_ansi16(0x8f, 0xa1, 0xb3), Color::Blue);
    }

    #[test]
    fn xterm_mapping_picks_cube_or_grey() {
        assert_eq!(nearest_xterm(255, 0, 0), 196);
        assert_eq!(nearest_xterm(0, 0, 0), 16);
        assert_eq!(nearest_xterm(128, 128, 128), 244);
        assert_eq!(nearest_xterm(95, 135, 175), 67);
    }
}

//! Small text helpers: columns measured in cells, truncation with an ellipsis, dates, and the
//! filter row every list shares.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use crate::sanitize::sanitize;

/// How many terminal cells `text` takes. The one width function of the client, the measure
/// ratatui itself uses (unicode-width over the whole string, which knows emoji sequences), so
/// `❤️` or `👨‍💻` counts the same in our padding and wrapping as on screen. Counting characters
/// one by one instead makes `❤️` one cell narrower than drawn, which pushes a row's end (a
/// border) right.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// The cells of one grapheme cluster, as ratatui counts them.
pub fn grapheme_width(grapheme: &str) -> usize {
    UnicodeWidthStr::width(grapheme)
}

/// Cuts `text` to at most `width` cells, ending with `…` when something was cut. Never cuts
/// inside a grapheme (an emoji keeps its variation selector).
pub fn truncate(text: &str, width: usize) -> String {
    if self::width(text) <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for grapheme in text.graphemes(true) {
        let cells = grapheme_width(grapheme);
        if used + cells > width - 1 {
            break;
        }
        out.push_str(grapheme);
        used += cells;
    }
    out.push('…');
    out
}

/// Pads or truncates `text` to exactly `width` cells.
pub fn fit(text: &str, width: usize) -> String {
    let cut = truncate(text, width);
    let used = self::width(&cut);
    format!("{cut}{}", " ".repeat(width.saturating_sub(used)))
}

/// One table row: each cell sanitized and fitted to its width, one space between cells.
pub fn columns(cells: &[&str], widths: &[u16], style: Style) -> Line<'static> {
    let text: Vec<String> = cells
        .iter()
        .zip(widths)
        .map(|(cell, width)| fit(&sanitize(cell), *width as usize))
        .collect();
    Line::from(Span::styled(text.join(" "), style))
}

/// "2026-03-14" from an ISO 8601 timestamp; the input itself when it is not one.
pub fn date(timestamp: &str) -> String {
    let clean = sanitize(timestamp);
    clean.get(..10).unwrap_or(&clean).to_string()
}

/// Splits `text` into spans, styling every case-insensitive occurrence of `needle`.
pub fn highlight(text: &str, needle: &str, base: Style, matched: Style) -> Vec<Span<'static>> {
    if needle.is_empty() {
        return vec![Span::styled(text.to_string(), base)];
    }
    let lower = text.to_lowercase();
    let needle = needle.to_lowercase();
    // Lower-casing can change byte lengths; fall back to no highlight when it does.
    if lower.len() != text.len() {
        return vec![Span::styled(text.to_string(), base)];
    }
    let mut spans = Vec::new();
    let mut last = 0;
    for (start, found) in lower.match_indices(&needle) {
        if start < last
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(start + found.len())
        {
            continue;
        }
        if start > last {
            spans.push(Span::styled(text[last..start].to_string(), base));
        }
        spans.push(Span::styled(
            text[start..start + found.len()].to_string(),
            matched,
        ));
        last = start + found.len();
    }
    if last < text.len() {
        spans.push(Span::styled(text[last..].to_string(), base));
    }
    spans
}

/// An emoji as the API gives it: either the character itself or its code points in hex
/// ("1f680", "1f468-200d-1f4bb"). Returns None for an empty or unreadable value.
pub fn emoji(value: Option<&str>) -> Option<String> {
    let value = value?.trim();
    let is_hex = !value.is_empty()
        && value.split('-').all(|part| {
            !part.is_empty() && part.len() <= 6 && part.chars().all(|c| c.is_ascii_hexdigit())
        });
    let glyph = if is_hex {
        value
            .split('-')
            .map(|part| u32::from_str_radix(part, 16).ok().and_then(char::from_u32))
            .collect::<Option<String>>()?
    } else {
        value.to_string()
    };
    let glyph = emoji_presentation(&sanitize(&glyph));
    (!glyph.is_empty()).then_some(glyph)
}

/// An emoji as it is drawn everywhere (tree rows, titles, the reaction picker), two cells
/// wide to every measure. A pictograph that is text-presentation by default (🏛, ⚙, ❤) is
/// drawn bare with a space after it, not with variation selector 16: terminals and
/// multiplexers disagree on how wide `🏛️` is (tmux 3.3 counts one cell, the terminal under it
/// draws two, and the rest of the row moves right), while a bare pictograph is one cell to
/// all of them, so the row ends where it was measured to end.
pub fn emoji_presentation(glyph: &str) -> String {
    let bare: String = glyph.chars().filter(|c| *c != '\u{fe0f}').collect();
    let mut chars = bare.chars();
    let single_pictograph =
        matches!((chars.next(), chars.next()), (Some(c), None) if is_pictograph(c));
    if single_pictograph && grapheme_width(&bare) < 2 {
        return format!("{bare} ");
    }
    glyph.to_string()
}

/// Symbols and pictographs that have an emoji form.
fn is_pictograph(c: char) -> bool {
    matches!(c,
        '\u{2190}'..='\u{21ff}'
        | '\u{2300}'..='\u{23ff}'
        | '\u{2460}'..='\u{27bf}'
        | '\u{2900}'..='\u{297f}'
        | '\u{2b00}'..='\u{2bff}'
        | '\u{3030}'
        | '\u{303d}'
        | '\u{3297}'
        | '\u{3299}'
        | '\u{1f000}'..='\u{1faff}')
}

/// Wraps plain text to `width` cells at spaces, breaking longer words; keeps blank lines.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    for paragraph in crate::sanitize::sanitize_multiline(text)
        .split('\n')
        .map(str::to_string)
        .collect::<Vec<_>>()
    {
        let mut line = String::new();
        let mut used = 0;
        for word in paragraph.split(' ') {
            let word_width = self::width(word);
            if used > 0 && used + 1 + word_width > width {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            if used > 0 {
                line.push(' ');
                used += 1;
            }
            for grapheme in word.graphemes(true) {
                let w = grapheme_width(grapheme);
                if used + w > width && used > 0 {
                    lines.push(std::mem::take(&mut line));
                    used = 0;
                }
                line.push_str(grapheme);
                used += w;
            }
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_counts_cells_not_bytes() {
        assert_eq!(truncate("日本語のページ", 6), "日本…");
        assert_eq!(truncate("short", 10), "short");
        assert_eq!(fit("ab", 4), "ab  ");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn highlight_marks_every_match() {
        let spans = highlight(
            "Install on Linux",
            "in",
            Style::default(),
            Style::default().bold(),
        );
        let text: Vec<&str> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, ["In", "stall on L", "in", "ux"]);
    }

    #[test]
    fn emoji_come_as_glyphs_or_hex_code_points() {
        assert_eq!(emoji(Some("1f680")).as_deref(), Some("🚀"));
        assert_eq!(
            emoji(Some("1f468-200d-1f4bb")).as_deref(),
            Some("👨\u{200d}💻")
        );
        assert_eq!(emoji(Some("⚙\u{fe0f}")).as_deref(), Some("⚙ "));
        assert_eq!(emoji(Some("1f3db-fe0f")).as_deref(), Some("🏛 "));
        assert_eq!(emoji(Some("")), None);
        assert_eq!(emoji(None), None);
        assert_eq!(emoji(Some("\u{1b}[2J")).as_deref(), Some("␛[2J"));
    }

    #[test]
    fn text_presentation_icons_are_shown_two_cells_wide() {
        // 🗺 is text-presentation by default: it used to be dropped, leaving a gap.
        for value in ["🗺️", "🗺", "1f5fa", "1f5fa-fe0f"] {
            let icon = emoji(Some(value)).unwrap_or_else(|| panic!("{value} dropped"));
            assert_eq!(icon, "🗺 ", "{value}");
            assert_eq!(width(&icon), 2, "{value}");
        }
        assert_eq!(emoji(Some("❤")).as_deref(), Some("❤ "));
        assert_eq!(emoji(Some("🚀")).as_deref(), Some("🚀"));
    }

    /// A terminal that measures code point by code point (as tmux 3.3 does, ignoring variation
    /// selectors) and one that honours them agree on every drawn emoji: two cells.
    #[test]
    fn drawn_emoji_are_two_cells_by_every_measure() {
        for value in ["🏛️", "⚙️", "🏛", "⚙", "❤️", "1f3db-fe0f", "🚀", "📁"] {
            let drawn = emoji(Some(value)).unwrap_or_else(|| panic!("{value} dropped"));
            assert!(!drawn.contains('\u{fe0f}'), "{value}: {drawn:?}");
            let by_code_point: usize = drawn
                .chars()
                .map(|c| unicode_width::UnicodeWidthChar::width(c).unwrap_or(0))
                .sum();
            assert_eq!(width(&drawn), 2, "{value}");
            assert_eq!(by_code_point, 2, "{value}");
            let row = format!("{drawn} Architecture│");
            assert_eq!(width(&row), 2 + 1 + 12 + 1, "{value}");
        }
    }

    #[test]
    fn one_width_for_emoji_everywhere() {
        // Variation selectors and joiners count as ratatui counts them.
        for (text, cells) in [
            ("❤️", 2),
            ("☘️", 2),
            ("👨\u{200d}💻", 2),
            ("a❤️b", 4),
            ("日本", 4),
            ("plain", 5),
        ] {
            assert_eq!(width(text), cells, "{text}");
            let drawn = ratatui::text::Line::from(text).width();
            assert_eq!(width(text), drawn, "{text} as ratatui measures it");
        }
        assert_eq!(width(&fit("❤️ red heart", 8)), 8);
        assert_eq!(fit("❤️ red", 8), "❤️ red  ");
        // A cut never splits an emoji from its selector.
        assert_eq!(truncate("☘️☘️☘️", 5), "☘️☘️…");
        assert_eq!(wrap("❤️❤️❤️", 4), ["❤️❤️", "❤️"]);
    }

    #[test]
    fn wrapping_respects_width_and_blank_lines() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("a\n\nb", 5), ["a", "", "b"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
    }

    #[test]
    fn dates_are_cut_to_the_day() {
        assert_eq!(date("2026-03-14T10:00:00Z"), "2026-03-14");
        assert_eq!(date("soon"), "soon");
    }
}

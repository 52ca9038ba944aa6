//! Text from the server is untrusted: it must never be able to move the cursor, retitle the
//! window, write the clipboard or reorder what the user reads. Everything that comes from the
//! network goes through [`sanitize`] before it becomes a `Span`.

use std::borrow::Cow;

/// Replaces control characters, bidi overrides and invisible format characters with visible
/// stand-ins. Tabs become spaces (a tab's width is unknowable inside a cell grid); newlines are
/// kept only by [`sanitize_multiline`].
pub fn sanitize(text: &str) -> Cow<'_, str> {
    sanitize_with(text, false)
}

/// Like [`sanitize`] but keeps `\n`, for bodies that are split into lines afterwards.
pub fn sanitize_multiline(text: &str) -> Cow<'_, str> {
    sanitize_with(text, true)
}

fn sanitize_with(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    if text.chars().all(|c| stand_in(c, keep_newlines).is_none()) {
        return Cow::Borrowed(text);
    }
    let mut clean = String::with_capacity(text.len());
    for c in text.chars() {
        match stand_in(c, keep_newlines) {
            Some(replacement) => clean.push_str(replacement),
            None => clean.push(c),
        }
    }
    Cow::Owned(clean)
}

/// True for a character [`sanitize_multiline`] would not let through as it is: a control
/// (newline aside), a bidi override or isolate, an invisible format character.
pub fn is_neutralised(c: char) -> bool {
    stand_in(c, true).is_some()
}

/// The visible characters [`sanitize`] puts in place of controls and bidi overrides. Text that
/// holds one had something dangerous in it: an address containing one is not a real address.
pub const STAND_INS: [char; 3] = ['␛', '␡', '�'];

/// The visible replacement for a character that must not reach the terminal as is.
fn stand_in(c: char, keep_newlines: bool) -> Option<&'static str> {
    match c {
        '\n' if keep_newlines => None,
        '\t' => Some("    "),
        '\r' => Some(""),
        '\u{1b}' => Some("␛"),
        '\u{7f}' => Some("␡"),
        '\0'..='\u{1f}' => Some("�"),
        // C1 controls (0x80-0x9f): some terminals treat 0x9b as CSI.
        '\u{80}'..='\u{9f}' => Some("�"),
        // Bidi embeddings, overrides and isolates: can make text read in another order.
        '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{061c}' => Some("�"),
        // Invisible format characters: zero-width space/joiners (the joiner is kept, emoji need it),
        // word joiner and invisible operators, BOM, interlinear annotations, line/para separators.
        '\u{200b}'
        | '\u{200c}'
        | '\u{2060}'..='\u{2064}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}' => Some(""),
        '\u{2028}' | '\u{2029}' => Some(" "),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_untouched() {
        assert!(matches!(sanitize("Getting started 🚀"), Cow::Borrowed(_)));
    }

    #[test]
    fn escape_sequences_cannot_reach_the_terminal() {
        let hostile = "title\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m";
        let clean = sanitize(hostile);
        assert!(!clean.chars().any(|c| c.is_control()), "{clean:?}");
        assert!(clean.contains("␛]0;pwned"));
    }

    #[test]
    fn bidi_overrides_are_made_visible() {
        let clean = sanitize("abc\u{202e}fed\u{2066}x");
        assert_eq!(clean, "abc�fed�x");
    }

    #[test]
    fn newlines_survive_only_in_multiline_mode() {
        assert_eq!(sanitize("a\nb"), "a�b");
        assert_eq!(sanitize_multiline("a\r\nb\tc"), "a\nb    c");
    }

    #[test]
    fn emoji_joiners_are_kept() {
        let family = "👩\u{200d}👩\u{200d}👧";
        assert_eq!(sanitize(family), family);
    }
}

//! Terminal notifications: how quire tells someone looking at another window that a change
//! request they watch has moved. A terminal shows them as a desktop notification (OSC 9, OSC
//! 777) or rings its bell; inside tmux the sequence is passed through to the outer terminal.

use std::fmt;

/// How a ping reaches the user (config `notify`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NotifyStyle {
    /// `ESC ] 9 ; text BEL`: iTerm2, WezTerm, Ghostty, Windows Terminal, kitty, foot.
    Osc9,
    /// `ESC ] 777 ; notify ; title ; body BEL`: urxvt, Konsole, foot, Ghostty, VTE terminals
    /// built with the patch (GNOME Terminal on several distributions).
    Osc777,
    /// The bell: every terminal has one; tmux marks the window.
    #[default]
    Bell,
    /// Only the status line says it.
    Off,
}

impl NotifyStyle {
    /// The names the config file takes.
    pub const NAMES: [&'static str; 4] = ["osc9", "osc777", "bell", "off"];

    pub fn parse(name: &str) -> Option<NotifyStyle> {
        match name {
            "osc9" => Some(NotifyStyle::Osc9),
            "osc777" => Some(NotifyStyle::Osc777),
            "bell" => Some(NotifyStyle::Bell),
            "off" => Some(NotifyStyle::Off),
            _ => None,
        }
    }

    /// The style the terminal quire runs in understands, from what it says of itself
    /// (`TERM_PROGRAM`, `TERM`, and variables only some terminals set). A terminal not known to
    /// show notifications gets the bell, which none ignores.
    pub fn for_terminal(variable: impl Fn(&str) -> Option<String>) -> NotifyStyle {
        let program = variable("TERM_PROGRAM").unwrap_or_default();
        let term = variable("TERM").unwrap_or_default();
        let set = |name: &str| variable(name).is_some_and(|value| !value.is_empty());
        // Inside tmux `TERM_PROGRAM` names tmux; the outer terminal's own variables (and
        // iTerm2's `LC_TERMINAL`, which SSH passes on) still tell it.
        if matches!(
            program.as_str(),
            "iTerm.app" | "WezTerm" | "ghostty" | "vscode"
        ) || variable("LC_TERMINAL").as_deref() == Some("iTerm2")
            || set("WT_SESSION")
            || set("KITTY_WINDOW_ID")
            || term == "xterm-kitty"
            || term == "xterm-ghostty"
        {
            NotifyStyle::Osc9
        } else if term.starts_with("rxvt") || set("KONSOLE_VERSION") || term.starts_with("foot") {
            NotifyStyle::Osc777
        } else {
            NotifyStyle::Bell
        }
    }

    /// The bytes that notify, with `title` and `body` made safe; wrapped for tmux when
    /// `in_tmux` (tmux passes a sequence on only inside its DCS envelope, and only with
    /// `allow-passthrough on`; the bell it passes on by itself). None for [`NotifyStyle::Off`].
    pub fn sequence(self, title: &str, body: &str, in_tmux: bool) -> Option<String> {
        let title = printable(title);
        let body = printable(body);
        let plain = match self {
            NotifyStyle::Off => return None,
            NotifyStyle::Bell => return Some("\u{7}".to_string()),
            NotifyStyle::Osc9 => format!("\u{1b}]9;{title}: {body}\u{7}"),
            // The fields are separated by `;`: one inside a field would cut it short.
            NotifyStyle::Osc777 => format!(
                "\u{1b}]777;notify;{};{}\u{7}",
                title.replace(';', ","),
                body.replace(';', ",")
            ),
        };
        Some(if in_tmux {
            tmux_passthrough(&plain)
        } else {
            plain
        })
    }
}

impl fmt::Display for NotifyStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            NotifyStyle::Osc9 => "osc9",
            NotifyStyle::Osc777 => "osc777",
            NotifyStyle::Bell => "bell",
            NotifyStyle::Off => "off",
        };
        f.write_str(name)
    }
}

/// Server text inside an escape sequence: control characters (an ESC or BEL would end the
/// sequence early and let the rest act on the terminal) become spaces, and the length is
/// bounded, as desktop notifications cut long text anyway.
fn printable(text: &str) -> String {
    const MOST: usize = 200;
    let mut clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MOST)
        .collect();
    if text.chars().count() > MOST {
        clean.push('…');
    }
    clean
}

/// tmux's envelope for a sequence meant for the outer terminal: every ESC inside is doubled.
fn tmux_passthrough(sequence: &str) -> String {
    format!(
        "\u{1b}Ptmux;{}\u{1b}\\",
        sequence.replace('\u{1b}', "\u{1b}\u{1b}")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn environment(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.clone())
        }
    }

    #[test]
    fn osc9_carries_title_and_body() {
        assert_eq!(
            NotifyStyle::Osc9.sequence("quire", "#3 merged", false),
            Some("\u{1b}]9;quire: #3 merged\u{7}".to_string())
        );
    }

    #[test]
    fn osc777_keeps_its_fields_apart() {
        assert_eq!(
            NotifyStyle::Osc777.sequence("a;b", "c;d", false),
            Some("\u{1b}]777;notify;a,b;c,d\u{7}".to_string())
        );
    }

    #[test]
    fn server_text_cannot_end_the_sequence() {
        let sent = NotifyStyle::Osc9
            .sequence("quire", "evil\u{7}\u{1b}]52;c;aGk=\u{7}", false)
            .unwrap_or_default();
        assert_eq!(sent.matches('\u{1b}').count(), 1, "{sent:?}");
        assert_eq!(sent.matches('\u{7}').count(), 1, "{sent:?}");
    }

    #[test]
    fn inside_tmux_the_sequence_is_wrapped_and_its_escapes_doubled() {
        assert_eq!(
            NotifyStyle::Osc9.sequence("q", "x", true),
            Some("\u{1b}Ptmux;\u{1b}\u{1b}]9;q: x\u{7}\u{1b}\\".to_string())
        );
        assert_eq!(
            NotifyStyle::Bell.sequence("q", "x", true),
            Some("\u{7}".to_string())
        );
        assert_eq!(NotifyStyle::Off.sequence("q", "x", true), None);
    }

    #[test]
    fn the_terminal_decides_the_default() {
        let pick = |pairs: &[(&str, &str)]| NotifyStyle::for_terminal(environment(pairs));
        assert_eq!(pick(&[("TERM_PROGRAM", "iTerm.app")]), NotifyStyle::Osc9);
        assert_eq!(pick(&[("TERM", "xterm-kitty")]), NotifyStyle::Osc9);
        assert_eq!(pick(&[("WT_SESSION", "1")]), NotifyStyle::Osc9);
        assert_eq!(
            pick(&[("TERM", "rxvt-unicode-256color")]),
            NotifyStyle::Osc777
        );
        assert_eq!(pick(&[("TERM", "xterm-256color")]), NotifyStyle::Bell);
        assert_eq!(pick(&[]), NotifyStyle::Bell);
    }

    #[test]
    fn names_round_trip() {
        for name in NotifyStyle::NAMES {
            let style = NotifyStyle::parse(name).map(|style| style.to_string());
            assert_eq!(style.as_deref(), Some(name));
        }
        assert_eq!(NotifyStyle::parse("osc-9"), None);
    }
}

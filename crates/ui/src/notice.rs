//! One rule for every message quire shows ("Saved", "Reply posted", "Merging failed: …"), so a
//! message never flashes by on one screen and sticks forever on another:
//! - information stays at least [`Notice::MIN_VISIBLE`] and until the next key after that;
//! - an error stays until it is dismissed (`esc`) or acted on (the screen replaces or clears it).
//!
//! A notice only goes away on a key, never on a timer, so an idle quire still draws nothing.

use std::time::{Duration, Instant};

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::look::Look;
use crate::sanitize::sanitize;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
    shown_at: Instant,
}

impl Notice {
    /// How long information stays before a key may clear it: long enough to read a sentence
    /// even while typing fast.
    pub const MIN_VISIBLE: Duration = Duration::from_secs(4);

    pub fn info(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            error: false,
            shown_at: Instant::now(),
        }
    }

    pub fn error(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            error: true,
            shown_at: Instant::now(),
        }
    }

    /// A notice of either kind; `error` picks which.
    pub fn new(text: impl Into<String>, error: bool) -> Notice {
        if error {
            Notice::error(text)
        } else {
            Notice::info(text)
        }
    }

    /// The same notice as if it had been shown `age` ago: for tests of the rule.
    pub fn aged(mut self, age: Duration) -> Notice {
        self.shown_at = Instant::now().checked_sub(age).unwrap_or(self.shown_at);
        self
    }

    /// How the notice is drawn: red for an error, green for information.
    pub fn style(&self, theme: &crate::theme::Theme) -> ratatui::style::Style {
        theme.style(if self.error { "error" } else { "success" })
    }

    /// True when a key pressed at `now` should take this notice away.
    pub fn expires_on_key(&self, now: Instant) -> bool {
        !self.error && now.saturating_duration_since(self.shown_at) >= Notice::MIN_VISIBLE
    }
}

/// Applies the rule to a screen's notice slot when a key arrives. Call it before handling the
/// key, so a key that shows a new notice replaces the old one.
pub fn on_key(slot: &mut Option<Notice>) {
    if slot
        .as_ref()
        .is_some_and(|notice| notice.expires_on_key(Instant::now()))
    {
        *slot = None;
    }
}

/// `esc` dismisses an error first; returns true when it did (the key is then used up).
pub fn dismiss_error(slot: &mut Option<Notice>) -> bool {
    if slot.as_ref().is_some_and(|notice| notice.error) {
        *slot = None;
        return true;
    }
    false
}

/// `text` on one row of `width` cells. When it must be cut it ends with `… key`, `key` being
/// the one that shows it whole; a row too narrow for that is cut with a plain `…`.
pub fn fit(text: &str, width: usize, key: Option<&str>) -> String {
    if crate::text::width(text) <= width {
        return text.to_string();
    }
    let Some(key) = key else {
        return crate::text::truncate(text, width);
    };
    let tail = format!(" {key}");
    let room = width.saturating_sub(crate::text::width(&tail));
    // Fewer than a dozen cells of the message would say too little to be worth the hint.
    if room < 12 {
        return crate::text::truncate(text, width);
    }
    format!("{}{tail}", crate::text::truncate(text, room))
}

/// A message as one styled row of `width` cells: sanitized, and when cut it names the key that
/// shows it whole.
pub fn span(text: &str, width: u16, style: Style, look: &Look) -> Span<'static> {
    let key = look.message_key();
    Span::styled(
        fit(&sanitize(text), usize::from(width), key.as_deref()),
        style,
    )
}

/// A notice as one row of `width` cells, in its colour (see [`span`]).
pub fn row(notice: &Notice, width: u16, look: &Look) -> Line<'static> {
    Line::from(span(&notice.text, width, notice.style(look.theme), look))
}

/// The messages shown lately, newest last, so that one cut on screen, or gone already, can be
/// read whole (see `app::view::message_popup`). A message counts once however long it stays.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    shown: Vec<Notice>,
    /// The texts on screen at the last look, so a message staying there is not counted again.
    on_screen: Vec<String>,
}

impl History {
    /// How many messages are kept.
    const KEEP: usize = 20;

    /// The messages on screen now; those that were not on screen at the last look are added
    /// after every earlier one, among themselves in the order they were shown (the footer's
    /// message and the screen's come in no particular order).
    pub fn saw(&mut self, now: Vec<Notice>) {
        let mut new: Vec<&Notice> = now
            .iter()
            .filter(|notice| {
                !notice.text.trim().is_empty() && !self.on_screen.contains(&notice.text)
            })
            .collect();
        new.sort_by_key(|notice| notice.shown_at);
        for notice in new {
            self.shown.retain(|earlier| earlier.text != notice.text);
            self.shown.push(notice.clone());
        }
        let excess = self.shown.len().saturating_sub(History::KEEP);
        self.shown.drain(..excess);
        self.on_screen = now.into_iter().map(|notice| notice.text).collect();
    }

    pub fn newest_first(&self) -> impl Iterator<Item = &Notice> {
        self.shown.iter().rev()
    }

    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_message_ends_with_the_key_that_shows_it_whole() {
        let text = "Could not open a browser (no display); the address is copied instead";
        assert_eq!(fit(text, 100, Some("ctrl-g")), text);
        let cut = fit(text, 40, Some("ctrl-g"));
        assert_eq!(cut, "Could not open a browser (no dis… ctrl-g");
        assert_eq!(crate::text::width(&cut), 40);
        assert_eq!(fit(text, 15, Some("ctrl-g")), "Could not open…");
        assert_eq!(fit(text, 20, None), "Could not open a br…");
    }

    #[test]
    fn history_counts_a_message_once_while_it_stays_and_again_when_it_comes_back() {
        let mut history = History::default();
        history.saw(vec![Notice::error("Refused")]);
        history.saw(vec![Notice::error("Refused"), Notice::info("Saved")]);
        let texts: Vec<&str> = history.newest_first().map(|n| n.text.as_str()).collect();
        assert_eq!(texts, ["Saved", "Refused"]);
        history.saw(Vec::new());
        history.saw(vec![Notice::error("Refused")]);
        let texts: Vec<&str> = history.newest_first().map(|n| n.text.as_str()).collect();
        assert_eq!(texts, ["Refused", "Saved"]);
    }

    /// Two messages first seen at one look (the footer's and the screen's) are listed by the
    /// time each was shown, whichever way they were handed over.
    #[test]
    fn history_lists_messages_seen_together_by_the_time_they_were_shown() {
        for older_first in [true, false] {
            let older = Notice::info("Saved").aged(Duration::from_secs(3));
            let newer = Notice::error("Merging failed");
            let now = match older_first {
                true => vec![older, newer],
                false => vec![newer, older],
            };
            let mut history = History::default();
            history.saw(vec![Notice::info("Opened")]);
            history.saw(now);
            let texts: Vec<&str> = history.newest_first().map(|n| n.text.as_str()).collect();
            assert_eq!(
                texts,
                ["Merging failed", "Saved", "Opened"],
                "{older_first}"
            );
        }
    }

    #[test]
    fn information_stays_four_seconds_then_goes_with_the_next_key() {
        let mut slot = Some(Notice::info("Saved"));
        on_key(&mut slot);
        assert!(slot.is_some(), "a fresh message survives a key");
        let mut slot = Some(Notice::info("Saved").aged(Duration::from_secs(5)));
        on_key(&mut slot);
        assert!(slot.is_none(), "an old message goes with the next key");
    }

    #[test]
    fn errors_stay_until_dismissed() {
        let mut slot = Some(Notice::error("Merging failed").aged(Duration::from_secs(60)));
        on_key(&mut slot);
        assert!(slot.is_some());
        assert!(dismiss_error(&mut slot));
        assert!(slot.is_none());
        assert!(!dismiss_error(&mut slot));
    }
}

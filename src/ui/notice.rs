//! One rule for every message quire shows ("Saved", "Reply posted", "Merging failed: …"), so a
//! message never flashes by on one screen and sticks forever on another:
//! - information stays at least [`Notice::MIN_VISIBLE`] and until the next key after that;
//! - an error stays until it is dismissed (`esc`) or acted on (the screen replaces or clears it).
//!
//! A notice only goes away on a key, never on a timer, so an idle quire still draws nothing.

use std::time::{Duration, Instant};

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
    pub fn style(&self, theme: &crate::ui::theme::Theme) -> ratatui::style::Style {
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

#[cfg(test)]
mod tests {
    use super::*;

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

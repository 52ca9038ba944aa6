//! What a view is given to draw with: the colours, the key bindings (to name a key in a
//! sentence), the parsed pages, and where the config file is. Widgets take this, never the
//! app's model, so nothing drawn can reach into state it does not show.

use chrono::{DateTime, Utc};

use crate::keymap::{Action, KeyContext, Keymap};
use crate::markdown::docs::DocCache;
use crate::theme::Theme;
use crate::time::Clock;

#[derive(Clone, Copy)]
pub struct Look<'a> {
    pub theme: &'a Theme,
    pub keymap: &'a Keymap,
    pub docs: &'a DocCache,
    /// Shown where a sentence says how to set a token in the config file.
    pub config_path: &'a str,
    /// What "now" is for "3 h ago": the real clock, or a pinned one for pictures and tests.
    pub clock: Clock,
}

impl Look<'_> {
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// The key that shows a message whole, for a message cut short on screen.
    pub fn message_key(&self) -> Option<String> {
        self.keymap
            .label(&[KeyContext::Global], Action::ShowMessage)
    }
}

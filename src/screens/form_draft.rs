//! A form's unsaved values kept on disk as they change, like a comment being written: whatever
//! way the screen is left (a key, a signal, a lost terminal, a refused save), they are there to
//! be offered again.

use crate::screens::step::Step;
use crate::ui::keymap::{Action, KeyContext, Keymap};
use crate::vocabulary::Cmd;

/// The draft last written for one form, so only a change is written again.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DraftKeeper {
    written: Option<String>,
}

impl DraftKeeper {
    /// What brings the file under `key` in step with `now`, the form's draft as it stands:
    /// written when it changed, removed once nothing is left to keep.
    pub fn follow(&mut self, key: String, now: Option<String>) -> Cmd {
        if now == self.written {
            return Cmd::None;
        }
        self.written = now.clone();
        match now {
            Some(text) => Cmd::SaveDraft { key, text },
            None => Cmd::DiscardDraft { key },
        }
    }

    /// `text` was read back from the file: it is on disk already.
    pub fn found(&mut self, text: &str) {
        self.written = Some(text.to_string());
    }
}

/// `step` with `cmd` run after its own.
pub fn and_then(step: Option<Step>, cmd: Cmd) -> Option<Step> {
    match (step, cmd) {
        (step, Cmd::None) => step,
        (Some(mut step), cmd) => {
            step.cmd = Cmd::batch([std::mem::take(&mut step.cmd), cmd]);
            Some(step)
        }
        (None, cmd) => Some(Step::cmd(cmd)),
    }
}

/// What a form says once a draft from an earlier run is back in it, naming the user's keys.
pub fn restored_notice(keymap: &Keymap, what: &str) -> String {
    let key = |action| {
        keymap
            .label(&[KeyContext::Form], action)
            .unwrap_or_else(|| "its key".to_string())
    };
    format!(
        "Restored {what} from an earlier run — {} saves, {} drops.",
        key(Action::Save),
        key(Action::DropChanges)
    )
}

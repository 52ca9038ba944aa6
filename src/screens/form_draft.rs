//! A form's unsaved values kept on disk as they change, like a comment being written: whatever
//! way the screen is left (a key, a signal, a lost terminal, a refused save), they are there to
//! be offered again.

use std::collections::HashMap;

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

    /// The draft under `key` among those read back from disk, taken as [`Self::found`].
    pub fn find<'a>(&mut self, key: &str, drafts: &'a [(String, String)]) -> Option<&'a String> {
        let (_, text) = drafts.iter().find(|(found, _)| found == key)?;
        self.found(text);
        Some(text)
    }
}

/// The drafts of a screen's forms of one kind (one a provider, one a direction …) by key:
/// found on disk or written since, each offered again when its form opens, and the open
/// form's kept in step with it as it changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeptDrafts {
    kept: HashMap<String, String>,
    open: DraftKeeper,
}

impl KeptDrafts {
    /// The draft kept under `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.kept.get(key)
    }

    /// The form under `key` opens: its kept draft, if any, to put back into it.
    pub fn open(&mut self, key: &str) -> Option<String> {
        self.open = DraftKeeper::default();
        let text = self.kept.get(key).cloned()?;
        self.open.found(&text);
        Some(text)
    }

    /// What keeps the open form's draft under `key` in step with `now`, its draft as it stands.
    pub fn follow(&mut self, key: String, now: Option<String>) -> Cmd {
        match &now {
            Some(text) => self.kept.insert(key.clone(), text.clone()),
            None => self.kept.remove(&key),
        };
        self.open.follow(key, now)
    }

    /// The form under `key` was sent or saved: its draft goes from here and from disk.
    pub fn discard(&mut self, key: String) -> Cmd {
        self.kept.remove(&key);
        self.open = DraftKeeper::default();
        Cmd::DiscardDraft { key }
    }

    /// Drafts read back from disk: those whose key starts with `prefix` are kept. Says
    /// whether there was one.
    pub fn found(&mut self, prefix: &str, drafts: &[(String, String)]) -> bool {
        let mut any = false;
        for (key, text) in drafts.iter().filter(|(key, _)| key.starts_with(prefix)) {
            self.kept.insert(key.clone(), text.clone());
            any = true;
        }
        any
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

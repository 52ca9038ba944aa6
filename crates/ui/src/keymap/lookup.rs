//! Asking the keymap: the action a key sends, and the keys of an action for the footer hints
//! and the `?` help.

use ratatui::crossterm::event::KeyEvent;

use super::{Action, KeyCombo, KeyContext, Keymap};

impl Keymap {
    /// The first action bound to `key` in the given contexts, searched in order.
    pub fn action_for(&self, contexts: &[KeyContext], key: &KeyEvent) -> Option<Action> {
        let combo = KeyCombo::from_event(key);
        contexts.iter().find_map(|context| {
            self.bindings
                .iter()
                .find(|b| b.context == *context && b.key == combo)
                .map(|b| b.action)
        })
    }

    /// True when `key` starts a two-key sequence in these contexts.
    pub fn starts_sequence(&self, contexts: &[KeyContext], key: &KeyEvent) -> bool {
        let combo = KeyCombo::from_event(key);
        self.sequences
            .iter()
            .any(|s| contexts.contains(&s.context) && s.first == combo)
    }

    /// The action of `first` then `second`, searched in the contexts' order.
    pub fn sequence_action(
        &self,
        contexts: &[KeyContext],
        first: KeyCombo,
        second: &KeyEvent,
    ) -> Option<Action> {
        let second = KeyCombo::from_event(second);
        contexts.iter().find_map(|context| {
            self.sequences
                .iter()
                .find(|s| s.context == *context && s.first == first && s.second == second)
                .map(|s| s.action)
        })
    }

    /// What may follow a pending first key, for the footer: ("]c", help) pairs.
    pub fn sequences_after(
        &self,
        contexts: &[KeyContext],
        first: KeyCombo,
    ) -> Vec<(String, &'static str)> {
        self.sequences
            .iter()
            .filter(|s| contexts.contains(&s.context) && s.first == first)
            .map(|s| (format!("{}{}", s.first, s.second), s.action.help()))
            .collect()
    }

    fn sequence_labels(&self, contexts: &[KeyContext], action: Action) -> Vec<String> {
        self.sequences
            .iter()
            .filter(|s| s.action == action && contexts.contains(&s.context))
            .map(|s| format!("{}{}", s.first, s.second))
            .collect()
    }

    /// Keys bound to an action in the given contexts, for hints ("j/↓").
    pub fn keys_for(&self, contexts: &[KeyContext], action: Action) -> Vec<KeyCombo> {
        let mut keys = Vec::new();
        for binding in &self.bindings {
            if binding.action == action
                && contexts.contains(&binding.context)
                && !keys.contains(&binding.key)
            {
                keys.push(binding.key);
            }
        }
        keys
    }

    /// The first key label of an action, for a footer hint; None when unbound.
    pub fn label(&self, contexts: &[KeyContext], action: Action) -> Option<String> {
        self.keys_for(contexts, action)
            .first()
            .map(|k| k.to_string())
            .or_else(|| self.sequence_labels(contexts, action).into_iter().next())
    }

    /// Every (keys, description) pair for the help overlay, grouped by action.
    pub fn help_rows(&self, contexts: &[KeyContext]) -> Vec<(String, &'static str)> {
        let mut rows = Vec::new();
        for action in Action::ALL {
            let keys = self.keys_for(contexts, *action);
            let mut labels: Vec<String> = keys.iter().map(ToString::to_string).collect();
            labels.extend(self.sequence_labels(contexts, *action));
            if !labels.is_empty() {
                rows.push((labels.join(" "), action.help()));
            }
        }
        rows
    }
}

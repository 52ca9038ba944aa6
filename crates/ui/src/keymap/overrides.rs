//! Rebinding from the config file's `[keys]` table.

use std::collections::HashMap;

use super::{Action, Binding, KeyCombo, KeyContext, Keymap};

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum KeymapError {
    #[error("[keys]: unknown action `{0}`")]
    UnknownAction(String),
    #[error("[keys]: cannot read key `{key}` for `{action}`")]
    UnknownKey { action: String, key: String },
}

impl Keymap {
    /// Rebinds actions from the config file's `[keys]` table: `action = ["key", …]` replaces every
    /// key of that action in every context where it was bound.
    pub fn apply_overrides(
        &mut self,
        overrides: &HashMap<String, Vec<String>>,
    ) -> Result<(), KeymapError> {
        for (name, keys) in overrides {
            let action =
                Action::from_name(name).ok_or_else(|| KeymapError::UnknownAction(name.clone()))?;
            let combos = keys
                .iter()
                .map(|key| {
                    KeyCombo::parse(key).ok_or_else(|| KeymapError::UnknownKey {
                        action: name.clone(),
                        key: key.clone(),
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let mut contexts: Vec<KeyContext> = self
                .bindings
                .iter()
                .filter(|b| b.action == action)
                .map(|b| b.context)
                .collect();
            contexts.dedup();
            self.bindings.retain(|b| b.action != action);
            for context in contexts {
                for key in &combos {
                    self.bindings.insert(
                        0,
                        Binding {
                            context,
                            key: *key,
                            action,
                        },
                    );
                }
            }
        }
        Ok(())
    }
}

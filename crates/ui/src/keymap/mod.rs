//! Raw keys become semantic actions through one table. Screens match on `Action`; the footer
//! hints and the `?` help are generated from the same table, and the config file can rebind.

mod action;
mod bindings;
mod combo;
mod context;
mod lookup;
mod overrides;
#[cfg(test)]
mod tests;

pub use action::Action;
pub use combo::KeyCombo;
pub use context::KeyContext;
pub use overrides::KeymapError;

#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub context: KeyContext,
    pub key: KeyCombo,
    pub action: Action,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    bindings: Vec<Binding>,
    /// Two-key sequences ("]c"): the first key waits, shown in the footer, for the second.
    sequences: Vec<Sequence>,
}

/// A binding of two keys pressed one after the other.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    pub context: KeyContext,
    pub first: KeyCombo,
    pub second: KeyCombo,
    pub action: Action,
}

//! A value an answer hands over to the screen that asked for it.
//!
//! Screens see answers by reference (the same message can matter to several of them), so a
//! screen that keeps a big value from an answer would have to copy it: for a 10,000-page tree,
//! a second tree at the moment memory is highest. A [`Handoff`] lets that screen take the value
//! out instead; whoever looks after it finds it gone.

use std::fmt;
use std::sync::{Arc, Mutex};

pub struct Handoff<T>(Arc<Mutex<Option<T>>>);

impl<T> Handoff<T> {
    pub fn new(value: T) -> Self {
        Handoff(Arc::new(Mutex::new(Some(value))))
    }

    /// The value, the first time only.
    pub fn take(&self) -> Option<T> {
        self.0.lock().ok()?.take()
    }
}

// Not derived: a derive would ask the same of `T`, and a clone shares the one value.
impl<T> Clone for Handoff<T> {
    fn clone(&self) -> Self {
        Handoff(Arc::clone(&self.0))
    }
}

/// Two handoffs are equal when they hand over the same value.
impl<T> PartialEq for Handoff<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> fmt::Debug for Handoff<T> {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        let there = self.0.lock().is_ok_and(|value| value.is_some());
        write!(
            formatter,
            "Handoff({})",
            if there { "waiting" } else { "taken" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_value_is_taken_once_and_clones_share_it() {
        let handoff = Handoff::new(vec![1, 2, 3]);
        let copy = handoff.clone();
        assert_eq!(copy, handoff);
        assert_eq!(copy.take(), Some(vec![1, 2, 3]));
        assert_eq!(handoff.take(), None);
        assert_ne!(Handoff::new(1), Handoff::new(1));
    }
}

//! Remote data as the screen sees it: not asked, loading, loaded or failed — keeping the last
//! good value while a reload is in flight so the screen never blanks on refresh.

use std::cell::Cell;

use crate::api::ApiError;

thread_local! {
    static PROVISIONAL: Cell<bool> = const { Cell::new(false) };
}

/// Applies answers taken from the cache while the server is still asked: a value settled
/// inside `apply` is shown, but its request stays awaited, so the server's answer to the same
/// request replaces it (and an error of the cache is not shown at all). Only where nothing is
/// shown yet: a reload (after a write, say) keeps what is on screen until the server answers,
/// rather than flash back to an older copy.
pub fn provisionally<R>(apply: impl FnOnce() -> R) -> R {
    PROVISIONAL.with(|flag| flag.set(true));
    let result = apply();
    PROVISIONAL.with(|flag| flag.set(false));
    result
}

/// True while [`provisionally`] applies a cached answer.
pub fn is_provisional() -> bool {
    PROVISIONAL.with(Cell::get)
}

/// Every API call carries one; a result whose id is not the one its screen waits for is dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(pub u64);

#[derive(Debug, Clone, PartialEq, Default)]
pub enum Loadable<T> {
    #[default]
    NotAsked,
    Loading {
        request: RequestId,
        previous: Option<T>,
    },
    Loaded(T),
    Failed {
        error: ApiError,
        previous: Option<T>,
    },
}

impl<T> Loadable<T> {
    /// Starts (or restarts) loading, keeping whatever value there was.
    pub fn start(&mut self, request: RequestId) {
        let previous = std::mem::take(self).into_value();
        *self = Loadable::Loading { request, previous };
    }

    /// Applies a result if it is the one this value waits for. Returns false for a stale result.
    pub fn settle(&mut self, request: RequestId, result: Result<T, ApiError>) -> bool {
        if self.waiting_for() != Some(request) {
            return false;
        }
        if is_provisional() {
            if self.value().is_some() {
                return false;
            }
            if let Ok(value) = result {
                *self = Loadable::Loading {
                    request,
                    previous: Some(value),
                };
            }
            return true;
        }
        let previous = std::mem::take(self).into_value();
        *self = match result {
            Ok(value) => Loadable::Loaded(value),
            Err(error) => Loadable::Failed { error, previous },
        };
        true
    }

    pub fn waiting_for(&self) -> Option<RequestId> {
        match self {
            Loadable::Loading { request, .. } => Some(*request),
            _ => None,
        }
    }

    pub fn is_loading(&self) -> bool {
        matches!(self, Loadable::Loading { .. })
    }

    /// The current or last good value.
    pub fn value(&self) -> Option<&T> {
        match self {
            Loadable::Loaded(value) => Some(value),
            Loadable::Loading { previous, .. } | Loadable::Failed { previous, .. } => {
                previous.as_ref()
            }
            Loadable::NotAsked => None,
        }
    }

    pub fn value_mut(&mut self) -> Option<&mut T> {
        match self {
            Loadable::Loaded(value) => Some(value),
            Loadable::Loading { previous, .. } | Loadable::Failed { previous, .. } => {
                previous.as_mut()
            }
            Loadable::NotAsked => None,
        }
    }

    pub fn error(&self) -> Option<&ApiError> {
        match self {
            Loadable::Failed { error, .. } => Some(error),
            _ => None,
        }
    }

    fn into_value(self) -> Option<T> {
        match self {
            Loadable::Loaded(value) => Some(value),
            Loadable::Loading { previous, .. } | Loadable::Failed { previous, .. } => previous,
            Loadable::NotAsked => None,
        }
    }
}

//! Remote data as the screen sees it: not asked, loading, loaded or failed — keeping the last
//! good value while a reload is in flight so the screen never blanks on refresh.

use crate::api::ApiError;

/// Whether an answer settles its request. A provisional one comes from the cache while the
/// server is still asked: a value settled from it is shown, but its request stays awaited, so
/// the server's answer to the same request replaces it (and an error of the cache is not shown
/// at all). Only where nothing is shown yet: a reload (after a write, say) keeps what is on
/// screen until the server answers, rather than flash back to an older copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AnswerKind {
    /// The server's answer, or the cache's standing in for it while the server cannot be
    /// reached.
    #[default]
    Final,
    /// The cache's answer while the server's to the same request is still awaited.
    Provisional,
}

impl AnswerKind {
    pub fn is_provisional(self) -> bool {
        self == AnswerKind::Provisional
    }
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

    /// Applies a final result if it is the one this value waits for. Returns false for a stale
    /// result.
    pub fn settle(&mut self, request: RequestId, result: Result<T, ApiError>) -> bool {
        self.settle_as(request, result, AnswerKind::Final)
    }

    /// [`Loadable::settle`] for an answer of either kind: a provisional one shows a value only
    /// where there is none yet, and keeps the request awaited.
    pub fn settle_as(
        &mut self,
        request: RequestId,
        result: Result<T, ApiError>,
        kind: AnswerKind,
    ) -> bool {
        if self.waiting_for() != Some(request) {
            return false;
        }
        if kind.is_provisional() {
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

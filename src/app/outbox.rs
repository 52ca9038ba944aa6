//! The outbox screen's calls and results, joined to the core through `ApiCall::Outbox` and
//! `ApiResponse::Outbox`. Results carry plain text for failures: the outbox's own errors are
//! not comparable, and the screen only shows them.

use crate::api::outbox::Queued;

#[derive(Debug, Clone, PartialEq)]
pub enum OutboxCall {
    /// Every queued write, oldest first.
    List,
    /// Sends these writes, each read back first when its outcome was unknown.
    Send { ids: Vec<i64> },
    /// Takes one write out without sending it.
    Drop { id: i64 },
}

/// What became of one write the user chose to send.
#[derive(Debug, Clone, PartialEq)]
pub enum SendOutcome {
    Sent,
    AlreadyThere,
    /// Still in the outbox, with the reason in words.
    Kept(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum OutboxResponse {
    /// The queued writes; `Err` says why the outbox could not be read (none without a cache).
    Listed(Result<Vec<Queued>, String>),
    Sent(Vec<(i64, SendOutcome)>),
    Dropped(Result<bool, String>),
}

//! Request ids: every API call and timer gets a fresh one, so a late answer is told apart.

use super::RequestId;

/// Hands out request ids; every API call gets a fresh one.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RequestIds {
    last: u64,
}

impl RequestIds {
    pub fn issue(&mut self) -> RequestId {
        self.last += 1;
        RequestId(self.last)
    }
}

//! The big demo at scale: the 1 MB page, the 2,000-thread change request and the
//! 10,000-page tree, through the real sandbox.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

#[path = "../common/mod.rs"]
mod common;

mod page;
mod review;
mod tree;

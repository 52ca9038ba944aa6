//! Property tests: any markdown renders, every model decodes whatever shape the server
//! sends, and what quire writes to the terminal is what a terminal shows.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

#[path = "../common/mod.rs"]
mod common;

mod markdown;
mod models;
mod output_vt100;

//! Property tests: any markdown renders, every model decodes whatever shape the server
//! sends, and what quire writes to the terminal is what a terminal shows.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/mod.rs"]
mod common;

mod markdown;
mod models;
mod output_vt100;

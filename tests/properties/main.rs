//! Property tests: any markdown renders, every model decodes whatever shape the server
//! sends, and what quire writes to the terminal is what a terminal shows.

#[path = "../common/mod.rs"]
mod common;

mod markdown;
mod models;
mod output_vt100;

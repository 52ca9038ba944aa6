//! Layer 4: the built binary in a pseudo-terminal against the sandbox, a module per area.
//! Every wait is for text on the screen, never a fixed sleep.

#[path = "../common/mod.rs"]
mod common;

mod admin;
mod basics;
mod change_requests;
mod cli_docs;
mod clusters;
mod content;
mod editor;
mod hostile;
mod looks;
mod no_color;
mod palette;
mod people;
mod reader;
mod review;
mod review_since;
mod reviewflow;
mod search;
mod sites;
mod translations;

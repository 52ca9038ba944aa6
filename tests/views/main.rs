//! Layer 2: what each screen draws, as insta snapshots at 80x24 and 40x12, a module per area.

#[path = "../common/mod.rs"]
mod common;

mod admin;
mod change_requests;
mod clusters;
mod collections;
mod git;
mod looks;
mod palette;
mod people;
mod reader;
mod review;
mod review_diff;
mod review_lists;
mod reviewflow;
mod screens;
mod search;
mod sites;
mod spaces;
mod translations;

//! Layer 2: what each screen draws, as insta snapshots at 80x24 and 40x12, a module per area.

#[path = "../common/mod.rs"]
mod common;

mod change_requests;
mod collections;
mod conversations;
mod git;
mod integrations;
mod looks;
mod members;
mod messages;
mod offline;
mod openapi;
mod org_settings;
mod palette;
mod reader;
mod review;
mod review_diff;
mod review_lists;
mod reviewflow;
mod screens;
mod search;
mod sites;
mod spaces;
mod sso;
mod teams;
mod translations;

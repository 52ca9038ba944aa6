//! Layer 2: what each screen draws, as insta snapshots at 80x24 and 40x12, a module per area.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

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
mod screens;
mod search;
mod sites;
mod spaces;
mod sso;
mod teams;
mod translations;

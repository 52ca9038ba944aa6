//! Layer 3, the client: the real `api::Client` (and the runtime's calls) against the real
//! sandbox on a loopback port, a module per API area.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

#[path = "../common/mod.rs"]
mod common;

mod basics;
mod bodies;
mod cache;
mod capabilities;
mod change_requests;
mod collections;
mod conversations;
mod cross_check;
mod faults;
mod git;
mod home;
mod integrations;
mod load;
mod members;
mod openapi;
mod org_settings;
mod outbox;
mod read_back;
mod search;
mod sites;
mod spaces;
mod sso;
mod table_cells;
mod teams;
mod translations;
mod writes;

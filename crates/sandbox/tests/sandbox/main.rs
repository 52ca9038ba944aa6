//! The sandbox against the API's contract in plain HTTP: field names, status codes, the list
//! envelope and each area's rules, a module per API area.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

mod http;

mod change_requests;
mod collections;
mod contract;
mod conversations;
mod demo_activity;
mod git;
mod integrations;
mod members;
mod openapi;
mod org_settings;
mod organization_change_requests;
mod search;
mod sites;
mod spaces;
mod sso;
mod teams;
mod templates;
mod translations;

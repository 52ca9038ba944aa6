//! Layer 1: `update` on its own (keys and answers in, state and commands out), a module per
//! area; and layer 3, the real loop (`runtime::run`) on a test backend against the sandbox
//! (`app_loop`, `faults_loop`).

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

#[path = "../common/mod.rs"]
mod common;

mod action_log;
mod app_loop;
mod basics;
mod capabilities;
mod change_requests;
mod collections;
mod conversations;
mod faults_loop;
mod git;
mod home;
mod integrations;
mod integrations_publish;
mod members;
mod messages;
mod offline;
mod openapi;
mod org_settings;
mod outbox;
mod palette;
mod pane_failures;
mod profiles;
mod reader;
mod scale;
mod search;
mod site_create;
mod sites;
mod spaces;
mod sso;
mod teams;
mod templates;
mod translations;
mod upgrade;

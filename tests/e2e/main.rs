//! Layer 4: the built binary in a pseudo-terminal against the sandbox, a module per area.
//! Every wait is for text on the screen, never a fixed sleep.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

#[path = "../common/mod.rs"]
mod common;

mod action_log;
mod basics;
mod binary_layout;
mod change_requests;
mod cli_api;
mod cli_auth;
mod cli_checks;
mod cli_cr;
mod cli_docs;
mod cli_fields;
mod cli_lists;
mod cli_requests;
mod cli_space_view;
mod cli_status;
mod cli_watch;
mod content;
mod conversations;
mod damaged_cache;
mod diff_comments;
mod editor;
mod full_disk;
mod highlight_process;
mod highlight_worker;
mod highlight_worker_memory;
mod home;
mod hostile;
mod integrations;
mod looks;
mod lost_answers;
mod no_color;
mod offline;
mod org_settings;
mod outbox;
mod outbox_processes;
mod palette;
mod public_service;
mod reader;
mod review;
mod review_since;
mod reviewflow;
mod search;
mod sites;
mod startup;
mod teams;
mod translations;
mod upgrade;

//! Command-line subcommands beside the TUI, one file per subcommand group. Each runs on the same
//! `api::Client` as the screens and writes to the streams it is given, so tests can read them.
//! [`start`] is what the `quire` binary runs; [`usage`] is how a mistake in starting it is told.

pub mod api;
pub mod auth;
pub mod cache;
pub mod change_requests;
pub mod conversations;
pub mod docs;
pub mod integrations;
pub mod listing;
pub mod looks;
pub mod lost_answers;
pub mod names;
pub mod org;
pub mod outbox;
pub mod output;
pub mod page;
pub mod script;
pub mod search;
pub mod serve;
pub mod signin;
pub mod space;
pub mod start;
pub mod status;
pub mod usage;

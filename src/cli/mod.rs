//! Command-line subcommands beside the TUI, one file per subcommand group. Each runs on the same
//! `api::Client` as the screens and writes to the streams it is given, so tests can read them.

pub mod conversations;
pub mod docs;
pub mod integrations;

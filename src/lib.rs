//! quire: a keyboard-first terminal client for a documentation platform's REST API.
//!
//! The module tree: `api` is the HTTP client and knows nothing of terminals; `sandbox` is an
//! independent in-memory server speaking the same API; `app` holds the Elm-style model/update;
//! `screens` and `ui` draw; `runtime` runs the loop and carries out API calls
//! (`runtime::calls::<area>`); `cli` holds the subcommands beside the TUI.

pub use quire_api as api;
pub mod app;
pub mod cli;
pub mod config;
pub mod editor_leftovers;
pub mod editor_process;
pub mod headless;
pub mod notification;
pub mod output;
pub mod paths;
pub mod runtime;
pub use quire_sandbox as sandbox;
pub mod screens;
pub mod screenshots;
pub mod terminal;
pub mod token_store;
pub mod vocabulary;
pub use quire_ui as ui;

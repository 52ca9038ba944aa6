//! The Elm-style core: `Model` holds everything on screen, `update` applies one `Msg` and returns
//! a `Cmd` describing side effects. Nothing here touches the network or the terminal.

pub mod capabilities;
pub mod collections;
pub mod command;
pub mod drafts;
pub mod git;
pub mod handoff;
pub mod loadable;
pub mod message;
pub mod offline;
pub mod outbox;
pub mod paged;
pub mod review_calls;
pub mod sites;
// Finding things: search, links and backlinks, files.
pub mod files;
pub mod links;
pub mod members;
pub mod search;
pub mod spaces;
pub mod teams;

pub mod org_settings;
pub mod sso;

pub mod openapi;
pub mod translations;

pub mod conversations;
pub mod integrations;
pub mod review_memory;
pub mod upgrade;
pub mod view;

pub mod mouse;
pub mod palette;
pub mod reader_links;

pub mod action_log;
pub mod watch;

// The core itself: the model, messages applied to it, and what screens get and give back.
mod model;
mod overlay;
mod palette_keys;
mod requests;
mod step;
mod update;

pub use crate::ui::keymap::{self, Action, KeyContext, Keymap};
pub use crate::ui::markdown::docs::{self, DocCache};
pub use command::{ApiCall, Cmd, DocHandle, DocKey};
pub use loadable::{AnswerKind, Loadable, RequestId};
pub use message::{ApiResponse, Msg, OrganizationTree};
pub use model::{Environment, Model, ReviewCache, Size};
pub use overlay::Overlay;
pub use requests::RequestIds;
pub use step::{Ctx, Nav, Step, move_selection};
pub(crate) use update::run_action;
pub use update::update;

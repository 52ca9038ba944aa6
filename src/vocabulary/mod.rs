//! The words the app, the screens and the runtime share: messages (`Msg`), commands (`Cmd`),
//! each area's calls and answers (`<area>.rs`: `<Area>Call`, whose `writes()` says whether it
//! writes, and `<Area>Response`), values that load (`Loadable`, `PagedList`), and what a
//! session keeps (the action log, drafts, what a review showed last time). Plain data: nothing
//! here knows a screen, the model or the network.

pub mod action_log;
pub mod capabilities;
pub mod change_requests;
pub mod collections;
pub mod command;
pub mod conversations;
pub mod drafts;
pub mod files;
pub mod git;
pub mod handoff;
pub mod home;
pub mod integrations;
pub mod links;
pub mod loadable;
pub mod members;
pub mod message;
pub mod openapi;
pub mod org_settings;
pub mod outbox;
pub mod paged;
pub mod reader_links;
pub mod requests;
pub mod search;
pub mod sites;
pub mod spaces;
pub mod sso;
pub mod teams;
pub mod translations;
pub mod upgrade;
pub mod watch;

pub use change_requests::ReviewCache;
pub use command::{ApiCall, Cmd, DocHandle, DocKey};
pub use loadable::{AnswerKind, Loadable, RequestId};
pub use message::{ApiResponse, Msg, OrganizationTree, Size};
pub use requests::RequestIds;

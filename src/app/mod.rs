//! The app: the `Model` that holds the screens, `update` that routes each message to the
//! screen (or the overlay, the palette, the outbox) it is for, and the app's own view around
//! the screens (`view`). What messages, commands and calls are is said below it, in
//! `crate::vocabulary`, so screens speak it without knowing the app.

pub mod mouse;
pub mod offline;
pub mod outbox;
pub mod palette;
pub mod view;

mod model;
mod overlay;
mod palette_keys;
mod palette_tabs;
mod routes;
mod update;
mod watch_marks;

pub use crate::screens::step::{Ctx, Nav, Step, move_selection};
pub use crate::ui::keymap::{self, Action, KeyContext, Keymap};
pub use crate::ui::markdown::docs::{self, DocCache};
pub use crate::vocabulary::{
    AnswerKind, ApiCall, ApiResponse, Cmd, DocHandle, DocKey, Loadable, Msg, OrganizationTree,
    RequestId, RequestIds, ReviewCache, Size,
};
pub use model::{Environment, Model};
pub use overlay::Overlay;
pub(crate) use update::run_action;
pub use update::{Updated, update, update_noting_change};

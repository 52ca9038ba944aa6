//! The app's own view: the header and footer around the top screen, the overlays (help, the
//! message history) and the command palette. Screens draw their own bodies.

pub mod chrome;
pub mod message_popup;
pub mod palette;

//! The organization's Members tab: the list with the server's filters and a member's details
//! ([`tab`]), the admin's changes to a member ([`changes`]), and its drawing ([`view`]).

pub mod changes;
pub mod tab;
mod view;

pub use changes::{Change, Modal};
pub use tab::{Details, MembersTab};

//! The organization's Members tab: the list with the server's filters, a member's details and
//! the admin's changes ([`tab`]), and its drawing ([`view`]).

pub mod tab;
mod view;

pub use tab::MembersTab;

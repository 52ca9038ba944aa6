//! Carrying out `ApiCall`s: one file per API area, each turning that area's call (plain data from
//! `update`) into client requests and the area's response `Msg`. The only place besides `cli`
//! where the network is reached.

/// Pages of a list read whole to pick from (members, organizations) before the picker opens
/// on what was read and says "stopped after N pages": twenty thousand entries is more than
/// anyone picks from, and an endless list then costs a second, not a minute.
pub const PICKER_PAGES: usize = 20;

pub mod change_requests;
pub mod collections;
pub mod conversations;
pub mod files;
pub mod git;
pub mod home;
pub mod integrations;
pub mod links;
pub mod members;
pub mod openapi;
pub mod org_settings;
pub mod organizations;
pub mod outbox;
pub mod pages;
pub mod queue;
pub mod reader_links;
pub mod search;
pub mod sites;
pub mod spaces;
pub mod sso;
pub mod teams;
pub mod translations;

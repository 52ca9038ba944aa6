//! Layer 3, the client: the real `api::Client` (and the runtime's calls) against the real
//! sandbox on a loopback port, a module per API area.

#[path = "../common/mod.rs"]
mod common;

mod admin;
mod basics;
mod change_requests;
mod clusters;
mod collections;
mod faults;
mod git;
mod load;
mod people;
mod search;
mod sites;
mod spaces;
mod translations;

//! The sandbox against the API's contract in plain HTTP: field names, status codes, the list
//! envelope and each area's rules, a module per API area.

#[path = "../common/mod.rs"]
mod common;

mod admin;
mod change_requests;
mod clusters;
mod collections;
mod contract;
mod git;
mod people;
mod search;
mod sites;
mod spaces;
mod translations;

//! The roles members hold on collections apart from their organization role.

use crate::model::Role;

/// Roles on collections that differ from the organization role, and the number behind the
/// next created collection's id.
#[derive(Clone, Debug, Default)]
pub struct ContentAccess {
    pub overrides: Vec<RoleOverride>,
    created: u64,
}

/// `user` holds `role` on `collection` and on everything inside it.
#[derive(Clone, Debug)]
pub struct RoleOverride {
    pub collection: String,
    pub user: String,
    pub role: Role,
}

impl ContentAccess {
    pub fn next_number(&mut self) -> u64 {
        self.created += 1;
        self.created
    }
}

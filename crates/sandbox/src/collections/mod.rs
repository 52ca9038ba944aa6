//! Collections: create, rename, describe, set the default level, delete, and the
//! roles a member holds on one collection (and everything inside it) apart from their role in
//! the organization, from which every collection's and space's `permissions` are computed.
//!
//! It meets the rest of the sandbox at four points: the `content_access` field of the world,
//! the router merge, the role used by the renderer, and the demo data.

pub(crate) mod routes;

pub(crate) mod state;
pub(crate) use state::RoleOverride;

use super::model::Role;
use super::world::World;

/// Deeper than any real nesting: a cycle in the data cannot make the walk endless.
const MAX_DEPTH: usize = 64;

/// The role `user` holds on content inside `collection` (`None` = the organization's top
/// level): the nearest override on the collection or one of its ancestors, else the
/// organization role; `None` for someone outside the organization.
pub(crate) fn content_role(
    world: &World,
    organization: &str,
    user: &str,
    collection: Option<&str>,
) -> Option<Role> {
    let mut current = collection.map(str::to_string);
    for _ in 0..MAX_DEPTH {
        let Some(id) = current else { break };
        if let Some(found) = world
            .content_access
            .overrides
            .iter()
            .find(|entry| entry.collection == id && entry.user == user)
        {
            return Some(found.role);
        }
        current = world.collection(&id).and_then(|c| c.parent.clone());
    }
    world.role_in(organization, user)
}

/// The ids of `collection` and every collection nested in it.
pub(crate) fn subtree(world: &World, collection: &str) -> Vec<String> {
    let mut ids = vec![collection.to_string()];
    let mut index = 0;
    while let Some(parent) = ids.get(index).cloned() {
        for child in &world.collections {
            if child.parent.as_deref() == Some(parent.as_str()) && !ids.contains(&child.id) {
                ids.push(child.id.clone());
            }
        }
        index += 1;
    }
    ids
}

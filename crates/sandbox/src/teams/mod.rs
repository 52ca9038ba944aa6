//! Teams and team members. Only admins change teams; a team's owners may also
//! change that team's members (the seed's `owner` role: "can manage team members"). A user
//! both added and removed in one bulk update ends up removed (the seed's rule).

mod demo;
mod routes;

pub(crate) use demo::populate;
pub(crate) use routes::router;

pub(crate) mod state;
pub(crate) use state::{Seat, Team};

use serde_json::{Value, json};

use super::model::Role;
use super::world::World;

impl Team {
    /// True when `user` may change this team's members: an organization admin or an owner.
    pub fn manageable_by(&self, world: &World, user: &str) -> bool {
        world.role_in(&self.organization, user) == Some(Role::Admin)
            || self.seat(user).is_some_and(|seat| seat.owner)
    }

    pub fn json(&self, world: &World, caller: &str) -> Value {
        json!({
            "object": "team",
            "id": self.id,
            "title": self.title,
            "members": self.seats.len(),
            "spaces": self.spaces,
            "createdAt": self.created_at,
            "permissions": {
                "admin": self.manageable_by(world, caller),
                "view": true,
            },
        })
    }
}

/// Keeps every membership's `teams` count equal to the teams it sits in.
pub(crate) fn recount(world: &mut World) {
    let counts: Vec<u32> = world
        .memberships
        .iter()
        .map(|membership| {
            world
                .teams
                .of_member(&membership.organization, &membership.user)
                .count() as u32
        })
        .collect();
    for (membership, count) in world.memberships.iter_mut().zip(counts) {
        membership.teams = count;
    }
}

//! Fifty more people in Acme Robotics, so that paging, search and sorting of the members list
//! have something to show: every role and guests, some disabled, most on SSO, a few never seen.

use crate::demo::dates::timestamp;
use crate::demo::ids;
use crate::model::{Membership, Role, User};
use crate::world::World;

const GENERATED: usize = 50;

const FIRST_NAMES: [&str; 25] = [
    "Aiko", "Bruno", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hugo", "Ilse", "Jamal",
    "Kirsten", "Luca", "Maya", "Nikolai", "Olga", "Pedro", "Quinn", "Rosa", "Samir", "Tessa",
    "Umar", "Vera", "Wen", "Ximena", "Yusuf",
];

const LAST_NAMES: [&str; 20] = [
    "Andersen",
    "Bianchi",
    "Costa",
    "Dubois",
    "Eriksen",
    "Fischer",
    "García",
    "Horvat",
    "Ivanova",
    "Jensen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Novak",
    "Ortiz",
    "Petrov",
    "Quist",
    "Rahman",
    "Silva",
    "Tanaka",
];

/// The id of generated person `index` (0-based), for teams that include them.
pub(crate) fn demo_member_id(index: usize) -> String {
    format!("usr-acme-{:02}", index + 1)
}

fn role_of(index: usize) -> Option<Role> {
    const CYCLE: [Option<Role>; 10] = [
        Some(Role::Read),
        Some(Role::Edit),
        Some(Role::Comment),
        Some(Role::Read),
        Some(Role::Review),
        Some(Role::Create),
        None,
        Some(Role::Edit),
        Some(Role::Read),
        Some(Role::Admin),
    ];
    CYCLE[index % CYCLE.len()]
}

pub(crate) fn populate(world: &mut World) {
    for index in 0..GENERATED {
        let first = FIRST_NAMES[index % FIRST_NAMES.len()];
        let last = LAST_NAMES[(index / FIRST_NAMES.len() + index) % LAST_NAMES.len()];
        let role = role_of(index);
        let domain = if role.is_none() {
            "contractors.example"
        } else {
            "acme-robotics.example"
        };
        let id = demo_member_id(index);
        world.users.push(User {
            id: id.clone(),
            display_name: format!("{first} {last}"),
            email: format!("{}.{}@{domain}", first.to_lowercase(), ascii(last)),
            photo_url: None,
        });
        let minutes = index as u32 * 53;
        world.memberships.push(Membership {
            organization: ids::ACME.to_string(),
            user: id,
            role,
            disabled: index % 9 == 4,
            joined_at: timestamp(30 + index as u32 * 14, minutes),
            last_seen_at: (index % 11 != 7)
                .then(|| timestamp(600 + (index as u32 * 37) % 210, minutes)),
            sso: role.is_some() && index % 4 != 3,
            spaces: 1 + index as u32 % 6,
            teams: 0,
        });
    }
}

/// The name as an email's local part: lower case, accents dropped.
fn ascii(name: &str) -> String {
    name.to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' => 'a',
            'í' => 'i',
            'é' => 'e',
            other => other,
        })
        .collect()
}

//! The demo's teams: six in Acme Robotics, one in Lumen OSS, with owners and members.

use super::{Seat, Team, recount};
use crate::demo::dates::timestamp;
use crate::demo::ids;
use crate::members::demo_member_id;
use crate::world::World;

/// Title, organization, day created, spaces reached, owners, members (by id).
type TeamSpec = (
    &'static str,
    &'static str,
    u32,
    u32,
    Vec<String>,
    Vec<String>,
);

fn specs() -> Vec<TeamSpec> {
    let generated = |range: std::ops::Range<usize>| range.map(demo_member_id).collect::<Vec<_>>();
    let named = |ids: &[&str]| ids.iter().map(|id| id.to_string()).collect::<Vec<_>>();
    vec![
        (
            "Platform",
            ids::ACME,
            40,
            4,
            named(&["usr-lars-nilsson"]),
            [
                named(&[ids::USER_EDITOR, "usr-kwame-mensah"]),
                generated(0..6),
            ]
            .concat(),
        ),
        (
            "Robotics SDK",
            ids::ACME,
            95,
            3,
            named(&[ids::USER_EDITOR]),
            [named(&["usr-hannah-schmidt"]), generated(6..12)].concat(),
        ),
        (
            "Docs Guild",
            ids::ACME,
            130,
            6,
            named(&[ids::USER_REVIEWER]),
            [
                named(&["usr-sofia-rossi", ids::USER_COMMENTER]),
                generated(12..20),
            ]
            .concat(),
        ),
        (
            "Customer Support",
            ids::ACME,
            210,
            2,
            named(&["usr-fatima-el-idrissi"]),
            [named(&[ids::USER_READER]), generated(20..30)].concat(),
        ),
        (
            "Security",
            ids::ACME,
            260,
            1,
            named(&[ids::USER_ADMIN]),
            generated(30..34),
        ),
        ("Design", ids::ACME, 400, 2, Vec::new(), generated(34..40)),
        (
            "Core maintainers",
            ids::LUMEN,
            10,
            3,
            named(&["usr-ines-duarte"]),
            named(&["usr-rustam-aliyev", "usr-kwame-mensah"]),
        ),
    ]
}

pub(crate) fn populate(world: &mut World) {
    for (index, (title, organization, day, spaces, owners, members)) in
        specs().into_iter().enumerate()
    {
        let seats = owners
            .into_iter()
            .map(|user| Seat { user, owner: true })
            .chain(members.into_iter().map(|user| Seat { user, owner: false }))
            .filter(|seat| world.membership(organization, &seat.user).is_some())
            .collect();
        world.teams.teams.push(Team {
            id: format!("team-{}", title.to_lowercase().replace(' ', "-")),
            organization: organization.to_string(),
            title: title.to_string(),
            created_at: timestamp(day, index as u32 * 17),
            spaces,
            seats,
        });
    }
    recount(world);
}

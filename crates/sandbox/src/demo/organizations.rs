//! Organizations, users, memberships and collections of the demo world.

use super::ids;
use super::timestamp;
use crate::collections::RoleOverride;
use crate::model::{Collection, Membership, Organization, Role, User};
use crate::tokens;
use crate::world::World;

pub(super) fn populate(world: &mut World) {
    world.organizations = vec![acme(), lumen()];
    add_people(world);
    world.collections = collections();
    // The governance board runs Governance: there the demo admin may create, not administer,
    // so the screens have something to strike through.
    world.content_access.overrides.push(RoleOverride {
        collection: ids::COLLECTION_LUMEN_GOVERNANCE.to_string(),
        user: ids::USER_ADMIN.to_string(),
        role: Role::Create,
    });
}

fn acme() -> Organization {
    Organization {
        id: ids::ACME.to_string(),
        title: "Acme Robotics".to_string(),
        created_at: timestamp(0, 0),
        email_domains: vec!["acme-robotics.example".to_string()],
        hostname: "acme-robotics".to_string(),
        organization_type: "business",
        use_case: "productDocs",
        community_type: None,
        default_role: Some(Role::Read),
        sso: true,
        ai: true,
        invite_links: false,
        plan: "pro_2024",
        billing_interval: "yearly",
        trial_status: "ended",
        logo: Some("https://files.docs.example/org-acme-robotics/logo.png".to_string()),
    }
}

fn lumen() -> Organization {
    Organization {
        id: ids::LUMEN.to_string(),
        title: "Lumen OSS".to_string(),
        created_at: timestamp(120, 333),
        email_domains: Vec::new(),
        hostname: "lumen-oss".to_string(),
        organization_type: "community",
        use_case: "openSourceDocs",
        community_type: Some("openSource"),
        default_role: Some(Role::Comment),
        sso: false,
        ai: false,
        invite_links: true,
        plan: "community_2024",
        billing_interval: "monthly",
        trial_status: "notapplicable",
        logo: None,
    }
}

/// One person: display name, email, Acme role, Lumen role (`None` = not a Lumen member).
struct Person {
    id: &'static str,
    name: &'static str,
    email: &'static str,
    token: Option<&'static str>,
    acme: Option<Option<Role>>,
    lumen: Option<Option<Role>>,
    /// Days after the organization was created that they joined; 0..
    joined_day: u32,
    /// `None` = never seen.
    last_seen_day: Option<u32>,
    disabled: bool,
    sso: bool,
}

const PEOPLE: &[Person] = &[
    Person {
        id: ids::USER_ADMIN,
        name: "Amara Okafor",
        email: "amara.okafor@acme-robotics.example",
        token: Some(tokens::ADMIN),
        acme: Some(Some(Role::Admin)),
        lumen: Some(Some(Role::Admin)),
        joined_day: 1,
        last_seen_day: Some(812),
        disabled: false,
        sso: true,
    },
    Person {
        id: ids::USER_EDITOR,
        name: "Jonas Berg",
        email: "jonas.berg@acme-robotics.example",
        token: Some(tokens::EDITOR),
        acme: Some(Some(Role::Edit)),
        lumen: Some(Some(Role::Edit)),
        joined_day: 14,
        last_seen_day: Some(810),
        disabled: false,
        sso: true,
    },
    Person {
        id: ids::USER_REVIEWER,
        name: "Priya Raman",
        email: "priya.raman@acme-robotics.example",
        token: Some(tokens::REVIEWER),
        acme: Some(Some(Role::Review)),
        lumen: Some(Some(Role::Review)),
        joined_day: 33,
        last_seen_day: Some(805),
        disabled: false,
        sso: true,
    },
    Person {
        id: ids::USER_COMMENTER,
        name: "Diego Álvarez",
        email: "diego.alvarez@acme-robotics.example",
        token: Some(tokens::COMMENTER),
        acme: Some(Some(Role::Comment)),
        lumen: Some(Some(Role::Comment)),
        joined_day: 87,
        last_seen_day: Some(790),
        disabled: false,
        sso: false,
    },
    Person {
        id: ids::USER_READER,
        name: "Mei Tanaka",
        email: "mei.tanaka@acme-robotics.example",
        token: Some(tokens::READER),
        acme: Some(Some(Role::Read)),
        lumen: Some(Some(Role::Read)),
        joined_day: 140,
        last_seen_day: Some(701),
        disabled: false,
        sso: true,
    },
    Person {
        id: "usr-lars-nilsson",
        name: "Lars Nilsson",
        email: "lars.nilsson@acme-robotics.example",
        token: None,
        acme: Some(Some(Role::Create)),
        lumen: None,
        joined_day: 5,
        last_seen_day: Some(811),
        disabled: false,
        sso: true,
    },
    Person {
        id: "usr-fatima-el-idrissi",
        name: "Fatima Zahra El Idrissi",
        email: "fatima.elidrissi@acme-robotics.example",
        token: None,
        acme: Some(Some(Role::Edit)),
        lumen: None,
        joined_day: 62,
        last_seen_day: Some(799),
        disabled: false,
        sso: true,
    },
    Person {
        id: "usr-tom-whitfield",
        name: "Tom Whitfield",
        email: "tom.whitfield@acme-robotics.example",
        token: None,
        acme: Some(Some(Role::Read)),
        lumen: None,
        joined_day: 20,
        last_seen_day: Some(301),
        disabled: true,
        sso: true,
    },
    Person {
        id: "usr-sofia-rossi",
        name: "Sofia Rossi",
        email: "sofia.rossi@acme-robotics.example",
        token: None,
        acme: Some(Some(Role::Review)),
        lumen: None,
        joined_day: 230,
        last_seen_day: Some(806),
        disabled: false,
        sso: true,
    },
    Person {
        id: "usr-kwame-mensah",
        name: "Kwame Mensah",
        email: "kwame.mensah@acme-robotics.example",
        token: None,
        acme: Some(Some(Role::Edit)),
        lumen: Some(Some(Role::Create)),
        joined_day: 301,
        last_seen_day: Some(809),
        disabled: false,
        sso: true,
    },
    Person {
        id: "usr-hannah-schmidt",
        name: "Hannah Schmidt",
        email: "hannah.schmidt@acme-robotics.example",
        token: None,
        acme: Some(Some(Role::Create)),
        lumen: None,
        joined_day: 410,
        last_seen_day: Some(804),
        disabled: false,
        sso: true,
    },
    Person {
        id: "usr-oleksandr-kovalenko",
        name: "Oleksandr Kovalenko",
        email: "o.kovalenko@partner-logistics.example",
        token: None,
        acme: Some(None),
        lumen: None,
        joined_day: 522,
        last_seen_day: None,
        disabled: false,
        sso: false,
    },
    Person {
        id: "usr-ines-duarte",
        name: "Ines Duarte",
        email: "ines@duarte.example",
        token: None,
        acme: None,
        lumen: Some(Some(Role::Admin)),
        joined_day: 2,
        last_seen_day: Some(808),
        disabled: false,
        sso: false,
    },
    Person {
        id: "usr-rustam-aliyev",
        name: "Rustam Aliyev",
        email: "rustam.aliyev@mailbox.example",
        token: None,
        acme: None,
        lumen: Some(Some(Role::Create)),
        joined_day: 9,
        last_seen_day: Some(780),
        disabled: false,
        sso: false,
    },
    Person {
        id: "usr-ben-carter",
        name: "Ben Carter",
        email: "ben.carter@mailbox.example",
        token: None,
        acme: None,
        lumen: Some(Some(Role::Edit)),
        joined_day: 150,
        last_seen_day: Some(640),
        disabled: false,
        sso: false,
    },
    Person {
        id: "usr-yuki-sato",
        name: "Yuki Sato",
        email: "yuki.sato@mailbox.example",
        token: None,
        acme: None,
        lumen: Some(Some(Role::Comment)),
        joined_day: 600,
        last_seen_day: None,
        disabled: false,
        sso: false,
    },
];

fn add_people(world: &mut World) {
    for (index, person) in PEOPLE.iter().enumerate() {
        world.users.push(User {
            id: person.id.to_string(),
            display_name: person.name.to_string(),
            email: person.email.to_string(),
            photo_url: Some(format!("https://avatars.docs.example/{}.png", person.id)),
        });
        if let Some(token) = person.token {
            world
                .tokens
                .insert(token.to_string(), person.id.to_string());
        }
        let minutes = index as u32 * 37;
        for (organization, role, offset) in
            [(ids::ACME, person.acme, 0), (ids::LUMEN, person.lumen, 120)]
        {
            let Some(role) = role else { continue };
            world.memberships.push(Membership {
                organization: organization.to_string(),
                user: person.id.to_string(),
                role,
                disabled: person.disabled,
                joined_at: timestamp(offset + person.joined_day, minutes),
                last_seen_at: person
                    .last_seen_day
                    .map(|day| timestamp(day, minutes + 240)),
                sso: person.sso && organization == ids::ACME,
                spaces: 2 + index as u32 % 5,
                teams: index as u32 % 3,
            });
        }
    }
}

fn collection(
    id: &str,
    organization: &str,
    parent: Option<&str>,
    title: &str,
    description: &str,
    default_level: Option<Role>,
) -> Collection {
    Collection {
        id: id.to_string(),
        organization: organization.to_string(),
        parent: parent.map(str::to_string),
        title: title.to_string(),
        description: Some(description.to_string()),
        default_level,
    }
}

fn collections() -> Vec<Collection> {
    vec![
        collection(
            ids::COLLECTION_ENGINEERING,
            ids::ACME,
            None,
            "Engineering",
            "How we build, run and decide things",
            Some(Role::Read),
        ),
        collection(
            ids::COLLECTION_PLATFORM,
            ids::ACME,
            Some(ids::COLLECTION_ENGINEERING),
            "Platform",
            "Cloud services, runbooks and SDKs",
            None,
        ),
        collection(
            ids::COLLECTION_ROBOTICS_SDK,
            ids::ACME,
            Some(ids::COLLECTION_PLATFORM),
            "Robotics SDK",
            "Public API reference and client libraries",
            Some(Role::Comment),
        ),
        collection(
            ids::COLLECTION_PRODUCT,
            ids::ACME,
            None,
            "Product Docs",
            "Customer-facing guides and release notes",
            Some(Role::Read),
        ),
        collection(
            ids::COLLECTION_LUMEN_CORE,
            ids::LUMEN,
            None,
            "Lumen Core",
            "User documentation of the Lumen search engine",
            Some(Role::Comment),
        ),
        collection(
            ids::COLLECTION_LUMEN_GOVERNANCE,
            ids::LUMEN,
            Some(ids::COLLECTION_LUMEN_CORE),
            "Governance",
            "RFCs and project decisions",
            None,
        ),
    ]
}

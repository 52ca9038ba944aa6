//! The demo sites: in Acme a public premium docs site with nested section groups, an
//! unpublished basic handbook, a share-link partner portal, and a visitor-auth ultimate
//! customer portal with adaptive content; in Lumen one sponsored community site.

use serde_json::json;

use super::timestamp;
use crate::sites::model::{AdaptiveSchema, Section, SectionGroup, ShareLink, Site, SiteSpace};
use crate::world::World;

/// Stable ids of the demo sites, re-exported through `demo_ids`.
pub(super) mod ids {
    /// "Acme Developer Docs" (Acme, premium, public, published): five sections, a default
    /// section with two site spaces, and nested section groups (Reference › SDKs).
    pub const SITE_DOCS: &str = "site-acme-docs";
    /// "Employee Handbook" (Acme, basic, unlisted, not published): no sections.
    pub const SITE_DRAFT: &str = "site-acme-handbook";
    /// "Partner Portal" (Acme, premium, share-link, published): three share links, two active.
    pub const SITE_PARTNERS: &str = "site-acme-partners";
    /// "Customer Portal" (Acme, ultimate, visitor-auth, published, behind a proxy): adaptive
    /// content on, with a schema (isBetaUser, isEnterprise, unsigned{planStarter, planTeam}).
    pub const SITE_CUSTOMERS: &str = "site-acme-customers";
    /// "Lumen Docs" (Lumen, sponsored, public, published): three site spaces, no sections.
    pub const SITE_LUMEN: &str = "site-lumen-docs";

    /// Docs site, root level, default section: "Guides" (Getting Started + Changelog).
    pub const SECTION_GUIDES: &str = "sec-docs-guides";
    /// Docs site, in group Reference: "API Reference".
    pub const SECTION_API: &str = "sec-docs-api";
    /// Docs site, in group SDKs (inside Reference): "Rust SDK".
    pub const SECTION_RUST_SDK: &str = "sec-docs-rust-sdk";
    /// Docs site, in group Internals: "Runbooks".
    pub const SECTION_RUNBOOKS: &str = "sec-docs-runbooks";
    /// Docs site, in group Internals: "Architecture".
    pub const SECTION_ARCHITECTURE: &str = "sec-docs-architecture";

    /// Docs site, root level group "Reference".
    pub const GROUP_REFERENCE: &str = "grp-docs-reference";
    /// Docs site, group "SDKs" nested inside Reference.
    pub const GROUP_SDKS: &str = "grp-docs-sdks";
    /// Docs site, root level group "Internals".
    pub const GROUP_INTERNALS: &str = "grp-docs-internals";

    /// Docs site, section Guides: Getting Started, the default site space.
    pub const SITE_SPACE_GETTING_STARTED: &str = "ss-docs-getting-started";
    /// Docs site, section Guides: Changelog (not default).
    pub const SITE_SPACE_CHANGELOG: &str = "ss-docs-changelog";
    /// Docs site, section API Reference: Fleet API Reference.
    pub const SITE_SPACE_API: &str = "ss-docs-fleet-api";

    /// Partner Portal: active share link "EMEA resellers".
    pub const SHARE_LINK_EMEA: &str = "shl-partners-emea";
    /// Partner Portal: active share link "Integrators".
    pub const SHARE_LINK_INTEGRATORS: &str = "shl-partners-integrators";
    /// Partner Portal: inactive share link "2023 pilot (revoked)".
    pub const SHARE_LINK_PILOT: &str = "shl-partners-pilot";
}

use crate::demo::ids::{ACME, LUMEN};

/// Hands out increasing positions so the structure keeps the order it is written in.
struct Positions(u64);

impl Positions {
    fn next(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

fn site(id: &str, organization: &str, site_type: &str, title: &str, visibility: &str) -> Site {
    Site {
        id: id.to_string(),
        organization: organization.to_string(),
        site_type: site_type.to_string(),
        title: title.to_string(),
        hostname: None,
        basename: None,
        proxy: None,
        visibility: visibility.to_string(),
        published: true,
        created_at: String::new(),
        adaptive_content: false,
        agents_context: "included".to_string(),
        default_level: Some("inherit".to_string()),
        sections: Vec::new(),
        site_spaces: Vec::new(),
        groups: Vec::new(),
        share_links: Vec::new(),
        adaptive_schema: None,
    }
}

fn section(
    positions: &mut Positions,
    id: &str,
    title: &str,
    path: &str,
    group: Option<&str>,
) -> Section {
    Section {
        id: id.to_string(),
        title: title.to_string(),
        description: None,
        path: path.to_string(),
        icon: None,
        condition: None,
        group: group.map(str::to_string),
        default: false,
        position: positions.next(),
    }
}

fn site_space(id: &str, space: &str, section: Option<&str>, path: &str, title: &str) -> SiteSpace {
    SiteSpace {
        id: id.to_string(),
        space: space.to_string(),
        section: section.map(str::to_string),
        path: path.to_string(),
        title: title.to_string(),
        default: false,
        condition: None,
    }
}

fn group(
    positions: &mut Positions,
    id: &str,
    title: &str,
    icon: &str,
    parent: Option<&str>,
) -> SectionGroup {
    SectionGroup {
        id: id.to_string(),
        title: title.to_string(),
        icon: Some(icon.to_string()),
        parent: parent.map(str::to_string),
        draft: false,
        position: positions.next(),
    }
}

fn share_link(id: &str, name: &str, active: bool, day: u32, token: &str) -> ShareLink {
    ShareLink {
        id: id.to_string(),
        name: name.to_string(),
        active,
        created_at: timestamp(day, 45),
        token: token.to_string(),
    }
}

pub(super) fn populate(world: &mut World) {
    let mut positions = Positions(0);
    world.sites.sites = vec![
        docs_site(&mut positions),
        handbook_site(),
        partners_site(),
        customers_site(&mut positions),
        lumen_site(),
    ];
    // Run-time ids and positions continue after the demo's.
    world.sites.counter = positions.0 + 1000;
}

fn docs_site(positions: &mut Positions) -> Site {
    use ids::*;
    let mut docs = site(SITE_DOCS, ACME, "premium", "Acme Developer Docs", "public");
    docs.hostname = Some("docs.acme-robotics.example".to_string());
    docs.basename = Some("docs".to_string());
    docs.created_at = timestamp(20, 0);
    let mut guides = section(positions, SECTION_GUIDES, "Guides", "guides", None);
    guides.default = true;
    guides.icon = Some("book-open".to_string());
    guides.description = Some("Install, configure and run your first fleet".to_string());
    let reference = group(positions, GROUP_REFERENCE, "Reference", "code", None);
    let api = section(
        positions,
        SECTION_API,
        "API Reference",
        "api",
        Some(GROUP_REFERENCE),
    );
    let sdks = group(
        positions,
        GROUP_SDKS,
        "SDKs",
        "boxes",
        Some(GROUP_REFERENCE),
    );
    let rust = section(
        positions,
        SECTION_RUST_SDK,
        "Rust SDK",
        "rust-sdk",
        Some(GROUP_SDKS),
    );
    let internals = group(positions, GROUP_INTERNALS, "Internals", "server", None);
    let runbooks = section(
        positions,
        SECTION_RUNBOOKS,
        "Runbooks",
        "runbooks",
        Some(GROUP_INTERNALS),
    );
    let architecture = section(
        positions,
        SECTION_ARCHITECTURE,
        "Architecture",
        "architecture",
        Some(GROUP_INTERNALS),
    );
    docs.sections = vec![guides, api, rust, runbooks, architecture];
    docs.groups = vec![reference, sdks, internals];
    let mut getting_started = site_space(
        SITE_SPACE_GETTING_STARTED,
        "spc-getting-started",
        Some(SECTION_GUIDES),
        "getting-started",
        "Getting Started",
    );
    getting_started.default = true;
    let mut api_space = site_space(
        SITE_SPACE_API,
        "spc-fleet-api",
        Some(SECTION_API),
        "v3",
        "v3",
    );
    api_space.default = true;
    let mut rust_space = site_space(
        "ss-docs-rust-sdk",
        "spc-rust-sdk",
        Some(SECTION_RUST_SDK),
        "latest",
        "Latest",
    );
    rust_space.default = true;
    let mut runbooks_space = site_space(
        "ss-docs-runbooks",
        "spc-platform-runbooks",
        Some(SECTION_RUNBOOKS),
        "runbooks",
        "Runbooks",
    );
    runbooks_space.default = true;
    let mut architecture_space = site_space(
        "ss-docs-architecture",
        "spc-architecture",
        Some(SECTION_ARCHITECTURE),
        "decisions",
        "Decisions",
    );
    architecture_space.default = true;
    docs.site_spaces = vec![
        getting_started,
        site_space(
            SITE_SPACE_CHANGELOG,
            "spc-changelog",
            Some(SECTION_GUIDES),
            "changelog",
            "Changelog",
        ),
        api_space,
        rust_space,
        runbooks_space,
        architecture_space,
    ];
    docs
}

fn handbook_site() -> Site {
    let mut handbook = site(
        ids::SITE_DRAFT,
        ACME,
        "basic",
        "Employee Handbook",
        "unlisted",
    );
    handbook.published = false;
    handbook.basename = Some("handbook".to_string());
    handbook.created_at = timestamp(140, 30);
    handbook.agents_context = "excluded".to_string();
    let mut space = site_space(
        "ss-handbook",
        "spc-handbook",
        None,
        "handbook",
        "Employee Handbook",
    );
    space.default = true;
    handbook.site_spaces = vec![space];
    handbook
}

fn partners_site() -> Site {
    use ids::*;
    let mut partners = site(
        SITE_PARTNERS,
        ACME,
        "premium",
        "Partner Portal",
        "share-link",
    );
    partners.basename = Some("partners".to_string());
    partners.created_at = timestamp(95, 10);
    let mut space = site_space(
        "ss-partners",
        "spc-partner-portal",
        None,
        "portal",
        "Partner Portal",
    );
    space.default = true;
    partners.site_spaces = vec![space];
    partners.share_links = vec![
        share_link(
            SHARE_LINK_EMEA,
            "EMEA resellers",
            true,
            96,
            "sk7f3a91c04be2d658",
        ),
        share_link(
            SHARE_LINK_INTEGRATORS,
            "Integrators",
            true,
            120,
            "sk0c5e8d7712fa49b3",
        ),
        share_link(
            SHARE_LINK_PILOT,
            "2023 pilot (revoked)",
            false,
            97,
            "sk9d21b6e3a8c07f54",
        ),
    ];
    partners
}

fn customers_site(positions: &mut Positions) -> Site {
    let mut customers = site(
        ids::SITE_CUSTOMERS,
        ACME,
        "ultimate",
        "Customer Portal",
        "visitor-auth",
    );
    customers.basename = Some("customers".to_string());
    customers.proxy = Some("acme-robotics.example/customers".to_string());
    customers.created_at = timestamp(160, 0);
    customers.adaptive_content = true;
    customers.default_level = Some("read".to_string());
    let mut everyone = section(positions, "sec-cust-everyone", "For everyone", "all", None);
    everyone.default = true;
    let mut beta = section(positions, "sec-cust-beta", "Beta program", "beta", None);
    beta.condition = Some("visitor.claims.isBetaUser === true".to_string());
    customers.sections = vec![everyone, beta];
    let mut start = site_space(
        "ss-cust-getting-started",
        "spc-getting-started",
        Some("sec-cust-everyone"),
        "start",
        "Getting Started",
    );
    start.default = true;
    let mut beta_space = site_space(
        "ss-cust-changelog",
        "spc-changelog",
        Some("sec-cust-beta"),
        "whats-new",
        "What's new",
    );
    beta_space.default = true;
    customers.site_spaces = vec![start, beta_space];
    customers.adaptive_schema = Some(AdaptiveSchema {
        json_schema: json!({
            "type": "object",
            "properties": {
                "isBetaUser": {
                    "type": "boolean",
                    "description": "Visitor joined the beta program",
                },
                "isEnterprise": {
                    "type": "boolean",
                    "description": "Visitor's company has an enterprise contract",
                },
                "unsigned": {
                    "type": "object",
                    "description": crate::sites::schema_shape::UNSIGNED_DESCRIPTION,
                    "properties": {
                        "planStarter": { "type": "boolean", "description": "Visitor is on the Starter plan" },
                        "planTeam": { "type": "boolean", "description": "Visitor is on the Team plan" },
                    },
                    "additionalProperties": false,
                },
            },
            "additionalProperties": false,
        }),
        updated_at: timestamp(170, 15),
    });
    customers
}

fn lumen_site() -> Site {
    let mut lumen = site(ids::SITE_LUMEN, LUMEN, "sponsored", "Lumen Docs", "public");
    lumen.basename = Some("lumen".to_string());
    lumen.created_at = timestamp(60, 0);
    let mut docs = site_space(
        "ss-lumen-docs",
        "spc-lumen-docs",
        None,
        "docs",
        "Documentation",
    );
    docs.default = true;
    lumen.site_spaces = vec![
        docs,
        site_space(
            "ss-lumen-contributing",
            "spc-lumen-contributing",
            None,
            "contributing",
            "Contributing",
        ),
        site_space("ss-lumen-rfcs", "spc-lumen-rfcs", None, "rfcs", "RFCs"),
    ];
    lumen
}

#[cfg(test)]
mod tests {
    use crate::demo::world;

    #[test]
    fn demo_sites_are_consistent() {
        let world = world();
        assert!(world.sites.sites.len() >= 5);
        for site in &world.sites.sites {
            for site_space in &site.site_spaces {
                let space = world.space(&site_space.space);
                assert!(
                    space.is_some_and(|space| space.organization == site.organization),
                    "{} in {}",
                    site_space.space,
                    site.id
                );
                if let Some(section) = &site_space.section {
                    assert!(site.section(section).is_some(), "{section}");
                }
            }
            for section in &site.sections {
                if let Some(group) = &section.group {
                    assert!(site.group(group).is_some(), "{group}");
                }
                let defaults = site
                    .spaces_in(Some(&section.id))
                    .filter(|found| found.default)
                    .count();
                assert_eq!(defaults, 1, "default site space of {}", section.id);
            }
            for group in &site.groups {
                if let Some(parent) = &group.parent {
                    assert!(site.group(parent).is_some(), "{parent}");
                }
            }
            if site.sections.is_empty() {
                assert_eq!(
                    site.spaces_in(None).filter(|found| found.default).count(),
                    1
                );
            } else {
                assert_eq!(
                    site.sections.iter().filter(|found| found.default).count(),
                    1
                );
            }
        }
    }
}

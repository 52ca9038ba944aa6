//! The demo spaces and their page trees.

use std::collections::BTreeMap;

use super::{api_reference, document, finish_tree, group, ids, link, timestamp};
use crate::model::{File, Page, Revision, Role, Space};
use crate::world::World;

/// Everything that differs between demo spaces; the rest is derived.
struct SpaceSpec {
    id: &'static str,
    organization: &'static str,
    parent: Option<&'static str>,
    title: &'static str,
    emoji: &'static str,
    visibility: &'static str,
    edit_mode: &'static str,
    first_day: u32,
    git_repository: Option<&'static str>,
    /// (comments, change requests, open, draft)
    activity: (u32, u32, u32, u32),
}

fn space(spec: SpaceSpec, mut pages: Vec<Page>, files: Vec<File>) -> Space {
    finish_tree(&mut pages, spec.first_day);
    let hostname = if spec.organization == ids::ACME {
        "acme-robotics"
    } else {
        "lumen-oss"
    };
    let slug = spec.id.trim_start_matches("spc-");
    let published_url =
        (spec.visibility != "private").then(|| format!("https://{hostname}.docs.example/{slug}"));
    let (product, version) = if spec.organization == ids::LUMEN {
        ("Lumen", "0.14")
    } else {
        ("Acme Fleet", "3.2")
    };
    let variables = BTreeMap::from([
        ("product".to_string(), product.to_string()),
        ("version".to_string(), version.to_string()),
    ]);
    Space {
        id: spec.id.to_string(),
        organization: spec.organization.to_string(),
        parent: spec.parent.map(str::to_string),
        title: spec.title.to_string(),
        emoji: spec.emoji.to_string(),
        visibility: spec.visibility,
        edit_mode: spec.edit_mode,
        created_at: timestamp(spec.first_day, 0),
        updated_at: timestamp(spec.first_day + 200, 412),
        language: "en",
        default_level: match spec.visibility {
            "private" => None,
            _ => Some(Role::Read),
        },
        comments: spec.activity.0,
        change_requests: spec.activity.1,
        change_requests_open: spec.activity.2,
        change_requests_draft: spec.activity.3,
        published_url,
        git_repository: spec.git_repository.map(str::to_string),
        revision: Revision {
            id: format!("rev-{slug}-1"),
            parents: vec![format!("rev-{slug}-0")],
            created_at: timestamp(spec.first_day + 200, 412),
            git_message: spec
                .git_repository
                .map(|_| "docs: sync from main".to_string()),
            pages,
            files,
            variables,
        },
        deleted_at: None,
        merge_rules: Default::default(),
    }
}

fn image(id: &str, name: &str, size: u64, width: u32, height: u32) -> File {
    File {
        id: id.to_string(),
        name: name.to_string(),
        content_type: "image/png".to_string(),
        size,
        dimensions: Some((width, height)),
    }
}

fn attachment(id: &str, name: &str, content_type: &str, size: u64) -> File {
    File {
        id: id.to_string(),
        name: name.to_string(),
        content_type: content_type.to_string(),
        size,
        dimensions: None,
    }
}

pub(super) fn populate(world: &mut World) {
    world.spaces = vec![
        getting_started(),
        changelog(),
        api_reference_space(),
        rust_sdk(),
        runbooks(),
        architecture_decisions(),
        handbook(),
        partner_portal(),
        lumen_docs(),
        lumen_contributing(),
        lumen_rfcs(),
        deleted(old_onboarding(), 2),
        deleted(q3_planning(), 5),
    ];
}

/// A space deleted `days_ago` days before now (the real clock), so the demo's trash shows how
/// many days each has left.
fn deleted(mut space: Space, days_ago: i64) -> Space {
    let when = chrono::Utc::now() - chrono::Duration::days(days_ago);
    space.deleted_at = Some(crate::model::iso(when));
    space
}

/// In the trash: deleted two days ago.
fn old_onboarding() -> Space {
    let pages = vec![document(
        "pg-oo-welcome",
        "Welcome aboard",
        "# Welcome aboard\n\nThe onboarding guide before the handbook replaced it.\n",
    )];
    space(
        SpaceSpec {
            id: ids::SPACE_DELETED_ONBOARDING,
            organization: ids::ACME,
            parent: Some(ids::COLLECTION_PRODUCT),
            title: "Old Onboarding",
            emoji: "🧳",
            visibility: "private",
            edit_mode: "live",
            first_day: 40,
            git_repository: None,
            activity: (0, 0, 0, 0),
        },
        pages,
        Vec::new(),
    )
}

/// In the trash: deleted five days ago.
fn q3_planning() -> Space {
    let pages = vec![document(
        "pg-q3-goals",
        "Goals",
        "# Goals\n\nShip the fleet dashboard; retire the v1 API.\n",
    )];
    space(
        SpaceSpec {
            id: ids::SPACE_DELETED_PLANNING,
            organization: ids::ACME,
            parent: None,
            title: "Q3 Planning",
            emoji: "🗓",
            visibility: "private",
            edit_mode: "locked",
            first_day: 180,
            git_repository: None,
            activity: (0, 0, 0, 0),
        },
        pages,
        Vec::new(),
    )
}

fn getting_started() -> Space {
    let pages = vec![
        group(
            ids::PAGE_BASICS_GROUP,
            "Basics",
            vec![
                document("pg-gs-welcome", "Welcome", include_str!("pages/welcome.md"))
                    .emoji("👋")
                    .describe("What Acme Fleet is and how these docs are organised."),
                document(
                    ids::PAGE_QUICKSTART,
                    "Quickstart",
                    include_str!("pages/quickstart.md"),
                )
                .emoji("⚡")
                .describe(
                    "Register your first robot, give it a mission and watch it move — in ten minutes.",
                ),
                document(
                    ids::PAGE_INSTALLATION,
                    "Installation",
                    include_str!("pages/installation.md"),
                )
                .emoji("📦")
                .describe("Install the Fleet edge gateway next to your robots.")
                .with_children(vec![
                    document("pg-gs-install-linux", "Linux", INSTALL_LINUX),
                    document("pg-gs-install-macos", "macOS", INSTALL_MACOS),
                    document("pg-gs-install-windows", "Windows", INSTALL_WINDOWS).with_children(
                        vec![document(
                            "pg-gs-install-wsl",
                            "WSL troubleshooting",
                            WSL_TROUBLESHOOTING,
                        )],
                    ),
                ]),
                document(
                    "pg-gs-configuration",
                    "Configuration",
                    include_str!("pages/configuration.md"),
                )
                .emoji("⚙️"),
            ],
        ),
        group(
            "pg-gs-guides",
            "Guides",
            vec![
                document(
                    "pg-gs-rest-api",
                    "REST API guide",
                    include_str!("pages/rest-api-guide.md"),
                )
                .emoji("🔌")
                .describe("Authenticate, page through lists, handle errors and receive webhooks."),
                document(
                    "pg-gs-architecture",
                    "Architecture overview",
                    include_str!("pages/architecture.md"),
                )
                .emoji("🏗️"),
                link(
                    ids::PAGE_STATUS_LINK,
                    "Status page",
                    "https://status.acme-robotics.example",
                )
                .emoji("🟢"),
                document(ids::PAGE_HIDDEN, "Launch checklist (internal)", LAUNCH_CHECKLIST)
                    .hide(),
            ],
        ),
        group(
            "pg-gs-reference",
            "Reference",
            vec![
                document("pg-gs-glossary", "Glossary", GLOSSARY).emoji("📖"),
                document("pg-gs-faq", "FAQ", FAQ).emoji("❓"),
            ],
        ),
    ];
    let files = vec![
        image("file-dashboard", "dashboard.png", 482_113, 2400, 1350),
        image("file-map-editor", "map-editor.png", 301_554, 1920, 1080),
        attachment(
            "file-safety-pdf",
            "safety-checklist.pdf",
            "application/pdf",
            1_204_932,
        ),
    ];
    space(
        SpaceSpec {
            id: ids::SPACE_GETTING_STARTED,
            organization: ids::ACME,
            parent: Some(ids::COLLECTION_PRODUCT),
            title: "Getting Started",
            emoji: "🚀",
            visibility: "public",
            edit_mode: "live",
            first_day: 30,
            git_repository: Some("acme-robotics/fleet-docs"),
            activity: (7, 12, 2, 1),
        },
        pages,
        files,
    )
}

fn changelog() -> Space {
    let releases = [
        (
            "3.1.2",
            "2025-02-25",
            "Fixes a crash of the map editor with very large maps.",
        ),
        (
            "3.1.1",
            "2025-02-18",
            "Gateways reconnect faster after a cloud outage.",
        ),
        (
            "3.0.1",
            "2025-01-21",
            "Restores the `site` filter of `GET /v1/missions`.",
        ),
    ];
    let mut release_pages: Vec<Page> = releases
        .iter()
        .map(|(version, date, summary)| {
            document(
                &format!("pg-cl-{}", version.replace('.', "-")),
                &format!("Fleet {version}"),
                &format!(
                    "# Fleet {version}\n\nReleased on **{date}**.\n\n* {summary}\n* Security \
                     updates of third-party libraries.\n\n```bash\nfleetctl upgrade --to {version}\n```\n"
                ),
            )
        })
        .collect();
    release_pages.push(document(
        ids::PAGE_HOSTILE,
        "Release notes \u{1b}]0;pwned\u{7}\u{1b}[2J \u{202e}txt.exe\u{202c} (patched)",
        HOSTILE_BODY,
    ));
    let pages = vec![
        document(
            "pg-cl-overview",
            "Changelog",
            include_str!("pages/changelog.md"),
        )
        .emoji("📰"),
        group("pg-cl-patches", "Patch releases", release_pages),
    ];
    space(
        SpaceSpec {
            id: ids::SPACE_CHANGELOG,
            organization: ids::ACME,
            parent: Some(ids::COLLECTION_PRODUCT),
            title: "Changelog",
            emoji: "📰",
            visibility: "public",
            edit_mode: "locked",
            first_day: 60,
            git_repository: None,
            activity: (0, 31, 0, 0),
        },
        pages,
        Vec::new(),
    )
}

fn api_reference_space() -> Space {
    space(
        SpaceSpec {
            id: ids::SPACE_API_REFERENCE,
            organization: ids::ACME,
            parent: Some(ids::COLLECTION_ROBOTICS_SDK),
            title: "Fleet API Reference",
            emoji: "🧩",
            visibility: "unlisted",
            edit_mode: "locked",
            first_day: 90,
            git_repository: Some("acme-robotics/fleet-openapi"),
            activity: (3, 48, 1, 0),
        },
        api_reference::pages(),
        api_reference::files(),
    )
}

fn rust_sdk() -> Space {
    let pages = vec![
        document(
            "pg-rs-overview",
            "Rust SDK",
            include_str!("pages/rust-sdk.md"),
        )
        .emoji("🦀"),
        document("pg-rs-async", "Async runtimes", RUST_ASYNC),
    ];
    space(
        SpaceSpec {
            id: "spc-rust-sdk",
            organization: ids::ACME,
            parent: Some(ids::COLLECTION_ROBOTICS_SDK),
            title: "Rust SDK",
            emoji: "🦀",
            visibility: "in-collection",
            edit_mode: "live",
            first_day: 150,
            git_repository: Some("acme-robotics/fleet-rs"),
            activity: (2, 5, 1, 1),
        },
        pages,
        Vec::new(),
    )
}

fn runbooks() -> Space {
    let pages = vec![
        document(
            "pg-rb-on-call",
            "On-call handbook",
            include_str!("pages/runbook-on-call.md"),
        )
        .emoji("📟")
        .with_children(vec![document(
            "pg-rb-failover",
            "Database failover",
            include_str!("pages/runbook-failover.md"),
        )]),
        document(
            "pg-rb-incident-template",
            "Incident report template",
            INCIDENT_TEMPLATE,
        ),
    ];
    space(
        SpaceSpec {
            id: "spc-platform-runbooks",
            organization: ids::ACME,
            parent: Some(ids::COLLECTION_PLATFORM),
            title: "Platform Runbooks",
            emoji: "🛠️",
            visibility: "private",
            edit_mode: "live",
            first_day: 180,
            git_repository: None,
            activity: (11, 22, 3, 2),
        },
        pages,
        Vec::new(),
    )
}

fn architecture_decisions() -> Space {
    let pages = vec![
        document("pg-adr-index", "Decision log", ADR_INDEX).emoji("🗂️"),
        document(
            "pg-adr-001",
            "ADR-001: Event sourcing for missions",
            ADR_001,
        ),
        document("pg-adr-002", "ADR-002: Rust for edge services", ADR_002),
    ];
    space(
        SpaceSpec {
            id: "spc-architecture",
            organization: ids::ACME,
            parent: Some(ids::COLLECTION_ENGINEERING),
            title: "Architecture Decisions",
            emoji: "🏛️",
            visibility: "share-link",
            edit_mode: "live",
            first_day: 200,
            git_repository: None,
            activity: (5, 9, 1, 0),
        },
        pages,
        Vec::new(),
    )
}

fn handbook() -> Space {
    let pages = vec![
        document(
            "pg-hb-welcome",
            "Welcome to Acme",
            include_str!("pages/handbook-welcome.md"),
        )
        .emoji("👋"),
        document("pg-hb-time-off", "Time off", TIME_OFF).emoji("🏖️"),
        document("pg-hb-travel", "Travel policy", TRAVEL).emoji("✈️"),
    ];
    space(
        SpaceSpec {
            id: ids::SPACE_HANDBOOK,
            organization: ids::ACME,
            parent: None,
            title: "Employee Handbook",
            emoji: "📘",
            visibility: "private",
            edit_mode: "live",
            first_day: 10,
            git_repository: None,
            activity: (4, 6, 0, 1),
        },
        pages,
        vec![attachment(
            "file-holiday-calendar",
            "holiday-calendar-2025.pdf",
            "application/pdf",
            88_231,
        )],
    )
}

fn partner_portal() -> Space {
    let pages = vec![
        document("pg-pp-onboarding", "Partner onboarding", PARTNER_ONBOARDING).emoji("🤝"),
        document("pg-pp-pricing", "Reseller pricing", PARTNER_PRICING).emoji("💶"),
    ];
    space(
        SpaceSpec {
            id: "spc-partner-portal",
            organization: ids::ACME,
            parent: None,
            title: "Partner Portal",
            emoji: "🤝",
            visibility: "visitor-auth",
            edit_mode: "live",
            first_day: 260,
            git_repository: None,
            activity: (1, 3, 0, 0),
        },
        pages,
        Vec::new(),
    )
}

fn lumen_docs() -> Space {
    let pages = vec![
        group(
            "pg-lu-introduction",
            "Introduction",
            vec![
                document(
                    "pg-lu-what-is",
                    "What is Lumen?",
                    include_str!("pages/lumen-what-is.md"),
                )
                .emoji("💡"),
                document(
                    "pg-lu-install",
                    "Install",
                    include_str!("pages/lumen-install.md"),
                )
                .emoji("📦"),
            ],
        ),
        group(
            "pg-lu-usage",
            "Usage",
            vec![
                document(
                    "pg-lu-config",
                    "Configuration file",
                    include_str!("pages/lumen-config.md"),
                ),
                link(
                    "pg-lu-api-docs",
                    "API docs on docs.rs",
                    "https://docs.rs/lumen-search",
                ),
            ],
        ),
    ];
    space(
        SpaceSpec {
            id: ids::SPACE_LUMEN_DOCS,
            organization: ids::LUMEN,
            parent: Some(ids::COLLECTION_LUMEN_CORE),
            title: "Lumen Documentation",
            emoji: "💡",
            visibility: "public",
            edit_mode: "live",
            first_day: 130,
            git_repository: Some("lumen-oss/lumen"),
            activity: (9, 64, 4, 2),
        },
        pages,
        vec![image("file-lumen-logo", "lumen-logo.png", 24_501, 512, 512)],
    )
}

fn lumen_contributing() -> Space {
    let pages = vec![
        document(
            "pg-lc-how-to",
            "How to contribute",
            include_str!("pages/contributing.md"),
        )
        .emoji("🌱"),
        document("pg-lc-conduct", "Code of conduct", CODE_OF_CONDUCT).emoji("🤗"),
    ];
    space(
        SpaceSpec {
            id: "spc-lumen-contributing",
            organization: ids::LUMEN,
            parent: None,
            title: "Contributing Guide",
            emoji: "🌱",
            visibility: "public",
            edit_mode: "live",
            first_day: 135,
            git_repository: Some("lumen-oss/lumen"),
            activity: (2, 8, 1, 0),
        },
        pages,
        Vec::new(),
    )
}

fn lumen_rfcs() -> Space {
    let pages = vec![
        document("pg-rfc-process", "The RFC process", RFC_PROCESS).emoji("📜"),
        document(
            "pg-rfc-0007",
            "RFC 0007: Plugin API",
            include_str!("pages/rfc-plugin-api.md"),
        ),
    ];
    space(
        SpaceSpec {
            id: "spc-lumen-rfcs",
            organization: ids::LUMEN,
            parent: Some(ids::COLLECTION_LUMEN_GOVERNANCE),
            title: "RFCs",
            emoji: "📜",
            visibility: "unlisted",
            edit_mode: "locked",
            first_day: 160,
            git_repository: None,
            activity: (14, 7, 2, 1),
        },
        pages,
        Vec::new(),
    )
}

const INSTALL_LINUX: &str = "# Linux\n\nSupported: Debian 12, Ubuntu 22.04 and 24.04, RHEL 9.\n\n\
```bash\ncurl -fsSL https://get.acme-robotics.example/gateway.sh | sudo bash -s -- --site berlin-dc\n\
sudo systemctl enable --now fleet-gateway\nsystemctl status fleet-gateway --no-pager\n```\n\n\
{% hint style=\"info\" %}\nThe script adds the Acme package repository, so `apt upgrade` keeps the \
gateway current.\n{% endhint %}\n";

const INSTALL_MACOS: &str = "# macOS\n\nmacOS is supported for labs and demos, not production \
sites.\n\n```bash\nbrew install acme/tap/fleet-gateway\nfleet-gateway --site demo-lab --simulator\n```\n";

const INSTALL_WINDOWS: &str = "# Windows\n\nThe gateway runs inside WSL 2.\n\n1. Install WSL:\n   \
```powershell\n   wsl --install -d Ubuntu-22.04\n   ```\n2. Inside Ubuntu, follow the \
[Linux](../linux.md) steps.\n3. Forward port 7400 so robots can reach the gateway.\n";

const WSL_TROUBLESHOOTING: &str = "# WSL troubleshooting\n\n| Symptom | Fix |\n| --- | --- |\n\
| Robots cannot reach port 7400 | Enable mirrored networking in `.wslconfig` |\n\
| Clock drifts after sleep | `sudo hwclock -s` |\n\n```ini\n[wsl2]\nnetworkingMode=mirrored\n```\n";

const LAUNCH_CHECKLIST: &str = "# Launch checklist (internal)\n\n- [x] Safety sign-off\n\
- [x] Map uploaded and verified on the floor\n- [ ] Customer trained on the emergency stop\n\
- [ ] Hypercare rota staffed for two weeks\n\n{% hint style=\"danger\" %}\nDo not share this page \
with customers.\n{% endhint %}\n";

const GLOSSARY: &str = "# Glossary\n\n**AMR**\n: Autonomous mobile robot.\n\n**Mission**\n: An \
ordered list of tasks given to one robot.\n\n**Station**\n: A named pose on a site map.\n\n\
| Term | Meaning |\n| :--- | :------ |\n| Gateway | The on-site relay between cloud and robots |\n\
| Zone | An area with special speed or access rules |\n";

const FAQ: &str = "# FAQ\n\n## Can I run Fleet without internet?\n\nYes, for up to 72 hours: \
missions already planned keep running and telemetry is buffered.\n\n## Which robots are \
supported?\n\nAll Acme models, plus any robot speaking VDA 5050 2.0.\n\n## How do I reset a \
token?\n\n**Settings → Tokens → Rotate**. The old token keeps working for 10 minutes.\n\n## Where are \
the safety rules?\n\nDownload the [safety checklist](https://files.docs.example/spc-getting-started/\
file-safety-pdf/safety-checklist.pdf) and follow the [Quickstart](quickstart.md). The [upgrade \
guide](upgrading.md) has moved; editors can fix this page [in the app](https://app.docs.example/o/\
org-acme-robotics/s/spc-getting-started/).\n";

const HOSTILE_BODY: &str = "# Release notes (patched)\n\nThis page's title contains terminal \
control sequences and a right-to-left override. A safe client shows them as visible \
placeholders instead of obeying them.\n\n```text\nESC ] 0 ; pwned BEL   — would set the window \
title\nESC [ 2 J              — would clear the screen\nU+202E                 — would reverse \
the text that follows\n```\n";

const RUST_ASYNC: &str = "# Async runtimes\n\nThe SDK works on tokio by default. For other \
runtimes, disable default features:\n\n```toml\nacme-fleet = { version = \"3.2\", \
default-features = false, features = [\"async-std\"] }\n```\n\n```rust\nlet fleet = \
Fleet::builder().token(token).build()?;\nlet robots = fleet.robots().list().all().await?;\n```\n";

const INCIDENT_TEMPLATE: &str = "# Incident report template\n\nCopy this page for every P1 and \
P2.\n\n## Summary\n\n_One paragraph: what happened, impact, duration._\n\n## Timeline (UTC)\n\n| \
Time | Event |\n| ---: | :---- |\n| 09:14 | Alert fired |\n| 09:16 | Acknowledged |\n\n## Root \
cause\n\n## Action items\n\n- [ ] Owner, due date, ticket\n";

const ADR_INDEX: &str = "# Decision log\n\nArchitecture decision records (ADRs) capture why we \
built things the way we did.\n\n| ADR | Title | Status |\n| :-- | :---- | :----: |\n| 001 | Event \
sourcing for missions | Accepted |\n| 002 | Rust for edge services | Accepted |\n| 003 | GraphQL \
API | **Rejected** |\n";

const ADR_001: &str = "# ADR-001: Event sourcing for missions\n\n## Context\n\nWe must explain, \
after the fact, why a robot did what it did.\n\n## Decision\n\nEvery mission change is an \
append-only event; state is a projection.\n\n```sql\nCREATE TABLE mission_events (\n  mission_id \
uuid NOT NULL,\n  sequence   bigint NOT NULL,\n  kind       text NOT NULL,\n  body       jsonb \
NOT NULL,\n  PRIMARY KEY (mission_id, sequence)\n);\n```\n\n## Consequences\n\n* Full audit \
trail.\n* Projections must be rebuilt after schema changes.\n";

const ADR_002: &str = "# ADR-002: Rust for edge services\n\n> The gateway must not crash, must \
not pause for garbage collection, and must run on small ARM boards.\n\nWe chose **Rust**. Go was \
the runner-up; C++ was rejected for memory safety.\n\n```rust\n#[tokio::main(flavor = \
\"current_thread\")]\nasync fn main() -> anyhow::Result<()> {\n    gateway::run(Config::load()?).await\n}\n```\n";

const TIME_OFF: &str = "# Time off\n\nEveryone gets **28 days** of paid leave plus public \
holidays.\n\n1. Book in the HR tool at least two weeks ahead.\n2. Tell your team in the team \
channel.\n3. Set an out-of-office reply.\n\n{% hint style=\"success\" %}\nTake your holidays. \
Unused days above five do not carry over.\n{% endhint %}\n";

const TRAVEL: &str = "# Travel policy\n\n| Trip | Class | Approval |\n| :--- | :---: | :------ |\n\
| Train under 6 h | Second | Manager |\n| Flight under 6 h | Economy | Manager |\n| Flight over 6 \
h | Premium economy | Director |\n\nBook through the travel desk; expenses within 30 days.\n";

const PARTNER_ONBOARDING: &str = "# Partner onboarding\n\nWelcome, integrator! Access to this \
portal is granted through your partner login.\n\n- [ ] Sign the reseller agreement\n- [ ] \
Complete the Fleet Certified Installer course\n- [ ] Get your demo kit (two carrier-300 \
robots)\n\n{% embed url=\"https://training.acme-robotics.example/installer-course\" %}\n";

const PARTNER_PRICING: &str = "# Reseller pricing\n\n| Tier | Discount | Minimum robots / \
year |\n| :--- | -------: | --------------------: |\n| Silver | 10 % | 10 |\n| Gold | 18 % | 50 |\n\
| Platinum | 25 % | 200 |\n\nPrices are confidential.\n";

const CODE_OF_CONDUCT: &str = "# Code of conduct\n\nWe want Lumen to be a welcoming project for \
everyone.\n\n* Be respectful and assume good intent.\n* No harassment, in any form, anywhere.\n* \
Report problems to conduct@lumen-oss.example; reports are confidential.\n\n> Moderators may \
remove comments, commits or people that break these rules.\n";

const RFC_PROCESS: &str = "# The RFC process\n\nSubstantial changes go through an RFC.\n\n1. \
Copy `0000-template.md` to `text/0000-my-idea.md`.\n2. Open a pull request; discussion happens \
there.\n3. After a **final comment period** of 10 days, the core team accepts or declines.\n\n\
{% content-ref url=\"rfc-0007-plugin-api.md\" %}\n[RFC 0007: Plugin API](rfc-0007-plugin-api.md)\n\
{% endcontent-ref %}\n";

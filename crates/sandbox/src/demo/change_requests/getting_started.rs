//! Getting Started #2–#6: the outdated change request, the one that conflicts with main, and
//! the merged, draft and archived ones.

use super::builders::{Thread, change_request, comments, new_page, rewrite, thread};
use super::{AMARA, DIEGO, FATIMA, HANNAH, JONAS, KWAME, LARS, PRIYA, ids};
use crate::change_requests::content::{apply, find, markdown_of};
use crate::change_requests::model::{
    ChangeRequest, PageEdit, RequestedReviewer, Review, ReviewStatus, Status,
};
use crate::demo::{ids as demo, timestamp};
use crate::model::Page;

pub(super) fn raspberry_pi(main: &[Page]) -> ChangeRequest {
    let day = 690;
    let mut change_request = change_request(
        ids::CR_OUTDATED,
        ids::CR_OUTDATED_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Document gateway install on Raspberry Pi 5",
        "Several pilot sites run the gateway on a Raspberry Pi 5. This adds the ARM64 package and a \
         page with the tested setup.",
        KWAME,
        day,
    );
    // Branched before main's FAQ said 72 hours; nothing here touches the FAQ, so updating works.
    change_request.base_revision = "rev-getting-started-0".to_string();
    change_request.base_pages = apply(
        main,
        &[rewrite(
            main,
            ids::PAGE_FAQ,
            &[("up to 72 hours", "up to 48 hours")],
        )],
        &timestamp(200, 0),
    );
    let base = change_request.base_pages.clone();
    change_request.edits = vec![
        rewrite(
            &base,
            ids::PAGE_INSTALL_LINUX,
            &[
                (
                    "Supported: Debian 12, Ubuntu 22.04 and 24.04, RHEL 9.",
                    "Supported: Debian 12, Ubuntu 22.04 and 24.04, RHEL 9, on x86_64 and ARM64.",
                ),
                (
                    "{% hint style=\"info\" %}",
                    "## ARM64\n\nThe same script detects ARM64 and installs the `fleet-gateway-arm64` \
                     package. On a Raspberry Pi see [Raspberry Pi](raspberry-pi.md) for the tested \
                     setup.\n\n{% hint style=\"info\" %}",
                ),
            ],
        ),
        PageEdit::Create {
            page: Box::new(new_page(
                ids::PAGE_RASPBERRY_PI,
                "Raspberry Pi",
                "# Raspberry Pi\n\nA Raspberry Pi 5 with 8 GiB of memory serves up to 40 robots.\n\n\
                 1. Flash Raspberry Pi OS Lite (64-bit).\n2. Use an SSD over USB 3 — SD cards wear \
                 out within weeks under telemetry load.\n3. Run the Linux install script.\n\n\
                 ```bash\ncurl -fsSL https://get.acme-robotics.example/gateway.sh | sudo bash -s -- \
                 --site berlin-dc\n```\n",
                day,
            )),
            parent: Some(demo::PAGE_INSTALLATION.to_string()),
            index: 3,
        },
    ];
    change_request.comments = comments(
        "gs2",
        &change_request,
        day,
        &[
            Thread {
                replies: &[(KWAME, "Yes, the active cooler. Added to the list.")],
                ..thread(
                    PRIYA,
                    Some(ids::PAGE_RASPBERRY_PI),
                    60,
                    "Did the 40-robot figure hold with the official cooler only?",
                )
            },
            Thread {
                reactions: &[("👍", &[KWAME])],
                ..thread(
                    DIEGO,
                    Some(ids::PAGE_INSTALL_LINUX),
                    200,
                    "Nice — customers ask about ARM every week.",
                )
            },
            thread(
                JONAS,
                None,
                400,
                "Main moved on since this was opened; please update from main before merging.",
            ),
        ],
    );
    change_request.requested_reviewers = vec![RequestedReviewer {
        user: PRIYA.to_string(),
        requested_by: KWAME.to_string(),
        created_at: timestamp(day, 10),
        revision: change_request.revision.clone(),
    }];
    change_request
}

pub(super) fn configuration_reference(main: &[Page]) -> ChangeRequest {
    let day = 695;
    let mut change_request = change_request(
        ids::CR_CONFLICTS,
        ids::CR_CONFLICTS_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Rewrite configuration reference for 3.2",
        "Documents every key of `fleet.yaml` in 3.2, including `telemetry.flush_every` and \
         `logging.format`.",
        HANNAH,
        day,
    );
    // Branched when the cloud timeout default was still 5 s; main changed it to 10 s since, and
    // this change request rewrites the same page: merging and updating both conflict.
    change_request.base_revision = "rev-getting-started-0".to_string();
    change_request.base_pages = apply(
        main,
        &[rewrite(
            main,
            ids::PAGE_CONFIGURATION,
            &[
                ("timeout_seconds: 10", "timeout_seconds: 5"),
                ("| integer | `10` |", "| integer | `5` |"),
            ],
        )],
        &timestamp(200, 0),
    );
    let base = change_request.base_pages.clone();
    change_request.edits = vec![rewrite(
        &base,
        ids::PAGE_CONFIGURATION,
        &[
            (
                "| `logging.level` | enum | `info` | Log verbosity |",
                "| `telemetry.flush_every` | duration | `5s` | How often buffered telemetry is sent |\n\
                 | `logging.level` | enum | `info` | Log verbosity |\n\
                 | `logging.format` | enum | `json` | `json` or `text` |",
            ),
            (
                "Keys under `safety` are **not** reloaded at run time: restart the gateway to change them.",
                "Keys under `safety` and `token_file` are **not** reloaded at run time: restart the \
                 gateway to change them. Everything else takes effect within one second of `SIGHUP`.",
            ),
        ],
    )];
    change_request.comments = comments(
        "gs3",
        &change_request,
        day,
        &[
            Thread {
                replies: &[(
                    HANNAH,
                    "I'll rebase on main once the 3.2 defaults are final.",
                )],
                ..thread(
                    JONAS,
                    Some(ids::PAGE_CONFIGURATION),
                    90,
                    "This conflicts with my change of the cloud timeout default (5 s → 10 s) that went in last week.",
                )
            },
            thread(
                PRIYA,
                Some(ids::PAGE_CONFIGURATION),
                300,
                "Is `logging.format: text` supported on Windows too?",
            ),
        ],
    );
    change_request
}

pub(super) fn welcome_typos(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 640;
    let mut change_request = change_request(
        ids::CR_MERGED,
        ids::CR_MERGED_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Fix typos in Welcome",
        "Three typos and a broken sentence reported through the feedback widget.",
        LARS,
        day,
    );
    change_request.status = Status::Merged;
    // The base is main before the fix; the fix is what main has now.
    change_request.base_revision = "rev-getting-started-0".to_string();
    change_request.base_pages = apply(
        main,
        &[rewrite(
            main,
            ids::PAGE_WELCOME,
            &[
                (
                    "warehouses, hospitals and\nfactories",
                    "warehouses, hosptials and\nfactories",
                ),
                ("who run a fleet day to day", "who runs a fleet day to day"),
                (
                    "we\n  answer within one business day",
                    "we\n  answer whithin one business day",
                ),
            ],
        )],
        &timestamp(200, 0),
    );
    change_request.edits = vec![PageEdit::Edit {
        page: ids::PAGE_WELCOME.to_string(),
        title: None,
        markdown: find(main, ids::PAGE_WELCOME)
            .and_then(markdown_of)
            .map(str::to_string),
    }];
    change_request.revision_merged = Some(main_revision.to_string());
    change_request.merged_by = Some(AMARA.to_string());
    change_request.merged_at = Some(timestamp(day + 1, 120));
    change_request.updated_at = timestamp(day + 1, 120);
    change_request.reviews = vec![Review {
        id: "rvw-gs4-1".to_string(),
        reviewer: PRIYA.to_string(),
        requested_by: Some(LARS.to_string()),
        status: ReviewStatus::Approved,
        revision: change_request.revision.clone(),
        outdated: false,
        comment: None,
        created_at: timestamp(day + 1, 60),
        updated_at: timestamp(day + 1, 60),
    }];
    change_request.comments = comments(
        "gs4",
        &change_request,
        day,
        &[Thread {
            reactions: &[("🙏", &[LARS])],
            resolved_by: Some(LARS),
            ..thread(
                PRIYA,
                Some(ids::PAGE_WELCOME),
                30,
                "\"hosptials\" — good catch, it's been there since launch.",
            )
        }],
    );
    change_request
}

pub(super) fn glossary(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 705;
    let mut change_request = change_request(
        ids::CR_DRAFT,
        ids::CR_DRAFT_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Glossary: add dock, zone and waiver",
        "Work in progress: terms that the Configuration and Quickstart pages use without defining.",
        JONAS,
        day,
    );
    change_request.status = Status::Draft;
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![rewrite(
        main,
        "pg-gs-glossary",
        &[
            (
                "**Station**\n: A named pose on a site map.\n",
                "**Station**\n: A named pose on a site map.\n\n**Dock**\n: A charging station; robots \
                 return to the nearest free dock below 20 % battery.\n\n**Waiver**\n: A signed file \
                 that allows `safety.max_speed_mps` above 2.0.\n",
            ),
            (
                "| Zone | An area with special speed or access rules |",
                "| Zone | An area with special speed or access rules, drawn on the site map |",
            ),
        ],
    )];
    change_request
}

pub(super) fn faq_move(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 600;
    let mut change_request = change_request(
        ids::CR_ARCHIVED,
        ids::CR_ARCHIVED_NUMBER,
        demo::SPACE_GETTING_STARTED,
        "Move the FAQ to the support portal",
        "Proposal: keep the FAQ next to the ticket form in the support portal instead of the docs.",
        FATIMA,
        day,
    );
    change_request.status = Status::Archived;
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![
        PageEdit::Delete {
            page: ids::PAGE_FAQ.to_string(),
        },
        rewrite(
            main,
            ids::PAGE_WELCOME,
            &[(
                "* Search these docs with <kbd>/</kbd>.",
                "* Search these docs with <kbd>/</kbd>, or read the FAQ in the support portal.",
            )],
        ),
    ];
    change_request.comments = comments(
        "gs6",
        &change_request,
        day,
        &[Thread {
            reactions: &[("👍", &[FATIMA])],
            ..thread(
                AMARA,
                None,
                300,
                "Archiving: support wants to keep the FAQ in the docs for now, search traffic depends on it.",
            )
        }],
    );
    change_request
}

//! The comment threads of the busy review (Getting Started #1): on several pages and blocks,
//! with replies, reactions and resolutions.

use super::builders::{Thread, thread};
use super::{
    AMARA, DIEGO, FATIMA, HANNAH, JONAS, KWAME, LARS, PRIYA, QUICKSTART, REST_API, SOFIA,
    TOKEN_SCOPES,
};

pub(super) const TOKEN_SCOPE_THREADS: &[Thread] = &[
    Thread {
        replies: &[
            (
                FATIMA,
                "Agreed, that's the whole point of this change request 🙂",
            ),
            (
                DIEGO,
                "Support will be thrilled. Half of last week's tickets were exactly this.",
            ),
        ],
        reactions: &[("👍", &[FATIMA, JONAS, DIEGO]), ("🎉", &[AMARA])],
        ..thread(
            PRIYA,
            Some(QUICKSTART),
            35,
            "Saying `fleet:write` in the first paragraph is a big improvement. People skim straight to the curl command.",
        )
    },
    Thread {
        replies: &[(
            FATIMA,
            "Done: the Check your token step now comes before Step 1.",
        )],
        resolved_by: Some(FATIMA),
        ..thread(
            HANNAH,
            Some(QUICKSTART),
            80,
            "Requesting changes: the token check should come *before* registering the robot, otherwise readers hit the 403 first and only then read how to avoid it.",
        )
    },
    Thread {
        node: Some("Check your token"),
        replies: &[
            (FATIMA, "It exists since 3.1, see the changelog for 3.1.0."),
            (
                JONAS,
                "Confirmed on sandbox: `GET /v1/tokens/self` answers the scopes array.",
            ),
        ],
        resolved_by: Some(JONAS),
        ..thread(
            DIEGO,
            Some(QUICKSTART),
            120,
            "Is `/v1/tokens/self` public already? I couldn't find it in the API reference.",
        )
    },
    Thread {
        reactions: &[("👀", &[FATIMA])],
        ..thread(
            SOFIA,
            Some(QUICKSTART),
            150,
            "Can we use `$FLEET_TOKEN` consistently? The Python tab reads `os.environ[\"FLEET_TOKEN\"]` but never imports `os`.",
        )
    },
    Thread {
        replies: &[
            (
                FATIMA,
                "Good catch — the limits doc says `fleet:telemetry` streams are unmetered but the REST calls are not.",
            ),
            (
                LARS,
                "Then let's say \"event streams are not rate limited\" and leave the rest as is.",
            ),
            (FATIMA, "Reworded."),
        ],
        resolved_by: Some(LARS),
        ..thread(
            LARS,
            Some(QUICKSTART),
            190,
            "\"not rate limited\" is too strong. Telemetry tokens still hit the REST limits for anything that isn't a stream.",
        )
    },
    Thread {
        reactions: &[("❤️", &[FATIMA, PRIYA])],
        ..thread(
            AMARA,
            Some(QUICKSTART),
            240,
            "Love the new warning about `fleet:read`. Could we link the support article for rotating a token too?",
        )
    },
    Thread {
        node: Some("a `fleet:read` token gets"),
        replies: &[(
            FATIMA,
            "Kept it on one line in the rendered page, the markdown wraps only for the diff.",
        )],
        ..thread(
            PRIYA,
            Some(QUICKSTART),
            300,
            "Nit: the requirements item now wraps onto two lines; the em dash reads oddly in the numbered list.",
        )
    },
    Thread {
        ..thread(
            DIEGO,
            Some(QUICKSTART),
            360,
            "Customers on gateway 2.7 will still see `401` instead of `403` for a missing scope. Worth a footnote?",
        )
    },
    Thread {
        replies: &[(
            JONAS,
            "The jq filter works on macOS' jq 1.6 as well, I checked.",
        )],
        reactions: &[("👍", &[PRIYA, SOFIA])],
        ..thread(
            KWAME,
            Some(QUICKSTART),
            420,
            "Not everyone has `jq`. Maybe show the raw JSON answer below the command?",
        )
    },
    Thread {
        resolved_by: Some(FATIMA),
        ..thread(
            SOFIA,
            Some(QUICKSTART),
            480,
            "Typo: \"scopes cannot be\nchanged later\" — the line break lands in the middle of the sentence in the PDF export.",
        )
    },
    Thread {
        replies: &[(
            HANNAH,
            "+1, the API reference calls it the token introspection endpoint.",
        )],
        ..thread(
            PRIYA,
            Some(REST_API),
            520,
            "Should the REST API guide mention the introspection endpoint as well, not only the Quickstart?",
        )
    },
    Thread {
        replies: &[
            (
                FATIMA,
                "Moving it next to the Quickstart was Amara's idea from the docs review.",
            ),
            (
                AMARA,
                "Yes — analytics show 60 % of readers open the API guide right after the Quickstart.",
            ),
        ],
        reactions: &[("👍", &[DIEGO, KWAME, SOFIA])],
        resolved_by: Some(AMARA),
        ..thread(
            HANNAH,
            Some(REST_API),
            560,
            "Why move the REST API guide into Basics? It is not a basic topic.",
        )
    },
    Thread {
        reactions: &[("🚀", &[FATIMA, JONAS])],
        ..thread(
            DIEGO,
            Some(REST_API),
            600,
            "The new `fleet:telemetry` row is exactly what the monitoring partners asked for.",
        )
    },
    Thread {
        replies: &[(
            JONAS,
            "I'd keep 403 generic and put the scope hint in the message text instead.",
        )],
        ..thread(
            LARS,
            Some(REST_API),
            640,
            "In the errors table, the link inside a table cell renders badly in the terminal client.",
        )
    },
    Thread {
        node: Some("| `fleet:telemetry` | Streaming"),
        ..thread(
            SOFIA,
            Some(REST_API),
            700,
            "Should `fleet:write` say it includes `fleet:read`? The Token scopes page says so, this table doesn't.",
        )
    },
    Thread {
        resolved_by: Some(FATIMA),
        replies: &[(FATIMA, "Fixed the anchor.")],
        ..thread(
            KWAME,
            Some(REST_API),
            760,
            "The link to `token-scopes.md` is missing the anchor for *Choosing a scope*.",
        )
    },
    Thread {
        replies: &[
            (
                FATIMA,
                "90 days is what security asked for in the last audit.",
            ),
            (
                AMARA,
                "Let's make it a recommendation rather than a rule; some customers rotate monthly.",
            ),
        ],
        reactions: &[("🤔", &[LARS])],
        ..thread(
            PRIYA,
            Some(TOKEN_SCOPES),
            800,
            "Where does \"rotate every 90 days\" come from? If it's policy we should link it.",
        )
    },
    Thread {
        reactions: &[("👍", &[FATIMA, AMARA, JONAS, KWAME])],
        ..thread(
            DIEGO,
            Some(TOKEN_SCOPES),
            850,
            "This page answers the #1 question in the support queue. Thank you!",
        )
    },
    Thread {
        replies: &[(
            FATIMA,
            "Added a \"Typical user\" column instead of a paragraph per scope.",
        )],
        resolved_by: Some(PRIYA),
        ..thread(
            HANNAH,
            Some(TOKEN_SCOPES),
            900,
            "A sentence per scope on *who* should use it would help more than the list of allowed calls.",
        )
    },
    Thread {
        node: Some("Keep them out of CI"),
        ..thread(
            SOFIA,
            Some(TOKEN_SCOPES),
            950,
            "The warning hint says \"Keep them out of CI\" — but our own deploy pipeline uses an admin token. Should we say \"out of shared CI\"?",
        )
    },
    Thread {
        replies: &[
            (JONAS, "Not yet, it's planned for 3.3."),
            (
                FATIMA,
                "Then I'll drop the sentence about editing scopes and keep \"cannot be changed\".",
            ),
        ],
        ..thread(
            KWAME,
            Some(TOKEN_SCOPES),
            1000,
            "Can scopes really not be changed after creation? The settings UI shows an edit button.",
        )
    },
    Thread {
        reactions: &[("😂", &[DIEGO])],
        ..thread(
            LARS,
            Some(TOKEN_SCOPES),
            1040,
            "\"Typical user: Dashboards\" — dashboards are not users, but I'll allow it.",
        )
    },
    Thread {
        replies: &[(
            FATIMA,
            "Deleted on purpose: the checklist moved to Platform Runbooks last sprint.",
        )],
        resolved_by: Some(AMARA),
        ..thread(
            JONAS,
            None,
            1100,
            "This deletes the hidden *Launch checklist* page. Intentional?",
        )
    },
    Thread {
        reactions: &[("👍", &[FATIMA])],
        ..thread(
            AMARA,
            None,
            1150,
            "Once this is merged, please post in `#docs-updates` so support can update their macros.",
        )
    },
    Thread {
        replies: &[
            (PRIYA, "I'll take a second pass tomorrow morning."),
            (SOFIA, "Same, reviewing after the release train leaves."),
        ],
        ..thread(
            FATIMA,
            None,
            1200,
            "@Priya @Sofia — ready for another look, all of Hannah's points are addressed.",
        )
    },
    Thread {
        reactions: &[("🎉", &[FATIMA, HANNAH, DIEGO])],
        ..thread(
            DIEGO,
            None,
            1260,
            "Screenshot in the Quickstart still shows the old token settings page, but that can be a follow-up.",
        )
    },
];

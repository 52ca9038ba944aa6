//! The fault matrix: the real loop and client against the sandbox's per-route faults, screen by
//! screen. Each main screen is opened healthy, then its main read is made to fail in one way at
//! a time and the screen is refreshed with `r`; the test asserts what is shown, how often the
//! read was sent (retried by itself or not), that the screen recovers once the fault is lifted,
//! and that writes are sent exactly once.

use std::time::Duration;

use crate::common::loop_harness::Harness;
use crate::common::wait::{PATIENCE, wait_until_async};
use quire::api::{Client, ClientConfig, Token};
use quire::sandbox::{Fault, FaultRule, Faults, SandboxOptions, demo_ids, tokens};
use quire::screens::Screen;
use quire::screens::change_requests::review::ReviewScreen;
use quire::screens::site::SiteScreen;
use quire::vocabulary::change_requests::ChangeRequestRef;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

/// What the screen should do with a fault on its main read.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// An error with a retry hint, after the read was sent this many times.
    Error { sends: usize },
    /// The data again without a key, after the read was sent this many times.
    Recovers { sends: usize },
}

fn fault_cases() -> Vec<(&'static str, FaultRule, Expect)> {
    let any = |fault| FaultRule::new("", fault).method("GET");
    let busy = |seconds| Fault::TooManyRequests {
        retry_after_seconds: seconds,
    };
    vec![
        ("500", any(Fault::Status(500)), Expect::Error { sends: 1 }),
        ("502", any(Fault::Status(502)), Expect::Error { sends: 3 }),
        ("503", any(Fault::Status(503)), Expect::Error { sends: 3 }),
        ("504", any(Fault::Status(504)), Expect::Error { sends: 3 }),
        (
            "429 Retry-After 1",
            any(busy(1)),
            Expect::Error { sends: 3 },
        ),
        (
            "401 mid-session",
            any(Fault::Status(401)),
            Expect::Error { sends: 1 },
        ),
        (
            "403 mid-session",
            any(Fault::Status(403)),
            Expect::Error { sends: 1 },
        ),
        ("reset", any(Fault::Reset), Expect::Error { sends: 3 }),
        (
            "truncated body",
            any(Fault::Truncated),
            Expect::Error { sends: 3 },
        ),
        (
            "HTML with 200",
            any(Fault::Html),
            Expect::Error { sends: 1 },
        ),
        (
            "latency 300 ms",
            any(Fault::Latency(Duration::from_millis(300))),
            Expect::Recovers { sends: 1 },
        ),
        (
            "502 once",
            any(Fault::Status(502)).times(1),
            Expect::Recovers { sends: 2 },
        ),
        (
            "reset once",
            any(Fault::Reset).times(1),
            Expect::Recovers { sends: 2 },
        ),
        (
            "429 once",
            any(busy(1)).times(1),
            Expect::Recovers { sends: 2 },
        ),
    ]
}

/// A screen under test: how to open it, the read its `r` sends, and text it shows when loaded.
struct ScreenCase {
    name: &'static str,
    /// Path pattern (after `/v1`) of the read `r` sends on this screen.
    read: String,
    ready: &'static str,
}

fn texts_with_retry_hint(screen: &str) -> bool {
    screen.contains("r to retry") || screen.contains("Press r") || screen.contains("r retries")
}

async fn wait_until(what: &str, harness: &Harness, mut done: impl FnMut(&str) -> bool) {
    let happened = wait_until_async(PATIENCE, harness.backend.drawn.subscribe(), || {
        done(&harness.backend.screen())
    })
    .await;
    assert!(happened, "{what}:\n{}", harness.backend.screen());
}

async fn wait_for_sends(harness: &Harness, read: &str, count: usize) {
    let sent = wait_until_async(PATIENCE, harness.sandbox.activity(), || {
        harness.sandbox.requests("GET", read) >= count
    })
    .await;
    assert!(
        sent,
        "GET {read} sent {} times, expected {count}",
        harness.sandbox.requests("GET", read)
    );
}

/// How many copies of a screen go through the matrix at once. Most of a case is the client
/// waiting out its retries (a 429's Retry-After, the back-off after a 502), which costs no CPU:
/// three lanes, each with its own sandbox and quire, share the cases.
const LANES: usize = 3;

/// Runs the matrix on `LANES` copies of the screen at once, each opened by `open`.
async fn run_matrix<F, Opened>(screen: &ScreenCase, open: F)
where
    F: Fn() -> Opened,
    Opened: std::future::Future<Output = Harness>,
{
    let mut lanes: Vec<Vec<(&'static str, FaultRule, Expect)>> = vec![Vec::new(); LANES];
    for (index, case) in fault_cases().into_iter().enumerate() {
        lanes[index % LANES].push(case);
    }
    let runs = lanes.into_iter().map(|cases| {
        let opened = open();
        async move {
            let harness = opened.await;
            run_cases(&harness, screen, cases).await;
        }
    });
    futures::future::join_all(runs).await;
}

/// One row of the matrix per fault, printed for the report.
async fn run_cases(
    harness: &Harness,
    screen: &ScreenCase,
    cases: Vec<(&'static str, FaultRule, Expect)>,
) {
    harness.wait_for(screen.ready).await;
    for (fault_name, rule, expect) in cases {
        let rule = FaultRule {
            path: screen.read.clone(),
            ..rule
        };
        harness.sandbox.set_faults(Faults {
            rules: vec![rule],
            ..Faults::default()
        });
        let before = harness.sandbox.requests("GET", &screen.read);
        harness.press(KeyCode::Char('r'));
        let (sends, shown) = match expect {
            Expect::Error { sends } => {
                wait_for_sends(harness, &screen.read, before + sends).await;
                wait_until(
                    &format!(
                        "{}: {fault_name} shows an error with a retry hint",
                        screen.name
                    ),
                    harness,
                    texts_with_retry_hint,
                )
                .await;
                (sends, true)
            }
            Expect::Recovers { sends } => {
                wait_for_sends(harness, &screen.read, before + sends).await;
                wait_until(
                    &format!("{}: {fault_name} recovers by itself", screen.name),
                    harness,
                    |text| text.contains(screen.ready) && !texts_with_retry_hint(text),
                )
                .await;
                (sends, false)
            }
        };
        // Once nothing is under way, nothing more was sent than the rules allow.
        harness.settle().await;
        let sent = harness.sandbox.requests("GET", &screen.read) - before;
        assert_eq!(sent, sends, "{}: {fault_name}: reads sent", screen.name);
        assert!(
            !harness.running.is_finished(),
            "{}: {fault_name}: quire ended",
            screen.name
        );
        // Lift the fault: `r` brings the screen back.
        harness.sandbox.set_faults(Faults::default());
        let before_lifted = harness.sandbox.requests("GET", &screen.read);
        harness.press(KeyCode::Char('r'));
        wait_for_sends(harness, &screen.read, before_lifted + 1).await;
        wait_until(
            &format!("{}: {fault_name}: r recovers once lifted", screen.name),
            harness,
            |text| text.contains(screen.ready) && !texts_with_retry_hint(text),
        )
        .await;
        // The answer to that read lands before the next case counts.
        harness.settle().await;
        println!(
            "| {} | {fault_name} | {} | {} | yes |",
            screen.name,
            if shown { "error + r hint" } else { "data" },
            if sent > 1 {
                format!("yes ({sent} GETs)")
            } else {
                format!("no ({sent} GET)")
            },
        );
    }
}

fn case(name: &'static str, read: &str, ready: &'static str) -> ScreenCase {
    ScreenCase {
        name,
        read: read.to_owned(),
        ready,
    }
}

async fn healthy(token: &str) -> Harness {
    Harness::start(token, SandboxOptions::default()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn organizations_through_every_fault() {
    let screen = case("organizations", "*/orgs", "Acme Robotics");
    run_matrix(&screen, || healthy(tokens::ADMIN)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn organization_tree_through_every_fault() {
    let screen = case("organization tree", "/orgs/*/collections", "Engineering");
    run_matrix(&screen, || async {
        let harness = healthy(tokens::ADMIN).await;
        harness.wait_for("Acme Robotics").await;
        harness.press(KeyCode::Enter);
        harness
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn space_through_every_fault() {
    let screen = case("space", "/spaces/*/content/pages", "BASICS");
    run_matrix(&screen, || async {
        let harness = healthy(tokens::READER).await;
        harness.open_getting_started().await;
        harness
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_reader_through_every_fault() {
    // Ready once the page itself is in: the title shows before it arrives (the tree names
    // it), and a first read still on its way would be counted with the first fault's.
    let screen = case("page reader", "/spaces/*/content/page/*", "line 1/");
    run_matrix(&screen, || async {
        let harness = healthy(tokens::READER).await;
        harness.open_getting_started().await;
        harness.press(KeyCode::Char('j'));
        harness.press(KeyCode::Enter);
        harness
    })
    .await;
}

fn review_screen() -> Screen {
    Screen::Review(Box::new(ReviewScreen::new(
        ChangeRequestRef {
            space: demo_ids::SPACE_GETTING_STARTED.to_owned(),
            change_request: demo_ids::CR_REVIEW.to_owned(),
        },
        None,
    )))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn change_request_review_through_every_fault() {
    let read = format!("*/change-requests/{}", demo_ids::CR_REVIEW);
    let screen = case("change-request review", &read, "Changes (4)");
    run_matrix(&screen, || {
        Harness::start_on(tokens::ADMIN, SandboxOptions::default(), review_screen)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn site_through_every_fault() {
    let read = format!("*/sites/{}", demo_ids::SITE_DOCS);
    run_matrix(&case("site", &read, "Acme"), open_site).await;
}

async fn open_site() -> Harness {
    // The site screen opens on a site from the list; fetch it as the list would.
    let probe = Harness::start(tokens::ADMIN, SandboxOptions::default()).await;
    let client = Client::new(ClientConfig::new(
        probe.sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("client");
    let site = client
        .get_site(demo_ids::ACME, demo_ids::SITE_DOCS)
        .await
        .expect("the demo site");
    Harness::start_on(tokens::ADMIN, SandboxOptions::default(), move || {
        Screen::Site(Box::new(SiteScreen::new(demo_ids::ACME, site)))
    })
    .await
}

/// Posts a comment on the review screen's Comments tab and waits for the failure to show.
async fn post_comment_into(harness: &Harness, fault: Fault, text: &str) {
    let comments = "*/comments";
    harness.sandbox.set_faults(Faults {
        rules: vec![FaultRule::new(comments, fault).method("POST")],
        ..Faults::default()
    });
    let before = harness.sandbox.requests("POST", comments);
    harness.press(KeyCode::Char('2'));
    harness.press(KeyCode::Char('c'));
    harness.wait_for("ctrl-s send").await;
    harness.type_text(text);
    harness.press_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    let sent = wait_until_async(PATIENCE, harness.sandbox.activity(), || {
        harness.sandbox.requests("POST", comments) > before
    })
    .await;
    assert!(sent, "the comment was never sent");
    // No call, timer or retry wait is left under way: a resend would have been sent by now.
    harness.settle().await;
    assert_eq!(
        harness.sandbox.requests("POST", comments) - before,
        1,
        "a failed write is sent exactly once"
    );
    harness.sandbox.set_faults(Faults::default());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_that_fails_is_sent_once_and_kept() {
    let harness = Harness::start_on(tokens::ADMIN, SandboxOptions::default(), review_screen).await;
    harness.wait_for("Changes (4)").await;
    post_comment_into(&harness, Fault::Status(503), "Sent once").await;
    wait_until("the failure is shown", &harness, |text| {
        text.contains("503") || texts_with_retry_hint(text)
    })
    .await;
    // The text is still there to send again by hand.
    harness.wait_for("Sent once").await;
    assert!(!harness.running.is_finished());
}

/// A comment whose answer is lost is sent once and read back: stored, it is reported posted
/// (no second `ctrl-s` can duplicate it); not stored, the screen says so and keeps the text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_whose_answer_is_lost_is_sent_once_and_read_back() {
    for (fault, text, outcome) in [
        (Fault::StoreThenFail, "Stored then failed", "Comment posted"),
        (Fault::Reset, "Reset on send", "It was not saved"),
    ] {
        let harness =
            Harness::start_on(tokens::ADMIN, SandboxOptions::default(), review_screen).await;
        harness.wait_for("Changes (4)").await;
        post_comment_into(&harness, fault, text).await;
        wait_until(outcome, &harness, |screen| screen.contains(outcome)).await;
        // The composer's box holds the text while it is open.
        let composer_open = harness.backend.screen().contains(&format!("│{text}"));
        assert_eq!(
            composer_open,
            outcome != "Comment posted",
            "the text is kept only when it was not saved:\n{}",
            harness.backend.screen()
        );
        assert!(!harness.running.is_finished());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_footer_says_when_a_read_is_retried_and_r_retries_at_once() {
    // Asked to wait 20 s, then 25 s: by the clock the read gives up after its second try (20 s
    // and 25 s more is past its 30 s budget), so a third try comes only of `r` cutting both
    // waits short.
    let busy = |seconds| {
        let fault = Fault::TooManyRequests {
            retry_after_seconds: seconds,
        };
        FaultRule::new("*/orgs", fault).times(1)
    };
    let options = SandboxOptions {
        faults: Faults {
            rules: vec![busy(20), busy(25)],
            ..Faults::default()
        },
        ..SandboxOptions::default()
    };
    let harness = Harness::start(tokens::ADMIN, options).await;
    // The read and the loop share one thread: the footer says it once the read waits.
    harness.wait_for("retrying in").await;
    harness.press(KeyCode::Char('r'));
    // The second wait counts down from 25 s; the first never showed more than 20 s.
    harness
        .wait_for_screen("the read waits again", |screen| {
            (21..=25).any(|left| screen.contains(&format!("retrying in {left} s…")))
        })
        .await;
    harness.press(KeyCode::Char('r'));
    harness.wait_for("Acme Robotics").await;
    assert!(!harness.backend.screen().contains("retrying"));
    assert_eq!(
        harness.sandbox.requests("GET", "*/orgs"),
        3,
        "each r sent one read, and nothing more"
    );
}

/// Words the reviewer posted before ("LGTM") are not taken for a comment whose answer was
/// lost: the screen says it was not saved and keeps the text, and the server holds one copy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_comment_is_not_taken_for_an_older_one_with_the_same_words() {
    use quire::api::CommentFilter;
    let harness = Harness::start_on(tokens::ADMIN, SandboxOptions::default(), review_screen).await;
    harness.wait_for("Changes (4)").await;
    let client = Client::new(ClientConfig::new(
        harness.sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("a client");
    let (space, change_request) = (demo_ids::SPACE_GETTING_STARTED, demo_ids::CR_REVIEW);
    client
        .post_comment(space, change_request, "LGTM", None)
        .await
        .expect("the first LGTM");
    post_comment_into(&harness, Fault::Reset, "LGTM").await;
    wait_until("It was not saved", &harness, |screen| {
        screen.contains("It was not saved")
    })
    .await;
    let comments = client
        .list_all_comments(space, change_request, &CommentFilter::default(), 10)
        .await
        .expect("the comments");
    let copies = comments
        .items
        .iter()
        .filter(|comment| comment.body.markdown.as_deref().map(str::trim) == Some("LGTM"))
        .count();
    assert_eq!(copies, 1, "the server holds the first LGTM only");
    assert!(
        harness.backend.screen().contains("│LGTM"),
        "the composer keeps the text to send again:\n{}",
        harness.backend.screen()
    );
}

//! Two and three real quire processes on one account and one outbox, as two terminals are:
//! sends racing each other, `quire cache info` and `quire cache clear` between them, one of them
//! killed (`kill -9`) at a seeded random moment, and answers dropped after the server stored
//! the write. After every round the cache file passes SQLite's integrity check, and once the
//! outbox is drained the server holds exactly one copy of every write queued.
//!
//! `QUIRE_OUTBOX_ROUNDS=200 cargo test --test e2e outbox_processes` runs more rounds;
//! `QUIRE_OUTBOX_SEED` starts from another seed.

use std::path::Path;
use std::process::Child;

use crate::common::account::{Account, wait_with_limit};
use crate::common::outage_sandbox::OutageSandbox;
use crate::common::processes::wait_for_exit;
use crate::common::wait::{Events, PATIENCE, wait_until};
use quire::api::outbox::{Target, Write};
use quire::api::{Client, ClientConfig, CommentFilter, Token};
use quire::sandbox::{Fault, FaultRule, Faults, demo_ids, tokens};

const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;
const CR: &str = demo_ids::CR_REVIEW;

/// How many comments on the change request, and replies in `thread`, say exactly `text`.
fn copies(server: &OutageSandbox, client: &Client, thread: &str, text: &str) -> usize {
    server.runtime.block_on(async {
        let comments = client
            .list_all_comments(SPACE, CR, &CommentFilter::default(), 50)
            .await
            .expect("the comments");
        let replies = client
            .all_replies(SPACE, CR, thread, 50)
            .await
            .expect("the replies");
        let said = |body: Option<&str>| body.map(str::trim) == Some(text);
        comments
            .items
            .iter()
            .filter(|comment| said(comment.body.markdown.as_deref()))
            .count()
            + replies
                .items
                .iter()
                .filter(|reply| said(reply.body.markdown.as_deref()))
                .count()
    })
}

fn integrity(path: &Path) -> String {
    let connection = rusqlite::Connection::open(path).expect("the cache file opens");
    connection
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .expect("an integrity check")
}

/// The writes of one round: a comment with words used in every round ("LGTM": only a new copy
/// may count as sent), a comment and a reply of its own.
fn writes_of_round(round: u64, thread: &str) -> Vec<Write> {
    vec![
        Write::Comment {
            markdown: "LGTM".to_string(),
            page: None,
            node: None,
            table_cell: None,
        },
        Write::Comment {
            markdown: format!("Round {round}: the steps read well"),
            page: None,
            node: None,
            table_cell: None,
        },
        Write::Reply {
            comment: thread.to_string(),
            markdown: format!("Round {round}: agreed"),
        },
    ]
}

fn rounds() -> u64 {
    std::env::var("QUIRE_OUTBOX_ROUNDS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(20)
}

fn first_seed() -> u64 {
    std::env::var("QUIRE_OUTBOX_SEED")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(0x5eed)
}

/// Writes the server has been sent so far (stored or not, answered or not).
fn writes_sent(server: &OutageSandbox) -> usize {
    server.sandbox.requests("POST", "*/comments") + server.sandbox.requests("POST", "*/replies")
}

/// Waits until the senders have sent `target` writes in all, or have all ended (then no more
/// come from them). Wakes at each step of the server (`events` follows it) and at each
/// sender's end.
fn wait_for_writes(server: &OutageSandbox, events: &Events, senders: &mut [Child], target: usize) {
    for sender in senders.iter() {
        let (pid, ended) = (sender.id(), events.clone());
        std::thread::spawn(move || {
            wait_for_exit(pid, PATIENCE);
            ended.happened();
        });
    }
    let reached = wait_until(PATIENCE, events, || {
        writes_sent(server) >= target
            || senders
                .iter_mut()
                .all(|sender| matches!(sender.try_wait(), Ok(Some(_))))
    });
    assert!(
        reached,
        "{} writes sent, the senders still running",
        writes_sent(server)
    );
}

/// A client of the sandbox as the account's user, to read what the server stored.
fn admin_client(server: &OutageSandbox) -> Client {
    Client::new(ClientConfig::new(
        server.sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("a client")
}

#[test]
fn queued_writes_land_exactly_once_beside_other_quires_kills_and_lost_answers() {
    let server = OutageSandbox::start();
    let account = Account::new(&server);
    let client = admin_client(&server);
    let thread = server
        .runtime
        .block_on(client.list_comments(SPACE, CR, &CommentFilter::default(), None))
        .expect("the threads")
        .items[0]
        .id
        .clone();
    // The file exists before the first round, as after any earlier session.
    assert!(account.run(&["cache", "info"]).status.success());
    let lgtm_before = copies(&server, &client, &thread, "LGTM");
    let events = Events::new();
    events.follow(server.runtime.handle(), server.sandbox.activity());

    let rounds = rounds();
    for round in 0..rounds {
        let seed = first_seed().wrapping_add(round);
        let mut rng = fastrand::Rng::with_seed(seed);
        let writes = writes_of_round(round, &thread);
        {
            let outbox = account.outbox();
            for write in &writes {
                outbox
                    .enqueue(&Target::new(SPACE, CR), write)
                    .expect("queued");
            }
        }
        // Now and then the server stores a write and its answer is lost.
        let lost_answers = rng.bool();
        if lost_answers {
            server.sandbox.set_faults(Faults {
                rules: vec![
                    FaultRule::new("*/comments", Fault::StoreThenFail)
                        .method("POST")
                        .times(1),
                    FaultRule::new("*/replies", Fault::StoreThenFail)
                        .method("POST")
                        .times(1),
                ],
                ..Faults::default()
            });
        }
        let senders = rng.usize(2..=3);
        let mut running: Vec<Child> = (0..senders)
            .map(|_| account.start(&["outbox", "send", "--yes"]))
            .collect();
        let clear_or_info = if rng.bool() { "clear" } else { "info" };
        running.push(account.start(&["cache", clear_or_info]));
        // One sender is killed at a random moment: before, during or after its sends. The moment
        // is drawn as how many of the round's writes the server has been sent by then.
        let sent_before = writes_sent(&server);
        let sent_by_then = rng.usize(0..=writes.len());
        wait_for_writes(
            &server,
            &events,
            &mut running[..senders],
            sent_before + sent_by_then,
        );
        let victim = rng.usize(0..senders);
        let _ = running[victim].kill();
        for child in running {
            let _ = wait_with_limit(child);
        }
        server.sandbox.set_faults(Faults::default());
        assert_eq!(
            integrity(&account.cache),
            "ok",
            "round {round} (seed {seed}) left a damaged file"
        );
        // What a killed quire left is taken over, read back and sent by the next one.
        for _ in 0..3 {
            if account.outbox().count().expect("counted") == 0 {
                break;
            }
            let drained = account.run(&["outbox", "send", "--yes"]);
            assert!(
                drained.status.code() != Some(3),
                "round {round} (seed {seed}): {}",
                String::from_utf8_lossy(&drained.stdout)
            );
        }
        assert_eq!(
            account.outbox().count().expect("counted"),
            0,
            "round {round} (seed {seed}): writes left in the outbox"
        );
        for write in &writes[1..] {
            let text = write.markdown().expect("a text");
            assert_eq!(
                copies(&server, &client, &thread, text),
                1,
                "round {round} (seed {seed}, answers lost: {lost_answers}): {text:?}"
            );
        }
        assert_eq!(
            copies(&server, &client, &thread, "LGTM"),
            lgtm_before + round as usize + 1,
            "round {round} (seed {seed}, answers lost: {lost_answers}): one LGTM a round"
        );
    }
    server.shutdown();
}

/// The files of the cache this process has open that were deleted under it.
fn deleted_under_us(cache: &Path) -> Vec<String> {
    let folder = cache.parent().expect("a folder").display().to_string();
    std::fs::read_dir("/proc/self/fd")
        .expect("our descriptors")
        .filter_map(|entry| std::fs::read_link(entry.ok()?.path()).ok())
        .map(|target| target.display().to_string())
        .filter(|target| target.starts_with(&folder) && target.ends_with("(deleted)"))
        .collect()
}

/// A quire that uses its cache and outbox (this test process, through the same library calls)
/// keeps its locks on the file: another quire's `cache info` and `cache clear` cannot checkpoint
/// and delete the write-ahead log under it, and a write queued afterwards is there for others.
#[test]
fn another_quires_cache_commands_leave_a_running_quires_files_in_place() {
    let server = OutageSandbox::start();
    let account = Account::new(&server);
    let client = admin_client(&server);
    client.use_cache(quire::api::cache::Cache::open(&account.cache, 10 << 20).expect("a cache"));
    server
        .runtime
        .block_on(client.list_organizations(None))
        .expect("a read, kept in the cache");
    let outbox = client.outbox().expect("the outbox beside the cache");
    for command in ["info", "clear", "info"] {
        let output = account.run(&["cache", command]);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(deleted_under_us(&account.cache), Vec::<String>::new());
    }
    let comment = Write::Comment {
        markdown: "Queued after the other quire's cache commands".to_string(),
        page: None,
        node: None,
        table_cell: None,
    };
    outbox
        .enqueue(&Target::new(SPACE, CR), &comment)
        .expect("queued");
    let listed = account.run(&["outbox", "list"]);
    assert!(
        String::from_utf8_lossy(&listed.stdout).contains("Queued after the other quire's"),
        "{listed:?}"
    );
    assert_eq!(integrity(&account.cache), "ok");
    server.shutdown();
}

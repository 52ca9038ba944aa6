//! `quire outbox list` and `quire outbox send`: the writes queued while the server could not
//! be reached, from a shell. Sending goes through the same claims and read-backs as the app's
//! Outbox, so a script, a second terminal and the app never send one write twice.

use std::io::{IsTerminal, Write as _};
use std::sync::Arc;

use clap::Subcommand;

use crate::api::outbox::{Outbox, Queued};
use crate::api::outbox_send::{Sent, send_queued};
use crate::api::{ApiError, Client};
use crate::cli::api::{EXIT_FAILED, EXIT_UNKNOWN, EXIT_USAGE};
use crate::cli::output::Streams;

#[derive(Debug, Clone, Subcommand)]
pub enum OutboxCommand {
    /// The writes waiting, oldest first: id, change request, what it is.
    List,
    /// Send the writes waiting (all, or the ids given), oldest first. One whose earlier send
    /// got no answer is read back first. Asks first on a terminal; a script says --yes.
    Send {
        /// Ids from `quire outbox list`; none sends every write.
        ids: Vec<i64>,
        /// Send without asking.
        #[arg(long)]
        yes: bool,
    },
}

/// Why `quire --demo outbox …` is refused.
pub const NOT_IN_THE_DEMO: &str = "the demo's server lives inside each quire and ends with it: send the demo's outbox from the app";

/// Runs `command` for the account `(server, token)`, on the outbox beside its cache (off with
/// `offline`: nothing is sent); the exit status.
pub async fn run_for(
    command: &OutboxCommand,
    file: &crate::config::ConfigFile,
    (server, token): (&str, &str),
    offline: bool,
) -> color_eyre::Result<i32> {
    let client = crate::cli::signin::make_client(server, token)?;
    let mut streams = Streams::std();
    if let Some(without) = crate::cli::cache::attach(&client, file, server, token, offline) {
        streams.error(&format!("quire: {without}"));
    }
    Ok(run(command, &client, &mut streams).await)
}

/// Runs `command` on the outbox beside `client`'s cache; the exit status.
pub async fn run(command: &OutboxCommand, client: &Client, streams: &mut Streams) -> i32 {
    let Some(outbox) = client.outbox() else {
        streams
            .error("quire: no outbox: the cache is off or cannot be opened (`quire cache info`).");
        return EXIT_FAILED;
    };
    let writes = match outbox.in_background(Outbox::list).await {
        Ok(writes) => writes,
        Err(error) => {
            streams.error(&format!("quire: {error}"));
            return EXIT_FAILED;
        }
    };
    match command {
        OutboxCommand::List => {
            list(&writes, streams);
            0
        }
        OutboxCommand::Send { ids, yes } => send(client, &outbox, writes, ids, *yes, streams).await,
    }
}

fn list(writes: &[Queued], streams: &mut Streams) {
    if writes.is_empty() && streams.out_is_terminal {
        let _ = writeln!(streams.out, "Nothing waits in the outbox.");
    }
    for queued in writes {
        let state = if queued.attempted { "\ttried" } else { "" };
        let line = format!(
            "{}\t{} #{}\t{}{state}",
            queued.id,
            queued.target.space,
            queued.target.change_request,
            crate::vocabulary::outbox::write_line(&queued.write, "")
        );
        let _ = writeln!(streams.out, "{}", crate::ui::sanitize::sanitize(&line));
    }
}

async fn send(
    client: &Client,
    outbox: &Arc<Outbox>,
    writes: Vec<Queued>,
    ids: &[i64],
    yes: bool,
    streams: &mut Streams,
) -> i32 {
    let chosen: Vec<Queued> = writes
        .into_iter()
        .filter(|queued| ids.is_empty() || ids.contains(&queued.id))
        .collect();
    if let Some(missing) = ids.iter().find(|id| !chosen.iter().any(|q| q.id == **id)) {
        streams.error(&format!(
            "quire: no write {missing} in the outbox (`quire outbox list`)."
        ));
        return EXIT_USAGE;
    }
    if chosen.is_empty() {
        if streams.out_is_terminal {
            let _ = writeln!(streams.out, "Nothing waits in the outbox.");
        }
        return 0;
    }
    if !yes {
        if !std::io::stdin().is_terminal() {
            streams.error(
                "quire: sending from a script needs --yes (standard input is not a terminal to \
                 ask on)",
            );
            return EXIT_USAGE;
        }
        let question = format!(
            "Send {}? [y/N] ",
            crate::ui::time::plural(chosen.len(), "queued write", "queued writes")
        );
        if !crate::cli::change_requests::act::asked_yes(streams, &question) {
            streams.error("Nothing sent.");
            return EXIT_FAILED;
        }
    }
    let mut status = 0;
    for queued in &chosen {
        streams.progress(&format!("Sending {}", queued.id));
        let sent = send_queued(client, outbox, queued.id, !ids.is_empty()).await;
        streams.done();
        status = status.max(say(streams, queued.id, &sent));
    }
    status
}

/// One line on what became of write `id`; the exit status it calls for (the worst wins:
/// unknown over failed over done).
fn say(streams: &mut Streams, id: i64, sent: &Sent) -> i32 {
    let (line, status) = match sent {
        Sent::Sent => (format!("{id}\tsent"), 0),
        Sent::AlreadyThere => (
            format!("{id}\talready there (an earlier send landed): not sent again"),
            0,
        ),
        Sent::Elsewhere => (format!("{id}\tleft to another quire, which sends it"), 0),
        Sent::Kept(error @ ApiError::MaybeSaved { .. }) => (
            format!("{id}\tkept: {}", error.user_message()),
            EXIT_UNKNOWN,
        ),
        Sent::Kept(error) if error.outcome_unknown() => (
            format!(
                "{id}\tkept, outcome unknown: {}; it is read back before it is sent again",
                error.command_line_message()
            ),
            EXIT_UNKNOWN,
        ),
        Sent::Kept(error) => (format!("{id}\tkept: {}", error.command_line_message()), 1),
        Sent::Outbox(error) => (format!("{id}\tkept: {error}"), 1),
    };
    let _ = writeln!(streams.out, "{}", crate::ui::sanitize::sanitize(&line));
    status
}

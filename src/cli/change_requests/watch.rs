//! `quire cr watch N --space S`: looks at a change request every `--interval` seconds and
//! prints what happened since the last look, one line each (a comment, a reply, a review, a
//! status change, a new revision), until it reaches a state `--until` names (merged, approved,
//! changes requested, archived; any of them by default): exit 0. Merged or archived while
//! waiting for something else: exit 5, since what it waits for cannot come any more. A server
//! that stops answering is tried again, less and less often, with a line on stderr; it is
//! never the end of the watch.

use std::time::Duration;

use crate::api::change_requests::watch::{Actor, Event, Snapshot, changes};
use crate::api::home::ReviewState;
use crate::api::retry::is_transient;
use crate::api::{ApiError, ChangeRequestStatus, Client};
use crate::cli::output::Streams;
use crate::cli::script::{Failure, Outcome};

/// Seconds between looks when neither `--interval` nor the config file's
/// `watch_interval_secs` says.
pub const DEFAULT_INTERVAL_SECS: u64 = 30;
/// The longest wait between two tries while the server does not answer.
const LONGEST_RETRY: Duration = Duration::from_secs(60);

/// The states `--until` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WatchState {
    Merged,
    Approved,
    ChangesRequested,
    Archived,
}

impl WatchState {
    const ALL: [WatchState; 4] = [
        WatchState::Merged,
        WatchState::Approved,
        WatchState::ChangesRequested,
        WatchState::Archived,
    ];

    fn as_str(self) -> &'static str {
        match self {
            WatchState::Merged => "merged",
            WatchState::Approved => "approved",
            WatchState::ChangesRequested => "changes-requested",
            WatchState::Archived => "archived",
        }
    }
}

pub(super) struct Watch<'a> {
    pub client: &'a Client,
    pub space: &'a str,
    pub number: &'a str,
    pub until: &'a [WatchState],
    pub interval: Duration,
}

impl Watch<'_> {
    pub(super) async fn run(&self, streams: &mut Streams) -> Outcome {
        let wanted: Vec<WatchState> = if self.until.is_empty() {
            WatchState::ALL.to_vec()
        } else {
            self.until.to_vec()
        };
        let mut seen = Snapshot::read(self.client, self.space, self.number).await?;
        print(streams, &[self.first_line(&seen)]);
        loop {
            if let Some(end) = ending(&seen, &wanted, self.number) {
                return end;
            }
            tokio::time::sleep(self.interval).await;
            let (now, events) = self.next_look(&seen, streams).await?;
            print(streams, &events);
            seen = now;
        }
    }

    fn first_line(&self, seen: &Snapshot) -> Event {
        let change_request = &seen.change_request;
        let status = seen.status().map_or("unknown", ChangeRequestStatus::as_str);
        Event {
            at: change_request.updated_at.clone().unwrap_or_default(),
            what: format!(
                "watching #{} “{}”: {status}, review {}",
                self.number,
                change_request.subject,
                seen.review().as_str()
            ),
            actor: Actor::Unsaid,
            id: String::new(),
        }
    }

    /// The next look that gets an answer, and what changed since `seen`. While the server
    /// cannot be reached or is in trouble, the look is tried again, the wait doubling from
    /// the interval up to [`LONGEST_RETRY`], and stderr says so once per failure and once
    /// when it answers again.
    async fn next_look(
        &self,
        seen: &Snapshot,
        streams: &mut Streams,
    ) -> Result<(Snapshot, Vec<Event>), Failure> {
        let mut wait = self.interval;
        let mut failed = false;
        loop {
            let looked = async {
                let now = Snapshot::read(self.client, self.space, self.number).await?;
                let events = changes(self.client, self.space, self.number, seen, &now).await?;
                Ok::<_, ApiError>((now, events))
            };
            match looked.await {
                Ok(answer) => {
                    if failed {
                        streams.error("quire: the server answers again; watching on");
                    }
                    return Ok(answer);
                }
                Err(error) if error.is_unreachable() || is_transient(&error) => {
                    let cause = error
                        .unreachable_cause()
                        .unwrap_or_else(|| error.command_line_message());
                    streams.error(&format!(
                        "quire: lost the server ({cause}); trying again in {}s",
                        wait.as_secs()
                    ));
                    failed = true;
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(LONGEST_RETRY.max(self.interval));
                }
                Err(error) => return Err(Failure::Api(error)),
            }
        }
    }
}

/// The state `--until` can name that the change request is in now, if any.
fn state(seen: &Snapshot) -> Option<WatchState> {
    match seen.status()? {
        ChangeRequestStatus::Merged => Some(WatchState::Merged),
        ChangeRequestStatus::Archived => Some(WatchState::Archived),
        ChangeRequestStatus::Open | ChangeRequestStatus::Draft => match seen.review() {
            ReviewState::Approved => Some(WatchState::Approved),
            ReviewState::ChangesRequested => Some(WatchState::ChangesRequested),
            ReviewState::Pending => None,
        },
        ChangeRequestStatus::Other(_) => None,
    }
}

/// Exit 0 once in a wanted state; exit 5 once merged or archived otherwise; None to go on.
fn ending(seen: &Snapshot, wanted: &[WatchState], number: &str) -> Option<Outcome> {
    if state(seen).is_some_and(|state| wanted.contains(&state)) {
        return Some(Ok(()));
    }
    let status = seen.status()?;
    if matches!(
        status,
        ChangeRequestStatus::Merged | ChangeRequestStatus::Archived
    ) {
        let waited: Vec<&str> = wanted.iter().map(|state| state.as_str()).collect();
        return Some(Err(Failure::NotReached(format!(
            "#{number} is {} while waiting for {}; that cannot come any more",
            status.as_str(),
            waited.join(" or ")
        ))));
    }
    None
}

fn print(streams: &mut Streams, events: &[Event]) {
    use std::io::Write;
    streams.done();
    for event in events {
        let line = format!("{}  {}", event.at, event.what);
        let _ = writeln!(streams.out, "{}", crate::ui::sanitize::sanitize(&line));
    }
    let _ = streams.out.flush();
}

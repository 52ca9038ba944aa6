//! `quire cr watch N --space S`: looks at a change request every `--interval` seconds and
//! prints what happened since the last look, one line each (a comment, a reply, a review, a
//! status change, a new revision), until it reaches a state `--until` names (merged, approved,
//! changes requested, archived; any of them by default): exit 0. Merged or archived while
//! waiting for something else: exit 5, since what it waits for cannot come any more. A server
//! that stops answering is tried again, less and less often, with a line on stderr; it is
//! never the end of the watch.

use std::time::Duration;

use crate::api::home::{ReviewState, review_state};
use crate::api::retry::is_transient;
use crate::api::{
    ApiError, ChangeRequest, ChangeRequestReview, ChangeRequestStatus, Client, Comment,
    CommentFilter, CommentStatusFilter, ReviewStatus, User,
};
use crate::cli::output::Streams;
use crate::cli::script::{Failure, Outcome};

/// Seconds between looks when neither `--interval` nor the config file's
/// `watch_interval_secs` says.
pub const DEFAULT_INTERVAL_SECS: u64 = 30;
/// The longest wait between two tries while the server does not answer.
const LONGEST_RETRY: Duration = Duration::from_secs(60);
/// Pages of comments and of a thread's replies read per look.
const MAX_PAGES: usize = 10;

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

/// What one look saw.
struct Snapshot {
    change_request: ChangeRequest,
    comments: Vec<Comment>,
    reviews: Vec<ChangeRequestReview>,
}

impl Snapshot {
    async fn read(client: &Client, space: &str, number: &str) -> Result<Snapshot, ApiError> {
        let every_thread = CommentFilter {
            status: Some(CommentStatusFilter::All),
            ..CommentFilter::default()
        };
        let (change_request, comments, reviews) = tokio::try_join!(
            client.get_change_request(space, number),
            client.list_all_comments(space, number, &every_thread, MAX_PAGES),
            client.list_reviews(space, number, None),
        )?;
        Ok(Snapshot {
            change_request,
            comments: comments.items,
            reviews: reviews.items,
        })
    }

    fn status(&self) -> Option<&ChangeRequestStatus> {
        self.change_request.status.as_ref()
    }

    fn review(&self) -> ReviewState {
        review_state(&self.reviews)
    }

    /// The state `--until` can name that the change request is in now, if any.
    fn state(&self) -> Option<WatchState> {
        match self.status()? {
            ChangeRequestStatus::Merged => Some(WatchState::Merged),
            ChangeRequestStatus::Archived => Some(WatchState::Archived),
            ChangeRequestStatus::Open | ChangeRequestStatus::Draft => match self.review() {
                ReviewState::Approved => Some(WatchState::Approved),
                ReviewState::ChangesRequested => Some(WatchState::ChangesRequested),
                ReviewState::Pending => None,
            },
            ChangeRequestStatus::Other(_) => None,
        }
    }
}

/// One line of the watch: when, and what.
struct Event {
    at: String,
    what: String,
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

/// Exit 0 once in a wanted state; exit 5 once merged or archived otherwise; None to go on.
fn ending(seen: &Snapshot, wanted: &[WatchState], number: &str) -> Option<Outcome> {
    if seen.state().is_some_and(|state| wanted.contains(&state)) {
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

/// What changed from `seen` to `now`, oldest first. New replies are read from the threads
/// whose reply count grew.
async fn changes(
    client: &Client,
    space: &str,
    number: &str,
    seen: &Snapshot,
    now: &Snapshot,
) -> Result<Vec<Event>, ApiError> {
    let mut events = status_and_revision(seen, now);
    // A review's comment is told with the review, not again as a comment.
    let of_reviews: Vec<&str> = now
        .reviews
        .iter()
        .filter_map(|review| review.comment.as_ref()?.id.as_deref())
        .collect();
    for comment in &now.comments {
        let before = seen.comments.iter().find(|old| old.id == comment.id);
        if before.is_none() && !of_reviews.contains(&comment.id.as_str()) {
            events.push(Event {
                at: comment.posted_at.clone().unwrap_or_default(),
                what: format!(
                    "comment by {}: {}",
                    name(comment.posted_by.as_ref()),
                    excerpt(comment.body.markdown())
                ),
            });
        }
        let had = before.map_or(0, |old| old.replies.unwrap_or(0));
        let has = comment.replies.unwrap_or(0);
        if has > had {
            let replies = client
                .all_replies(space, number, &comment.id, MAX_PAGES)
                .await?;
            let skip = usize::try_from(had).unwrap_or(usize::MAX);
            for reply in replies.items.iter().skip(skip) {
                events.push(Event {
                    at: reply.posted_at.clone().unwrap_or_default(),
                    what: format!(
                        "reply by {} to {}: {}",
                        name(reply.posted_by.as_ref()),
                        name(comment.posted_by.as_ref()),
                        excerpt(reply.body.markdown())
                    ),
                });
            }
        }
    }
    for review in &now.reviews {
        let same = |old: &&ChangeRequestReview| {
            old.id == review.id
                && old.status == review.status
                && old.updated_at == review.updated_at
        };
        if !seen.reviews.iter().any(|old| same(&old)) {
            events.push(review_event(review));
        }
    }
    events.sort_by(|one, other| one.at.cmp(&other.at));
    Ok(events)
}

fn status_and_revision(seen: &Snapshot, now: &Snapshot) -> Vec<Event> {
    let mut events = Vec::new();
    let change_request = &now.change_request;
    let updated = change_request.updated_at.clone().unwrap_or_default();
    if now.status() != seen.status() {
        let word = |status: Option<&ChangeRequestStatus>| {
            status
                .map_or("unknown", ChangeRequestStatus::as_str)
                .to_string()
        };
        let merged = now.status() == Some(&ChangeRequestStatus::Merged);
        let by = match &change_request.merged_by {
            Some(user) if merged => format!(" by {}", name(Some(user))),
            _ => String::new(),
        };
        let at = match &change_request.merged_at {
            Some(at) if merged => at.clone(),
            _ => updated.clone(),
        };
        events.push(Event {
            at,
            what: format!(
                "status {} → {}{by}",
                word(seen.status()),
                word(now.status())
            ),
        });
    }
    let revised = change_request.revision != seen.change_request.revision;
    if revised && now.status() != Some(&ChangeRequestStatus::Merged) {
        events.push(Event {
            at: updated,
            what: format!(
                "new revision {}",
                change_request.revision.as_deref().unwrap_or("")
            ),
        });
    }
    events
}

fn review_event(review: &ChangeRequestReview) -> Event {
    let verdict = match &review.status {
        Some(ReviewStatus::Approved) => "approved".to_string(),
        Some(ReviewStatus::ChangesRequested) => "changes requested".to_string(),
        Some(other) => other.as_str().to_string(),
        None => "reviewed".to_string(),
    };
    let said = review
        .comment
        .as_ref()
        .and_then(|comment| comment.markdown())
        .map(|text| format!(": {}", excerpt(Some(text))))
        .unwrap_or_default();
    Event {
        at: review
            .updated_at
            .clone()
            .or_else(|| review.created_at.clone())
            .unwrap_or_default(),
        what: format!(
            "review by {}: {verdict}{said}",
            name(review.reviewer.as_ref())
        ),
    }
}

fn name(user: Option<&User>) -> String {
    match user {
        Some(user) if !user.display_name.is_empty() => user.display_name.clone(),
        Some(user) => user.id.clone(),
        None => "someone".to_string(),
    }
}

/// The first line of a text, at most 80 characters.
fn excerpt(text: Option<&str>) -> String {
    let line = text.unwrap_or("").lines().next().unwrap_or("").trim();
    let mut cut: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        cut.push('…');
    }
    cut
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

//! The demo's other people at work: now and then one of them comments on, replies in, reviews
//! or edits an open change request, so that someone trying `--demo` sees their lists change and
//! a ping arrive without a second terminal.
//!
//! Comments, replies and reviews go through the sandbox's own routes with the actor's token, as
//! any client's would, so they obey the same roles and rules. A new revision is written to the
//! world directly: the API has no route that edits a change request's content.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, header};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::Instant;
use tower::ServiceExt;

use crate::change_requests::model::{PageEdit, Status};
use crate::context::Shared;
use crate::{demo, tokens};

/// Who acts, in turn: everyone of the demo who may write in a change request, the
/// administrator last so that a user signed in as the administrator sees the others first.
const ACTORS: [&str; 4] = [
    tokens::REVIEWER,
    tokens::EDITOR,
    tokens::COMMENTER,
    tokens::ADMIN,
];

/// What the others say; short, so a row of the outbox or a ping shows all of it.
const REMARKS: [&str; 5] = [
    "Read it again: the steps work on a clean machine.",
    "Could this link to the troubleshooting page?",
    "Small thing: the second example misses a closing quote.",
    "Agreed with the change, thanks.",
    "Does this still hold for the older release?",
];

/// The demo's people, acting through the sandbox's routes.
#[derive(Clone)]
pub(crate) struct People {
    pub app: Router,
    pub shared: Arc<Shared>,
    /// How many acts were taken: the next one's number.
    pub acts: Arc<AtomicU64>,
}

impl People {
    /// The next act, now.
    pub(crate) async fn act_now(&self) -> Option<String> {
        let turn = self.acts.fetch_add(1, Ordering::SeqCst);
        act(&self.app, &self.shared, turn).await
    }

    /// Acts every `period` until the sandbox stops.
    pub(crate) async fn keep_acting(self, period: Duration, mut stopped: watch::Receiver<bool>) {
        let mut ticks = tokio::time::interval_at(Instant::now() + period, period);
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                changed = stopped.changed() => {
                    if changed.is_err() || *stopped.borrow() {
                        return;
                    }
                    continue;
                }
            }
            if let Some(done) = self.act_now().await {
                tracing::info!(%done, "a demo user acted");
            }
        }
    }
}

/// One open change request the demo's people may act on.
struct Candidate {
    space: String,
    space_title: String,
    id: String,
    number: u32,
    creator: String,
    threads: Vec<String>,
    edited_page: Option<String>,
}

/// The kinds of act, taken in turn.
#[derive(Clone, Copy, Debug)]
enum Act {
    Comment,
    Reply,
    Review,
    Revise,
}

const ACTS: [Act; 4] = [Act::Comment, Act::Review, Act::Reply, Act::Revise];

/// Carries out the `turn`-th act: who, on what and how follow from the number, so a run is
/// the same each time. Returns what happened in words, or None when nothing could be done
/// (no open change request, or every try was refused).
async fn act(router: &Router, shared: &Arc<Shared>, turn: u64) -> Option<String> {
    let candidates = open_change_requests(shared).await;
    if candidates.is_empty() {
        return None;
    }
    let index = usize::try_from(turn).unwrap_or(0);
    let candidate = &candidates[(index * 7 + 3) % candidates.len()];
    // An act that is refused (the actor may not review, say) gives way to the next kind.
    for offset in 0..ACTS.len() {
        let kind = ACTS[(index + offset) % ACTS.len()];
        let Some(token) = actor_for(shared, candidate, index + offset).await else {
            continue;
        };
        if let Some(done) = try_act(router, shared, candidate, kind, token, index).await {
            return Some(done);
        }
    }
    None
}

/// An actor who did not open the change request: acting on one's own is what the user does.
async fn actor_for(shared: &Shared, candidate: &Candidate, start: usize) -> Option<&'static str> {
    let world = shared.world.read().await;
    (0..ACTORS.len())
        .map(|step| ACTORS[(start + step) % ACTORS.len()])
        .find(|token| world.tokens.get(*token) != Some(&candidate.creator))
}

async fn try_act(
    router: &Router,
    shared: &Arc<Shared>,
    candidate: &Candidate,
    kind: Act,
    token: &str,
    index: usize,
) -> Option<String> {
    let base = format!(
        "/v1/spaces/{}/change-requests/{}",
        candidate.space, candidate.id
    );
    let remark = REMARKS[index % REMARKS.len()];
    let said = match kind {
        Act::Comment => {
            let body = json!({ "body": { "markdown": remark } });
            send(router, token, &format!("{base}/comments"), body).await?;
            "commented on"
        }
        Act::Reply => {
            let thread = candidate
                .threads
                .get(index % candidate.threads.len().max(1))?;
            let body = json!({ "body": { "markdown": remark } });
            let path = format!("{base}/comments/{thread}/replies");
            send(router, token, &path, body).await?;
            "replied in"
        }
        Act::Review => {
            let status = if index % 3 == 2 {
                "changes-requested"
            } else {
                "approved"
            };
            send(
                router,
                token,
                &format!("{base}/reviews"),
                json!({ "status": status }),
            )
            .await?;
            if status == "approved" {
                "approved"
            } else {
                "requested changes on"
            }
        }
        Act::Revise => {
            revise(shared, candidate, token, remark).await?;
            "pushed a new revision of"
        }
    };
    let who = name_of(shared, token).await;
    Some(format!(
        "{who} {said} change request #{} in {}",
        candidate.number, candidate.space_title
    ))
}

/// POSTs `body` to `path` as the holder of `token`; Some when the sandbox took it.
async fn send(router: &Router, token: &str, path: &str, body: Value) -> Option<()> {
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .ok()?;
    let answer = router.clone().oneshot(request).await.ok()?;
    if answer.status().is_success() {
        Some(())
    } else {
        tracing::debug!(status = %answer.status(), path, "a demo act was refused");
        None
    }
}

/// A new revision: a line added to a page the change request already edits, by `token`'s
/// holder, who becomes a contributor.
async fn revise(shared: &Shared, candidate: &Candidate, token: &str, remark: &str) -> Option<()> {
    let page = candidate.edited_page.clone()?;
    let mut world = shared.world.write().await;
    let user = world.tokens.get(token)?.clone();
    let now = world.now().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    let revision = world.change_requests.new_id("rev");
    let change_request = world
        .change_requests
        .items
        .iter_mut()
        .find(|change_request| change_request.id == candidate.id)?;
    let markdown = change_request
        .edits
        .iter_mut()
        .find_map(|edit| match edit {
            PageEdit::Edit {
                page: edited,
                markdown: Some(markdown),
                ..
            } if *edited == page => Some(markdown),
            _ => None,
        })?;
    markdown.push_str(&format!("\n\n> Note: {remark}\n"));
    change_request.revision = revision;
    change_request.updated_at = now;
    if !change_request.editors.contains(&user) && change_request.created_by != user {
        change_request.editors.push(user);
    }
    Some(())
}

/// The open change requests of the demo's own organizations (not the big one, whose threads are
/// there to be counted, not joined).
async fn open_change_requests(shared: &Shared) -> Vec<Candidate> {
    let world = shared.world.read().await;
    let big_spaces: Vec<&str> = world
        .spaces
        .iter()
        .filter(|space| space.organization == demo::big::ORGANIZATION)
        .map(|space| space.id.as_str())
        .collect();
    world
        .change_requests
        .items
        .iter()
        .filter(|change_request| change_request.status == Status::Open)
        .filter(|change_request| !big_spaces.contains(&change_request.space.as_str()))
        .map(|change_request| Candidate {
            space: change_request.space.clone(),
            space_title: world
                .space(&change_request.space)
                .map(|space| space.title.clone())
                .unwrap_or_default(),
            id: change_request.id.clone(),
            number: change_request.number,
            creator: change_request.created_by.clone(),
            threads: change_request
                .comments
                .iter()
                .filter(|comment| comment.resolved.is_none())
                .map(|comment| comment.id.clone())
                .collect(),
            edited_page: change_request.edits.iter().find_map(|edit| match edit {
                PageEdit::Edit {
                    page,
                    markdown: Some(_),
                    ..
                } => Some(page.clone()),
                _ => None,
            }),
        })
        .collect()
}

async fn name_of(shared: &Shared, token: &str) -> String {
    let world = shared.world.read().await;
    world
        .tokens
        .get(token)
        .and_then(|id| world.users.iter().find(|user| &user.id == id))
        .map(|user| user.display_name.clone())
        .unwrap_or_else(|| token.to_string())
}

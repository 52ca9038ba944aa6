//! The built-in API server: in memory, its own types, used by `--demo`, `quire sandbox` and tests.
//!
//! It speaks the platform's v1 REST API (as its users specified it) on a loopback port, serving a
//! demo world (two organizations, nested collections, a dozen spaces, one with 300+ pages).
//! It is a second, independent implementation of the contract: nothing here imports the
//! client's models, so the client's tests against it really test field names and shapes.
//!
//! ```no_run
//! # async fn example() -> std::io::Result<()> {
//! use quire_sandbox::{Sandbox, SandboxOptions, tokens};
//! let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default()).await?;
//! let url = format!("{}/v1/user", sandbox.base_url());
//! // … send `Authorization: Bearer demo-admin` (tokens::ADMIN) …
//! sandbox.shutdown().await;
//! # Ok(()) }
//! ```

mod change_requests;
mod clock;
mod collections;
mod context;
mod conversations;
mod demo;
mod error;
mod fault_rules;
mod files;
mod git;
pub mod integrations;
mod links;
mod members;
mod model;
mod moves;
mod openapi;
pub mod operations;
mod org_settings;
pub mod outage;
mod paging;
mod render;
mod routes;
mod search;
mod sites;
mod spaces;
mod sso;
mod teams;
mod templates;
pub mod testing;
mod translations;
mod validate;
mod world;

pub use org_settings::{NEWCOMER_TOKEN, OUTSIDER_TOKEN};
pub use sites::schema_shape as adaptive_schema_shape;
pub use sso::DEMO_CERTIFICATE;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{RwLock, watch};
use tokio::task::JoinHandle;

pub use clock::Clock;
pub use demo::ids as demo_ids;
pub use fault_rules::{Fault, FaultRule};
/// Seconds after a submitted OpenAPI source until the sandbox has processed it.
pub use openapi::COMPLETE_SECONDS as OPENAPI_PROCESSING_SECONDS;
pub use outage::{Outage, OutageWindow};
pub use paging::{DEFAULT_LIMIT, MAX_LIMIT};
/// Seconds after a translation's run started until the sandbox has it completed.
pub use translations::RUN_SECONDS as TRANSLATION_RUN_SECONDS;

/// The fixed demo bearer tokens. Each of [`tokens::ALL`] belongs to a distinct demo user who is a
/// member of both demo organizations with the role the name says; two more are in none.
pub mod tokens {
    /// Role `admin`.
    pub const ADMIN: &str = "demo-admin";
    /// Role `edit`.
    pub const EDITOR: &str = "demo-editor";
    /// Role `review`.
    pub const REVIEWER: &str = "demo-reviewer";
    /// Role `comment`.
    pub const COMMENTER: &str = "demo-commenter";
    /// Role `read`.
    pub const READER: &str = "demo-reader";
    /// Every member's token, most powerful first.
    pub const ALL: [&str; 5] = [ADMIN, EDITOR, REVIEWER, COMMENTER, READER];
    /// Outside every organization, with an email domain Acme allows: joining it works.
    pub const NEWCOMER: &str = crate::org_settings::NEWCOMER_TOKEN;
    /// Outside every organization, with a domain none allows: joining is refused.
    pub const OUTSIDER: &str = crate::org_settings::OUTSIDER_TOKEN;
    /// Every token the sandbox knows: the members', most powerful first, then the two outsiders.
    pub const PERSONAS: [&str; 7] = [
        ADMIN, EDITOR, REVIEWER, COMMENTER, READER, NEWCOMER, OUTSIDER,
    ];
}

/// How the sandbox behaves beyond the contract: artificial latency and injected faults.
#[derive(Clone, Debug, Default)]
pub struct SandboxOptions {
    /// Slept before answering every request, to make loading states visible and testable.
    pub latency: Duration,
    /// Faults active from the start; change them later with [`Sandbox::set_faults`].
    pub faults: Faults,
    /// Adds the big demo organization "Big Co" (a 10,000-page space, a ~1 MB page, a change
    /// request with 2,000 threads; ids in [`demo_ids`]) to try and measure quire at scale.
    pub big: bool,
    /// Every so often one of the demo's other people comments on, replies in, reviews or edits
    /// an open change request (see [`Sandbox::act_now`]); None: nobody does.
    pub activity: Option<Duration>,
}

/// Misbehaviours the client must survive.
#[derive(Clone, Debug, Default)]
pub struct Faults {
    /// Every list answers with the same `next.page` forever, to test the client's loop guard.
    pub endless_next: bool,
    /// Every list hands out a new `next.page` forever (pages past the real end are empty), so
    /// only a page cap can stop a client.
    pub never_ending_next: bool,
    /// Counts the service types as `number` come as floats and negative values, and every list
    /// page carries one item that cannot be read, as a client must survive from the service.
    pub odd_counts: bool,
    /// Every request answers this status with the error body (invalid codes become 500).
    pub fail_with: Option<u16>,
    /// Paths ending with any of these answer 404 as an unknown route: a server that lacks an
    /// endpoint (the public service has no `/changes` on some plans, for instance).
    pub missing_endpoints: Vec<String>,
    /// Lacks the seed's `…/section-groups/{group}/sections` routes (404), as the public
    /// service does.
    pub no_group_section_routes: bool,
    /// Lacks the service's `PATCH …/sites/{site}/sections/{section}` (405), as the seed does.
    pub no_section_patch: bool,
    /// Like the public service: an operation that defines no request body (merge, update from
    /// main, publish, unpublish, a translation's run …) answers 415 to any body or
    /// `Content-Type`, even `{}`; one that requires a body answers 400 without one; a request
    /// that is no operation of the API answers 501. By [`operations`].
    pub strict_bodies: bool,
    /// Serves only what the public service offers, with its body rules: the operations only
    /// the API reference defines (links, backlinks, space transfer, conversations, clusters,
    /// section-group sections, legacy git removal) answer 404, and an undeclared
    /// `conversationsIssuesCluster` filter is ignored. `quire sandbox --like-public`.
    pub like_public: bool,
    /// Faults per route, first matching rule wins (see [`FaultRule`]).
    pub rules: Vec<FaultRule>,
}

/// A running sandbox server. Dropping it stops the server too; [`Sandbox::shutdown`] also
/// waits for it to finish.
pub struct Sandbox {
    address: SocketAddr,
    faults: watch::Sender<Faults>,
    counters: Arc<fault_rules::Counters>,
    outage: watch::Sender<Outage>,
    /// True while the port is closed: the refusal is in effect, not only asked for.
    refusing: watch::Receiver<bool>,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
    clock: Clock,
    /// The routes with their state, for the demo's people to act through.
    people: demo::activity::People,
}

/// How long [`Sandbox::shutdown`] waits for open connections before abandoning them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

impl Sandbox {
    /// Binds (port 0 = any free port) and serves on the current tokio runtime; returns once
    /// listening.
    pub async fn start(addr: SocketAddr, options: SandboxOptions) -> std::io::Result<Sandbox> {
        let listener = TcpListener::bind(addr).await?;
        let address = listener.local_addr()?;
        let (faults, _) = watch::channel(options.faults);
        let (outage, outage_now) = watch::channel(Outage::None);
        let counters = Arc::new(fault_rules::Counters::default());
        let world = demo::world_with(options.big);
        let clock = world.clock.clone();
        let shared = Arc::new(context::Shared {
            counters: counters.clone(),
            world: RwLock::new(world),
            faults: faults.clone(),
            latency: options.latency,
            outage: outage_now.clone(),
            api_url: format!("http://{address}/v1"),
        });
        let (stop, stopped) = watch::channel(false);
        let (refusing_now, refusing) = watch::channel(false);
        let app = routes::router(shared.clone());
        let acts = Arc::new(std::sync::atomic::AtomicU64::new(0));
        if let Some(period) = options.activity {
            let people = demo::activity::People {
                app: app.clone(),
                shared: shared.clone(),
                acts: acts.clone(),
            };
            tokio::spawn(people.keep_acting(period, stopped.clone()));
        }
        let task = tokio::spawn(outage::serve(
            listener,
            app.clone(),
            counters.clone(),
            (outage_now, refusing_now),
            stopped,
        ));
        Ok(Sandbox {
            address,
            faults,
            counters,
            outage,
            refusing,
            stop,
            task: Some(task),
            clock,
            people: demo::activity::People { app, shared, acts },
        })
    }

    /// The address actually bound.
    pub fn addr(&self) -> SocketAddr {
        self.address
    }

    /// e.g. `http://127.0.0.1:43121`, without the `/v1` suffix (the client appends it).
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The sandbox's clock: a test stops and advances it rather than wait for the server's
    /// work that takes time (see [`OPENAPI_PROCESSING_SECONDS`]).
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Replaces the active faults; requests arriving afterwards see the new ones.
    pub fn set_faults(&self, faults: Faults) {
        self.counters.forget_rule_uses();
        self.faults.send_replace(faults);
    }

    /// Puts the sandbox out of reach (or back): see [`Outage`]. Requests left hanging are
    /// answered when the outage ends. Returns once it is in effect: refusing, the port is
    /// closed and the connections kept alive are gone (a request sent next cannot slip
    /// through one); back, the port is open again.
    pub async fn set_outage(&self, outage: Outage) {
        self.outage.send_replace(outage);
        let refusing = outage == Outage::Refuse;
        let mut in_effect = self.refusing.clone();
        let waited = in_effect.wait_for(|now| *now == refusing);
        let _ = tokio::time::timeout(Duration::from_secs(10), waited).await;
    }

    /// How many `method` requests arrived (faulted ones included) whose path after `/v1`
    /// matches `pattern` (a substring, or a glob with `*`): e.g. `("POST", "*/comments")`.
    pub fn requests(&self, method: &str, pattern: &str) -> usize {
        self.counters.requests_matching(method, pattern)
    }

    /// Every request that arrived (faulted ones included), counted per `"METHOD /path"` with
    /// the path after `/v1` and without its query: what a client really sent, for a test to
    /// tell which operations a call reached.
    pub fn request_counts(&self) -> HashMap<String, usize> {
        self.counters.request_counts()
    }

    /// Changes each time a connection is accepted, a request arrives or an answer is ready: a
    /// test waits on it (`changed()`) for the server's next step, then looks at the counts.
    pub fn activity(&self) -> watch::Receiver<u64> {
        self.counters.activity()
    }

    /// TCP connections accepted since the start (or [`Sandbox::reset_load`]).
    pub fn connections_accepted(&self) -> usize {
        self.counters.connections()
    }

    /// The most requests the sandbox was handling at the same time (latency included) since
    /// the start (or [`Sandbox::reset_load`]).
    pub fn max_requests_in_flight(&self) -> usize {
        self.counters.max_in_flight()
    }

    /// Starts [`Sandbox::connections_accepted`] and [`Sandbox::max_requests_in_flight`] again.
    pub fn reset_load(&self) {
        self.counters.reset_load();
    }

    /// One of the demo's other people acts now: a comment, a reply, a review or a new revision
    /// on an open change request, each in turn. Returns what happened in words (None when
    /// nothing could be done).
    pub async fn act_now(&self) -> Option<String> {
        self.people.act_now().await
    }

    /// Stops accepting connections and waits (briefly) for the server task to end.
    pub async fn shutdown(mut self) {
        self.stop.send_replace(true);
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
                .await
                .is_err()
        {
            task.abort();
        }
    }
}

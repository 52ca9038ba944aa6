//! The client's side of working offline: every successful `GET` is kept in the [`Cache`], and a
//! clone of the client can answer from the cache alone ([`Client::cache_only`]) or note what
//! happened to a call's requests ([`Client::recorded`]), so the runtime can show a cached answer
//! at once and tell a server that cannot be reached from one that said no.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use reqwest::Method;

use super::cache::{self, Cache};
use super::client::Client;
use super::error::ApiError;
use super::outbox::Outbox;

/// How a clone of the client reads.
#[derive(Clone, Default)]
pub(super) enum Reading {
    /// From the server, as always.
    #[default]
    Network,
    /// From the server, noting in the record what happened.
    Recorded(Arc<CallRecord>),
    /// From the cache alone: a read not in it fails, and no write goes out.
    CacheOnly(Arc<CallRecord>),
}

/// What the requests of one call met.
#[derive(Debug, Default)]
pub struct CallRecord {
    missed: AtomicBool,
    unreachable: AtomicBool,
    wrote: AtomicBool,
    oldest: Mutex<Option<SystemTime>>,
}

impl CallRecord {
    /// A read was not in the cache (cache-only), so the answer is not whole.
    pub fn missed(&self) -> bool {
        self.missed.load(Ordering::Relaxed)
    }

    /// A request found the server unreachable (see [`ApiError::is_unreachable`]).
    pub fn unreachable(&self) -> bool {
        self.unreachable.load(Ordering::Relaxed)
    }

    /// The call tried something other than a read.
    pub fn wrote(&self) -> bool {
        self.wrote.load(Ordering::Relaxed)
    }

    /// When the oldest cached answer the call used was received.
    pub fn as_of(&self) -> Option<SystemTime> {
        self.oldest.lock().ok().and_then(|oldest| *oldest)
    }

    fn used(&self, stored_at: SystemTime) {
        if let Ok(mut oldest) = self.oldest.lock() {
            *oldest = Some(oldest.map_or(stored_at, |old| old.min(stored_at)));
        }
    }
}

/// The cache and the offline switch every clone of one client shares.
#[derive(Default)]
pub(super) struct Store {
    cache: OnceLock<Arc<Cache>>,
    /// The outbox in the cache's file, opened the first time a write is queued.
    outbox: OnceLock<Arc<Outbox>>,
    /// `--offline`: nothing is sent, every read comes from the cache.
    offline_only: AtomicBool,
    /// A check that the server is back is under way.
    probing: AtomicBool,
    /// The last request that went out found the server unreachable.
    unreachable: AtomicBool,
}

impl Client {
    /// Keeps every successful read in `cache` from now on. False when a cache was set before.
    pub fn use_cache(&self, cache: Cache) -> bool {
        self.shared.store.cache.set(Arc::new(cache)).is_ok()
    }

    pub fn cache(&self) -> Option<Arc<Cache>> {
        self.shared.store.cache.get().cloned()
    }

    /// The outbox beside the cache; None without a cache (nowhere to keep a write) or when
    /// its table cannot be opened.
    pub fn outbox(&self) -> Option<Arc<Outbox>> {
        if let Some(outbox) = self.shared.store.outbox.get() {
            return Some(outbox.clone());
        }
        let cache = self.cache()?;
        // The cache's own connection: a second one on the file would drop its locks.
        match Outbox::on(cache.database()) {
            Ok(outbox) => Some(
                self.shared
                    .store
                    .outbox
                    .get_or_init(|| Arc::new(outbox))
                    .clone(),
            ),
            Err(error) => {
                tracing::warn!(%error, "the outbox cannot be opened");
                None
            }
        }
    }

    /// `--offline`: from now on nothing goes to the server; reads come from the cache.
    pub fn set_offline_only(&self, offline: bool) {
        self.shared
            .store
            .offline_only
            .store(offline, Ordering::Relaxed);
    }

    pub fn is_offline_only(&self) -> bool {
        self.shared.store.offline_only.load(Ordering::Relaxed)
    }

    /// True when the last request that went out found the server unreachable: reads are
    /// then answered from the cache at once, until a request gets through again.
    pub fn seems_offline(&self) -> bool {
        self.shared.store.unreachable.load(Ordering::Relaxed)
    }

    /// Claims the one check that the server is back; false when one is already running.
    pub fn begin_probe(&self) -> bool {
        !self.shared.store.probing.swap(true, Ordering::AcqRel)
    }

    pub fn end_probe(&self) {
        self.shared.store.probing.store(false, Ordering::Release);
    }

    fn reading_as(&self, reading: Reading) -> Client {
        Client {
            reading,
            ..self.clone()
        }
    }

    /// A clone whose reads are sent once and never retried.
    pub fn trying_once(&self) -> Client {
        Client {
            single_try: true,
            ..self.clone()
        }
    }

    /// A clone answering from the cache alone, and the record of what it found.
    pub fn cache_only(&self) -> (Client, Arc<CallRecord>) {
        let record = Arc::new(CallRecord::default());
        let client = self.reading_as(Reading::CacheOnly(record.clone()));
        (client, record)
    }

    /// A clone asking the server as usual, and the record of what its requests met.
    pub fn recorded(&self) -> (Client, Arc<CallRecord>) {
        let record = Arc::new(CallRecord::default());
        let client = self.reading_as(Reading::Recorded(record.clone()));
        (client, record)
    }

    /// The answer from the cache when this clone (or the whole client) does not ask the
    /// server; None when the request should go out.
    pub(super) async fn answer_offline(
        &self,
        method: &Method,
        path: &str,
        query: &[(String, String)],
    ) -> Option<Result<(String, Vec<u8>), ApiError>> {
        let record = match &self.reading {
            Reading::CacheOnly(record) => Some(record.clone()),
            Reading::Recorded(record) => {
                if *method != Method::GET {
                    record.wrote.store(true, Ordering::Relaxed);
                }
                return None;
            }
            Reading::Network if self.is_offline_only() => None,
            Reading::Network => return None,
        };
        let endpoint = format!("{method} {path}");
        let by_flag = self.is_offline_only();
        let refused = || ApiError::Offline {
            endpoint: endpoint.clone(),
            by_flag,
        };
        if *method != Method::GET {
            if let Some(record) = &record {
                record.wrote.store(true, Ordering::Relaxed);
            }
            return Some(Err(refused()));
        }
        let found = match self.cache() {
            Some(cache) => {
                let key = cache::key_for(path, query);
                tokio::task::spawn_blocking(move || cache.get(&key))
                    .await
                    .ok()
                    .flatten()
            }
            None => None,
        };
        Some(match found {
            Some(found) => {
                if let Some(record) = &record {
                    record.used(found.stored_at);
                }
                Ok((endpoint, found.body))
            }
            None => {
                if let Some(record) = &record {
                    record.missed.store(true, Ordering::Relaxed);
                }
                Err(refused())
            }
        })
    }

    /// After a request went out: a read's answer is kept; a server found unreachable is noted.
    /// The answer is handed back as it came: the cache writes the very bytes the caller then
    /// decodes, never a copy of them (a page list can be megabytes).
    pub(super) async fn remember(
        &self,
        method: &Method,
        path: &str,
        query: &[(String, String)],
        result: Result<(String, Vec<u8>), ApiError>,
    ) -> Result<(String, Vec<u8>), ApiError> {
        let unreachable = matches!(&result, Err(error) if error.is_unreachable());
        if result.is_ok() || unreachable {
            self.shared
                .store
                .unreachable
                .store(unreachable, Ordering::Relaxed);
        }
        match result {
            Ok((endpoint, body)) if *method == Method::GET => match self.cache() {
                Some(cache) => Ok((
                    endpoint,
                    keep(cache, cache::key_for(path, query), body).await,
                )),
                None => Ok((endpoint, body)),
            },
            Err(error) if error.is_unreachable() => {
                if let Reading::Recorded(record) = &self.reading {
                    record.unreachable.store(true, Ordering::Relaxed);
                }
                Err(error)
            }
            other => other,
        }
    }
}

/// Stores `body` under `key` off the async threads and gives it back. The writing thread
/// shares the one buffer; only if that thread never ran (the runtime shutting down) could it
/// still hold a share, and then the caller gets a copy.
async fn keep(cache: Arc<Cache>, key: String, body: Vec<u8>) -> Vec<u8> {
    let body = Arc::new(body);
    let stored = {
        let body = body.clone();
        tokio::task::spawn_blocking(move || cache.put(&key, &body)).await
    };
    if let Ok(Err(error)) = stored {
        tracing::warn!(%error, "could not keep an answer in the cache");
    }
    Arc::try_unwrap(body).unwrap_or_else(|shared| shared.as_ref().clone())
}

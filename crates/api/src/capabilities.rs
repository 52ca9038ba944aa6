//! What this server turned out not to offer. The API reference defines operations the public
//! service does not have (see [`operations`]); asked for one, such a server answers 404 as it
//! would for a missing item. The client tells the two apart with one probe read, remembers the
//! operation as lacking for the rest of the session, answers later calls with
//! [`ApiError::Unsupported`] without sending them, and tells an observer (the app strikes the
//! key through).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, RwLock};

use super::error::ApiError;
use super::operations::{self, Offered, Operation, Probe};

/// One operation this server lacks, as learned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lack {
    /// [`Operation::key`]: `"GET /spaces/{}/links"`.
    pub operation: String,
    /// In words: "a space's links report".
    pub what: &'static str,
    /// The request that showed it, `"GET /spaces/s1/links"`, and its status.
    pub endpoint: String,
    pub status: u16,
}

impl Lack {
    /// The error of the request that showed the lack.
    pub fn error(&self) -> ApiError {
        self.error_for(&self.endpoint)
    }

    /// The error a later call of the operation gets, naming that call's own request
    /// (`"GET /spaces/s2/links"`): the ids of the one that showed the lack would point at
    /// another space.
    pub fn error_for(&self, endpoint: &str) -> ApiError {
        ApiError::Unsupported {
            endpoint: endpoint.to_owned(),
            what: self.what.to_owned(),
            status: self.status,
        }
    }
}

type Observer = Arc<dyn Fn(Lack) + Send + Sync>;

/// The lacking operations, shared by every clone of a client.
#[derive(Default)]
pub struct Capabilities {
    lacking: Mutex<BTreeMap<String, Lack>>,
    /// Seed-only operations this server answered with a success: it has them.
    offered: Mutex<BTreeSet<String>>,
    observer: RwLock<Option<Observer>>,
}

impl Capabilities {
    /// The lack already learned for `operation`, if any.
    pub fn lacking(&self, operation: &Operation) -> Option<Lack> {
        let lacking = self.lacking.lock().ok()?;
        lacking.get(&operation.key()).cloned()
    }

    /// True once this server answered `operation` (seed-only) with a success; unknown and
    /// lacking alike are false.
    pub fn offers(&self, operation: &Operation) -> bool {
        self.offered
            .lock()
            .is_ok_and(|offered| offered.contains(&operation.key()))
    }

    /// Records that this server answered `operation` with a success.
    pub fn learn_offered(&self, operation: &Operation) {
        if let Ok(mut offered) = self.offered.lock() {
            offered.insert(operation.key());
        }
    }

    /// Every lack learned so far, for a new screen or a later session to start from.
    pub fn all(&self) -> Vec<Lack> {
        self.lacking
            .lock()
            .map(|lacking| lacking.values().cloned().collect())
            .unwrap_or_default()
    }

    pub fn on_lack(&self, observer: impl Fn(Lack) + Send + Sync + 'static) {
        if let Ok(mut slot) = self.observer.write() {
            *slot = Some(Arc::new(observer));
        }
    }

    /// Records a lack (once) and tells the observer.
    pub fn learn(&self, lack: Lack) {
        let new = match self.lacking.lock() {
            Ok(mut lacking) => lacking
                .insert(lack.operation.clone(), lack.clone())
                .is_none(),
            Err(_) => false,
        };
        if !new {
            return;
        }
        tracing::info!(operation = %lack.operation, status = lack.status, "this server does not offer the operation");
        let observer = self.observer.read().ok().and_then(|slot| slot.clone());
        if let Some(observer) = observer {
            observer(lack);
        }
    }
}

/// True when `error` may mean the server has no such operation: 404, or 405 (a path it has for
/// another method).
pub fn may_be_missing_operation(error: &ApiError) -> bool {
    matches!(error.status(), Some(404 | 405))
}

/// The probe to read after `operation` (seed-only) answered `path` with 404/405, filled with the
/// request's ids.
pub fn probe_for(operation: &Operation, path: &str) -> Option<(Probe, String)> {
    let Offered::SeedOnly { probe, .. } = operation.offered else {
        return None;
    };
    let ids = operation.ids(path);
    let template = match probe {
        Probe::Parent(template) | Probe::List(template) => template,
    };
    Some((probe, operations::fill(template, &ids)))
}

/// Reads a probe's answer: `Some(true)` when the operation is missing, `Some(false)` when the
/// 404 was the item's, `None` when the probe itself failed in a way that tells nothing.
pub fn verdict(probe: Probe, probe_answer: Result<(), &ApiError>) -> Option<bool> {
    match (probe, probe_answer) {
        (Probe::Parent(_), Ok(())) => Some(true),
        (Probe::Parent(_), Err(error)) if error.is_not_found() => Some(false),
        (Probe::List(_), Ok(())) => Some(false),
        (Probe::List(_), Err(error)) if may_be_missing_operation(error) => Some(true),
        _ => None,
    }
}

/// The lack to record for `operation`, shown by the request `endpoint` answered `status`.
pub fn lack_of(operation: &Operation, endpoint: &str, status: u16) -> Lack {
    let what = match operation.offered {
        Offered::SeedOnly { what, .. } => what,
        Offered::Everywhere => "this operation",
    };
    Lack {
        operation: operation.key(),
        what,
        endpoint: endpoint.to_owned(),
        status,
    }
}

impl super::client::Client {
    /// After a seed-only operation answered 404/405: reads its probe and returns either the
    /// lack (learned for the session) or the original error when the item itself is missing.
    pub(super) async fn check_missing_operation(
        &self,
        operation: &'static Operation,
        path: &str,
        error: ApiError,
    ) -> ApiError {
        let Some((probe, probe_path)) = probe_for(operation, path) else {
            return error;
        };
        let query = [("limit".to_owned(), "1".to_owned())];
        let query: &[(String, String)] = match probe {
            Probe::List(_) => &query,
            Probe::Parent(_) => &[],
        };
        let answer = self
            .send_once(&reqwest::Method::GET, &probe_path, query, None)
            .await
            .map(|_| ())
            .map_err(|failure| failure.error);
        match verdict(probe, answer.as_ref().map(|_| ())) {
            Some(true) => {
                let status = error.status().unwrap_or(404);
                let lack = lack_of(operation, error.endpoint(), status);
                self.shared.capabilities.learn(lack.clone());
                lack.error()
            }
            _ => error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::Method;

    #[test]
    fn a_page_links_probe_reads_the_page() {
        let path = "/spaces/s1/content/page/p2/links";
        let operation = operations::find(&Method::GET, path).expect("known");
        let (probe, probe_path) = probe_for(operation, path).expect("seed-only");
        assert!(matches!(probe, Probe::Parent(_)));
        assert_eq!(probe_path, "/spaces/s1/content/page/p2");
    }

    #[test]
    fn an_item_of_a_missing_list_is_missing_and_of_a_present_list_is_gone() {
        let not_found = ApiError::Status {
            endpoint: "GET /orgs/o/conversations".into(),
            status: 404,
            code: None,
            message: "Not Found".into(),
        };
        let list = Probe::List("/orgs/{}/conversations");
        assert_eq!(verdict(list, Err(&not_found)), Some(true));
        assert_eq!(verdict(list, Ok(())), Some(false));
        let parent = Probe::Parent("/orgs/{}");
        assert_eq!(verdict(parent, Ok(())), Some(true));
        assert_eq!(verdict(parent, Err(&not_found)), Some(false));
    }

    #[test]
    fn public_operations_are_never_learned_as_missing() {
        let operation = operations::find(&Method::GET, "/spaces/s1/content/page/p2").unwrap();
        assert!(probe_for(operation, "/spaces/s1/content/page/p2").is_none());
    }
}

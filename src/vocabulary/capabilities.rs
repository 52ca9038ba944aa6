//! What this server does not offer, as the keys see it. The client learns that an operation is
//! missing (see `api::capabilities`); the loop hears of it through `Msg::Lack`, and from then
//! on the keys that need it are struck through in the footer and `?` with the reason, the
//! palette leaves them out, and pressing one says the reason instead of sending anything.

use crate::api::capabilities::Lack;
use crate::api::operations::area;
use crate::ui::keymap::{Action, KeyContext};

/// The lacks learned this session, one per area.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lacking {
    lacks: Vec<Lack>,
}

impl Lacking {
    /// Keeps the first lack of each area: it names the request that showed it.
    pub fn learn(&mut self, lack: Lack) {
        if !self.lacks.iter().any(|known| known.what == lack.what) {
            self.lacks.push(lack);
        }
    }

    /// The lack of the area `needed`, when this server was found without it.
    pub fn lack(&self, needed: &str) -> Option<&Lack> {
        self.lacks.iter().find(|lack| lack.what == needed)
    }

    /// The sentence for a key that needs `needed` when the server lacks it. It names the
    /// operation, not the request that showed the lack: that one's ids may be another space's.
    pub fn reason(&self, needed: &str) -> Option<String> {
        let lack = self.lack(needed)?;
        Some(format!(
            "This server does not offer {} (it answered {} to {}).",
            lack.what,
            lack.status,
            lack.operation.replace("{}", "…")
        ))
    }

    /// The same in a few words, for `?` under the struck-through key.
    pub fn short_reason(&self, needed: &str) -> Option<String> {
        let lack = self.lack(needed)?;
        Some(format!("not offered by this server ({})", lack.status))
    }

    pub fn is_empty(&self) -> bool {
        self.lacks.is_empty()
    }
}

/// The seed-only area a key needs on a screen with these key contexts, if any.
pub fn area_of(action: Action, contexts: &[KeyContext]) -> Option<&'static str> {
    let on = |context: KeyContext| contexts.contains(&context);
    match action {
        Action::LinksReport if on(KeyContext::ReaderLinks) || on(KeyContext::Changes) => {
            Some(area::PAGE_LINKS)
        }
        Action::LinksReport => Some(area::SPACE_LINKS),
        Action::Backlinks if on(KeyContext::Files) => Some(area::FILE_BACKLINKS),
        Action::Backlinks => Some(area::PAGE_BACKLINKS),
        Action::Transfer => Some(area::SPACE_TRANSFER),
        Action::RemoveLegacyInstallation => Some(area::LEGACY_GIT),
        Action::IssueCluster
        | Action::ClustersView
        | Action::ClusterSort
        | Action::ClusterOrder
        | Action::ClusterStatus
        | Action::ClusterChangeRequests => Some(area::CLUSTERS),
        Action::IngestConversation => Some(area::INGEST),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lack(what: &'static str) -> Lack {
        Lack {
            operation: "GET /spaces/{}/links".into(),
            what,
            endpoint: "GET /spaces/s1/links".into(),
            status: 404,
        }
    }

    #[test]
    fn a_lacking_area_strikes_its_keys_with_the_reason() {
        let mut lacking = Lacking::default();
        lacking.learn(lack(area::SPACE_LINKS));
        let tree = [KeyContext::SpaceTree];
        let reason_on = |action, contexts: &[KeyContext]| {
            area_of(action, contexts).and_then(|needed| lacking.reason(needed))
        };
        let reason = reason_on(Action::LinksReport, &tree).expect("lacking");
        assert!(
            reason.contains("does not offer a space's links report"),
            "{reason}"
        );
        assert!(!reason.contains("retry"), "{reason}");
        // The request that showed it was another space's: its ids are not quoted.
        assert!(!reason.contains("s1"), "{reason}");
        assert_eq!(reason_on(Action::Backlinks, &tree), None);
        let reader = [KeyContext::ReaderLinks, KeyContext::Reader];
        assert_eq!(reason_on(Action::LinksReport, &reader), None);
    }
}

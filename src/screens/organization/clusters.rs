//! The organization's Clusters tab (issue 12: issue clusters, issues, conversations).

use super::pane::NotYet;
use crate::api::models::Organization;

pub type ClustersTab = NotYet;

pub fn new(_organization: &Organization) -> ClustersTab {
    NotYet {
        what: "Conversations and issue clusters",
    }
}

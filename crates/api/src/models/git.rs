//! Git sync (`/spaces/{id}/git/…`): the operation a space's git info reports. The info itself
//! is [`GitSync`](super::space::GitSync), the same object as a space's `gitSync`.

use serde::{Deserialize, Serialize};

/// The last import or export of a space (`GitSyncState.operation`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GitOperation {
    /// `running`, `failure`, `success` or `timeout`.
    pub state: Option<String>,
    /// `import` or `export`.
    pub direction: Option<String>,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub error: Option<String>,
}

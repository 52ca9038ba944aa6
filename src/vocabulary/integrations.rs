//! Integrations' API calls and results, joined to the core through `ApiCall::Integrations` and
//! `ApiResponse::Integrations`.

use crate::api::models::Integration;
use crate::api::{ApiError, IntegrationFilter, ListPage, PublishManifest};

#[derive(Debug, Clone, PartialEq)]
pub enum IntegrationsCall {
    List {
        filter: IntegrationFilter,
        page: Option<String>,
    },
    Details {
        name: String,
    },
    /// A manifest file read and checked, before anything is sent.
    ReadManifest {
        path: String,
    },
    /// `POST /integrations/{name}` with a checked manifest.
    Publish {
        manifest: Box<PublishManifest>,
    },
}

impl IntegrationsCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            IntegrationsCall::List { .. }
            | IntegrationsCall::Details { .. }
            | IntegrationsCall::ReadManifest { .. } => false,
            IntegrationsCall::Publish { .. } => true,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum IntegrationsResponse {
    List(Result<ListPage<Integration>, ApiError>),
    Details(Result<Box<Integration>, ApiError>),
    /// The manifest, or why it cannot be published (unreadable, or its problems), in words.
    Manifest(Result<Box<PublishManifest>, String>),
    Published(Result<Box<Integration>, ApiError>),
}

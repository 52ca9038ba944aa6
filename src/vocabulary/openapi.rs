//! OpenAPI specs' API calls and results, joined to the core through `ApiCall::OpenApi` and
//! `ApiResponse::OpenApi`.

use crate::api::models::{OpenApiContent, OpenApiSpec, OpenApiVersion, SpecVisibility};
use crate::api::{ApiError, VersionRef, WholeList};

#[derive(Debug, Clone, PartialEq)]
pub enum OpenApiCall {
    List {
        organization: String,
    },
    Create {
        organization: String,
        slug: String,
        url: String,
    },
    /// A new source for an existing spec (PUT).
    Replace {
        organization: String,
        slug: String,
        url: String,
    },
    SetVisibility {
        organization: String,
        slug: String,
        visibility: SpecVisibility,
    },
    Delete {
        organization: String,
        slug: String,
    },
    /// One spec, read alone (`r` on its versions).
    Spec {
        organization: String,
        slug: String,
    },
    Versions {
        organization: String,
        slug: String,
    },
    Content {
        organization: String,
        slug: String,
        version: VersionRef,
    },
    /// One version, read alone (`r` on its files).
    Version {
        organization: String,
        slug: String,
        version: VersionRef,
    },
}

impl OpenApiCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            OpenApiCall::List { .. }
            | OpenApiCall::Spec { .. }
            | OpenApiCall::Versions { .. }
            | OpenApiCall::Content { .. }
            | OpenApiCall::Version { .. } => false,
            OpenApiCall::Create { .. }
            | OpenApiCall::Replace { .. }
            | OpenApiCall::SetVisibility { .. }
            | OpenApiCall::Delete { .. } => true,
        }
    }
}

// Moved once from a task to `update`, like `Msg`: boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum OpenApiResponse {
    List(Result<WholeList<OpenApiSpec>, ApiError>),
    /// The spec as a create, replace or visibility change left it.
    Saved(Result<OpenApiSpec, ApiError>),
    Deleted(Result<(), ApiError>),
    Versions(Result<WholeList<OpenApiVersion>, ApiError>),
    /// A spec read alone.
    Spec(Result<OpenApiSpec, ApiError>),
    /// A version read alone.
    Version(Result<OpenApiVersion, ApiError>),
    Content(Result<OpenApiContent, ApiError>),
}

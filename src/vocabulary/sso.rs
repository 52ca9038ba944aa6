//! Single sign-on's API calls and results, joined to the core through `ApiCall::Sso` and
//! `ApiResponse::Sso`.

use crate::api::models::{SamlProvider, SsoLogin, TeamSummary};
use crate::api::{ApiError, SamlProviderInput, WholeList};

#[derive(Debug, Clone, PartialEq)]
pub enum SsoCall {
    /// The SAML providers and the SSO login infos, together.
    Overview { organization: String },
    Create {
        organization: String,
        input: SamlProviderInput,
    },
    Update {
        organization: String,
        provider: String,
        input: SamlProviderInput,
    },
    Delete {
        organization: String,
        provider: String,
    },
    /// One provider, read alone (`r` on its form).
    Provider {
        organization: String,
        provider: String,
    },
    /// The teams a provider's new members may join.
    Teams { organization: String },
    /// A certificate typed as a file path: the runtime reads the file (at most
    /// [`MAX_CERTIFICATE_FILE`] bytes).
    ReadCertificate { path: String },
}

impl SsoCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            SsoCall::Overview { .. }
            | SsoCall::Provider { .. }
            | SsoCall::Teams { .. }
            | SsoCall::ReadCertificate { .. } => false,
            SsoCall::Create { .. } | SsoCall::Update { .. } | SsoCall::Delete { .. } => true,
        }
    }
}

/// A certificate file larger than this is not a certificate the API would take.
pub const MAX_CERTIFICATE_FILE: u64 = 64 * 1024;

/// What the SSO tab shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SsoOverview {
    pub providers: Vec<SamlProvider>,
    /// Set when the providers did not end within their cap: the pages read.
    pub providers_stopped_after_pages: Option<usize>,
    pub logins: Vec<SsoLogin>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SsoResponse {
    Overview(Result<SsoOverview, ApiError>),
    /// A provider created or updated.
    Provider(Result<Box<SamlProvider>, ApiError>),
    Deleted(Result<(), ApiError>),
    /// A provider read alone.
    Read(Result<Box<SamlProvider>, ApiError>),
    Teams(Result<WholeList<TeamSummary>, ApiError>),
    /// The certificate file's text, or why it could not be read.
    Certificate(Result<String, String>),
}

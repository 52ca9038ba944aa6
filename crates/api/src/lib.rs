//! HTTP client for the documentation platform's v1 REST API. Imports nothing from the UI,
//! the app, the runtime or the sandbox: it only knows HTTP and the API's JSON.
//!
//! - [`Client`] wraps a `reqwest::Client` with the bearer token, user agent and timeouts, and
//!   has one method per endpoint plus generic `get`/`post`/`put`/`patch`/`delete` helpers.
//! - [`ApiError`] is a plain value (clone, compare) that names the endpoint and never the token.
//! - [`ListPage`] is one page of a list; [`PageCursor`] refuses repeated pages so neither the UI
//!   nor [`Client::list_up_to`] can loop forever on a confused server.
//! - [`limits`] keeps at most 16 requests in flight per host.
//! - [`models`] holds the resource types, tolerant of fields and enum values we do not know.

pub mod adaptive_schema;
pub mod address;
pub mod cache;
pub mod capabilities;
pub mod change_requests;
pub mod client;
pub mod collections;
pub mod conversations;
pub mod database;
pub mod decode;
pub mod error;
pub mod files;
pub mod git;
pub mod home;
pub mod limits;
pub mod links;
pub mod members;
pub mod models;
pub mod moves;
pub mod offline;
pub mod operations;
pub mod organizations;
pub mod outbox;
mod outbox_about;
pub mod outbox_send;
pub mod pages;
pub mod paging;
pub mod raw;
pub mod read_back;
pub mod retry;
pub mod search;
pub mod sites;
pub mod spaces;
pub mod teams;
pub mod token;

pub mod org_settings;
pub mod sso;

pub mod openapi;
pub mod translations;

pub mod integrations;

pub use address::{DEFAULT_BASE_URL, encode_segment};
pub use change_requests::comments::{CommentFilter, CommentStatusFilter, CommentUpdate, SortOrder};
pub use change_requests::reviews::ReviewVerdict;
pub use change_requests::{ChangeRequestFilter, ChangeRequestUpdate, PdfAddress};
pub use client::{
    Client, ClientConfig, DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, USER_AGENT, decode_body,
};
pub use collections::{CollectionUpdate, NewCollection};
pub use error::{ApiError, PagingLoopReason};
pub use files::ContentSource;
pub use git::{GitDirection, GitInfo, GitSyncRequest, mask_credentials};
pub use links::BacklinkTarget;
pub use members::{MemberFilter, MemberRoleFilter, MemberSortKey};
pub use models::*;
pub use moves::{ContentMove, ContentPointer, ContentPosition, MovedContent};
pub use paging::{
    DEFAULT_MAX_PAGES, DEFAULT_PAGE_LIMIT, ListPage, MAX_PAGE_LIMIT, PageCursor, UnreadableItem,
    WholeList,
};
pub use retry::RetryNotice;
pub use search::MAX_SEARCH_QUERY;
pub use sites::{NewSectionGroup, NewSite, SiteFilter, SiteUpdate};
pub use spaces::{ContentRef, SpaceUpdate, TemplateApplication, TemplateParams};
pub use teams::TeamMembersUpdate;
pub use token::Token;

pub use org_settings::OrganizationUpdate;
pub use sso::SamlProviderInput;

pub use openapi::{
    MAX_SLUG, MAX_SOURCE_URL, VersionRef, names_a_scheme_as_host, slug_problem, source_url_problem,
};
pub use translations::{LANGUAGES, NewTranslation, NewTranslationSource, language_name};

pub use conversations::{
    ClusterOrder, ClusterSort, ClusterStatus, FieldProblem, IssueFilter, NewConversation,
    NewMetadata, NewPart,
};
pub use integrations::{IntegrationFilter, PublishManifest, is_integration_name};

#[cfg(test)]
mod client_tests;

//! The sites feature's API calls and results, kept apart from the core `ApiCall` / `ApiResponse`
//! so that each joins them through a single variant (`ApiCall::Sites`, `ApiResponse::Sites`).

use serde_json::Value;

use crate::api::models::{
    AdaptiveSchema, MemberRole, PublishOutcome, PublishedSite, ShareLink, Site, SiteSectionGroup,
    Space, TemplateCondition,
};
use crate::api::{ApiError, ListPage, NewSectionGroup, NewSite, SiteFilter, SiteUpdate, WholeList};

/// One request of the sites screens. Every call names its organization and site by id.
#[derive(Debug, Clone, PartialEq)]
pub enum SitesCall {
    ListSites {
        organization: String,
        filter: SiteFilter,
        page: Option<String>,
    },
    GetSite {
        organization: String,
        site: String,
    },
    CreateSite {
        organization: String,
        site: NewSite,
    },
    DeleteSite {
        organization: String,
        site: String,
    },
    UpdateSite {
        organization: String,
        site: String,
        update: SiteUpdate,
    },
    Publish {
        organization: String,
        site: String,
    },
    Unpublish {
        organization: String,
        site: String,
    },
    GetPublished {
        organization: String,
        site: String,
    },
    /// The schema and the template conditions, fetched together.
    GetAdaptive {
        organization: String,
        site: String,
    },
    PutAdaptiveSchema {
        organization: String,
        site: String,
        schema: Value,
    },
    ListShareLinks {
        organization: String,
        site: String,
    },
    CreateShareLink {
        organization: String,
        site: String,
        name: String,
    },
    UpdateShareLink {
        organization: String,
        site: String,
        link: String,
        active: Option<bool>,
        name: Option<String>,
    },
    DeleteShareLink {
        organization: String,
        site: String,
        link: String,
    },
    ListSectionGroups {
        organization: String,
        site: String,
    },
    CreateSectionGroup {
        organization: String,
        site: String,
        group: NewSectionGroup,
    },
    /// `icon`: `None` unchanged, `Some(None)` removed, `Some(Some(name))` set.
    UpdateSectionGroup {
        organization: String,
        site: String,
        group: String,
        title: Option<String>,
        icon: Option<Option<String>>,
    },
    DeleteSectionGroup {
        organization: String,
        site: String,
        group: String,
    },
    AddSectionToGroup {
        organization: String,
        site: String,
        group: String,
        section: String,
    },
    RemoveSectionFromGroup {
        organization: String,
        site: String,
        group: String,
        section: String,
    },
    /// Every site of the organization with all its share links: who can reach what.
    AccessAudit {
        organization: String,
    },
    /// The caller's own role in the organization, so a refusal can say who they are.
    MyRole {
        organization: String,
    },
    /// The organization's spaces, for a new site to start with.
    OrganizationSpaces {
        organization: String,
    },
}

impl SitesCall {
    /// Whether the call changes something on the server (or in the outbox): a write goes out
    /// even while quire seems offline (or to the outbox), and the action log notes it. Listed
    /// variant by variant, so a new call must be placed on one side.
    pub fn writes(&self) -> bool {
        match self {
            SitesCall::ListSites { .. }
            | SitesCall::GetSite { .. }
            | SitesCall::GetPublished { .. }
            | SitesCall::GetAdaptive { .. }
            | SitesCall::ListShareLinks { .. }
            | SitesCall::ListSectionGroups { .. }
            | SitesCall::AccessAudit { .. }
            | SitesCall::MyRole { .. }
            | SitesCall::OrganizationSpaces { .. } => false,
            SitesCall::CreateSite { .. }
            | SitesCall::DeleteSite { .. }
            | SitesCall::UpdateSite { .. }
            | SitesCall::Publish { .. }
            | SitesCall::Unpublish { .. }
            | SitesCall::PutAdaptiveSchema { .. }
            | SitesCall::CreateShareLink { .. }
            | SitesCall::UpdateShareLink { .. }
            | SitesCall::DeleteShareLink { .. }
            | SitesCall::CreateSectionGroup { .. }
            | SitesCall::UpdateSectionGroup { .. }
            | SitesCall::DeleteSectionGroup { .. }
            | SitesCall::AddSectionToGroup { .. }
            | SitesCall::RemoveSectionFromGroup { .. } => true,
        }
    }
}

/// The adaptive-content data of a site. `schema` is `None` when the site has none yet (404).
#[derive(Debug, Clone, PartialEq)]
pub struct AdaptiveData {
    pub schema: Option<AdaptiveSchema>,
    pub conditions: Vec<TemplateCondition>,
}

/// One row group of the access view: a site and every share link it has.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteAccess {
    pub site: Site,
    pub share_links: Vec<ShareLink>,
    /// Set when the site's share links did not end within their cap: the pages read.
    pub links_stopped_after_pages: Option<usize>,
}

/// The access view's data: every site read, with its share links.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AccessListing {
    pub sites: Vec<SiteAccess>,
    /// Set when the sites list did not end within its cap: the pages read.
    pub sites_stopped_after_pages: Option<usize>,
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum SitesResponse {
    Sites(Result<ListPage<Site>, ApiError>),
    /// A site read, or written (PATCH, unpublish) and read back.
    Site(Result<Site, ApiError>),
    Published(Result<PublishOutcome, ApiError>),
    Structure(Result<PublishedSite, ApiError>),
    Adaptive(Result<AdaptiveData, ApiError>),
    SchemaSaved(Result<AdaptiveSchema, ApiError>),
    ShareLinks(Result<WholeList<ShareLink>, ApiError>),
    ShareLink(Result<ShareLink, ApiError>),
    SectionGroups(Result<WholeList<SiteSectionGroup>, ApiError>),
    SectionGroup(Result<SiteSectionGroup, ApiError>),
    /// A delete, or a write with nothing to read back.
    Done(Result<(), ApiError>),
    Access(Result<AccessListing, ApiError>),
    /// `Ok(None)`: a guest, with no role in the organization.
    MyRole(Result<Option<MemberRole>, ApiError>),
    Spaces(Result<WholeList<Space>, ApiError>),
}

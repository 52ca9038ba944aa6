//! Resource models, one file per family. All decoders are tolerant of the real service: unknown
//! fields are ignored, unknown enum values are kept as `Other(String)`, and anything the service
//! may leave out is an `Option` or defaults (`null` included).

pub mod collection;
pub mod common;
pub mod member;
pub mod organization;
pub mod revision;
pub mod search;
pub mod space;

pub use collection::{Collection, CollectionPermissions};
pub use common::{DefaultLevel, MemberRole, Urls, User};
pub use member::Member;
pub use organization::{
    BillingProduct, Blocked, Organization, OrganizationPermissions, OrganizationType,
    OrganizationUseCase, Trial, TrialStatus,
};
pub use revision::{
    ContentRef, ContentRefKind, Dimensions, File, GitBlob, Page, PageType, ReusableContent,
    Revision, RevisionGit, RevisionType,
};
pub use search::{SearchAncestor, SearchPage, SearchResultType, SearchSection, SearchSpace};
pub use space::{ContentVisibility, GitSync, Space, SpaceEditMode, SpacePermissions};

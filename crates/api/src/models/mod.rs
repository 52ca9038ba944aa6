//! Resource models, one file per family. All decoders are tolerant of the real service: unknown
//! fields are ignored, unknown enum values are kept as `Other(String)`, and anything the service
//! may leave out is an `Option` or defaults (`null` included).

pub mod change_request;
pub mod collection;
pub mod comment;
pub mod common;
pub mod conversations;
pub mod git;
pub mod links;
pub mod member;
pub mod organization;
pub mod review;
pub mod revision;
pub mod search;
pub mod site;
pub mod space;
pub mod team;
pub use member::MemberSpace;
pub use team::{MemberTeam, Team, TeamMember, TeamMembership, TeamPermissions, TeamRole};

pub mod org_settings;
pub mod sso;
pub use org_settings::AgentInstructions;
pub use sso::{SamlProvider, SamlService, SsoLogin, TeamSummary};

pub mod openapi;
pub mod translation;
pub use openapi::{
    OpenApiContent, OpenApiSpec, OpenApiVersion, ProcessingError, ProcessingState, SpecFile,
    SpecPermissions, SpecVisibility,
};
pub use translation::{
    Translation, TranslationPermissions, TranslationResult, TranslationSource, TranslationStats,
    TranslationStatus,
};

pub mod integrations;
pub use conversations::{
    Conversation, ConversationDetail, ConversationIssue, ConversationMetadata, ConversationPart,
    ConversationUrls, IssueWithConversation,
};
pub use integrations::{
    ConfigurationProperty, ConfigurationSchema, ExternalLink, Integration, IntegrationBlock,
    IntegrationContentSource, IntegrationOwner, IntegrationPermissions, IntegrationTarget,
    IntegrationUrls,
};

pub use change_request::{
    ChangeRequest, ChangeRequestOrderBy, ChangeRequestPermissions, ChangeRequestStatus,
    ChangedPage, ChangedParent, MergeOutcome, MergeResult, RevisionSemanticChanges, SemanticChange,
    SemanticChangeType, UpdateOutcome, UpdateResult,
};
pub use collection::{Collection, CollectionPermissions};
pub use comment::{
    Comment, CommentBody, CommentPermissions, CommentReply, CommentStatus, CommentTarget, IdRef,
    Reaction, ReactionUser, Replier, TableCell,
};
pub use common::{DefaultLevel, MemberRole, Urls, User};
pub use conversations::{IssuesCluster, IssuesClusterStats};
pub use git::GitOperation;
pub use links::{BrokenLinkStats, Link, LinkPage, LinkStats, LinkStatus};
pub use member::Member;
pub use organization::{
    BillingProduct, Blocked, Organization, OrganizationPermissions, OrganizationType,
    OrganizationUseCase, Trial, TrialStatus,
};
pub use review::{
    ChangeRequestReview, RequestedReviewer, ReviewComment, ReviewStatus, ReviewerKind, TeamRef,
};
pub use revision::{
    ContentRef, ContentRefKind, Dimensions, File, GitBlob, Page, PageType, ReusableContent,
    Revision, RevisionGit, RevisionType,
};
pub use search::{SearchAncestor, SearchPage, SearchResultType, SearchSection, SearchSpace};
pub use site::{
    AdaptiveContent, AdaptiveSchema, AgentsContext, PublishOutcome, PublishedSite, ShareLink, Site,
    SiteExternalLink, SiteFeature, SitePermissions, SiteProxy, SiteSection, SiteSectionGroup,
    SiteSpace, SiteStructure, SiteStructureItem, SiteStructureType, SiteType, SiteVisibility,
    TemplateCondition,
};
pub use space::{ContentVisibility, GitSync, MergeRules, Space, SpaceEditMode, SpacePermissions};

//! The key contexts: where a binding applies.

/// Where a binding applies. A screen asks with its contexts, most specific first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyContext {
    Global,
    /// Home: the sections of change requests across organizations.
    Home,
    List,
    /// A list's moves without `/`: for lists with nothing to filter (a handful of rows).
    Browse,
    Tree,
    Tabs,
    Reader,
    ChangeRequests,
    Review,
    Changes,
    Comments,
    Reviews,
    /// A settings form: save.
    Form,
    /// The organization's Sites tab.
    SiteList,
    /// One site, on every tab: publish / unpublish.
    Site,
    ShareLinks,
    SectionGroups,
    Adaptive,
    AccessAudit,
    /// The organization's Members tab: role filter and sort.
    Members,
    /// The organization's Spaces tab: acting on the selected collection or space.
    ContentTree,
    /// Inside a space: its page tree (search, links, files, git sync, new change request).
    SpaceTree,
    /// The organization's Trash tab: deleted spaces.
    Trash,
    /// A space's or a change request's files.
    Files,
    /// A space's git sync screen: import, export, remove a legacy installation.
    Git,
    /// The organization's Teams tab: create, rename, delete, "teams I can manage".
    Teams,
    /// A team's members: add, remove, change a role, mark rows for a bulk edit.
    TeamMembers,
    /// The organization's SSO tab: SAML providers.
    SsoProviders,
    /// The SAML provider form.
    SamlForm,
    /// The organization's Settings tab: the form, agent instructions, invite links.
    OrgSettings,
    /// The organizations list (joining one).
    OrganizationList,
    /// The organization's Translations tab.
    Translations,
    /// The organization's OpenAPI tab.
    OpenApi,
    /// A spec's versions, and a version's files.
    SpecVersions,
    /// The organization's Clusters tab: clusters and conversations.
    Clusters,
    /// A cluster's issues.
    ClusterIssues,
    /// The organization's Integrations tab: the catalogue.
    Integrations,
    /// A page read at full width: its links and the history of pages read.
    ReaderLinks,
    /// The space's page preview while it has the focus: scrolling.
    Preview,
    /// The action log: this session's writes, `u` undoes one.
    ActionLog,
    Outbox,
}

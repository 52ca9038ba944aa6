//! The sandbox's own in-memory records. They are deliberately *not* the client's model types:
//! the sandbox is a second, independent reading of the API contract, so a wrong field name in
//! one cannot hide by agreeing with itself in the other.

use std::collections::{BTreeMap, HashMap};

/// A member role, ranked so that permissions can be computed as "at least this role".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Read,
    Comment,
    Review,
    Edit,
    Create,
    Admin,
}

impl Role {
    /// The wire spelling of the role.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Read => "read",
            Role::Comment => "comment",
            Role::Review => "review",
            Role::Edit => "edit",
            Role::Create => "create",
            Role::Admin => "admin",
        }
    }

    /// Whether this role may merge a change request, which is what a space's
    /// `permissions.merge` answers: as in the public service, editors and up may; readers,
    /// commenters and reviewers may not.
    pub fn may_merge(self) -> bool {
        self >= Role::Edit
    }

    /// Parses a wire spelling; `None` for anything else (including `guest`).
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "read" => Some(Role::Read),
            "comment" => Some(Role::Comment),
            "review" => Some(Role::Review),
            "edit" => Some(Role::Edit),
            "create" => Some(Role::Create),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }
}

/// Everything the sandbox serves, one field per area; the server holds it behind
/// `Arc<RwLock<World>>`.
#[derive(Clone, Debug, Default)]
pub struct World {
    pub organizations: Vec<Organization>,
    pub users: Vec<User>,
    pub memberships: Vec<Membership>,
    pub collections: Vec<Collection>,
    pub spaces: Vec<Space>,
    /// Bearer token → user id.
    pub tokens: HashMap<String, String>,
    /// Published sites with their structure, share links and adaptive schema.
    pub sites: super::sites::Sites,
    pub change_requests: super::change_requests::model::ChangeRequests,
    pub conversations: super::conversations::Conversations,
    /// Roles on collections apart from the organization role (the `permissions` they give).
    pub content_access: super::collections::ContentAccess,
    /// Git sync state per space (import/export operations, legacy installations).
    pub git: super::git::GitStates,
    /// Teams of every organization with their members (seats).
    pub teams: super::teams::Teams,
    /// SAML providers (sso/).
    pub sso: super::sso::SsoState,
    /// Default content, merge rules, invite links, agent instructions (org_settings/).
    pub org_settings: super::org_settings::OrgSettings,
    /// Translations of spaces (translations/mod.rs).
    pub translations: super::translations::Translations,
    /// OpenAPI specs and their versions (openapi/mod.rs).
    pub openapi: super::openapi::Specs,
    pub integrations: super::integrations::Integrations,
    /// Content templates a space's content can be given (templates.rs); none can be listed.
    pub templates: Vec<super::templates::Template>,
    /// Days the sandbox's clock runs ahead of the real one (a test knob), so a test can see a
    /// deleted space pass its 7 days of retention.
    pub clock_shift_days: i64,
    /// The time the sandbox goes by, shared with [`crate::Sandbox::clock`].
    pub clock: super::clock::Clock,
}

impl World {
    pub fn organization(&self, id: &str) -> Option<&Organization> {
        self.organizations
            .iter()
            .find(|organization| organization.id == id)
    }

    pub fn user(&self, id: &str) -> Option<&User> {
        self.users.iter().find(|user| user.id == id)
    }

    pub fn collection(&self, id: &str) -> Option<&Collection> {
        self.collections
            .iter()
            .find(|collection| collection.id == id)
    }

    /// A space by id; a deleted space past its retention is purged and found no more.
    pub fn space(&self, id: &str) -> Option<&Space> {
        self.spaces
            .iter()
            .find(|space| space.id == id && !self.is_purged(space))
    }

    /// The sandbox's "now": its clock moved by [`World::clock_shift_days`].
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now() + chrono::Duration::days(self.clock_shift_days)
    }

    /// True for a space deleted more than [`RETENTION_DAYS`] ago: permanently removed.
    pub fn is_purged(&self, space: &Space) -> bool {
        space
            .deleted_at
            .as_deref()
            .and_then(|deleted| chrono::DateTime::parse_from_rfc3339(deleted).ok())
            .is_some_and(|deleted| {
                self.now() - deleted.with_timezone(&chrono::Utc)
                    > chrono::Duration::days(RETENTION_DAYS)
            })
    }

    /// The membership of a user in an organization, if any.
    pub fn membership(&self, organization: &str, user: &str) -> Option<&Membership> {
        self.memberships
            .iter()
            .find(|membership| membership.organization == organization && membership.user == user)
    }

    /// The role a user holds in an organization, or `None` when they are not a member.
    pub fn role_in(&self, organization: &str, user: &str) -> Option<Role> {
        self.membership(organization, user)
            .and_then(|membership| membership.role)
    }
}

#[derive(Clone, Debug)]
pub struct User {
    pub id: String,
    pub display_name: String,
    pub email: String,
    pub photo_url: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Organization {
    pub id: String,
    pub title: String,
    pub created_at: String,
    pub email_domains: Vec<String>,
    pub hostname: String,
    /// `business` or `community`.
    pub organization_type: &'static str,
    pub use_case: &'static str,
    pub community_type: Option<&'static str>,
    pub default_role: Option<Role>,
    pub sso: bool,
    pub ai: bool,
    pub invite_links: bool,
    pub plan: &'static str,
    pub billing_interval: &'static str,
    pub trial_status: &'static str,
    pub logo: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Membership {
    pub organization: String,
    pub user: String,
    pub role: Option<Role>,
    pub disabled: bool,
    pub joined_at: String,
    pub last_seen_at: Option<String>,
    pub sso: bool,
    pub spaces: u32,
    pub teams: u32,
}

#[derive(Clone, Debug)]
pub struct Collection {
    pub id: String,
    pub organization: String,
    pub parent: Option<String>,
    pub title: String,
    pub description: Option<String>,
    pub default_level: Option<Role>,
}

/// Days a deleted space can be restored before it is purged.
pub(crate) const RETENTION_DAYS: i64 = 7;

/// A timestamp as the API writes them (`2024-01-02T08:00:00.000Z`).
pub(crate) fn iso(time: chrono::DateTime<chrono::Utc>) -> String {
    time.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Who must approve a change request before it merges (`mergeRules`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum MergeRules {
    /// `{type:'inherit'}`: the organization's rules apply.
    #[default]
    Inherit,
    /// `{type:'rules', rules:[{rule:'require_specific_reviewers', users}]}`.
    SpecificReviewers(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct Space {
    pub id: String,
    pub organization: String,
    pub parent: Option<String>,
    pub title: String,
    pub emoji: String,
    /// One of the six content visibilities.
    pub visibility: &'static str,
    /// `live` or `locked`.
    pub edit_mode: &'static str,
    pub created_at: String,
    pub updated_at: String,
    pub language: &'static str,
    pub default_level: Option<Role>,
    pub comments: u32,
    pub change_requests: u32,
    pub change_requests_open: u32,
    pub change_requests_draft: u32,
    pub published_url: Option<String>,
    pub git_repository: Option<String>,
    pub revision: Revision,
    /// Set when deleted; see [`World::is_purged`].
    pub deleted_at: Option<String>,
    pub merge_rules: MergeRules,
}

#[derive(Clone, Debug)]
pub struct Revision {
    pub id: String,
    pub parents: Vec<String>,
    pub created_at: String,
    pub git_message: Option<String>,
    pub pages: Vec<Page>,
    pub files: Vec<File>,
    pub variables: BTreeMap<String, String>,
}

impl Revision {
    /// Finds a page anywhere in the tree.
    pub fn page(&self, id: &str) -> Option<&Page> {
        find_page(&self.pages, id)
    }

    /// Every page of the tree, depth first, each with the titles of its ancestors.
    pub fn flatten(&self) -> Vec<(&Page, Vec<&str>)> {
        let mut flat = Vec::new();
        flatten_into(&self.pages, &mut Vec::new(), &mut flat);
        flat
    }
}

fn find_page<'a>(pages: &'a [Page], id: &str) -> Option<&'a Page> {
    pages.iter().find_map(|page| {
        if page.id == id {
            Some(page)
        } else {
            find_page(&page.children, id)
        }
    })
}

fn flatten_into<'a>(
    pages: &'a [Page],
    ancestors: &mut Vec<&'a str>,
    flat: &mut Vec<(&'a Page, Vec<&'a str>)>,
) {
    for page in pages {
        flat.push((page, ancestors.clone()));
        ancestors.push(&page.title);
        flatten_into(&page.children, ancestors, flat);
        ancestors.pop();
    }
}

#[derive(Clone, Debug)]
pub enum PageKind {
    Document { markdown: String },
    Group,
    Link { url: String },
}

#[derive(Clone, Debug)]
pub struct Page {
    pub id: String,
    pub title: String,
    pub emoji: Option<String>,
    pub description: Option<String>,
    pub slug: String,
    /// Full path inside the space, computed when the tree is built.
    pub path: String,
    pub hidden: bool,
    pub created_at: String,
    pub updated_at: String,
    pub kind: PageKind,
    pub children: Vec<Page>,
}

#[derive(Clone, Debug)]
pub struct File {
    pub id: String,
    pub name: String,
    pub content_type: String,
    pub size: u64,
    pub dimensions: Option<(u32, u32)>,
}

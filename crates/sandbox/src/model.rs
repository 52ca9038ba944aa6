//! The sandbox's own in-memory records. They are deliberately *not* the client's model types:
//! the sandbox is a second, independent reading of the API contract, so a wrong field name in
//! one cannot hide by agreeing with itself in the other.

use std::collections::BTreeMap;

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
    /// Set when deleted; see [`crate::world::World::is_purged`].
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

/// One template: the pages it adds, each markdown may name a content reference as
/// `{{name}}`, filled with the name of the file given for it (or left out when none is).
#[derive(Clone, Debug)]
pub struct Template {
    pub id: String,
    pub pages: Vec<Page>,
}

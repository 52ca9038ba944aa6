//! Every operation quire knows, once: its method, its path with `{}` for each id, whether it
//! takes a request body, and whether the public service offers it. The client sends bodies by
//! this table (an operation without one is never sent one, so no call can slip a `{}` through),
//! and learns from it which operations a server may lack. The sandbox's strict and
//! public-service modes answer by the sandbox's own table, written apart; a cross-check test
//! holds the two tables together.
//!
//! The public rows follow the public service's published OpenAPI description; the seed rows are
//! the operations the API reference defines that the public service does not have (it answers
//! them 404): a server that implements the whole reference, like the sandbox, has them.

use reqwest::Method;

/// What the seed-only operations are, in words; the app maps keys to them.
pub mod area {
    pub const SPACE_TRANSFER: &str = "moving a space to another organization";
    pub const SPACE_LINKS: &str = "a space's links report";
    pub const PAGE_LINKS: &str = "a page's links";
    pub const PAGE_BACKLINKS: &str = "a page's backlinks";
    pub const FILE_BACKLINKS: &str = "a file's backlinks";
    pub const LEGACY_GIT: &str = "removing the legacy git installation";
    pub const GROUP_SECTIONS: &str = "section-group sections";
    pub const CLUSTERS: &str = "conversation clusters";
    pub const CONVERSATIONS: &str = "conversations";
    pub const INGEST: &str = "conversation ingest";
    pub const ISSUES: &str = "conversation issues";
}

/// What an operation says about its request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyRule {
    /// No body and no `Content-Type`: the public service answers 415 to any, even `{}`.
    None,
    /// A JSON body must be sent; a request without one is answered 400.
    Required,
    /// A JSON body may be sent.
    Optional,
}

/// Whether the public service has the operation, and if not, how quire tells it is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offered {
    /// In the public service's description, so every server is expected to have it.
    Everywhere,
    /// Only in the API reference. `what` names it in a sentence ("a space's links report");
    /// `probe` is how a 404 is told apart from a missing item (see [`Probe`]).
    SeedOnly { what: &'static str, probe: Probe },
}

/// After a seed-only operation answered 404, the read that tells "this server does not offer
/// it" from "that item is not there". Its `{}` take the operation's ids in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// The resource the operation hangs off (the page of a page's links). When it reads fine,
    /// the 404 was the operation's: the server does not have it.
    Parent(&'static str),
    /// For an item of a seed-only list (one conversation): the list itself. When the list
    /// answers 404 or 405 too, the server has no such area; otherwise the item is gone.
    List(&'static str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation {
    pub method: &'static str,
    /// Relative to the API root (`/v1`), each id written `{}`.
    pub path: &'static str,
    pub body: BodyRule,
    pub offered: Offered,
}

impl Operation {
    /// A name stable across runs, for remembering what a server lacks: `"GET /spaces/{}/links"`.
    pub fn key(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    /// True for an operation only the API reference defines.
    pub fn is_seed_only(&self) -> bool {
        matches!(self.offered, Offered::SeedOnly { .. })
    }

    /// The ids of `path` (a concrete path of this operation), in order.
    pub fn ids<'p>(&self, path: &'p str) -> Vec<&'p str> {
        segments(path)
            .zip(segments(self.path))
            .filter(|(_, pattern)| *pattern == "{}")
            .map(|(value, _)| value)
            .collect()
    }
}

/// Fills a template's `{}` with `ids` in order (ids already encoded, as they were in the path).
pub fn fill(template: &str, ids: &[&str]) -> String {
    let mut ids = ids.iter();
    template
        .split('/')
        .map(|segment| match segment {
            "{}" => ids.next().copied().unwrap_or(""),
            literal => literal,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The operation a request is, matching literal segments before ids (`/orgs/{}/members/sso`
/// is not `/orgs/{}/members/{}`). `path` is relative to the API root, without a query.
pub fn find(method: &Method, path: &str) -> Option<&'static Operation> {
    let path = path.split('?').next().unwrap_or(path).trim_end_matches('/');
    let wanted: Vec<&str> = segments(path).collect();
    OPERATIONS
        .iter()
        .filter(|operation| operation.method == method.as_str())
        .filter(|operation| matches(operation.path, &wanted))
        .max_by_key(|operation| literal_segments(operation.path))
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|segment| !segment.is_empty())
}

fn matches(template: &str, wanted: &[&str]) -> bool {
    let pattern: Vec<&str> = segments(template).collect();
    pattern.len() == wanted.len()
        && pattern
            .iter()
            .zip(wanted)
            .all(|(pattern, value)| *pattern == "{}" || pattern == value)
}

fn literal_segments(template: &str) -> usize {
    segments(template)
        .filter(|segment| *segment != "{}")
        .count()
}

const fn public(method: &'static str, path: &'static str, body: BodyRule) -> Operation {
    Operation {
        method,
        path,
        body,
        offered: Offered::Everywhere,
    }
}

const fn seed(
    method: &'static str,
    path: &'static str,
    body: BodyRule,
    what: &'static str,
    probe: Probe,
) -> Operation {
    Operation {
        method,
        path,
        body,
        offered: Offered::SeedOnly { what, probe },
    }
}

const GET: &str = "GET";
const POST: &str = "POST";
const PUT: &str = "PUT";
const PATCH: &str = "PATCH";
const DELETE: &str = "DELETE";
const NO_BODY: BodyRule = BodyRule::None;
const REQUIRED: BodyRule = BodyRule::Required;
const OPTIONAL: BodyRule = BodyRule::Optional;
use Probe::{List, Parent};

/// Every operation: the public service's first, then the reference's own.
pub static OPERATIONS: &[Operation] = &[
    public(GET, "/user", NO_BODY),
    public(GET, "/", NO_BODY),
    public(GET, "/orgs", NO_BODY),
    public(GET, "/orgs/{}", NO_BODY),
    public(PATCH, "/orgs/{}", REQUIRED),
    public(POST, "/orgs/{}/join", NO_BODY),
    public(POST, "/orgs/{}/ping", NO_BODY),
    public(DELETE, "/orgs/{}/link-invites/{}", NO_BODY),
    public(GET, "/orgs/{}/agent-instructions", NO_BODY),
    public(PUT, "/orgs/{}/agent-instructions", REQUIRED),
    public(GET, "/orgs/{}/collections", NO_BODY),
    public(POST, "/orgs/{}/collections", OPTIONAL),
    public(GET, "/collections/{}", NO_BODY),
    public(PATCH, "/collections/{}", REQUIRED),
    public(DELETE, "/collections/{}", NO_BODY),
    public(GET, "/collections/{}/spaces", NO_BODY),
    public(POST, "/collections/{}/move", REQUIRED),
    public(POST, "/collections/{}/transfer", REQUIRED),
    public(GET, "/orgs/{}/spaces", NO_BODY),
    public(POST, "/orgs/{}/spaces", OPTIONAL),
    public(GET, "/spaces/{}", NO_BODY),
    public(PATCH, "/spaces/{}", REQUIRED),
    public(DELETE, "/spaces/{}", NO_BODY),
    public(POST, "/spaces/{}/restore", NO_BODY),
    public(POST, "/spaces/{}/duplicate", NO_BODY),
    public(POST, "/spaces/{}/move", REQUIRED),
    public(GET, "/spaces/{}/content", NO_BODY),
    public(GET, "/spaces/{}/content/pages", NO_BODY),
    public(GET, "/spaces/{}/content/page/{}", NO_BODY),
    public(GET, "/spaces/{}/content/path/{}", NO_BODY),
    public(GET, "/spaces/{}/content/page/{}/meta-links", NO_BODY),
    public(GET, "/spaces/{}/content/files", NO_BODY),
    public(GET, "/spaces/{}/content/files/{}", NO_BODY),
    public(GET, "/spaces/{}/revisions/{}", NO_BODY),
    public(GET, "/spaces/{}/revisions/{}/pages", NO_BODY),
    public(GET, "/spaces/{}/revisions/{}/page/{}", NO_BODY),
    public(GET, "/spaces/{}/revisions/{}/page/{}/document", NO_BODY),
    public(GET, "/spaces/{}/revisions/{}/changes", NO_BODY),
    public(POST, "/spaces/{}/content/template", REQUIRED),
    public(GET, "/spaces/{}/change-requests", NO_BODY),
    public(GET, "/orgs/{}/change-requests", NO_BODY),
    public(POST, "/spaces/{}/change-requests", REQUIRED),
    public(GET, "/spaces/{}/change-requests/{}", NO_BODY),
    public(PATCH, "/spaces/{}/change-requests/{}", REQUIRED),
    public(POST, "/spaces/{}/change-requests/{}/merge", NO_BODY),
    public(POST, "/spaces/{}/change-requests/{}/update", NO_BODY),
    public(GET, "/spaces/{}/change-requests/{}/changes", NO_BODY),
    public(GET, "/spaces/{}/change-requests/{}/content", NO_BODY),
    public(GET, "/spaces/{}/change-requests/{}/content/pages", NO_BODY),
    public(
        GET,
        "/spaces/{}/change-requests/{}/content/page/{}",
        NO_BODY,
    ),
    public(
        GET,
        "/spaces/{}/change-requests/{}/content/path/{}",
        NO_BODY,
    ),
    public(GET, "/spaces/{}/change-requests/{}/content/files", NO_BODY),
    public(POST, "/spaces/{}/change-requests/{}/content", REQUIRED),
    public(GET, "/spaces/{}/change-requests/{}/contributors", NO_BODY),
    public(GET, "/spaces/{}/change-requests/{}/pdf", NO_BODY),
    public(GET, "/spaces/{}/change-requests/{}/conversations", NO_BODY),
    public(GET, "/spaces/{}/change-requests/{}/reviews", NO_BODY),
    public(POST, "/spaces/{}/change-requests/{}/reviews", REQUIRED),
    public(GET, "/spaces/{}/change-requests/{}/reviews/{}", NO_BODY),
    public(
        GET,
        "/spaces/{}/change-requests/{}/requested-reviewers",
        NO_BODY,
    ),
    public(
        POST,
        "/spaces/{}/change-requests/{}/requested-reviewers",
        REQUIRED,
    ),
    public(
        DELETE,
        "/spaces/{}/change-requests/{}/requested-reviewers/{}",
        NO_BODY,
    ),
    public(GET, "/spaces/{}/change-requests/{}/comments", NO_BODY),
    public(POST, "/spaces/{}/change-requests/{}/comments", REQUIRED),
    public(GET, "/spaces/{}/change-requests/{}/comments/{}", NO_BODY),
    public(PUT, "/spaces/{}/change-requests/{}/comments/{}", REQUIRED),
    public(DELETE, "/spaces/{}/change-requests/{}/comments/{}", NO_BODY),
    public(
        GET,
        "/spaces/{}/change-requests/{}/comments/{}/replies",
        NO_BODY,
    ),
    public(
        POST,
        "/spaces/{}/change-requests/{}/comments/{}/replies",
        REQUIRED,
    ),
    public(
        GET,
        "/spaces/{}/change-requests/{}/comments/{}/replies/{}",
        NO_BODY,
    ),
    public(
        PUT,
        "/spaces/{}/change-requests/{}/comments/{}/replies/{}",
        REQUIRED,
    ),
    public(
        DELETE,
        "/spaces/{}/change-requests/{}/comments/{}/replies/{}",
        NO_BODY,
    ),
    public(GET, "/spaces/{}/change-requests/{}/commenters", NO_BODY),
    public(GET, "/orgs/{}/sites", NO_BODY),
    public(POST, "/orgs/{}/sites", OPTIONAL),
    public(GET, "/orgs/{}/sites/{}", NO_BODY),
    public(PATCH, "/orgs/{}/sites/{}", REQUIRED),
    public(DELETE, "/orgs/{}/sites/{}", NO_BODY),
    public(POST, "/orgs/{}/sites/{}/publish", NO_BODY),
    public(POST, "/orgs/{}/sites/{}/unpublish", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/structure", NO_BODY),
    public(PATCH, "/orgs/{}/sites/{}/structure/sort", REQUIRED),
    public(GET, "/orgs/{}/sites/{}/site-spaces", NO_BODY),
    public(PATCH, "/orgs/{}/sites/{}/site-spaces/{}", REQUIRED),
    public(GET, "/orgs/{}/sites/{}/sections", NO_BODY),
    public(POST, "/orgs/{}/sites/{}/sections", REQUIRED),
    public(PATCH, "/orgs/{}/sites/{}/sections/{}", REQUIRED),
    public(GET, "/orgs/{}/sites/{}/published", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/adaptive-schema", NO_BODY),
    public(PUT, "/orgs/{}/sites/{}/adaptive-schema", REQUIRED),
    public(
        GET,
        "/orgs/{}/sites/{}/adaptive-schema/template-conditions",
        NO_BODY,
    ),
    public(GET, "/orgs/{}/sites/{}/publishing/auth", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/share-links", NO_BODY),
    public(POST, "/orgs/{}/sites/{}/share-links", REQUIRED),
    public(PATCH, "/orgs/{}/sites/{}/share-links/{}", REQUIRED),
    public(DELETE, "/orgs/{}/sites/{}/share-links/{}", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/section-groups", NO_BODY),
    public(POST, "/orgs/{}/sites/{}/section-groups", REQUIRED),
    public(PATCH, "/orgs/{}/sites/{}/section-groups/{}", REQUIRED),
    public(DELETE, "/orgs/{}/sites/{}/section-groups/{}", NO_BODY),
    public(GET, "/orgs/{}/members", NO_BODY),
    public(GET, "/orgs/{}/members/{}", NO_BODY),
    public(PATCH, "/orgs/{}/members/{}", REQUIRED),
    public(DELETE, "/orgs/{}/members/{}", NO_BODY),
    public(POST, "/orgs/{}/members/{}/sso", NO_BODY),
    public(GET, "/orgs/{}/members/{}/spaces", NO_BODY),
    public(GET, "/orgs/{}/members/{}/teams", NO_BODY),
    public(GET, "/orgs/{}/teams", NO_BODY),
    public(PUT, "/orgs/{}/teams", REQUIRED),
    public(GET, "/orgs/{}/teams/{}", NO_BODY),
    public(PATCH, "/orgs/{}/teams/{}", REQUIRED),
    public(DELETE, "/orgs/{}/teams/{}", NO_BODY),
    public(GET, "/orgs/{}/teams/{}/members", NO_BODY),
    public(PUT, "/orgs/{}/teams/{}/members", REQUIRED),
    public(PUT, "/orgs/{}/teams/{}/members/{}", OPTIONAL),
    public(DELETE, "/orgs/{}/teams/{}/members/{}", NO_BODY),
    public(GET, "/spaces/{}/search", NO_BODY),
    public(GET, "/orgs/{}/search", NO_BODY),
    public(POST, "/orgs/{}/sites/{}/search", REQUIRED),
    public(
        GET,
        "/spaces/{}/change-requests/{}/content/page/{}/meta-links",
        NO_BODY,
    ),
    public(GET, "/orgs/{}/sites/{}/findings", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/findings/{}", NO_BODY),
    public(GET, "/orgs/{}/translations", NO_BODY),
    public(POST, "/orgs/{}/translations", REQUIRED),
    public(GET, "/orgs/{}/translations/{}", NO_BODY),
    public(PUT, "/orgs/{}/translations/{}", REQUIRED),
    public(DELETE, "/orgs/{}/translations/{}", NO_BODY),
    public(POST, "/orgs/{}/translations/{}/run", NO_BODY),
    public(GET, "/orgs/{}/openapi", NO_BODY),
    public(POST, "/orgs/{}/openapi", REQUIRED),
    public(GET, "/orgs/{}/openapi/{}", NO_BODY),
    public(PUT, "/orgs/{}/openapi/{}", REQUIRED),
    public(PATCH, "/orgs/{}/openapi/{}", REQUIRED),
    public(DELETE, "/orgs/{}/openapi/{}", NO_BODY),
    public(GET, "/orgs/{}/openapi/{}/versions", NO_BODY),
    public(GET, "/orgs/{}/openapi/{}/versions/latest", NO_BODY),
    public(GET, "/orgs/{}/openapi/{}/versions/latest/content", NO_BODY),
    public(
        GET,
        "/orgs/{}/openapi/{}/versions/latest/content/raw",
        NO_BODY,
    ),
    public(GET, "/orgs/{}/openapi/{}/versions/{}", NO_BODY),
    public(GET, "/orgs/{}/openapi/{}/versions/{}/content", NO_BODY),
    public(GET, "/orgs/{}/agent/conversations", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/topics", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/topics/{}", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/context-records", NO_BODY),
    public(GET, "/orgs/{}/saml", NO_BODY),
    public(POST, "/orgs/{}/saml", REQUIRED),
    public(GET, "/orgs/{}/saml/{}", NO_BODY),
    public(PATCH, "/orgs/{}/saml/{}", REQUIRED),
    public(DELETE, "/orgs/{}/saml/{}", NO_BODY),
    public(GET, "/orgs/{}/sso", NO_BODY),
    public(GET, "/spaces/{}/git/info", NO_BODY),
    public(POST, "/spaces/{}/git/import", REQUIRED),
    public(POST, "/spaces/{}/git/export", REQUIRED),
    public(GET, "/integrations", NO_BODY),
    public(GET, "/integrations/{}", NO_BODY),
    public(POST, "/integrations/{}", REQUIRED),
    public(DELETE, "/integrations/{}", NO_BODY),
    public(GET, "/orgs/{}/integrations", NO_BODY),
    public(GET, "/orgs/{}/installations", NO_BODY),
    public(GET, "/orgs/{}/integrations/installations-status", NO_BODY),
    public(GET, "/spaces/{}/integrations", NO_BODY),
    public(GET, "/orgs/{}/sites/{}/integrations", NO_BODY),
    public(GET, "/integrations/{}/installations/{}", NO_BODY),
    seed(
        POST,
        "/spaces/{}/transfer",
        REQUIRED,
        area::SPACE_TRANSFER,
        Parent("/spaces/{}"),
    ),
    seed(
        GET,
        "/spaces/{}/links",
        NO_BODY,
        area::SPACE_LINKS,
        Parent("/spaces/{}"),
    ),
    seed(
        GET,
        "/spaces/{}/content/page/{}/links",
        NO_BODY,
        area::PAGE_LINKS,
        Parent("/spaces/{}/content/page/{}"),
    ),
    seed(
        GET,
        "/spaces/{}/content/page/{}/backlinks",
        NO_BODY,
        area::PAGE_BACKLINKS,
        Parent("/spaces/{}/content/page/{}"),
    ),
    seed(
        GET,
        "/spaces/{}/content/files/{}/backlinks",
        NO_BODY,
        area::FILE_BACKLINKS,
        Parent("/spaces/{}/content/files/{}"),
    ),
    seed(
        GET,
        "/spaces/{}/change-requests/{}/content/page/{}/links",
        NO_BODY,
        area::PAGE_LINKS,
        Parent("/spaces/{}/change-requests/{}/content/page/{}"),
    ),
    seed(
        GET,
        "/spaces/{}/change-requests/{}/content/page/{}/backlinks",
        NO_BODY,
        area::PAGE_BACKLINKS,
        Parent("/spaces/{}/change-requests/{}/content/page/{}"),
    ),
    seed(
        GET,
        "/spaces/{}/change-requests/{}/content/files/{}/backlinks",
        NO_BODY,
        area::FILE_BACKLINKS,
        Parent("/spaces/{}/change-requests/{}"),
    ),
    seed(
        DELETE,
        "/spaces/{}/git/legacy-installation",
        NO_BODY,
        area::LEGACY_GIT,
        Parent("/spaces/{}/git/info"),
    ),
    seed(
        POST,
        "/orgs/{}/sites/{}/section-groups/{}/sections",
        REQUIRED,
        area::GROUP_SECTIONS,
        Parent("/orgs/{}/sites/{}"),
    ),
    seed(
        DELETE,
        "/orgs/{}/sites/{}/section-groups/{}/sections/{}",
        NO_BODY,
        area::GROUP_SECTIONS,
        Parent("/orgs/{}/sites/{}"),
    ),
    seed(
        GET,
        "/orgs/{}/conversations-clusters",
        NO_BODY,
        area::CLUSTERS,
        Parent("/orgs/{}"),
    ),
    seed(
        GET,
        "/orgs/{}/conversations",
        NO_BODY,
        area::CONVERSATIONS,
        Parent("/orgs/{}"),
    ),
    seed(
        POST,
        "/orgs/{}/conversations",
        REQUIRED,
        area::INGEST,
        Parent("/orgs/{}"),
    ),
    seed(
        GET,
        "/orgs/{}/conversations/{}",
        NO_BODY,
        area::CONVERSATIONS,
        List("/orgs/{}/conversations"),
    ),
    seed(
        GET,
        "/orgs/{}/conversations-issues",
        NO_BODY,
        area::ISSUES,
        Parent("/orgs/{}"),
    ),
    seed(
        GET,
        "/orgs/{}/conversations-issues/{}",
        NO_BODY,
        area::ISSUES,
        List("/orgs/{}/conversations-issues"),
    ),
];

//! The operations the sandbox serves, as the API reference and the public service's
//! description define them: for each, whether it takes a request body and whether the public
//! service has it at all. The strict-bodies and public-service modes of the gate answer by this
//! table, so a client call that would fail against the public service fails here too.
//!
//! Written from those two documents alone, apart from quire's client: the client keeps its own
//! list of what it calls, and a cross-check test holds the two against each other. Paths are
//! relative to `/v1` and name their parameters as the routers do; the groups follow the routers.

use axum::http::Method;

/// The HTTP method of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Verb {
    pub fn of(method: &Method) -> Option<Verb> {
        let verb = match *method {
            Method::GET => Verb::Get,
            Method::POST => Verb::Post,
            Method::PUT => Verb::Put,
            Method::PATCH => Verb::Patch,
            Method::DELETE => Verb::Delete,
            _ => return None,
        };
        Some(verb)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "GET",
            Verb::Post => "POST",
            Verb::Put => "PUT",
            Verb::Patch => "PATCH",
            Verb::Delete => "DELETE",
        }
    }
}

/// What the description says about the request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// "no body": the public service answers 415 to any body, even `{}`.
    Refused,
    /// "body (required)": a request without one is answered 400.
    Required,
    /// "body (optional)".
    Optional,
}

/// Where the operation exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// In the public service's description: every server has it.
    Public,
    /// Only in the API reference; the public service answers 404.
    ReferenceOnly,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation {
    pub verb: Verb,
    /// Relative to `/v1`, with named parameters: `/spaces/{space}/links`.
    pub path: &'static str,
    pub body: Body,
    pub reach: Reach,
}

impl Operation {
    const fn reference_only(self) -> Operation {
        Operation {
            reach: Reach::ReferenceOnly,
            ..self
        }
    }

    /// True when `path` (relative to `/v1`) is this operation's path with its parameters
    /// filled, each by one non-empty segment.
    fn fits(&self, path: &str) -> bool {
        let mut wanted = self.path.split('/');
        let mut given = path.split('/');
        loop {
            match (wanted.next(), given.next()) {
                (None, None) => return true,
                (Some(pattern), Some(segment)) if segment_fits(pattern, segment) => {}
                _ => return false,
            }
        }
    }

    fn literal_segments(&self) -> usize {
        self.path
            .split('/')
            .filter(|segment| !is_parameter(segment))
            .count()
    }
}

fn is_parameter(segment: &str) -> bool {
    segment.starts_with('{') && segment.ends_with('}')
}

fn segment_fits(pattern: &str, segment: &str) -> bool {
    if is_parameter(pattern) {
        !segment.is_empty()
    } else {
        pattern == segment
    }
}

/// A GET without a body, in the public service.
const fn read(path: &'static str) -> Operation {
    operation(Verb::Get, path, Body::Refused)
}

/// A call that takes no body (merge, publish, a deletion...).
const fn act(verb: Verb, path: &'static str) -> Operation {
    operation(verb, path, Body::Refused)
}

const fn send(verb: Verb, path: &'static str) -> Operation {
    operation(verb, path, Body::Required)
}

const fn send_maybe(verb: Verb, path: &'static str) -> Operation {
    operation(verb, path, Body::Optional)
}

const fn operation(verb: Verb, path: &'static str, body: Body) -> Operation {
    Operation {
        verb,
        path,
        body,
        reach: Reach::Public,
    }
}

/// The operations of one router of the sandbox.
pub struct Group {
    pub router: &'static str,
    pub operations: &'static [Operation],
}

pub static GROUPS: &[Group] = &[
    group("identity and content", IDENTITY_AND_CONTENT),
    group("search", SEARCH),
    group("links", LINKS),
    group("files", FILES),
    group("sites", SITES),
    group("change requests", CHANGE_REQUESTS),
    group("conversations", CONVERSATIONS),
    group("collections", COLLECTIONS),
    group("moves", MOVES),
    group("spaces", SPACES),
    group("templates", TEMPLATES),
    group("git", GIT),
    group("members", MEMBERS),
    group("teams", TEAMS),
    group("sso", SSO),
    group("organization settings", ORG_SETTINGS),
    group("translations", TRANSLATIONS),
    group("openapi", OPENAPI),
    group("integrations", INTEGRATIONS),
];

const fn group(router: &'static str, operations: &'static [Operation]) -> Group {
    Group { router, operations }
}

/// Operations of the public service that no route of the sandbox names. Most it does not
/// implement, so they pass the gate and answer 404 as an unknown route (not 501: they are
/// operations of the API); `…/versions/latest…` it answers through `…/versions/{version}`.
pub static NOT_ROUTED: &[Operation] = &[
    send_maybe(Verb::Post, "/orgs/{organization}/spaces"),
    read("/spaces/{space}/content/path/{path}"),
    read("/spaces/{space}/content/page/{page}/meta-links"),
    read("/spaces/{space}/revisions/{revision}"),
    read("/spaces/{space}/revisions/{revision}/pages"),
    read("/spaces/{space}/revisions/{revision}/page/{page}"),
    read("/spaces/{space}/revisions/{revision}/page/{page}/document"),
    read("/spaces/{space}/revisions/{revision}/changes"),
    read("/spaces/{space}/change-requests/{change_request}/content/path/{path}"),
    send(
        Verb::Post,
        "/spaces/{space}/change-requests/{change_request}/content",
    ),
    read("/spaces/{space}/change-requests/{change_request}/contributors"),
    read("/spaces/{space}/change-requests/{change_request}/conversations"),
    send(
        Verb::Patch,
        "/orgs/{organization}/sites/{site}/structure/sort",
    ),
    read("/orgs/{organization}/sites/{site}/site-spaces"),
    send(
        Verb::Patch,
        "/orgs/{organization}/sites/{site}/site-spaces/{site_space}",
    ),
    read("/orgs/{organization}/sites/{site}/sections"),
    send(Verb::Post, "/orgs/{organization}/sites/{site}/sections"),
    read("/orgs/{organization}/sites/{site}/publishing/auth"),
    send_maybe(
        Verb::Post,
        "/orgs/{organization}/sites/{site}/section-groups/{group}/move",
    ),
    send(Verb::Post, "/orgs/{organization}/sites/{site}/search"),
    read("/spaces/{space}/change-requests/{change_request}/content/page/{page}/meta-links"),
    read("/orgs/{organization}/sites/{site}/findings"),
    read("/orgs/{organization}/sites/{site}/findings/{finding}"),
    read("/orgs/{organization}/openapi/{slug}/versions/latest"),
    read("/orgs/{organization}/openapi/{slug}/versions/latest/content"),
    read("/orgs/{organization}/openapi/{slug}/versions/latest/content/raw"),
    read("/orgs/{organization}/agent/conversations"),
    read("/orgs/{organization}/sites/{site}/topics"),
    read("/orgs/{organization}/sites/{site}/topics/{topic}"),
    read("/orgs/{organization}/sites/{site}/context-records"),
    act(Verb::Delete, "/integrations/{name}"),
    read("/orgs/{organization}/integrations"),
    read("/orgs/{organization}/installations"),
    read("/orgs/{organization}/integrations/installations-status"),
    read("/spaces/{space}/integrations"),
    read("/orgs/{organization}/sites/{site}/integrations"),
    read("/integrations/{name}/installations/{installation}"),
];

/// The operations a router of the sandbox serves.
pub fn routed() -> impl Iterator<Item = &'static Operation> {
    GROUPS.iter().flat_map(|group| group.operations)
}

/// Every operation of the table, routed or not.
pub fn all() -> impl Iterator<Item = &'static Operation> {
    routed().chain(NOT_ROUTED)
}

/// The operation `method path` is, `path` relative to `/v1`. Where two fit (`versions/latest`
/// and `versions/{version}`), the one with more literal segments wins.
pub fn find(method: &Method, path: &str) -> Option<&'static Operation> {
    let verb = Verb::of(method)?;
    let path = if path.is_empty() { "/" } else { path };
    all()
        .filter(|operation| operation.verb == verb && operation.fits(path))
        .max_by_key(|operation| operation.literal_segments())
}

const CHANGE_REQUESTS: &[Operation] = &[
    read("/spaces/{space}/change-requests"),
    send(Verb::Post, "/spaces/{space}/change-requests"),
    read("/orgs/{organization}/change-requests"),
    read("/spaces/{space}/change-requests/{change_request}"),
    send(
        Verb::Patch,
        "/spaces/{space}/change-requests/{change_request}",
    ),
    act(
        Verb::Post,
        "/spaces/{space}/change-requests/{change_request}/merge",
    ),
    act(
        Verb::Post,
        "/spaces/{space}/change-requests/{change_request}/update",
    ),
    read("/spaces/{space}/change-requests/{change_request}/changes"),
    read("/spaces/{space}/change-requests/{change_request}/pdf"),
    read("/spaces/{space}/change-requests/{change_request}/content"),
    read("/spaces/{space}/change-requests/{change_request}/content/pages"),
    read("/spaces/{space}/change-requests/{change_request}/content/page/{page}"),
    read("/spaces/{space}/change-requests/{change_request}/comments"),
    send(
        Verb::Post,
        "/spaces/{space}/change-requests/{change_request}/comments",
    ),
    read("/spaces/{space}/change-requests/{change_request}/comments/{comment}"),
    send(
        Verb::Put,
        "/spaces/{space}/change-requests/{change_request}/comments/{comment}",
    ),
    act(
        Verb::Delete,
        "/spaces/{space}/change-requests/{change_request}/comments/{comment}",
    ),
    read("/spaces/{space}/change-requests/{change_request}/comments/{comment}/replies"),
    send(
        Verb::Post,
        "/spaces/{space}/change-requests/{change_request}/comments/{comment}/replies",
    ),
    read("/spaces/{space}/change-requests/{change_request}/comments/{comment}/replies/{reply}"),
    send(
        Verb::Put,
        "/spaces/{space}/change-requests/{change_request}/comments/{comment}/replies/{reply}",
    ),
    act(
        Verb::Delete,
        "/spaces/{space}/change-requests/{change_request}/comments/{comment}/replies/{reply}",
    ),
    read("/spaces/{space}/change-requests/{change_request}/commenters"),
    read("/spaces/{space}/change-requests/{change_request}/reviews"),
    send(
        Verb::Post,
        "/spaces/{space}/change-requests/{change_request}/reviews",
    ),
    read("/spaces/{space}/change-requests/{change_request}/reviews/{review}"),
    read("/spaces/{space}/change-requests/{change_request}/requested-reviewers"),
    send(
        Verb::Post,
        "/spaces/{space}/change-requests/{change_request}/requested-reviewers",
    ),
    act(
        Verb::Delete,
        "/spaces/{space}/change-requests/{change_request}/requested-reviewers/{user}",
    ),
];

const COLLECTIONS: &[Operation] = &[
    read("/orgs/{organization}/collections"),
    send_maybe(Verb::Post, "/orgs/{organization}/collections"),
    read("/collections/{collection}"),
    send(Verb::Patch, "/collections/{collection}"),
    act(Verb::Delete, "/collections/{collection}"),
    read("/collections/{collection}/spaces"),
];

const CONVERSATIONS: &[Operation] = &[
    read("/orgs/{organization}/conversations-clusters").reference_only(),
    read("/orgs/{organization}/conversations").reference_only(),
    send(Verb::Post, "/orgs/{organization}/conversations").reference_only(),
    read("/orgs/{organization}/conversations/{conversation}").reference_only(),
    read("/orgs/{organization}/conversations-issues").reference_only(),
    read("/orgs/{organization}/conversations-issues/{issue}").reference_only(),
];

const FILES: &[Operation] = &[
    read("/spaces/{space}/content/files/{file}"),
    read("/spaces/{space}/change-requests/{change_request}/content/files"),
    read("/spaces/{space}/change-requests/{change_request}/content/files/{file}"),
];

const GIT: &[Operation] = &[
    read("/spaces/{space}/git/info"),
    send(Verb::Post, "/spaces/{space}/git/import"),
    send(Verb::Post, "/spaces/{space}/git/export"),
    act(Verb::Delete, "/spaces/{space}/git/legacy-installation").reference_only(),
];

const INTEGRATIONS: &[Operation] = &[
    read("/integrations"),
    read("/integrations/{name}"),
    send(Verb::Post, "/integrations/{name}"),
];

const LINKS: &[Operation] = &[
    read("/spaces/{space}/links").reference_only(),
    read("/spaces/{space}/content/page/{page}/links").reference_only(),
    read("/spaces/{space}/content/page/{page}/backlinks").reference_only(),
    read("/spaces/{space}/content/files/{file}/backlinks").reference_only(),
    read("/spaces/{space}/change-requests/{change_request}/content/page/{page}/links")
        .reference_only(),
    read("/spaces/{space}/change-requests/{change_request}/content/page/{page}/backlinks")
        .reference_only(),
    read("/spaces/{space}/change-requests/{change_request}/content/files/{file}/backlinks")
        .reference_only(),
];

const MEMBERS: &[Operation] = &[
    read("/orgs/{organization}/members"),
    read("/orgs/{organization}/members/{user}"),
    send(Verb::Patch, "/orgs/{organization}/members/{user}"),
    act(Verb::Delete, "/orgs/{organization}/members/{user}"),
    act(Verb::Post, "/orgs/{organization}/members/{user}/sso"),
    read("/orgs/{organization}/members/{user}/spaces"),
    read("/orgs/{organization}/members/{user}/teams"),
    act(Verb::Post, "/orgs/{organization}/ping"),
];

const MOVES: &[Operation] = &[
    send(Verb::Post, "/collections/{collection}/move"),
    send(Verb::Post, "/collections/{collection}/transfer"),
    send(Verb::Post, "/spaces/{space}/move"),
    send(Verb::Post, "/spaces/{space}/transfer").reference_only(),
];

const OPENAPI: &[Operation] = &[
    read("/orgs/{organization}/openapi"),
    send(Verb::Post, "/orgs/{organization}/openapi"),
    read("/orgs/{organization}/openapi/{slug}"),
    send(Verb::Put, "/orgs/{organization}/openapi/{slug}"),
    send(Verb::Patch, "/orgs/{organization}/openapi/{slug}"),
    act(Verb::Delete, "/orgs/{organization}/openapi/{slug}"),
    read("/orgs/{organization}/openapi/{slug}/versions"),
    read("/orgs/{organization}/openapi/{slug}/versions/{version}"),
    read("/orgs/{organization}/openapi/{slug}/versions/{version}/content"),
];

const ORG_SETTINGS: &[Operation] = &[
    send(Verb::Patch, "/orgs/{organization}"),
    act(Verb::Delete, "/orgs/{organization}/link-invites/{invite}"),
    act(Verb::Post, "/orgs/{organization}/join"),
    read("/orgs/{organization}/agent-instructions"),
    send(Verb::Put, "/orgs/{organization}/agent-instructions"),
];

const IDENTITY_AND_CONTENT: &[Operation] = &[
    read("/"),
    read("/user"),
    read("/orgs"),
    read("/orgs/{organization}"),
    read("/orgs/{organization}/spaces"),
    read("/spaces/{space}"),
    read("/spaces/{space}/content"),
    read("/spaces/{space}/content/pages"),
    read("/spaces/{space}/content/page/{page}"),
    read("/spaces/{space}/content/files"),
];

const SEARCH: &[Operation] = &[
    read("/spaces/{space}/search"),
    read("/orgs/{organization}/search"),
];

const SITES: &[Operation] = &[
    read("/orgs/{organization}/sites"),
    send_maybe(Verb::Post, "/orgs/{organization}/sites"),
    read("/orgs/{organization}/sites/{site}"),
    send(Verb::Patch, "/orgs/{organization}/sites/{site}"),
    act(Verb::Delete, "/orgs/{organization}/sites/{site}"),
    act(Verb::Post, "/orgs/{organization}/sites/{site}/publish"),
    act(Verb::Post, "/orgs/{organization}/sites/{site}/unpublish"),
    read("/orgs/{organization}/sites/{site}/published"),
    read("/orgs/{organization}/sites/{site}/structure"),
    read("/orgs/{organization}/sites/{site}/adaptive-schema"),
    send(
        Verb::Put,
        "/orgs/{organization}/sites/{site}/adaptive-schema",
    ),
    read("/orgs/{organization}/sites/{site}/adaptive-schema/template-conditions"),
    read("/orgs/{organization}/sites/{site}/share-links"),
    send(Verb::Post, "/orgs/{organization}/sites/{site}/share-links"),
    send(
        Verb::Patch,
        "/orgs/{organization}/sites/{site}/share-links/{link}",
    ),
    act(
        Verb::Delete,
        "/orgs/{organization}/sites/{site}/share-links/{link}",
    ),
    read("/orgs/{organization}/sites/{site}/section-groups"),
    send(
        Verb::Post,
        "/orgs/{organization}/sites/{site}/section-groups",
    ),
    send(
        Verb::Patch,
        "/orgs/{organization}/sites/{site}/section-groups/{group}",
    ),
    act(
        Verb::Delete,
        "/orgs/{organization}/sites/{site}/section-groups/{group}",
    ),
    send(
        Verb::Post,
        "/orgs/{organization}/sites/{site}/section-groups/{group}/sections",
    )
    .reference_only(),
    act(
        Verb::Delete,
        "/orgs/{organization}/sites/{site}/section-groups/{group}/sections/{section}",
    )
    .reference_only(),
    send(
        Verb::Patch,
        "/orgs/{organization}/sites/{site}/sections/{section}",
    ),
];

const SPACES: &[Operation] = &[
    send(Verb::Patch, "/spaces/{space}"),
    act(Verb::Delete, "/spaces/{space}"),
    act(Verb::Post, "/spaces/{space}/duplicate"),
    act(Verb::Post, "/spaces/{space}/restore"),
];

const SSO: &[Operation] = &[
    read("/orgs/{organization}/saml"),
    send(Verb::Post, "/orgs/{organization}/saml"),
    read("/orgs/{organization}/saml/{provider}"),
    send(Verb::Patch, "/orgs/{organization}/saml/{provider}"),
    act(Verb::Delete, "/orgs/{organization}/saml/{provider}"),
    read("/orgs/{organization}/sso"),
];

const TEAMS: &[Operation] = &[
    read("/orgs/{organization}/teams"),
    send(Verb::Put, "/orgs/{organization}/teams"),
    read("/orgs/{organization}/teams/{team}"),
    send(Verb::Patch, "/orgs/{organization}/teams/{team}"),
    act(Verb::Delete, "/orgs/{organization}/teams/{team}"),
    read("/orgs/{organization}/teams/{team}/members"),
    send(Verb::Put, "/orgs/{organization}/teams/{team}/members"),
    send_maybe(
        Verb::Put,
        "/orgs/{organization}/teams/{team}/members/{user}",
    ),
    act(
        Verb::Delete,
        "/orgs/{organization}/teams/{team}/members/{user}",
    ),
];

const TEMPLATES: &[Operation] = &[send(Verb::Post, "/spaces/{space}/content/template")];

const TRANSLATIONS: &[Operation] = &[
    read("/orgs/{organization}/translations"),
    send(Verb::Post, "/orgs/{organization}/translations"),
    read("/orgs/{organization}/translations/{id}"),
    send(Verb::Put, "/orgs/{organization}/translations/{id}"),
    act(Verb::Delete, "/orgs/{organization}/translations/{id}"),
    act(Verb::Post, "/orgs/{organization}/translations/{id}/run"),
];

#[cfg(test)]
#[path = "operations_tests.rs"]
mod tests;

//! Every write the client can send, walked once against a sandbox that answers like the public
//! service to a wrong request shape: 415 to a body where the operation takes none, 400 to a
//! missing body where one is required, 501 to a request that is no operation of the API. A
//! write refused that way would fail the same way against the service.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;

use quire::api::git::branch_ref;
use quire::api::models::{
    ChangeRequestStatus, MemberRole, SiteType, SiteVisibility, SpecVisibility, TeamRole,
};
use quire::api::operations::{self, OPERATIONS};
use quire::api::{
    ApiError, ChangeRequestUpdate, Client, ClientConfig, CollectionUpdate, CommentUpdate,
    ContentMove, ContentPointer, ContentRef, GitDirection, GitInfo, GitSyncRequest, NewCollection,
    NewConversation, NewSectionGroup, NewSite, NewTranslation, NewTranslationSource,
    OrganizationUpdate, PublishManifest, ReviewVerdict, SamlProviderInput, SiteUpdate, SpaceUpdate,
    TeamMembersUpdate, TemplateApplication, TemplateParams, Token,
};
use quire::sandbox::{
    DEMO_CERTIFICATE, Faults, NEWCOMER_TOKEN, Sandbox, SandboxOptions, demo_ids, tokens,
};
use reqwest::Method;
use serde_json::json;

type TestResult = Result<(), Box<dyn std::error::Error>>;
type Operation = (&'static str, &'static str);

const ORG: &str = demo_ids::ACME;
const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;
/// A member with no role in the demo's own stories, free to be changed and removed.
const MAYA: &str = "usr-acme-13";
/// A guest of Acme, who can be made an SSO member.
const GUEST: &str = "usr-oleksandr-kovalenko";
/// Stands for an id a failed create did not give: the writes after it still go out (and meet
/// a 404), so one failure does not hide the shapes of the rest.
const MISSING: &str = "walk-missing";

/// How many distinct operations (method and path) the client writes with; the walk must reach
/// at least these, so no write drops out of it unnoticed.
const WRITES_FOUND: usize = 70;

/// The table's writes no client call sends (yet): a write the client learns must leave this
/// list for the walk.
const NOT_SENT_BY_THE_CLIENT: &[Operation] = &[
    (POST, "/orgs/{}/spaces"),
    (POST, "/spaces/{}/change-requests/{}/content"),
    (PATCH, "/orgs/{}/sites/{}/structure/sort"),
    (PATCH, "/orgs/{}/sites/{}/site-spaces/{}"),
    (POST, "/orgs/{}/sites/{}/sections"),
    (POST, "/orgs/{}/sites/{}/search"),
    (DELETE, "/integrations/{}"),
];

const POST: &str = "POST";
const PUT: &str = "PUT";
const PATCH: &str = "PATCH";
const DELETE: &str = "DELETE";

/// One write of the walk: the operation it is meant to send, the requests the server saw
/// while it ran (`"METHOD /path"`), and the refusal it met, if the body rules refused it.
struct Step {
    name: &'static str,
    operation: Operation,
    sent: Vec<String>,
    refusal: Option<String>,
}

struct Walk<'s> {
    sandbox: &'s Sandbox,
    steps: Vec<Step>,
}

impl Walk<'_> {
    /// Runs one client call, noting what reached the server; the call's value when it
    /// succeeded, for the writes that use what it created.
    async fn write<T>(
        &mut self,
        name: &'static str,
        operation: Operation,
        call: impl Future<Output = Result<T, ApiError>>,
    ) -> Option<T> {
        let before = self.sandbox.request_counts();
        let answer = call.await;
        let sent = newly_sent(&before, &self.sandbox.request_counts());
        let refusal = answer.as_ref().err().and_then(body_rule_refusal);
        self.steps.push(Step {
            name,
            operation,
            sent,
            refusal,
        });
        answer.ok()
    }
}

fn newly_sent(before: &HashMap<String, usize>, after: &HashMap<String, usize>) -> Vec<String> {
    let mut sent: Vec<String> = after
        .iter()
        .filter(|(key, count)| before.get(*key).copied().unwrap_or(0) < **count)
        .map(|(key, _)| key.clone())
        .collect();
    sent.sort();
    sent
}

/// The answer a wrong request shape gets from a strict server, in words; `None` for any
/// other answer (a refusal by the server's own rules passed the shape check first).
fn body_rule_refusal(error: &ApiError) -> Option<String> {
    let ApiError::Status {
        status, message, ..
    } = error
    else {
        return None;
    };
    let missing_body = *status == 400 && message.contains("request body");
    (matches!(status, 415 | 501) || missing_body).then(|| format!("{status} {message}"))
}

/// The table's operation for a request the server saw (`"METHOD /path"`).
fn operation_of(request: &str) -> Option<&'static operations::Operation> {
    let (method, path) = request.split_once(' ')?;
    let method = Method::from_bytes(method.as_bytes()).ok()?;
    operations::find(&method, path)
}

fn is_row(operation: Operation) -> bool {
    OPERATIONS
        .iter()
        .any(|row| (row.method, row.path) == operation)
}

/// What is wrong with a step, in words: refused for its shape, not sent as claimed, or a
/// request outside the table.
fn problems_of(step: &Step) -> Vec<String> {
    let (method, template) = step.operation;
    let mut problems = Vec::new();
    if let Some(refusal) = &step.refusal {
        problems.push(format!("{}: refused: {refusal}", step.name));
    }
    let reached = step
        .sent
        .iter()
        .filter_map(|key| operation_of(key))
        .any(|found| found.method == method && found.path == template);
    if !reached {
        problems.push(format!(
            "{}: never sent {method} {template} (sent {:?})",
            step.name, step.sent
        ));
    }
    for request in step.sent.iter().filter(|key| operation_of(key).is_none()) {
        problems.push(format!("{}: sent {request}, no operation", step.name));
    }
    problems
}

fn client_for(sandbox: &Sandbox, token: &str) -> Result<Client, ApiError> {
    Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))
}

fn strict() -> Faults {
    Faults {
        strict_bodies: true,
        ..Faults::default()
    }
}

/// Starts a strict sandbox with the demo data and walks every write against it.
async fn walk_on_a_strict_sandbox() -> Result<Vec<Step>, Box<dyn std::error::Error>> {
    let options = SandboxOptions {
        faults: strict(),
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, options).await?;
    let mut walk = Walk {
        sandbox: &sandbox,
        steps: Vec::new(),
    };
    walk_every_write(&mut walk).await?;
    let steps = walk.steps;
    sandbox.shutdown().await;
    Ok(steps)
}

/// One write of the walk, one entry: `walk!(walk, METHOD "/path/{}", client.call(..))` runs
/// the call, named by its own text, and notes what it sent for the checks.
macro_rules! walk {
    ($walk:expr, $method:ident $template:expr, $call:expr) => {
        $walk
            .write(stringify!($call), ($method, $template), $call)
            .await
    };
}

/// The id a create answered, or [`MISSING`].
fn id_or_missing<T>(created: Option<T>, id: impl FnOnce(T) -> String) -> String {
    created.map_or_else(|| MISSING.to_owned(), id)
}

/// Every write the client can send, each public `Client` method once, in an order where each
/// finds its target (deletes after the writes that use the item). A new write must be added
/// here, in its area.
async fn walk_every_write(walk: &mut Walk<'_>) -> Result<(), Box<dyn std::error::Error>> {
    let admin = client_for(walk.sandbox, tokens::ADMIN)?;
    let reviewer = client_for(walk.sandbox, tokens::REVIEWER)?;
    let newcomer = client_for(walk.sandbox, NEWCOMER_TOKEN)?;
    walk_organization(walk, &admin, &newcomer).await?;
    walk_members_and_teams(walk, &admin).await;
    walk_organization_services(walk, &admin).await?;
    walk_collections(walk, &admin).await;
    walk_spaces(walk, &admin).await;
    walk_sites(walk, &admin).await;
    walk_share_links_and_section_groups(walk, &admin).await;
    walk_change_requests(walk, &admin, &reviewer).await;
    walk_comments_then_merge(walk, &admin).await;
    walk_where_group_routes_are_missing(walk).await?;
    Ok(())
}

async fn walk_organization(
    walk: &mut Walk<'_>,
    admin: &Client,
    newcomer: &Client,
) -> Result<(), Box<dyn std::error::Error>> {
    let rename = OrganizationUpdate {
        title: Some("Acme Robotics Inc".into()),
        ..OrganizationUpdate::default()
    };
    let document = quire::ui::document::from_text("Be brief.", &[])?;
    walk!(walk, PATCH "/orgs/{}", admin.update_organization(ORG, &rename));
    walk!(walk, PUT "/orgs/{}/agent-instructions", admin.set_agent_instructions(ORG, &document));
    walk!(walk, POST "/orgs/{}/ping", admin.ping(ORG));
    walk!(walk, POST "/orgs/{}/join", newcomer.join_organization(ORG));
    walk!(walk, DELETE "/orgs/{}/link-invites/{}",
        admin.revoke_invite_link(ORG, "inv-acme-summit"));
    Ok(())
}

async fn walk_members_and_teams(walk: &mut Walk<'_>, admin: &Client) {
    let review = MemberRole::Review;
    let first_members = [MAYA.to_string()];
    let bulk = TeamMembersUpdate {
        add: vec![demo_ids::USER_EDITOR.into()],
        ..TeamMembersUpdate::default()
    };
    walk!(walk, PATCH "/orgs/{}/members/{}", admin.set_member_role(ORG, MAYA, Some(&review)));
    walk!(walk, POST "/orgs/{}/members/{}/sso", admin.make_sso_member(ORG, GUEST));
    let team =
        walk!(walk, PUT "/orgs/{}/teams", admin.create_team(ORG, "Field Ops", &first_members));
    let team = id_or_missing(team, |team| team.id);
    let owner = Some(&TeamRole::Owner);
    walk!(walk, PATCH "/orgs/{}/teams/{}", admin.rename_team(ORG, &team, "Field Operations"));
    walk!(walk, PUT "/orgs/{}/teams/{}/members/{}", admin.set_team_member(ORG, &team, MAYA, owner));
    walk!(walk, PUT "/orgs/{}/teams/{}/members", admin.update_team_members(ORG, &team, &bulk));
    walk!(walk, DELETE "/orgs/{}/teams/{}/members/{}", admin.remove_team_member(ORG, &team, MAYA));
    walk!(walk, DELETE "/orgs/{}/teams/{}", admin.delete_team(ORG, &team));
    walk!(walk, DELETE "/orgs/{}/members/{}", admin.remove_member(ORG, MAYA));
}

/// SSO, integrations, translations, OpenAPI specs and conversations.
async fn walk_organization_services(
    walk: &mut Walk<'_>,
    admin: &Client,
) -> Result<(), Box<dyn std::error::Error>> {
    let (provider, edit) = saml_provider_and_edit();
    let created = walk!(walk, POST "/orgs/{}/saml", admin.create_saml_provider(ORG, &provider));
    let provider = id_or_missing(created, |provider| provider.id);
    walk!(walk, PATCH "/orgs/{}/saml/{}", admin.update_saml_provider(ORG, &provider, &edit));
    walk!(walk, DELETE "/orgs/{}/saml/{}", admin.delete_saml_provider(ORG, &provider));

    let manifest = PublishManifest::from_json(&format!(
        r#"{{"name":"acme-status","title":"Acme status","description":"Fleet status",
        "scopes":["space:content:read"],"script":"export default {{}}","organization":"{ORG}"}}"#
    ))
    .map_err(|problems| format!("{problems:?}"))?;
    walk!(walk, POST "/integrations/{}", admin.publish_integration(&manifest));

    let translation = NewTranslation {
        language: "ko".into(),
        source: NewTranslationSource {
            space: demo_ids::SPACE_HANDBOOK.into(),
            language: "en".into(),
        },
        instructions: None,
    };
    let text = quire::ui::document::from_text("Use polite forms.", &[])?;
    let created =
        walk!(walk, POST "/orgs/{}/translations", admin.create_translation(ORG, &translation));
    let id = id_or_missing(created, |translation| translation.id);
    walk!(walk, PUT "/orgs/{}/translations/{}",
        admin.set_translation_instructions(ORG, &id, &text));
    walk!(walk, POST "/orgs/{}/translations/{}/run", admin.run_translation(ORG, &id));
    walk!(walk, DELETE "/orgs/{}/translations/{}", admin.delete_translation(ORG, &id));

    let (slug, url, public) = (
        "pet-store",
        "https://example.com/pets.yaml",
        SpecVisibility::Public,
    );
    walk!(walk, POST "/orgs/{}/openapi", admin.create_openapi_spec(ORG, slug, url));
    walk!(walk, PUT "/orgs/{}/openapi/{}", admin.replace_openapi_source(ORG, slug, url));
    walk!(walk, PATCH "/orgs/{}/openapi/{}", admin.set_openapi_visibility(ORG, slug, &public));
    walk!(walk, DELETE "/orgs/{}/openapi/{}", admin.delete_openapi_spec(ORG, slug));

    let conversation = NewConversation::from_json(
        r#"{"id":"conv-walk","subject":"Dark mode?",
        "parts":[{"type":"message","role":"user","body":"Is there a dark mode?"}]}"#,
    )
    .map_err(|problems| format!("{problems:?}"))?;
    walk!(walk, POST "/orgs/{}/conversations", admin.ingest_conversation(ORG, &conversation));
    Ok(())
}

fn saml_provider_and_edit() -> (SamlProviderInput, SamlProviderInput) {
    let provider = SamlProviderInput {
        label: Some("Google".into()),
        certificate: Some(DEMO_CERTIFICATE.into()),
        sso_url: Some("https://accounts.google.example/sso".into()),
        entity_id: Some("urn:google".into()),
        ..SamlProviderInput::default()
    };
    let edit = SamlProviderInput {
        default_role: Some(Some(MemberRole::Edit)),
        ..SamlProviderInput::default()
    };
    (provider, edit)
}

async fn walk_collections(walk: &mut Walk<'_>, admin: &Client) {
    let new = NewCollection {
        title: Some("Walked".into()),
        parent: None,
    };
    let describe = CollectionUpdate {
        description: Some("Made by a walk".into()),
        ..CollectionUpdate::default()
    };
    let into_engineering = ContentMove {
        parent: Some(demo_ids::COLLECTION_ENGINEERING.into()),
        position: None,
    };
    let created = walk!(walk, POST "/orgs/{}/collections", admin.create_collection(ORG, &new));
    let id = id_or_missing(created, |collection| collection.id);
    let collection = ContentPointer::collection(&id);
    walk!(walk, PATCH "/collections/{}", admin.update_collection(&id, &describe));
    walk!(walk, POST "/collections/{}/move", admin.move_content(&collection, &into_engineering));
    walk!(walk, POST "/collections/{}/transfer",
        admin.transfer_content(&collection, demo_ids::LUMEN));
    walk!(walk, DELETE "/collections/{}", admin.delete_collection(&id));
}

async fn walk_spaces(walk: &mut Walk<'_>, admin: &Client) {
    let id = demo_ids::SPACE_HANDBOOK;
    let handbook = ContentPointer::space(id);
    let rename = SpaceUpdate {
        title: Some("Handbook".into()),
        ..SpaceUpdate::default()
    };
    let into_product = ContentMove {
        parent: Some(demo_ids::COLLECTION_PRODUCT.into()),
        position: None,
    };
    walk!(walk, PATCH "/spaces/{}", admin.update_space(id, &rename));
    walk!(walk, POST "/spaces/{}/move", admin.move_content(&handbook, &into_product));
    walk!(walk, POST "/spaces/{}/transfer", admin.transfer_content(&handbook, demo_ids::LUMEN));
    let copy = walk!(walk, POST "/spaces/{}/duplicate", admin.duplicate_space(SPACE));
    let copy = id_or_missing(copy, |copy| copy.id);
    walk!(walk, DELETE "/spaces/{}", admin.delete_space(&copy));
    walk!(walk, POST "/spaces/{}/restore", admin.restore_space(&copy));
    let release_notes = release_notes_with_a_screenshot();
    walk!(walk, POST "/spaces/{}/content/template",
        admin.apply_content_template(SPACE, &release_notes));

    let (import, export) = (GitDirection::Import, GitDirection::Export);
    let (imported, exported) = git_requests();
    let legacy = demo_ids::SPACE_API_REFERENCE;
    walk!(walk, POST "/spaces/{}/git/import", admin.git_sync(id, import, &imported));
    walk!(walk, POST "/spaces/{}/git/export", admin.git_sync(SPACE, export, &exported));
    walk!(walk, DELETE "/spaces/{}/git/legacy-installation",
        admin.remove_legacy_git_installation(legacy));
}

fn release_notes_with_a_screenshot() -> TemplateApplication {
    let screenshot = ContentRef::File {
        file: "file-dashboard".into(),
    };
    TemplateApplication {
        id: demo_ids::TEMPLATE_RELEASE_NOTES.into(),
        params: Some(TemplateParams {
            content_refs: [("screenshot".to_string(), screenshot)].into(),
        }),
        change_request_id: None,
    }
}

fn git_requests() -> (GitSyncRequest, GitSyncRequest) {
    let import = GitSyncRequest {
        url: "https://github.com/acme/handbook".into(),
        git_ref: branch_ref("main"),
        commit_message: None,
        force: true,
        standalone: Some(false),
        repo_project_directory: Some("docs".into()),
        repo_tree_url: Some("https://github.com/acme/handbook/tree/main".into()),
        repo_commit_url: Some("https://github.com/acme/handbook/commit".into()),
        repo_cache_id: Some("cache-handbook".into()),
        timestamp: Some("2026-01-02T03:04:05Z".into()),
        git_info: Some(GitInfo {
            provider: "github".into(),
            url: "https://github.com/acme/handbook".into(),
        }),
    };
    let export = GitSyncRequest {
        url: "https://github.com/acme-robotics/fleet-docs".into(),
        git_ref: branch_ref("docs"),
        commit_message: Some("docs: from quire".into()),
        force: false,
        standalone: None,
        repo_project_directory: Some("docs".into()),
        timestamp: Some("2026-01-02T03:04:05Z".into()),
        git_info: Some(GitInfo {
            provider: "github".into(),
            url: "https://github.com/acme-robotics/fleet-docs".into(),
        }),
        ..GitSyncRequest::default()
    };
    (import, export)
}

async fn walk_sites(walk: &mut Walk<'_>, admin: &Client) {
    let (draft, customers) = (demo_ids::SITE_DRAFT, demo_ids::SITE_CUSTOMERS);
    let new = NewSite {
        title: "Walked site".into(),
        site_type: Some(SiteType::Premium),
        visibility: Some(SiteVisibility::Unlisted),
        spaces: vec![SPACE.into()],
    };
    let rename = SiteUpdate {
        title: Some("Walked docs".into()),
        ..SiteUpdate::default()
    };
    let schema = json!({
        "type": "object",
        "properties": {"isPartner": {"type": "boolean"}},
        "additionalProperties": false,
    });
    let created = walk!(walk, POST "/orgs/{}/sites", admin.create_site(ORG, &new));
    let site = id_or_missing(created, |site| site.id);
    walk!(walk, PATCH "/orgs/{}/sites/{}", admin.update_site(ORG, &site, &rename));
    walk!(walk, POST "/orgs/{}/sites/{}/publish", admin.publish_site(ORG, draft));
    walk!(walk, POST "/orgs/{}/sites/{}/unpublish", admin.unpublish_site(ORG, draft));
    walk!(walk, PUT "/orgs/{}/sites/{}/adaptive-schema",
        admin.put_adaptive_schema(ORG, customers, &schema));
    walk!(walk, DELETE "/orgs/{}/sites/{}", admin.delete_site(ORG, &site));
}

async fn walk_share_links_and_section_groups(walk: &mut Walk<'_>, admin: &Client) {
    let partners = demo_ids::SITE_PARTNERS;
    let created = walk!(walk, POST "/orgs/{}/sites/{}/share-links",
        admin.create_share_link(ORG, partners, "APAC"));
    let link = id_or_missing(created, |link| link.id);
    let off = Some(false);
    walk!(walk, PATCH "/orgs/{}/sites/{}/share-links/{}",
        admin.update_share_link(ORG, partners, &link, off, None));
    walk!(walk, DELETE "/orgs/{}/sites/{}/share-links/{}",
        admin.delete_share_link(ORG, partners, &link));

    let (docs, section) = (demo_ids::SITE_DOCS, demo_ids::SECTION_ARCHITECTURE);
    let new = NewSectionGroup {
        title: "Operations".into(),
        sections: vec![demo_ids::SECTION_RUNBOOKS.into()],
        ..NewSectionGroup::default()
    };
    let created = walk!(walk, POST "/orgs/{}/sites/{}/section-groups",
        admin.create_section_group(ORG, docs, &new));
    let group = id_or_missing(created, |group| group.id);
    walk!(walk, PATCH "/orgs/{}/sites/{}/section-groups/{}",
        admin.update_section_group(ORG, docs, &group, Some("Ops"), None));
    walk!(walk, POST "/orgs/{}/sites/{}/section-groups/{}/sections",
        admin.add_section_to_group(ORG, docs, &group, section));
    walk!(walk, DELETE "/orgs/{}/sites/{}/section-groups/{}/sections/{}",
        admin.remove_section_from_group(ORG, docs, &group, section));
    walk!(walk, DELETE "/orgs/{}/sites/{}/section-groups/{}",
        admin.delete_section_group(ORG, docs, &group));
}

async fn walk_change_requests(walk: &mut Walk<'_>, admin: &Client, reviewer: &Client) {
    let (cr, draft, outdated) = (
        demo_ids::CR_REVIEW,
        demo_ids::CR_DRAFT,
        demo_ids::CR_OUTDATED,
    );
    let priya = demo_ids::USER_REVIEWER;
    let (subject, open) = (
        ChangeRequestUpdate::subject("Walked on"),
        ChangeRequestStatus::Open,
    );
    let approved = ReviewVerdict::Approved;
    let created = walk!(walk, POST "/spaces/{}/change-requests",
        admin.create_change_request(SPACE, "Walked"));
    let walked = id_or_missing(created, |created| created.id);
    walk!(walk, PATCH "/spaces/{}/change-requests/{}",
        admin.update_change_request(SPACE, &walked, &subject));
    walk!(walk, PATCH "/spaces/{}/change-requests/{}",
        admin.update_change_request_status(SPACE, draft, &open));
    walk!(walk, DELETE "/spaces/{}/change-requests/{}/requested-reviewers/{}",
        admin.remove_requested_reviewer(SPACE, cr, priya));
    walk!(walk, POST "/spaces/{}/change-requests/{}/requested-reviewers",
        admin.request_reviewers(SPACE, cr, &[priya]));
    walk!(walk, POST "/spaces/{}/change-requests/{}/reviews",
        reviewer.submit_review(SPACE, cr, approved, Some("Reads well.")));
    walk!(walk, POST "/spaces/{}/change-requests/{}/update",
        admin.update_change_request_from_main(SPACE, outdated));
}

/// Comments and replies on the busy review, then its merge (a merged change request takes no
/// more of them).
async fn walk_comments_then_merge(walk: &mut Walk<'_>, admin: &Client) {
    let (cr, page) = (demo_ids::CR_REVIEW, Some(demo_ids::PAGE_QUICKSTART));
    let (resolve, edit) = (CommentUpdate::resolve(true), CommentUpdate::edit("Indeed."));
    let posted = walk!(walk, POST "/spaces/{}/change-requests/{}/comments",
        admin.post_comment(SPACE, cr, "Walked here", None));
    walk!(walk, POST "/spaces/{}/change-requests/{}/comments",
        admin.post_comment_on_block(SPACE, cr, "And here", page, None));
    let thread = id_or_missing(posted, |posted| posted.id);
    walk!(walk, PUT "/spaces/{}/change-requests/{}/comments/{}",
        admin.update_comment(SPACE, cr, &thread, &resolve));
    let reply = walk!(walk, POST "/spaces/{}/change-requests/{}/comments/{}/replies",
        admin.post_reply(SPACE, cr, &thread, "Indeed"));
    let reply = id_or_missing(reply, |reply| reply.id);
    walk!(walk, PUT "/spaces/{}/change-requests/{}/comments/{}/replies/{}",
        admin.update_reply(SPACE, cr, &thread, &reply, &edit));
    walk!(walk, DELETE "/spaces/{}/change-requests/{}/comments/{}/replies/{}",
        admin.delete_reply(SPACE, cr, &thread, &reply));
    walk!(walk, DELETE "/spaces/{}/change-requests/{}/comments/{}",
        admin.delete_comment(SPACE, cr, &thread));
    walk!(walk, POST "/spaces/{}/change-requests/{}/merge", admin.merge_change_request(SPACE, cr));
}

/// On a server like the public service, without the seed's section-group routes, a section
/// moves by the service's section PATCH: that write is walked here, with a client of its own
/// (a client remembers which operations its server lacks).
async fn walk_where_group_routes_are_missing(
    walk: &mut Walk<'_>,
) -> Result<(), Box<dyn std::error::Error>> {
    walk.sandbox.set_faults(Faults {
        like_public: true,
        ..strict()
    });
    let admin = client_for(walk.sandbox, tokens::ADMIN)?;
    let (docs, group) = (demo_ids::SITE_DOCS, demo_ids::GROUP_REFERENCE);
    let section = demo_ids::SECTION_ARCHITECTURE;
    walk!(walk, PATCH "/orgs/{}/sites/{}/sections/{}",
        admin.add_section_to_group(ORG, docs, group, section));
    walk!(walk, PATCH "/orgs/{}/sites/{}/sections/{}",
        admin.remove_section_from_group(ORG, docs, group, section));
    walk.sandbox.set_faults(strict());
    Ok(())
}

#[tokio::test]
async fn every_write_passes_the_body_rules_of_a_strict_server() -> TestResult {
    let steps = walk_on_a_strict_sandbox().await?;
    let problems: Vec<String> = steps.iter().flat_map(problems_of).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    Ok(())
}

#[tokio::test]
async fn the_walk_reaches_every_write_of_the_operations_table() -> TestResult {
    let steps = walk_on_a_strict_sandbox().await?;
    let walk_operations: BTreeSet<Operation> = steps.iter().map(|step| step.operation).collect();
    assert!(
        walk_operations.len() >= WRITES_FOUND,
        "{} operations walked, fewer than the {WRITES_FOUND} the client writes with",
        walk_operations.len()
    );
    let not_rows: Vec<_> = walk_operations
        .iter()
        .filter(|operation| !is_row(**operation))
        .collect();
    assert!(
        not_rows.is_empty(),
        "walked, but no row of the table: {not_rows:?}"
    );
    let unwalked: Vec<Operation> = OPERATIONS
        .iter()
        .filter(|row| row.method != "GET")
        .map(|row| (row.method, row.path))
        .filter(|operation| !walk_operations.contains(operation))
        .filter(|operation| !NOT_SENT_BY_THE_CLIENT.contains(operation))
        .collect();
    assert!(
        unwalked.is_empty(),
        "writes of the table nobody walks: {unwalked:?}"
    );
    for operation in NOT_SENT_BY_THE_CLIENT {
        assert!(is_row(*operation), "{operation:?} is no row of the table");
        assert!(
            !walk_operations.contains(operation),
            "{operation:?} is walked now"
        );
    }
    Ok(())
}

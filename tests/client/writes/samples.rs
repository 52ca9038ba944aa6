//! One API call of every kind, against the demo data, for the checks of `ApiCall::writes`.

use quire::api::{
    BacklinkTarget, ChangeRequestFilter, ChangeRequestStatus, CollectionUpdate, CommentUpdate,
    ContentMove, ContentPointer, ContentSource, GitDirection, GitSyncRequest, MemberFilter,
    MemberRole, NewCollection, NewSectionGroup, NewSite, OrganizationUpdate, PublishManifest,
    ReviewVerdict, SamlProviderInput, SiteFilter, SiteUpdate, SpaceUpdate, TeamMembersUpdate,
    TemplateApplication,
};
use quire::app::ApiCall;
use quire::sandbox::demo_ids;
use quire::vocabulary::change_requests::{
    ChangeRequestRef, ChangeRequestScope, ChangeRequestsCall, LinkCheckPage,
};
use quire::vocabulary::collections::CollectionsCall;
use quire::vocabulary::conversations::ConversationsCall;
use quire::vocabulary::files::FilesCall;
use quire::vocabulary::git::GitCall;
use quire::vocabulary::home::HomeCall;
use quire::vocabulary::integrations::IntegrationsCall;
use quire::vocabulary::links::LinksCall;
use quire::vocabulary::members::MembersCall;
use quire::vocabulary::openapi::OpenApiCall;
use quire::vocabulary::org_settings::OrgSettingsCall;
use quire::vocabulary::outbox::OutboxCall;
use quire::vocabulary::reader_links::ReaderCall;
use quire::vocabulary::search::{SearchCall, SearchScope};
use quire::vocabulary::sites::SitesCall;
use quire::vocabulary::spaces::SpacesCall;
use quire::vocabulary::sso::SsoCall;
use quire::vocabulary::teams::TeamsCall;
use quire::vocabulary::translations::TranslationsCall;

const ORG: &str = demo_ids::ACME;
const SPACE: &str = demo_ids::SPACE_GETTING_STARTED;
const SITE: &str = demo_ids::SITE_PARTNERS;

/// How many kinds of call [`kind`] names: one more with each new variant, and a sample of it
/// in [`every_call`].
pub const KINDS: usize = 139;

pub const CONVERSATION: &str = r#"{"id":"conv-kinds","subject":"Dark mode?",
    "parts":[{"type":"message","role":"user","body":"Is there a dark mode?"}],
    "metadata":{"url":"https://support.example.com/t/9","createdAt":"2024-06-01T10:00:00Z"}}"#;

fn change_request() -> ChangeRequestRef {
    ChangeRequestRef {
        space: SPACE.into(),
        change_request: demo_ids::CR_REVIEW.into(),
    }
}

fn org() -> String {
    ORG.into()
}

fn site() -> String {
    SITE.into()
}

fn space_source() -> ContentSource {
    ContentSource::Space(SPACE.into())
}

/// One call of every kind. `conversation` is a conversation file to ingest.
pub fn every_call(conversation: &str) -> Vec<ApiCall> {
    let mut calls = vec![
        ApiCall::ListOrganizations { page: None },
        ApiCall::OrganizationTree {
            organization: org(),
        },
        ApiCall::Members(MembersCall::List {
            organization: org(),
            filter: MemberFilter::default(),
            page: None,
        }),
        ApiCall::ListPages {
            space: SPACE.into(),
        },
        ApiCall::GetPageMarkdown {
            space: SPACE.into(),
            page: demo_ids::PAGE_QUICKSTART.into(),
        },
        ApiCall::Search(SearchCall {
            scope: SearchScope::Space {
                id: SPACE.into(),
                title: "Getting started".into(),
            },
            query: "token".into(),
            page: None,
        }),
        ApiCall::Reader(ReaderCall::SpacePages {
            space: SPACE.into(),
        }),
        ApiCall::Home(HomeCall::Gather {
            sections: quire::api::home::default_sections(),
            quiet: false,
        }),
    ];
    calls.extend(
        change_request_calls()
            .into_iter()
            .map(ApiCall::ChangeRequests),
    );
    calls.extend(sites_calls().into_iter().map(ApiCall::Sites));
    calls.extend(content_calls());
    calls.extend(organization_calls());
    calls.extend(area_calls(conversation));
    calls.extend(outbox_calls().into_iter().map(ApiCall::Outbox));
    calls
}

fn change_request_calls() -> Vec<ChangeRequestsCall> {
    let target = change_request;
    let markdown = || "A word from the kinds test".to_string();
    vec![
        ChangeRequestsCall::CurrentUser,
        ChangeRequestsCall::ListChangeRequests {
            scope: ChangeRequestScope::Space(SPACE.into()),
            filter: ChangeRequestFilter::default(),
            page: None,
        },
        ChangeRequestsCall::LoadReview(target()),
        ChangeRequestsCall::LoadReplies {
            target: target(),
            comments: Vec::new(),
            priority: quire::api::limits::Priority::Background,
        },
        ChangeRequestsCall::LoadPageDiff {
            target: target(),
            page: demo_ids::PAGE_QUICKSTART.into(),
            main: true,
            change_request: true,
        },
        ChangeRequestsCall::PostComment {
            target: target(),
            page: None,
            markdown: markdown(),
        },
        ChangeRequestsCall::PostReply {
            target: target(),
            comment: "cmt-none".into(),
            markdown: markdown(),
        },
        ChangeRequestsCall::UpdateComment {
            target: target(),
            comment: "cmt-none".into(),
            reply: None,
            update: CommentUpdate {
                resolved: Some(true),
                ..CommentUpdate::default()
            },
        },
        ChangeRequestsCall::DeleteComment {
            target: target(),
            comment: "cmt-none".into(),
            reply: None,
        },
        ChangeRequestsCall::SubmitReview {
            target: target(),
            verdict: ReviewVerdict::Approved,
            comment: None,
        },
        ChangeRequestsCall::RequestReviewers {
            target: target(),
            users: vec![demo_ids::USER_REVIEWER.into()],
        },
        ChangeRequestsCall::RemoveReviewer {
            target: target(),
            user: demo_ids::USER_REVIEWER.into(),
        },
        ChangeRequestsCall::SetStatus {
            target: target(),
            status: ChangeRequestStatus::Open,
        },
        ChangeRequestsCall::SetSubject {
            target: target(),
            subject: "Clarify token scopes".into(),
        },
        ChangeRequestsCall::Merge(ChangeRequestRef {
            space: SPACE.into(),
            change_request: demo_ids::CR_CONFLICTS.into(),
        }),
        ChangeRequestsCall::UpdateFromMain(ChangeRequestRef {
            space: SPACE.into(),
            change_request: demo_ids::CR_OUTDATED.into(),
        }),
        ChangeRequestsCall::ListMembers {
            organization: org(),
        },
        ChangeRequestsCall::Create {
            space: SPACE.into(),
            subject: "Opened by the kinds test".into(),
        },
        ChangeRequestsCall::SetDescription {
            target: target(),
            document: serde_json::json!({"object": "document", "nodes": []}),
        },
        ChangeRequestsCall::Pdf {
            target: target(),
            page: None,
        },
        ChangeRequestsCall::ListIssueClusters {
            organization: org(),
        },
        ChangeRequestsCall::PostBlockComment {
            target: target(),
            page: demo_ids::PAGE_QUICKSTART.into(),
            node: None,
            table_cell: None,
            markdown: markdown(),
        },
        ChangeRequestsCall::LoadPagesNow {
            target: target(),
            pages: vec![(demo_ids::PAGE_QUICKSTART.into(), None)],
        },
        ChangeRequestsCall::ListCommenters(target()),
        ChangeRequestsCall::PageTitles(target()),
        ChangeRequestsCall::BreakingLinks {
            target: target(),
            pages: vec![LinkCheckPage {
                page: demo_ids::PAGE_QUICKSTART.into(),
                title: "Quickstart".into(),
                on_main: true,
                in_change_request: true,
            }],
        },
    ]
}

fn sites_calls() -> Vec<SitesCall> {
    let group = || "sg-none".to_string();
    vec![
        SitesCall::ListSites {
            organization: org(),
            filter: SiteFilter::default(),
            page: None,
        },
        SitesCall::GetSite {
            organization: org(),
            site: site(),
        },
        SitesCall::CreateSite {
            organization: org(),
            site: NewSite {
                title: "Kinds".into(),
                ..NewSite::default()
            },
        },
        SitesCall::DeleteSite {
            organization: org(),
            site: demo_ids::SITE_CUSTOMERS.into(),
        },
        SitesCall::UpdateSite {
            organization: org(),
            site: site(),
            update: SiteUpdate {
                title: Some("Partners".into()),
                ..SiteUpdate::default()
            },
        },
        SitesCall::Publish {
            organization: org(),
            site: site(),
        },
        SitesCall::Unpublish {
            organization: org(),
            site: site(),
        },
        SitesCall::GetPublished {
            organization: org(),
            site: site(),
        },
        SitesCall::GetAdaptive {
            organization: org(),
            site: site(),
        },
        SitesCall::PutAdaptiveSchema {
            organization: org(),
            site: site(),
            schema: serde_json::json!({"type": "object", "properties": {}}),
        },
        SitesCall::ListShareLinks {
            organization: org(),
            site: site(),
        },
        SitesCall::CreateShareLink {
            organization: org(),
            site: site(),
            name: "Kinds".into(),
        },
        SitesCall::UpdateShareLink {
            organization: org(),
            site: site(),
            link: demo_ids::SHARE_LINK_EMEA.into(),
            active: Some(true),
            name: None,
        },
        SitesCall::DeleteShareLink {
            organization: org(),
            site: site(),
            link: demo_ids::SHARE_LINK_PILOT.into(),
        },
        SitesCall::ListSectionGroups {
            organization: org(),
            site: demo_ids::SITE_DOCS.into(),
        },
        SitesCall::CreateSectionGroup {
            organization: org(),
            site: demo_ids::SITE_DOCS.into(),
            group: NewSectionGroup {
                title: "Kinds".into(),
                ..NewSectionGroup::default()
            },
        },
        SitesCall::UpdateSectionGroup {
            organization: org(),
            site: demo_ids::SITE_DOCS.into(),
            group: group(),
            title: Some("Kinds".into()),
            icon: None,
        },
        SitesCall::DeleteSectionGroup {
            organization: org(),
            site: demo_ids::SITE_DOCS.into(),
            group: group(),
        },
        SitesCall::AddSectionToGroup {
            organization: org(),
            site: demo_ids::SITE_DOCS.into(),
            group: group(),
            section: demo_ids::SECTION_GUIDES.into(),
        },
        SitesCall::RemoveSectionFromGroup {
            organization: org(),
            site: demo_ids::SITE_DOCS.into(),
            group: group(),
            section: demo_ids::SECTION_GUIDES.into(),
        },
        SitesCall::AccessAudit {
            organization: org(),
        },
        SitesCall::MyRole {
            organization: org(),
        },
        SitesCall::OrganizationSpaces {
            organization: org(),
        },
    ]
}

fn content_calls() -> Vec<ApiCall> {
    let pointer = || ContentPointer::Collection {
        collection: demo_ids::COLLECTION_PRODUCT.into(),
    };
    vec![
        ApiCall::Links(LinksCall::Links {
            source: space_source(),
            page: None,
            status: None,
            cursor: None,
        }),
        ApiCall::Links(LinksCall::Backlinks {
            source: space_source(),
            target: BacklinkTarget::Page(demo_ids::PAGE_QUICKSTART.into()),
            cursor: None,
        }),
        ApiCall::Links(LinksCall::Pages {
            source: space_source(),
        }),
        ApiCall::Files(FilesCall::List {
            source: space_source(),
            cursor: None,
        }),
        ApiCall::Files(FilesCall::Get {
            source: space_source(),
            file: "file-none".into(),
        }),
        ApiCall::Collections(CollectionsCall::Create {
            organization: org(),
            collection: NewCollection::default(),
        }),
        ApiCall::Collections(CollectionsCall::Update {
            collection: demo_ids::COLLECTION_PRODUCT.into(),
            update: CollectionUpdate::default(),
        }),
        ApiCall::Collections(CollectionsCall::Move {
            item: pointer(),
            target: ContentMove {
                parent: None,
                position: None,
            },
        }),
        ApiCall::Collections(CollectionsCall::Transfer {
            item: pointer(),
            organization: demo_ids::LUMEN.into(),
        }),
        ApiCall::Collections(CollectionsCall::Delete {
            collection: demo_ids::COLLECTION_PRODUCT.into(),
        }),
        ApiCall::Collections(CollectionsCall::Organizations),
        ApiCall::Collections(CollectionsCall::Spaces {
            collection: demo_ids::COLLECTION_ENGINEERING.into(),
        }),
        ApiCall::Collections(CollectionsCall::Get {
            collection: demo_ids::COLLECTION_ENGINEERING.into(),
        }),
        ApiCall::Spaces(SpacesCall::Update {
            space: SPACE.into(),
            update: SpaceUpdate {
                title: Some("Getting started".into()),
                ..SpaceUpdate::default()
            },
        }),
        ApiCall::Spaces(SpacesCall::Restore {
            space: demo_ids::SPACE_DELETED_ONBOARDING.into(),
        }),
        ApiCall::Spaces(SpacesCall::Duplicate {
            space: demo_ids::SPACE_CHANGELOG.into(),
        }),
        ApiCall::Spaces(SpacesCall::Members {
            organization: org(),
        }),
        ApiCall::Spaces(SpacesCall::ApplyTemplate {
            space: SPACE.into(),
            application: TemplateApplication {
                id: demo_ids::TEMPLATE_HOW_TO.into(),
                ..TemplateApplication::default()
            },
        }),
        ApiCall::Spaces(SpacesCall::Delete {
            space: demo_ids::SPACE_HANDBOOK.into(),
        }),
        ApiCall::Git(GitCall::Info {
            space: SPACE.into(),
        }),
        ApiCall::Git(GitCall::Sync {
            space: SPACE.into(),
            direction: GitDirection::Export,
            request: GitSyncRequest {
                url: "https://git.example/acme/docs.git".into(),
                git_ref: "refs/heads/main".into(),
                commit_message: None,
                force: false,
                standalone: None,
                ..GitSyncRequest::default()
            },
        }),
        ApiCall::Git(GitCall::RemoveLegacyInstallation {
            space: SPACE.into(),
        }),
    ]
}

fn organization_calls() -> Vec<ApiCall> {
    let user = || demo_ids::USER_COMMENTER.to_string();
    let team = || "team-none".to_string();
    vec![
        ApiCall::Members(MembersCall::Details {
            organization: org(),
            user: user(),
            oldest_first: false,
            teams_title: None,
        }),
        ApiCall::Members(MembersCall::SetRole {
            organization: org(),
            user: user(),
            role: Some(MemberRole::Comment),
        }),
        ApiCall::Members(MembersCall::MakeSso {
            organization: org(),
            user: user(),
        }),
        ApiCall::Members(MembersCall::Remove {
            organization: org(),
            user: demo_ids::USER_READER.into(),
        }),
        ApiCall::Teams(TeamsCall::List {
            organization: org(),
            title: None,
            owner: None,
            page: None,
        }),
        ApiCall::Teams(TeamsCall::CurrentUser),
        ApiCall::Teams(TeamsCall::Create {
            organization: org(),
            title: "Kinds".into(),
            members: Vec::new(),
        }),
        ApiCall::Teams(TeamsCall::Rename {
            organization: org(),
            team: team(),
            title: "Kinds".into(),
        }),
        ApiCall::Teams(TeamsCall::Delete {
            organization: org(),
            team: team(),
        }),
        ApiCall::Teams(TeamsCall::Members {
            organization: org(),
            team: team(),
            page: None,
        }),
        ApiCall::Teams(TeamsCall::Get {
            organization: org(),
            team: team(),
        }),
        ApiCall::Teams(TeamsCall::Pickable {
            organization: org(),
        }),
        ApiCall::Teams(TeamsCall::UpdateMembers {
            organization: org(),
            team: team(),
            update: TeamMembersUpdate::default(),
        }),
        ApiCall::Teams(TeamsCall::SetMember {
            organization: org(),
            team: team(),
            user: user(),
            role: None,
        }),
        ApiCall::Teams(TeamsCall::RemoveMember {
            organization: org(),
            team: team(),
            user: user(),
        }),
        ApiCall::Sso(SsoCall::Overview {
            organization: org(),
        }),
        ApiCall::Sso(SsoCall::Create {
            organization: org(),
            input: SamlProviderInput::default(),
        }),
        ApiCall::Sso(SsoCall::Update {
            organization: org(),
            provider: "saml-none".into(),
            input: SamlProviderInput::default(),
        }),
        ApiCall::Sso(SsoCall::Delete {
            organization: org(),
            provider: "saml-none".into(),
        }),
        ApiCall::Sso(SsoCall::Provider {
            organization: org(),
            provider: "saml-none".into(),
        }),
        ApiCall::Sso(SsoCall::Teams {
            organization: org(),
        }),
        ApiCall::Sso(SsoCall::ReadCertificate {
            path: "/nonexistent/certificate.pem".into(),
        }),
        ApiCall::OrgSettings(OrgSettingsCall::Organization {
            organization: org(),
        }),
        ApiCall::OrgSettings(OrgSettingsCall::Save {
            organization: org(),
            update: OrganizationUpdate::default(),
        }),
        ApiCall::OrgSettings(OrgSettingsCall::Sites {
            organization: org(),
        }),
        ApiCall::OrgSettings(OrgSettingsCall::Instructions {
            organization: org(),
        }),
        ApiCall::OrgSettings(OrgSettingsCall::SaveInstructions {
            organization: org(),
            document: serde_json::json!({"object": "document", "nodes": []}),
        }),
        ApiCall::OrgSettings(OrgSettingsCall::RevokeInvite {
            organization: org(),
            invite: "inv-none".into(),
        }),
        ApiCall::OrgSettings(OrgSettingsCall::Join {
            organization: org(),
        }),
    ]
}

fn area_calls(conversation: &str) -> Vec<ApiCall> {
    use quire::api::openapi::VersionRef;
    use quire::api::translations::{NewTranslation, NewTranslationSource};
    let id = || "tr-none".to_string();
    let slug = || "spec-none".to_string();
    vec![
        ApiCall::Translations(TranslationsCall::List {
            organization: org(),
        }),
        ApiCall::Translations(TranslationsCall::Create {
            organization: org(),
            translation: NewTranslation {
                language: "fr".into(),
                source: NewTranslationSource {
                    space: SPACE.into(),
                    language: "en".into(),
                },
                instructions: None,
            },
        }),
        ApiCall::Translations(TranslationsCall::SetInstructions {
            organization: org(),
            id: id(),
            instructions: serde_json::json!({"object": "document", "nodes": []}),
        }),
        ApiCall::Translations(TranslationsCall::Run {
            organization: org(),
            id: id(),
        }),
        ApiCall::Translations(TranslationsCall::Delete {
            organization: org(),
            id: id(),
        }),
        ApiCall::Translations(TranslationsCall::Space {
            space: SPACE.into(),
        }),
        ApiCall::Translations(TranslationsCall::Running {
            organization: org(),
            ids: vec![id()],
        }),
        ApiCall::OpenApi(OpenApiCall::List {
            organization: org(),
        }),
        ApiCall::OpenApi(OpenApiCall::Create {
            organization: org(),
            slug: "kinds".into(),
            url: "https://specs.example/kinds.yaml".into(),
        }),
        ApiCall::OpenApi(OpenApiCall::Replace {
            organization: org(),
            slug: slug(),
            url: "https://specs.example/kinds.yaml".into(),
        }),
        ApiCall::OpenApi(OpenApiCall::SetVisibility {
            organization: org(),
            slug: slug(),
            visibility: quire::api::models::openapi::SpecVisibility::Public,
        }),
        ApiCall::OpenApi(OpenApiCall::Delete {
            organization: org(),
            slug: slug(),
        }),
        ApiCall::OpenApi(OpenApiCall::Spec {
            organization: org(),
            slug: slug(),
        }),
        ApiCall::OpenApi(OpenApiCall::Versions {
            organization: org(),
            slug: slug(),
        }),
        ApiCall::OpenApi(OpenApiCall::Content {
            organization: org(),
            slug: slug(),
            version: VersionRef::Latest,
        }),
        ApiCall::OpenApi(OpenApiCall::Version {
            organization: org(),
            slug: slug(),
            version: VersionRef::Id("v-none".into()),
        }),
        ApiCall::Conversations(ConversationsCall::Clusters {
            organization: org(),
            order: Default::default(),
            status: None,
            page: None,
        }),
        ApiCall::Conversations(ConversationsCall::Conversations {
            organization: org(),
            source: None,
            page: None,
        }),
        ApiCall::Conversations(ConversationsCall::Conversation {
            organization: org(),
            id: demo_ids::CONVERSATION_TOKEN_403.into(),
        }),
        ApiCall::Conversations(ConversationsCall::Issues {
            organization: org(),
            filter: Default::default(),
            page: None,
        }),
        ApiCall::Conversations(ConversationsCall::Issue {
            organization: org(),
            id: demo_ids::ISSUE_TOKEN_403.into(),
        }),
        ApiCall::Conversations(ConversationsCall::IngestFile {
            organization: org(),
            path: conversation.into(),
        }),
        ApiCall::Integrations(IntegrationsCall::List {
            filter: Default::default(),
            page: None,
        }),
        ApiCall::Integrations(IntegrationsCall::Details {
            name: "github".into(),
        }),
        ApiCall::Integrations(IntegrationsCall::ReadManifest {
            path: "no-such-manifest.json".into(),
        }),
        ApiCall::Integrations(IntegrationsCall::Publish {
            manifest: Box::new(sample_manifest()),
        }),
    ]
}

fn outbox_calls() -> Vec<OutboxCall> {
    vec![
        OutboxCall::List,
        OutboxCall::Send { ids: vec![1] },
        OutboxCall::SendAll,
        OutboxCall::Drop { id: 1 },
        OutboxCall::Edit {
            id: 1,
            markdown: "Edited".into(),
        },
    ]
}

/// The kind of call: an exhaustive match, so a new variant cannot be added without a name
/// here (and [`KINDS`] and a sample in [`every_call`] go with it).
pub fn kind(call: &ApiCall) -> String {
    let name = match call {
        ApiCall::ListOrganizations { .. } => "ListOrganizations".to_string(),
        ApiCall::OrganizationTree { .. } => "OrganizationTree".to_string(),
        ApiCall::ListPages { .. } => "ListPages".to_string(),
        ApiCall::GetPageMarkdown { .. } => "GetPageMarkdown".to_string(),
        ApiCall::Search(_) => "Search".to_string(),
        ApiCall::ChangeRequests(call) => format!("Review {call:?}"),
        ApiCall::Sites(call) => format!("Sites {call:?}"),
        ApiCall::Links(call) => format!("Links {call:?}"),
        ApiCall::Files(call) => format!("Files {call:?}"),
        ApiCall::Collections(call) => format!("Collections {call:?}"),
        ApiCall::Spaces(call) => format!("Spaces {call:?}"),
        ApiCall::Git(call) => format!("Git {call:?}"),
        ApiCall::Outbox(call) => format!("Outbox {call:?}"),
        ApiCall::Members(call) => format!("Members {call:?}"),
        ApiCall::Teams(call) => format!("Teams {call:?}"),
        ApiCall::Sso(call) => format!("Sso {call:?}"),
        ApiCall::OrgSettings(call) => format!("OrgSettings {call:?}"),
        ApiCall::Translations(call) => format!("Translations {call:?}"),
        ApiCall::OpenApi(call) => format!("OpenApi {call:?}"),
        ApiCall::Conversations(call) => format!("Conversations {call:?}"),
        ApiCall::Integrations(call) => format!("Integrations {call:?}"),
        ApiCall::Reader(call) => format!("Reader {call:?}"),
        ApiCall::Home(call) => format!("Home {call:?}"),
    };
    // The variant's name: what comes before its fields.
    name.split([' ', '{', '('])
        .take(if name.contains(' ') { 2 } else { 1 })
        .collect::<Vec<_>>()
        .join(" ")
}

fn sample_manifest() -> PublishManifest {
    let text = format!(
        r#"{{"name":"acme-walk","title":"Acme walk","description":"A sample",
        "scopes":["space:content:read"],"script":"export default {{}}","organization":"{}"}}"#,
        demo_ids::ACME
    );
    PublishManifest::from_json(&text).expect("a sample manifest")
}

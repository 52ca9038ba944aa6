//! The real `api::Client` against the real sandbox on loopback: every site method, each write
//! checked by reading the server's state back.

use quire::api::models::MemberRole;
use quire::api::{
    AdaptiveContent, AgentsContext, ApiError, Client, ClientConfig, DefaultLevel, NewSectionGroup,
    PublishOutcome, ShareLink, Site, SiteFilter, SiteSectionGroup, SiteStructureItem,
    SiteStructureType, SiteType, SiteUpdate, SiteVisibility, Token,
};
use quire::sandbox::{Faults, Sandbox, SandboxOptions, demo_ids, tokens};
use serde_json::json;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const ORG: &str = demo_ids::ACME;

async fn start() -> Result<Sandbox, Box<dyn std::error::Error>> {
    Ok(Sandbox::start("127.0.0.1:0".parse()?, SandboxOptions::default()).await?)
}

fn client_for(sandbox: &Sandbox, token: &str) -> Result<Client, ApiError> {
    Client::new(ClientConfig::new(sandbox.base_url(), Token::new(token)))
}

fn ids(sites: &[Site]) -> Vec<&str> {
    sites.iter().map(|site| site.id.as_str()).collect()
}

async fn all_sites(client: &Client, filter: &SiteFilter) -> Result<Vec<Site>, ApiError> {
    let mut sites = Vec::new();
    let mut page: Option<String> = None;
    for _ in 0..20 {
        let list = client.list_sites(ORG, filter, page.as_deref()).await?;
        sites.extend(list.items);
        match list.next_page {
            Some(next) => page = Some(next),
            None => break,
        }
    }
    Ok(sites)
}

async fn all_groups(client: &Client, site: &str) -> Result<Vec<SiteSectionGroup>, ApiError> {
    Ok(client.list_section_groups(ORG, site, None).await?.items)
}

async fn all_links(client: &Client, site: &str) -> Result<Vec<ShareLink>, ApiError> {
    Ok(client.list_share_links(ORG, site, None).await?.items)
}

/// The `shareKey` inside a share link's published address.
fn share_key(link: &ShareLink) -> Option<String> {
    let address = url::Url::parse(link.urls.published.as_deref()?).ok()?;
    address
        .query_pairs()
        .find(|(key, _)| key == "shareKey")
        .map(|(_, value)| value.into_owned())
}

#[tokio::test]
async fn sites_are_listed_and_filtered() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let everything = all_sites(&client, &SiteFilter::default()).await?;
    for id in [
        demo_ids::SITE_DOCS,
        demo_ids::SITE_DRAFT,
        demo_ids::SITE_PARTNERS,
        demo_ids::SITE_CUSTOMERS,
    ] {
        assert!(ids(&everything).contains(&id), "{id} in {everything:?}");
    }
    assert!(!ids(&everything).contains(&demo_ids::SITE_LUMEN));

    let unpublished = all_sites(
        &client,
        &SiteFilter {
            published: Some(false),
            ..SiteFilter::default()
        },
    )
    .await?;
    assert_eq!(ids(&unpublished), vec![demo_ids::SITE_DRAFT]);

    let by_title = all_sites(
        &client,
        &SiteFilter {
            title: Some("Partner".into()),
            ..SiteFilter::default()
        },
    )
    .await?;
    assert_eq!(ids(&by_title), vec![demo_ids::SITE_PARTNERS]);

    let by_space = all_sites(
        &client,
        &SiteFilter {
            space: Some(demo_ids::SPACE_CHANGELOG.into()),
            ..SiteFilter::default()
        },
    )
    .await?;
    let mut found = ids(&by_space);
    found.sort_unstable();
    assert_eq!(found, vec![demo_ids::SITE_CUSTOMERS, demo_ids::SITE_DOCS]);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_site_decodes_every_field() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let docs = client.get_site(ORG, demo_ids::SITE_DOCS).await?;
    assert_eq!(docs.title, "Acme Developer Docs");
    assert_eq!(docs.site_type, Some(SiteType::Premium));
    assert_eq!(docs.applied_type, Some(SiteType::Premium));
    assert_eq!(docs.visibility, Some(SiteVisibility::Public));
    assert!(docs.published);
    assert_eq!(docs.hostname.as_deref(), Some("docs.acme-robotics.example"));
    assert_eq!(docs.basename.as_deref(), Some("docs"));
    assert_eq!(docs.site_spaces, Some(6));
    assert_eq!(docs.agents_context, Some(AgentsContext::Included));
    assert!(docs.features.iter().any(|f| f.id == "sites-sections"));
    assert!(docs.urls.published.is_some() && docs.urls.preview.is_some());
    assert!(docs.permissions.as_ref().is_some_and(|p| p.admin && p.edit));

    let customers = client.get_site(ORG, demo_ids::SITE_CUSTOMERS).await?;
    let proxy = customers.proxy.ok_or("customers site has a proxy")?;
    assert_eq!(proxy.origin, "acme-robotics.example/customers");
    assert!(proxy.target.is_some());
    assert_eq!(
        customers.adaptive_content,
        Some(AdaptiveContent { enabled: true })
    );
    assert_eq!(customers.default_level, Some(DefaultLevel::Read));

    let reader = client_for(&sandbox, tokens::READER)?;
    let seen = reader.get_site(ORG, demo_ids::SITE_DOCS).await?;
    assert!(seen.permissions.is_some_and(|p| !p.edit));
    let missing = client.get_site(ORG, "site-nope").await;
    assert!(missing.is_err_and(|error| error.is_not_found()));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn update_site_changes_only_what_is_set() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let site = demo_ids::SITE_DOCS;
    let update = SiteUpdate {
        title: Some("Acme Docs v2".into()),
        visibility: Some(SiteVisibility::Unlisted),
        adaptive_content: Some(AdaptiveContent { enabled: true }),
        agents_context: Some(AgentsContext::Excluded),
        default_level: Some(DefaultLevel::Comment),
        proxy: Some(Some("acme.example/help".into())),
        ..SiteUpdate::default()
    };
    let answered = client.update_site(ORG, site, &update).await?;
    assert_eq!(answered.title, "Acme Docs v2");
    let stored = client.get_site(ORG, site).await?;
    assert_eq!(stored.title, "Acme Docs v2");
    assert_eq!(stored.visibility, Some(SiteVisibility::Unlisted));
    assert_eq!(
        stored.adaptive_content,
        Some(AdaptiveContent { enabled: true })
    );
    assert_eq!(stored.agents_context, Some(AgentsContext::Excluded));
    assert_eq!(stored.default_level, Some(DefaultLevel::Comment));
    assert_eq!(
        stored.proxy.as_ref().map(|proxy| proxy.origin.as_str()),
        Some("acme.example/help")
    );
    // Untouched settings stay.
    assert_eq!(stored.basename.as_deref(), Some("docs"));
    assert_eq!(
        stored.hostname.as_deref(),
        Some("docs.acme-robotics.example")
    );

    // Only the proxy, cleared: everything else is kept.
    let cleared = SiteUpdate {
        proxy: Some(None),
        ..SiteUpdate::default()
    };
    client.update_site(ORG, site, &cleared).await?;
    let stored = client.get_site(ORG, site).await?;
    assert_eq!(stored.proxy, None);
    assert_eq!(stored.title, "Acme Docs v2");
    assert_eq!(stored.visibility, Some(SiteVisibility::Unlisted));

    // Default site space: the Changelog becomes the default of its section.
    let default_space = SiteUpdate {
        default_site_space: Some(demo_ids::SITE_SPACE_CHANGELOG.into()),
        ..SiteUpdate::default()
    };
    client.update_site(ORG, site, &default_space).await?;
    let published = client.get_published_site(ORG, site, None).await?;
    let guides = published
        .structure
        .structure
        .iter()
        .find_map(|item| match item {
            SiteStructureItem::Section(section) if section.id == demo_ids::SECTION_GUIDES => {
                Some(section)
            }
            _ => None,
        })
        .ok_or("guides section")?;
    let default_ids: Vec<&str> = guides
        .site_spaces
        .iter()
        .filter(|space| space.default == Some(true))
        .map(|space| space.id.as_str())
        .collect();
    assert_eq!(default_ids, vec![demo_ids::SITE_SPACE_CHANGELOG]);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn site_writes_are_refused_to_non_admins_and_on_bad_input() -> TestResult {
    let sandbox = start().await?;
    let editor = client_for(&sandbox, tokens::EDITOR)?;
    let rename = SiteUpdate {
        title: Some("Hijacked".into()),
        ..SiteUpdate::default()
    };
    let refused = editor.update_site(ORG, demo_ids::SITE_DOCS, &rename).await;
    assert_eq!(refused.err().and_then(|error| error.status()), Some(403));
    let admin = client_for(&sandbox, tokens::ADMIN)?;
    let bad_proxy = SiteUpdate {
        proxy: Some(Some("not a proxy".into())),
        ..SiteUpdate::default()
    };
    let refused = admin
        .update_site(ORG, demo_ids::SITE_DOCS, &bad_proxy)
        .await;
    assert_eq!(refused.err().and_then(|error| error.status()), Some(400));
    let stored = admin.get_site(ORG, demo_ids::SITE_DOCS).await?;
    assert_eq!(stored.title, "Acme Developer Docs");
    assert_eq!(stored.proxy, None);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn publish_and_unpublish_round_trip() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let site = demo_ids::SITE_DRAFT;
    assert!(!client.get_site(ORG, site).await?.published);
    match client.publish_site(ORG, site).await? {
        PublishOutcome::Published(answered) => assert!(answered.published),
        PublishOutcome::Checkout { session_id } => {
            return Err(format!("unexpected checkout {session_id}").into());
        }
    }
    assert!(client.get_site(ORG, site).await?.published);
    let answered = client.unpublish_site(ORG, site).await?;
    assert!(!answered.published);
    assert!(!client.get_site(ORG, site).await?.published);
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn published_sites_carry_both_structure_types() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let docs = client
        .get_published_site(ORG, demo_ids::SITE_DOCS, None)
        .await?;
    assert_eq!(docs.site.id, demo_ids::SITE_DOCS);
    assert_eq!(
        docs.structure.structure_type,
        Some(SiteStructureType::Sections)
    );
    let top_ids: Vec<&str> = docs
        .structure
        .structure
        .iter()
        .filter_map(SiteStructureItem::id)
        .collect();
    assert!(top_ids.contains(&demo_ids::SECTION_GUIDES), "{top_ids:?}");
    assert!(top_ids.contains(&demo_ids::GROUP_REFERENCE), "{top_ids:?}");
    let reference = docs
        .structure
        .structure
        .iter()
        .find_map(|item| match item {
            SiteStructureItem::Group(group) if group.id == demo_ids::GROUP_REFERENCE => Some(group),
            _ => None,
        })
        .ok_or("reference group")?;
    assert_eq!(reference.section_ids(), vec![demo_ids::SECTION_API]);
    assert!(reference.children.iter().any(|child| matches!(
        child,
        SiteStructureItem::Group(inner) if inner.id == demo_ids::GROUP_SDKS
    )));

    let lumen_client = client_for(&sandbox, tokens::ADMIN)?;
    let lumen = lumen_client
        .get_published_site(demo_ids::LUMEN, demo_ids::SITE_LUMEN, None)
        .await?;
    assert_eq!(
        lumen.structure.structure_type,
        Some(SiteStructureType::SiteSpaces)
    );
    assert_eq!(lumen.structure.structure.len(), 3);
    assert!(
        lumen
            .structure
            .structure
            .iter()
            .all(|item| matches!(item, SiteStructureItem::Space(space) if space.space.is_some()))
    );
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn share_keys_open_share_link_sites() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let site = demo_ids::SITE_PARTNERS;
    let links = all_links(&client, site).await?;
    let active = links
        .iter()
        .find(|link| link.id == demo_ids::SHARE_LINK_EMEA)
        .ok_or("emea link")?;
    let key = share_key(active).ok_or("share key")?;
    let published = client.get_published_site(ORG, site, Some(&key)).await?;
    assert_eq!(published.site.id, site);
    let revoked = links
        .iter()
        .find(|link| link.id == demo_ids::SHARE_LINK_PILOT)
        .ok_or("pilot link")?;
    assert_eq!(revoked.active, Some(false));
    let revoked_key = share_key(revoked).ok_or("revoked key")?;
    let refused = client
        .get_published_site(ORG, site, Some(&revoked_key))
        .await;
    assert!(refused.is_err_and(|error| error.is_not_found()));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn share_links_are_created_edited_and_deleted() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let site = demo_ids::SITE_PARTNERS;
    let created = client
        .create_share_link(ORG, site, "APAC resellers")
        .await?;
    assert_eq!(created.name.as_deref(), Some("APAC resellers"));
    let stored = all_links(&client, site).await?;
    let stored = stored
        .iter()
        .find(|link| link.id == created.id)
        .ok_or("created link listed")?;
    assert_eq!(stored.active, Some(true));
    assert!(share_key(stored).is_some());

    let renamed = client
        .update_share_link(ORG, site, &created.id, None, Some("APAC"))
        .await?;
    assert_eq!(renamed.name.as_deref(), Some("APAC"));
    let disabled = client
        .update_share_link(ORG, site, &created.id, Some(false), None)
        .await?;
    assert_eq!(disabled.active, Some(false));
    let stored = all_links(&client, site).await?;
    let stored = stored
        .iter()
        .find(|link| link.id == created.id)
        .ok_or("edited link listed")?;
    assert_eq!(stored.name.as_deref(), Some("APAC"));
    assert_eq!(stored.active, Some(false));

    client.delete_share_link(ORG, site, &created.id).await?;
    let stored = all_links(&client, site).await?;
    assert!(!stored.iter().any(|link| link.id == created.id));
    // Deleting again is still a success (the seed's 204 either way).
    client.delete_share_link(ORG, site, &created.id).await?;
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn adaptive_schema_and_template_conditions() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let site = demo_ids::SITE_CUSTOMERS;
    let schema = client.get_adaptive_schema(ORG, site).await?;
    assert!(schema.json_schema["properties"]["isBetaUser"].is_object());
    assert!(schema.updated_at.is_some());
    let conditions = client.list_template_conditions(ORG, site).await?;
    assert!(
        conditions
            .iter()
            .any(|condition| condition.condition == "visitor.claims.isBetaUser === true"),
        "{conditions:?}"
    );

    let mut changed = schema.json_schema.clone();
    changed["properties"]["isPartner"] =
        json!({"type": "boolean", "description": "Visitor works for a partner"});
    let answered = client.put_adaptive_schema(ORG, site, &changed).await?;
    assert!(answered.json_schema["properties"]["isPartner"].is_object());
    let stored = client.get_adaptive_schema(ORG, site).await?;
    assert_eq!(stored.json_schema, changed);
    let conditions = client.list_template_conditions(ORG, site).await?;
    assert!(
        conditions
            .iter()
            .any(|condition| condition.condition == "visitor.claims.isPartner === true")
    );

    let none = client.get_adaptive_schema(ORG, demo_ids::SITE_DRAFT).await;
    assert!(none.is_err_and(|error| error.is_not_found()));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn section_groups_are_managed_end_to_end() -> TestResult {
    let sandbox = start().await?;
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let site = demo_ids::SITE_DOCS;
    let groups = all_groups(&client, site).await?;
    let group_ids: Vec<&str> = groups.iter().map(|group| group.id.as_str()).collect();
    assert_eq!(
        group_ids,
        vec![
            demo_ids::GROUP_REFERENCE,
            demo_ids::GROUP_SDKS,
            demo_ids::GROUP_INTERNALS
        ]
    );
    let sdks = groups
        .iter()
        .find(|group| group.id == demo_ids::GROUP_SDKS)
        .ok_or("sdks")?;
    assert_eq!(
        sdks.section_group.as_deref(),
        Some(demo_ids::GROUP_REFERENCE)
    );

    // Create a nested group holding the Runbooks section.
    let new_group = NewSectionGroup {
        title: "Operations".into(),
        icon: Some("wrench".into()),
        sections: vec![demo_ids::SECTION_RUNBOOKS.into()],
        parent: Some(demo_ids::GROUP_INTERNALS.into()),
    };
    let created = client.create_section_group(ORG, site, &new_group).await?;
    assert_eq!(created.title, "Operations");
    assert_eq!(created.section_ids(), vec![demo_ids::SECTION_RUNBOOKS]);
    let stored = all_groups(&client, site).await?;
    let stored = stored
        .iter()
        .find(|group| group.id == created.id)
        .ok_or("created group listed")?;
    assert_eq!(stored.icon.as_deref(), Some("wrench"));
    assert_eq!(
        stored.section_group.as_deref(),
        Some(demo_ids::GROUP_INTERNALS)
    );

    // Rename and remove the icon.
    let updated = client
        .update_section_group(ORG, site, &created.id, Some("Ops"), Some(None))
        .await?;
    assert_eq!(updated.title, "Ops");
    let stored = all_groups(&client, site).await?;
    let stored = stored
        .iter()
        .find(|group| group.id == created.id)
        .ok_or("updated group listed")?;
    assert_eq!(stored.title, "Ops");
    assert_eq!(stored.icon, None);
    // Icon untouched when only the title changes.
    client
        .update_section_group(ORG, site, demo_ids::GROUP_REFERENCE, Some("Refs"), None)
        .await?;
    let stored = all_groups(&client, site).await?;
    let reference = stored
        .iter()
        .find(|group| group.id == demo_ids::GROUP_REFERENCE)
        .ok_or("reference")?;
    assert_eq!(reference.title, "Refs");
    assert_eq!(reference.icon.as_deref(), Some("code"));

    // Move Architecture in, then take it out again.
    let with_section = client
        .add_section_to_group(ORG, site, &created.id, demo_ids::SECTION_ARCHITECTURE)
        .await?;
    assert!(
        with_section
            .section_ids()
            .contains(&demo_ids::SECTION_ARCHITECTURE)
    );
    let stored = all_groups(&client, site).await?;
    let stored_group = stored
        .iter()
        .find(|group| group.id == created.id)
        .ok_or("group after add")?;
    assert!(
        stored_group
            .section_ids()
            .contains(&demo_ids::SECTION_ARCHITECTURE)
    );
    client
        .remove_section_from_group(ORG, site, &created.id, demo_ids::SECTION_ARCHITECTURE)
        .await?;
    let stored = all_groups(&client, site).await?;
    let stored_group = stored
        .iter()
        .find(|group| group.id == created.id)
        .ok_or("group after remove")?;
    assert_eq!(stored_group.section_ids(), vec![demo_ids::SECTION_RUNBOOKS]);
    let internals = stored
        .iter()
        .find(|group| group.id == demo_ids::GROUP_INTERNALS)
        .ok_or("internals")?;
    assert!(
        internals
            .section_ids()
            .contains(&demo_ids::SECTION_ARCHITECTURE)
    );

    // Delete the group; a second delete is still a success.
    client.delete_section_group(ORG, site, &created.id).await?;
    let stored = all_groups(&client, site).await?;
    assert!(!stored.iter().any(|group| group.id == created.id));
    client.delete_section_group(ORG, site, &created.id).await?;
    sandbox.shutdown().await;
    Ok(())
}

/// Which group holds `section`, from the group list (None: the site's top level).
async fn group_of(client: &Client, site: &str, section: &str) -> Result<Option<String>, ApiError> {
    Ok(all_groups(client, site)
        .await?
        .into_iter()
        .find(|group| group.section_ids().contains(&section))
        .map(|group| group.id))
}

/// Moves Architecture into Reference and out again on a sandbox with `faults`; returns the
/// group holding it afterwards.
async fn move_architecture_in_and_out(
    sandbox: &Sandbox,
    faults: Faults,
) -> Result<Option<String>, Box<dyn std::error::Error>> {
    sandbox.set_faults(faults);
    let client = client_for(sandbox, tokens::ADMIN)?;
    let (site, section) = (demo_ids::SITE_DOCS, demo_ids::SECTION_ARCHITECTURE);
    let group = client
        .add_section_to_group(ORG, site, demo_ids::GROUP_REFERENCE, section)
        .await?;
    assert!(group.section_ids().contains(&section), "{group:?}");
    assert_eq!(
        group_of(&client, site, section).await?.as_deref(),
        Some(demo_ids::GROUP_REFERENCE)
    );
    client
        .remove_section_from_group(ORG, site, demo_ids::GROUP_REFERENCE, section)
        .await?;
    Ok(group_of(&client, site, section).await?)
}

#[tokio::test]
async fn sections_move_with_the_services_patch_where_the_group_routes_are_missing() -> TestResult {
    let sandbox = start().await?;
    let faults = Faults {
        no_group_section_routes: true,
        ..Faults::default()
    };
    let after = move_architecture_in_and_out(&sandbox, faults).await?;
    assert_eq!(after, None, "null siteSectionGroupId: the top level");
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn sections_move_with_the_seeds_routes_where_the_section_patch_is_missing() -> TestResult {
    let sandbox = start().await?;
    let faults = Faults {
        no_section_patch: true,
        ..Faults::default()
    };
    let after = move_architecture_in_and_out(&sandbox, faults).await?;
    assert_ne!(after.as_deref(), Some(demo_ids::GROUP_REFERENCE));
    // Neither way left: the fallback's own answer is reported instead of pretending.
    sandbox.set_faults(Faults {
        no_section_patch: true,
        no_group_section_routes: true,
        ..Faults::default()
    });
    let client = client_for(&sandbox, tokens::ADMIN)?;
    let refused = client
        .add_section_to_group(
            ORG,
            demo_ids::SITE_DOCS,
            demo_ids::GROUP_REFERENCE,
            demo_ids::SECTION_ARCHITECTURE,
        )
        .await;
    assert!(refused.is_err_and(|error| error.status() == Some(405)));
    sandbox.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn my_role_is_read_from_my_membership() -> TestResult {
    let sandbox = start().await?;
    let admin = client_for(&sandbox, tokens::ADMIN)?;
    assert_eq!(admin.my_role(ORG).await?, Some(MemberRole::Admin));
    let reader = client_for(&sandbox, tokens::READER)?;
    assert_eq!(reader.my_role(ORG).await?, Some(MemberRole::Read));
    sandbox.shutdown().await;
    Ok(())
}

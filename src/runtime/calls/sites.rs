//! Carries out a [`SitesCall`] with the API client. The runtime's `call_api` hands every
//! `ApiCall::Sites` here, so the sites feature stays in its own files.

use futures::future::join_all;

use crate::api::{ApiError, Client};
use crate::vocabulary::sites::{AccessListing, AdaptiveData, SiteAccess, SitesCall, SitesResponse};

/// Pages of the organization's spaces read for a new site's space picker.
const SPACE_PICKER_PAGES: usize = 20;

/// Performs one sites call. Independent reads run in parallel.
pub async fn call_sites(client: &Client, call: SitesCall) -> SitesResponse {
    match call {
        SitesCall::ListSites {
            organization,
            filter,
            page,
        } => SitesResponse::Sites(
            client
                .list_sites(&organization, &filter, page.as_deref())
                .await,
        ),
        SitesCall::GetSite { organization, site } => {
            SitesResponse::Site(client.get_site(&organization, &site).await)
        }
        SitesCall::CreateSite { organization, site } => {
            SitesResponse::Site(client.create_site(&organization, &site).await)
        }
        SitesCall::DeleteSite { organization, site } => {
            SitesResponse::Done(client.delete_site(&organization, &site).await)
        }
        SitesCall::UpdateSite {
            organization,
            site,
            update,
        } => SitesResponse::Site(client.update_site(&organization, &site, &update).await),
        SitesCall::Publish { organization, site } => {
            SitesResponse::Published(client.publish_site(&organization, &site).await)
        }
        SitesCall::Unpublish { organization, site } => {
            SitesResponse::Site(client.unpublish_site(&organization, &site).await)
        }
        SitesCall::GetPublished { organization, site } => {
            SitesResponse::Structure(client.get_published_site(&organization, &site, None).await)
        }
        SitesCall::GetAdaptive { organization, site } => {
            SitesResponse::Adaptive(adaptive(client, &organization, &site).await)
        }
        SitesCall::PutAdaptiveSchema {
            organization,
            site,
            schema,
        } => SitesResponse::SchemaSaved(
            client
                .put_adaptive_schema(&organization, &site, &schema)
                .await,
        ),
        SitesCall::ListShareLinks { organization, site } => {
            SitesResponse::ShareLinks(client.all_share_links(&organization, &site).await)
        }
        SitesCall::CreateShareLink {
            organization,
            site,
            name,
        } => SitesResponse::ShareLink(client.create_share_link(&organization, &site, &name).await),
        SitesCall::UpdateShareLink {
            organization,
            site,
            link,
            active,
            name,
        } => SitesResponse::ShareLink(
            client
                .update_share_link(&organization, &site, &link, active, name.as_deref())
                .await,
        ),
        SitesCall::DeleteShareLink {
            organization,
            site,
            link,
        } => SitesResponse::Done(client.delete_share_link(&organization, &site, &link).await),
        SitesCall::ListSectionGroups { organization, site } => {
            SitesResponse::SectionGroups(client.all_section_groups(&organization, &site).await)
        }
        SitesCall::CreateSectionGroup {
            organization,
            site,
            group,
        } => SitesResponse::SectionGroup(
            client
                .create_section_group(&organization, &site, &group)
                .await,
        ),
        SitesCall::UpdateSectionGroup {
            organization,
            site,
            group,
            title,
            icon,
        } => {
            let icon = icon.as_ref().map(|icon| icon.as_deref());
            SitesResponse::SectionGroup(
                client
                    .update_section_group(&organization, &site, &group, title.as_deref(), icon)
                    .await,
            )
        }
        SitesCall::DeleteSectionGroup {
            organization,
            site,
            group,
        } => SitesResponse::Done(
            client
                .delete_section_group(&organization, &site, &group)
                .await,
        ),
        SitesCall::AddSectionToGroup {
            organization,
            site,
            group,
            section,
        } => SitesResponse::SectionGroup(
            client
                .add_section_to_group(&organization, &site, &group, &section)
                .await,
        ),
        SitesCall::RemoveSectionFromGroup {
            organization,
            site,
            group,
            section,
        } => SitesResponse::Done(
            client
                .remove_section_from_group(&organization, &site, &group, &section)
                .await,
        ),
        SitesCall::AccessAudit { organization } => {
            SitesResponse::Access(access_audit(client, &organization).await)
        }
        SitesCall::MyRole { organization } => {
            SitesResponse::MyRole(client.my_role(&organization).await)
        }
        SitesCall::OrganizationSpaces { organization } => SitesResponse::Spaces(
            client
                .list_organization_spaces_up_to(&organization, SPACE_PICKER_PAGES)
                .await,
        ),
    }
}

/// The schema (absent when the server answers 404: the site has none yet) and the conditions.
async fn adaptive(
    client: &Client,
    organization: &str,
    site: &str,
) -> Result<AdaptiveData, ApiError> {
    let (schema, conditions) = tokio::join!(
        client.get_adaptive_schema(organization, site),
        client.list_template_conditions(organization, site),
    );
    let schema = match schema {
        Ok(schema) => Some(schema),
        Err(error) if error.is_not_found() => None,
        Err(error) => return Err(error),
    };
    Ok(AdaptiveData {
        schema,
        conditions: conditions.unwrap_or_default(),
    })
}

/// Pages of the organization's sites read for the access audit before it shows what it read,
/// "stopped after N pages": twenty thousand sites is beyond any organization, and an endless
/// list then costs a second, not a minute.
pub const AUDIT_SITE_PAGES: usize = 20;

/// Every site, then every site's share links in parallel; each list keeps what it read when it
/// does not end within its cap.
async fn access_audit(client: &Client, organization: &str) -> Result<AccessListing, ApiError> {
    let sites = client.all_sites(organization, AUDIT_SITE_PAGES).await?;
    let links = join_all(
        sites
            .items
            .iter()
            .map(|site| client.all_share_links(organization, &site.id)),
    )
    .await;
    let sites_stopped_after_pages = sites.stopped_after_pages();
    let sites = sites
        .items
        .into_iter()
        .zip(links)
        .map(|(site, links)| {
            let links = links?;
            Ok(SiteAccess {
                site,
                links_stopped_after_pages: links.stopped_after_pages(),
                share_links: links.items,
            })
        })
        .collect::<Result<_, ApiError>>()?;
    Ok(AccessListing {
        sites,
        sites_stopped_after_pages,
    })
}

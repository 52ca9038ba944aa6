//! Site endpoints: settings, publishing, the published structure, adaptive content, share
//! links and section groups.

use serde::Serialize;
use serde_json::{Value, json};

use super::address::encode_segment;
use super::change_requests::{borrow_query, written_or_reread};
use super::client::{Client, decode_body};
use super::error::ApiError;
use super::models::site::TemplateConditionList;
use super::models::{
    AdaptiveContent, AdaptiveSchema, AgentsContext, DefaultLevel, Member, MemberRole,
    PublishOutcome, PublishedSite, ShareLink, Site, SiteSectionGroup, SiteType, SiteVisibility,
    TemplateCondition,
};
use super::paging::{ListPage, WholeList};

/// Pages of a site's share links or section groups read whole (for its tabs and the access
/// audit) before they are shown as read, "stopped after N pages": twenty pages of a thousand
/// is far more than a site has, and an endless list then costs a second, not a minute.
pub const SITE_LIST_PAGES: usize = 20;

/// Filters of the site list; unset fields are not sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteFilter {
    /// Only sites that publish this space id.
    pub space: Option<String>,
    pub title: Option<String>,
    pub published: Option<bool>,
}

impl SiteFilter {
    /// Query pairs for `GET /orgs/{org}/sites`.
    pub fn query(&self) -> Vec<(&'static str, String)> {
        let mut query = Vec::new();
        if let Some(space) = &self.space {
            query.push(("space", space.clone()));
        }
        if let Some(title) = &self.title {
            query.push(("title", title.clone()));
        }
        if let Some(published) = self.published {
            query.push(("published", published.to_string()));
        }
        query
    }
}

/// A `PATCH` of a site's settings: one field per setting, and only the fields that are set are
/// sent, so an edit never overwrites a setting the user did not touch. `proxy` has three
/// states: `None` unchanged, `Some(Some(origin))` set, `Some(None)` removed (sent as `null`).
/// `agents_context` exists only on the seed; the real service may refuse it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<SiteVisibility>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basename: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive_content: Option<AdaptiveContent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents_context: Option<AgentsContext>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_level: Option<DefaultLevel>,
    /// Write-only: the site space shown by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_site_space: Option<String>,
    /// Write-only: the section shown by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_site_section: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy: Option<Option<String>>,
}

impl SiteUpdate {
    /// True when nothing would be changed.
    pub fn is_empty(&self) -> bool {
        self == &SiteUpdate::default()
    }
}

/// The body of a new section group; empty `sections` and absent `icon`/`parent` are not sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NewSectionGroup {
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// Ids of sections to move into the group.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
    /// The parent group's id; the site's root when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

#[derive(Serialize)]
struct SectionGroupEdit<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icon: Option<Option<&'a str>>,
}

#[derive(Serialize)]
struct ShareLinkEdit<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    active: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
}

fn site_path(org: &str, site: &str) -> String {
    format!(
        "/orgs/{}/sites/{}",
        encode_segment(org),
        encode_segment(site)
    )
}

fn share_links_path(org: &str, site: &str) -> String {
    format!("{}/share-links", site_path(org, site))
}

fn section_groups_path(org: &str, site: &str) -> String {
    format!("{}/section-groups", site_path(org, site))
}

fn section_group_path(org: &str, site: &str, group: &str) -> String {
    format!(
        "{}/{}",
        section_groups_path(org, site),
        encode_segment(group)
    )
}

/// Reads a publish answer: a checkout request, else a site.
/// The server has no such route (404) or not for this method (405): try the other API's way.
fn lacks_route(error: &ApiError) -> bool {
    error.is_unsupported() || error.is_not_found() || error.status() == Some(405)
}

fn publish_outcome(endpoint: &str, answer: Value) -> Result<PublishOutcome, ApiError> {
    if answer.get("type").and_then(Value::as_str) == Some("checkout") {
        let session_id = answer
            .get("sessionId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        return Ok(PublishOutcome::Checkout { session_id });
    }
    let bytes = serde_json::to_vec(&answer).unwrap_or_default();
    decode_body::<Site>(endpoint, &bytes).map(|site| PublishOutcome::Published(Box::new(site)))
}

/// The body of `POST /orgs/{org}/sites`: a title, and what else is chosen; the server picks
/// what is left out (the seed: a basic site, public, not published, with no spaces yet).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NewSite {
    pub title: String,
    /// The plan (`type`).
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub site_type: Option<SiteType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<SiteVisibility>,
    /// Ids of the organization's spaces the site starts with, the first its default.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<String>,
}

impl Client {
    // ----- Sites -----

    /// `POST /orgs/{org}/sites`: 201 with the new site.
    pub async fn create_site(&self, org: &str, site: &NewSite) -> Result<Site, ApiError> {
        let path = format!("/orgs/{}/sites", encode_segment(org));
        self.post(&path, site).await
    }

    /// `DELETE /orgs/{org}/sites/{site}`: 204, also when it was not there.
    pub async fn delete_site(&self, org: &str, site: &str) -> Result<(), ApiError> {
        self.delete(&site_path(org, site)).await
    }

    /// `GET /orgs/{org}/sites`: one page, filtered.
    pub async fn list_sites(
        &self,
        org: &str,
        filter: &SiteFilter,
        page: Option<&str>,
    ) -> Result<ListPage<Site>, ApiError> {
        let path = format!("/orgs/{}/sites", encode_segment(org));
        let query = filter.query();
        self.get_list_page(&path, &borrow_query(&query), page).await
    }

    /// Every site of the organization, unfiltered, up to `pages` pages.
    pub async fn all_sites(&self, org: &str, pages: usize) -> Result<WholeList<Site>, ApiError> {
        let path = format!("/orgs/{}/sites", encode_segment(org));
        self.list_up_to(&path, &[], pages).await
    }

    /// `GET /orgs/{org}/sites/{site}`.
    pub async fn get_site(&self, org: &str, site: &str) -> Result<Site, ApiError> {
        self.get(&site_path(org, site), &[]).await
    }

    /// `PATCH /orgs/{org}/sites/{site}` with only the fields set in `update`.
    pub async fn update_site(
        &self,
        org: &str,
        site: &str,
        update: &SiteUpdate,
    ) -> Result<Site, ApiError> {
        let written = self.patch(&site_path(org, site), update).await;
        written_or_reread(written, self.get_site(org, site)).await
    }

    /// `POST …/publish`: the published site, or a checkout to finish in the browser.
    pub async fn publish_site(&self, org: &str, site: &str) -> Result<PublishOutcome, ApiError> {
        let path = format!("{}/publish", site_path(org, site));
        let written = match self.post_without_body::<Value>(&path).await {
            Ok(answer) => publish_outcome(&format!("POST {path}"), answer),
            Err(error) => Err(error),
        };
        let reread = async {
            let site = self.get_site(org, site).await?;
            Ok(PublishOutcome::Published(Box::new(site)))
        };
        written_or_reread(written, reread).await
    }

    /// `POST …/unpublish`.
    pub async fn unpublish_site(&self, org: &str, site: &str) -> Result<Site, ApiError> {
        let path = format!("{}/unpublish", site_path(org, site));
        let written = self.post_without_body(&path).await;
        written_or_reread(written, self.get_site(org, site)).await
    }

    /// `GET …/published`: the site with its structure; `share_key` opens a share-link site.
    pub async fn get_published_site(
        &self,
        org: &str,
        site: &str,
        share_key: Option<&str>,
    ) -> Result<PublishedSite, ApiError> {
        let path = format!("{}/published", site_path(org, site));
        let query: Vec<(&str, &str)> = share_key.map(|key| ("shareKey", key)).into_iter().collect();
        self.get(&path, &query).await
    }

    // ----- Adaptive content -----

    /// `GET …/adaptive-schema`.
    pub async fn get_adaptive_schema(
        &self,
        org: &str,
        site: &str,
    ) -> Result<AdaptiveSchema, ApiError> {
        let path = format!("{}/adaptive-schema", site_path(org, site));
        self.get(&path, &[]).await
    }

    /// `PUT …/adaptive-schema` with `{jsonSchema}`.
    pub async fn put_adaptive_schema(
        &self,
        org: &str,
        site: &str,
        json_schema: &Value,
    ) -> Result<AdaptiveSchema, ApiError> {
        let path = format!("{}/adaptive-schema", site_path(org, site));
        let written = self.put(&path, &json!({ "jsonSchema": json_schema })).await;
        written_or_reread(written, self.get_adaptive_schema(org, site)).await
    }

    /// `GET …/adaptive-schema/template-conditions` (not paginated).
    pub async fn list_template_conditions(
        &self,
        org: &str,
        site: &str,
    ) -> Result<Vec<TemplateCondition>, ApiError> {
        let path = format!(
            "{}/adaptive-schema/template-conditions",
            site_path(org, site)
        );
        let list: TemplateConditionList = self.get(&path, &[]).await?;
        Ok(list.items)
    }

    // ----- Share links -----

    /// `GET …/share-links`: one page.
    pub async fn list_share_links(
        &self,
        org: &str,
        site: &str,
        page: Option<&str>,
    ) -> Result<ListPage<ShareLink>, ApiError> {
        self.get_list_page(&share_links_path(org, site), &[], page)
            .await
    }

    /// Every share link of a site, up to [`SITE_LIST_PAGES`] pages.
    pub async fn all_share_links(
        &self,
        org: &str,
        site: &str,
    ) -> Result<WholeList<ShareLink>, ApiError> {
        self.list_up_to(&share_links_path(org, site), &[], SITE_LIST_PAGES)
            .await
    }

    /// `POST …/share-links` with `{name}`.
    pub async fn create_share_link(
        &self,
        org: &str,
        site: &str,
        name: &str,
    ) -> Result<ShareLink, ApiError> {
        self.post(&share_links_path(org, site), &json!({ "name": name }))
            .await
    }

    /// `PATCH …/share-links/{link}`: switch it on or off, rename it; unset fields are not sent.
    pub async fn update_share_link(
        &self,
        org: &str,
        site: &str,
        link: &str,
        active: Option<bool>,
        name: Option<&str>,
    ) -> Result<ShareLink, ApiError> {
        let path = format!("{}/{}", share_links_path(org, site), encode_segment(link));
        self.patch(&path, &ShareLinkEdit { active, name }).await
    }

    /// `DELETE …/share-links/{link}` (205 or 204).
    pub async fn delete_share_link(
        &self,
        org: &str,
        site: &str,
        link: &str,
    ) -> Result<(), ApiError> {
        let path = format!("{}/{}", share_links_path(org, site), encode_segment(link));
        self.delete(&path).await
    }

    // ----- Section groups -----

    /// `GET …/section-groups`: one page.
    pub async fn list_section_groups(
        &self,
        org: &str,
        site: &str,
        page: Option<&str>,
    ) -> Result<ListPage<SiteSectionGroup>, ApiError> {
        self.get_list_page(&section_groups_path(org, site), &[], page)
            .await
    }

    /// Every section group of a site, up to [`SITE_LIST_PAGES`] pages.
    pub async fn all_section_groups(
        &self,
        org: &str,
        site: &str,
    ) -> Result<WholeList<SiteSectionGroup>, ApiError> {
        self.list_up_to(&section_groups_path(org, site), &[], SITE_LIST_PAGES)
            .await
    }

    /// `POST …/section-groups`.
    pub async fn create_section_group(
        &self,
        org: &str,
        site: &str,
        group: &NewSectionGroup,
    ) -> Result<SiteSectionGroup, ApiError> {
        self.post(&section_groups_path(org, site), group).await
    }

    /// `PATCH …/section-groups/{group}`: rename and/or change the icon (`Some(None)` removes
    /// it). There is no single-group read, so a 204 answer is followed by a list read.
    pub async fn update_section_group(
        &self,
        org: &str,
        site: &str,
        group: &str,
        title: Option<&str>,
        icon: Option<Option<&str>>,
    ) -> Result<SiteSectionGroup, ApiError> {
        let path = section_group_path(org, site, group);
        let written = self.patch(&path, &SectionGroupEdit { title, icon }).await;
        written_or_reread(written, self.find_section_group(org, site, group, &path)).await
    }

    /// `DELETE …/section-groups/{group}` (205 or 204).
    pub async fn delete_section_group(
        &self,
        org: &str,
        site: &str,
        group: &str,
    ) -> Result<(), ApiError> {
        self.delete(&section_group_path(org, site, group)).await
    }

    /// Puts a section into a group: the seed's `POST …/section-groups/{group}/sections` with
    /// `{sectionId}`; a server without that route (the public service answers 404 or 405)
    /// gets the service's section PATCH instead.
    pub async fn add_section_to_group(
        &self,
        org: &str,
        site: &str,
        group: &str,
        section: &str,
    ) -> Result<SiteSectionGroup, ApiError> {
        let path = format!("{}/sections", section_group_path(org, site, group));
        let written = self.post(&path, &json!({ "sectionId": section })).await;
        if written.as_ref().is_err_and(lacks_route) {
            self.move_section(org, site, section, Some(group)).await?;
            return self.find_section_group(org, site, group, &path).await;
        }
        written_or_reread(written, self.find_section_group(org, site, group, &path)).await
    }

    /// Takes a section out of a group: the seed's `DELETE …/section-groups/{group}/sections/
    /// {section}`, or on a server without it the service's section PATCH to the top level.
    pub async fn remove_section_from_group(
        &self,
        org: &str,
        site: &str,
        group: &str,
        section: &str,
    ) -> Result<(), ApiError> {
        let path = format!(
            "{}/sections/{}",
            section_group_path(org, site, group),
            encode_segment(section)
        );
        match self.delete(&path).await {
            Err(error) if lacks_route(&error) => self.move_section(org, site, section, None).await,
            other => other,
        }
    }

    /// The service's way to move a section: `PATCH …/sections/{section}` with
    /// `siteSectionGroupId` (a group, or null for the top level). The answer is not needed.
    async fn move_section(
        &self,
        org: &str,
        site: &str,
        section: &str,
        group: Option<&str>,
    ) -> Result<(), ApiError> {
        let path = format!(
            "{}/sections/{}",
            site_path(org, site),
            encode_segment(section)
        );
        let body = json!({ "siteSectionGroupId": group });
        match self.patch::<_, Value>(&path, &body).await {
            // A 204 or an answer we cannot read still means the move was done.
            Ok(_) | Err(ApiError::Decode { .. }) => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// The caller's role in `org` (`None`: a guest): `GET /user`, then
    /// `GET /orgs/{org}/members/{user}`.
    pub async fn my_role(&self, org: &str) -> Result<Option<MemberRole>, ApiError> {
        let me = self.current_user().await?;
        let path = format!(
            "/orgs/{}/members/{}",
            encode_segment(org),
            encode_segment(&me.id)
        );
        let member: Member = self.get(&path, &[]).await?;
        Ok(member.role)
    }

    /// One group from the whole list, after a write that answered without it.
    async fn find_section_group(
        &self,
        org: &str,
        site: &str,
        group: &str,
        written_path: &str,
    ) -> Result<SiteSectionGroup, ApiError> {
        let groups = self.all_section_groups(org, site).await?;
        groups
            .items
            .into_iter()
            .find(|candidate| candidate.id == group)
            .ok_or_else(|| ApiError::Decode {
                endpoint: written_path.to_owned(),
                path: ".".to_owned(),
                message: format!("no usable answer, and group `{group}` is not in the list"),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_update_sends_only_set_fields() {
        assert_eq!(
            serde_json::to_value(SiteUpdate::default()).unwrap(),
            json!({})
        );
        assert!(SiteUpdate::default().is_empty());
        let rename = SiteUpdate {
            title: Some("New".into()),
            visibility: Some(SiteVisibility::Unlisted),
            adaptive_content: Some(AdaptiveContent { enabled: true }),
            ..SiteUpdate::default()
        };
        assert_eq!(
            serde_json::to_value(&rename).unwrap(),
            json!({"title": "New", "visibility": "unlisted", "adaptiveContent": {"enabled": true}})
        );
        assert!(!rename.is_empty());
    }

    #[test]
    fn site_update_proxy_has_three_states() {
        let untouched = serde_json::to_value(SiteUpdate::default()).unwrap();
        assert!(untouched.get("proxy").is_none());
        let cleared = SiteUpdate {
            proxy: Some(None),
            ..SiteUpdate::default()
        };
        assert_eq!(
            serde_json::to_value(&cleared).unwrap(),
            json!({"proxy": null})
        );
        let set = SiteUpdate {
            proxy: Some(Some("acme.com/docs".into())),
            agents_context: Some(AgentsContext::Excluded),
            default_site_space: Some("ss1".into()),
            ..SiteUpdate::default()
        };
        assert_eq!(
            serde_json::to_value(&set).unwrap(),
            json!({"proxy": "acme.com/docs", "agentsContext": "excluded", "defaultSiteSpace": "ss1"})
        );
    }

    #[test]
    fn section_group_bodies_send_only_set_fields() {
        let group = NewSectionGroup {
            title: "Products".into(),
            ..NewSectionGroup::default()
        };
        assert_eq!(
            serde_json::to_value(&group).unwrap(),
            json!({"title": "Products"})
        );
        let full = NewSectionGroup {
            title: "P".into(),
            icon: Some("box".into()),
            sections: vec!["s1".into()],
            parent: Some("g0".into()),
        };
        assert_eq!(
            serde_json::to_value(&full).unwrap(),
            json!({"title": "P", "icon": "box", "sections": ["s1"], "parent": "g0"})
        );
        let clear_icon = SectionGroupEdit {
            title: None,
            icon: Some(None),
        };
        assert_eq!(
            serde_json::to_value(&clear_icon).unwrap(),
            json!({"icon": null})
        );
        let rename = SectionGroupEdit {
            title: Some("T"),
            icon: None,
        };
        assert_eq!(
            serde_json::to_value(&rename).unwrap(),
            json!({"title": "T"})
        );
    }

    #[test]
    fn share_link_edit_and_filter_send_only_set_fields() {
        let edit = ShareLinkEdit {
            active: Some(false),
            name: None,
        };
        assert_eq!(
            serde_json::to_value(&edit).unwrap(),
            json!({"active": false})
        );
        let filter = SiteFilter {
            space: None,
            title: Some("Docs".into()),
            published: Some(true),
        };
        assert_eq!(
            filter.query(),
            vec![
                ("title", "Docs".to_owned()),
                ("published", "true".to_owned())
            ]
        );
    }

    #[test]
    fn publish_answer_is_a_site_or_a_checkout() {
        let checkout =
            publish_outcome("POST /x", json!({"type": "checkout", "sessionId": "cs_1"})).unwrap();
        assert_eq!(
            checkout,
            PublishOutcome::Checkout {
                session_id: "cs_1".into()
            }
        );
        let site = publish_outcome(
            "POST /x",
            json!({"object": "site", "id": "s1", "type": "basic", "published": true}),
        )
        .unwrap();
        match site {
            PublishOutcome::Published(site) => assert!(site.published),
            other => panic!("expected a site, got {other:?}"),
        }
        let broken = publish_outcome("POST /x", json!({"type": "basic"}));
        assert!(matches!(broken, Err(ApiError::Decode { .. })));
    }
}

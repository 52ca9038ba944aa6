//! Published documentation sites: settings, structure (sections, section groups, site spaces),
//! share links and the adaptive-content visitor schema.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::common::{DefaultLevel, Urls, lenient_count, null_as_default, string_enum};
use super::space::Space;

string_enum! {
    /// `SiteType`: the site's plan.
    pub enum SiteType {
        Basic => "basic",
        Premium => "premium",
        Ultimate => "ultimate",
        Sponsored => "sponsored",
        LegacyBasic => "legacy-basic",
        LegacyPremium => "legacy-premium",
    }
}

string_enum! {
    /// `SiteVisibility`: who can read the published site.
    pub enum SiteVisibility {
        Public => "public",
        Unlisted => "unlisted",
        ShareLink => "share-link",
        VisitorAuth => "visitor-auth",
    }
}

string_enum! {
    /// Whether documentation agents may read the site. Only the seed has this field.
    pub enum AgentsContext {
        Excluded => "excluded",
        Included => "included",
    }
}

string_enum! {
    /// Which variant a site structure is.
    pub enum SiteStructureType {
        Sections => "sections",
        SiteSpaces => "siteSpaces",
    }
}

/// Where a proxied site is served. The service reads it back as `{origin, target}` and takes a
/// plain origin string on write; a string read back is accepted as the origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SiteProxy {
    pub origin: String,
    pub target: Option<String>,
}

impl<'de> Deserialize<'de> for SiteProxy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Shape {
            Origin(String),
            Object {
                origin: String,
                #[serde(default)]
                target: Option<String>,
            },
        }
        Ok(match Shape::deserialize(deserializer)? {
            Shape::Origin(origin) => SiteProxy {
                origin,
                target: None,
            },
            Shape::Object { origin, target } => SiteProxy { origin, target },
        })
    }
}

/// `{enabled}`: whether adaptive content (per-visitor pages) is on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdaptiveContent {
    #[serde(default, deserialize_with = "null_as_default")]
    pub enabled: bool,
}

/// A plan feature of a site. Ids and customizations are kept as text: the list grows often.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteFeature {
    pub id: String,
    #[serde(default)]
    pub plan: Option<SiteType>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub frozen: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    pub customizations: Vec<String>,
}

/// What the caller may do on a site; absent keys mean "no".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SitePermissions {
    pub view: bool,
    pub access: bool,
    pub edit: bool,
    pub create: bool,
    pub admin: bool,
    pub install_integration: bool,
    pub view_adaptive_schema: bool,
    pub edit_adaptive_schema: bool,
}

/// A site (`object`='site').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Site {
    pub id: String,
    #[serde(default, rename = "type")]
    pub site_type: Option<SiteType>,
    /// The plan in effect (service only); may differ from `site_type` during a trial.
    #[serde(default)]
    pub applied_type: Option<SiteType>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    /// `{icon:{light,dark}}`, `{emoji}` or an icon name; raw because its shape varies.
    #[serde(default)]
    pub icon: Option<Value>,
    #[serde(default)]
    pub hostname: Option<String>,
    #[serde(default)]
    pub basename: Option<String>,
    #[serde(default)]
    pub proxy: Option<SiteProxy>,
    #[serde(default)]
    pub visibility: Option<SiteVisibility>,
    /// Read-only on the service: change it with publish / unpublish.
    #[serde(default, deserialize_with = "null_as_default")]
    pub published: bool,
    /// Number of site spaces.
    #[serde(default, deserialize_with = "lenient_count")]
    pub site_spaces: Option<u64>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub last_scan_at: Option<String>,
    #[serde(default)]
    pub adaptive_content: Option<AdaptiveContent>,
    /// Seed only; absent on the real service.
    #[serde(default)]
    pub agents_context: Option<AgentsContext>,
    #[serde(default)]
    pub default_level: Option<DefaultLevel>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub features: Vec<SiteFeature>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
    #[serde(default)]
    pub permissions: Option<SitePermissions>,
}

/// What `POST …/publish` led to: the published site, or a checkout the user must complete in
/// the browser before the plan allows publishing.
#[derive(Debug, Clone, PartialEq)]
pub enum PublishOutcome {
    Published(Box<Site>),
    Checkout { session_id: String },
}

/// A site space (`object`='site-space'): one space's content placed in a site.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteSpace {
    pub id: String,
    #[serde(default)]
    pub path: Option<String>,
    /// The section id it belongs to.
    #[serde(default)]
    pub section: Option<String>,
    /// The whole space; a bare space id is accepted and becomes a space with only its id.
    #[serde(default, deserialize_with = "space_or_id")]
    pub space: Option<Space>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub default: Option<bool>,
    #[serde(default)]
    pub condition: Option<String>,
    #[serde(default)]
    pub page_id: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub draft: bool,
    #[serde(default)]
    pub hidden: Option<bool>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

fn space_or_id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Space>, D::Error> {
    match Option::<Value>::deserialize(deserializer)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) => serde_json::from_value(serde_json::json!({ "id": id }))
            .map(Some)
            .map_err(serde::de::Error::custom),
        Some(other) => serde_json::from_value(other)
            .map(Some)
            .map_err(serde::de::Error::custom),
    }
}

/// A site section (`object`='site-section'): a top-level part of a site with its site spaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteSection {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub default: Option<bool>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub draft: bool,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub condition: Option<String>,
    /// The id of the group holding it.
    #[serde(default)]
    pub section_group: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub site_spaces: Vec<SiteSpace>,
    #[serde(default)]
    pub icon: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// A link to an outside address placed in a site's structure (service only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteExternalLink {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub icon: Option<String>,
    #[serde(default)]
    pub section_group: Option<String>,
}

/// A group of sections (`object`='site-section-group'); groups nest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteSectionGroup {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub title: String,
    #[serde(default)]
    pub icon: Option<String>,
    /// The parent group's id; `None` at the site's root.
    #[serde(default)]
    pub section_group: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub draft: bool,
    /// Sections, nested groups and external links, in order.
    #[serde(default, deserialize_with = "null_as_default")]
    pub children: Vec<SiteStructureItem>,
    /// Deprecated on the service (its sections only); kept for older answers.
    #[serde(default, deserialize_with = "null_as_default")]
    pub sections: Vec<SiteSection>,
}

impl SiteSectionGroup {
    /// Ids of the sections directly in this group, from `children`, else from `sections`.
    pub fn section_ids(&self) -> Vec<&str> {
        let from_children: Vec<&str> = self
            .children
            .iter()
            .filter_map(|child| match child {
                SiteStructureItem::Section(section) => Some(section.id.as_str()),
                _ => None,
            })
            .collect();
        if from_children.is_empty() {
            self.sections
                .iter()
                .map(|section| section.id.as_str())
                .collect()
        } else {
            from_children
        }
    }
}

/// One entry of a site structure or of a group's children. Chosen by `object`, or guessed from
/// the fields when `object` is absent; anything else is kept raw in `Other`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SiteStructureItem {
    Section(Box<SiteSection>),
    Group(Box<SiteSectionGroup>),
    Space(Box<SiteSpace>),
    ExternalLink(SiteExternalLink),
    Other(Value),
}

impl SiteStructureItem {
    /// The entry's id, when it has one.
    pub fn id(&self) -> Option<&str> {
        match self {
            SiteStructureItem::Section(section) => Some(&section.id),
            SiteStructureItem::Group(group) => Some(&group.id),
            SiteStructureItem::Space(space) => Some(&space.id),
            SiteStructureItem::ExternalLink(link) => Some(&link.id),
            SiteStructureItem::Other(value) => value.get("id").and_then(Value::as_str),
        }
    }
}

impl<'de> Deserialize<'de> for SiteStructureItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let kind = match value.get("object").and_then(Value::as_str) {
            Some(object) => object.to_owned(),
            None => guess_structure_kind(&value).to_owned(),
        };
        let decoded = match kind.as_str() {
            "site-section" => serde_json::from_value(value).map(Self::Section),
            "site-section-group" => serde_json::from_value(value).map(Self::Group),
            "site-space" => serde_json::from_value(value).map(Self::Space),
            "site-external-link" => serde_json::from_value(value).map(Self::ExternalLink),
            _ => Ok(Self::Other(value)),
        };
        decoded.map_err(serde::de::Error::custom)
    }
}

/// The kind of an untagged structure entry, by its distinguishing fields.
fn guess_structure_kind(value: &Value) -> &'static str {
    if value.get("id").and_then(Value::as_str).is_none() {
        "unknown"
    } else if value.get("children").is_some() {
        "site-section-group"
    } else if value.get("siteSpaces").is_some() {
        "site-section"
    } else if value.get("space").is_some() {
        "site-space"
    } else if value.get("url").is_some() {
        "site-external-link"
    } else {
        "unknown"
    }
}

/// A site's structure: sections (with groups and links) or, for a site without sections, its
/// site spaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteStructure {
    #[serde(default, rename = "type")]
    pub structure_type: Option<SiteStructureType>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub structure: Vec<SiteStructureItem>,
}

/// `GET …/published` (`object`='published-content-site'). Customizations and scripts are
/// ignored: the terminal does not render them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishedSite {
    pub site: Site,
    pub structure: SiteStructure,
}

/// A secret link to a share-link site (`object`='share-link').
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShareLink {
    pub id: String,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// Absent means active on the service.
    #[serde(default)]
    pub active: Option<bool>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// The visitor-attribute schema of adaptive content (`object`='site-adaptive-schema').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdaptiveSchema {
    /// A draft-07 JSON Schema, kept raw for the editor.
    #[serde(default)]
    pub json_schema: Value,
    #[serde(default)]
    pub updated_at: Option<String>,
}

/// A ready-made visibility condition offered by adaptive content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateCondition {
    #[serde(default, deserialize_with = "null_as_default")]
    pub description: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub condition: String,
}

/// The `{items}` answer of the template-conditions list (not paginated).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct TemplateConditionList {
    #[serde(default, deserialize_with = "null_as_default")]
    pub items: Vec<TemplateCondition>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL_SITE: &str = r#"{"object":"site","id":"site_1","type":"premium",
        "appliedType":"ultimate","title":"Acme Docs","icon":{"icon":{"light":"l","dark":"d"}},
        "hostname":"docs.acme.example.com","basename":"docs",
        "proxy":{"origin":"acme.com/docs","target":"https://x"},"visibility":"share-link",
        "defaultLevel":"read","permissions":{"view":true,"edit":true,"admin":false,
        "viewAdaptiveSchema":true},"published":true,"siteSpaces":2,
        "createdAt":"2024-01-01T00:00:00Z","lastScanAt":"2024-02-01T00:00:00Z",
        "adaptiveContent":{"enabled":true},"ads":{"status":"pending","submittable":true},
        "features":[{"id":"sites-ai-search","plan":"premium","frozen":false,
                     "customizations":["theme-preset"]},{"id":"sites-teleport","plan":"mega","frozen":true}],
        "urls":{"location":"https://api/site_1","app":"https://app/site_1",
                "published":"https://docs.acme.example.com","preview":"https://preview/site_1",
                "login":"https://login"}}"#;

    #[test]
    fn decodes_a_real_service_site_without_agents_context() {
        let site: Site = serde_json::from_str(REAL_SITE).unwrap();
        assert_eq!(site.site_type, Some(SiteType::Premium));
        assert_eq!(site.applied_type, Some(SiteType::Ultimate));
        assert_eq!(site.visibility, Some(SiteVisibility::ShareLink));
        assert_eq!(site.agents_context, None);
        assert!(site.published);
        assert_eq!(site.site_spaces, Some(2));
        assert_eq!(
            site.proxy,
            Some(SiteProxy {
                origin: "acme.com/docs".into(),
                target: Some("https://x".into())
            })
        );
        assert_eq!(
            site.adaptive_content,
            Some(AdaptiveContent { enabled: true })
        );
        assert_eq!(site.default_level, Some(DefaultLevel::Read));
        assert_eq!(site.features.len(), 2);
        assert_eq!(site.features[1].plan, Some(SiteType::Other("mega".into())));
        assert_eq!(site.urls.preview.as_deref(), Some("https://preview/site_1"));
        let permissions = site.permissions.unwrap();
        assert!(permissions.edit && permissions.view_adaptive_schema && !permissions.admin);
    }

    #[test]
    fn decodes_a_seed_site_with_agents_context_and_string_proxy() {
        let json = r#"{"object":"site","id":"s2","type":"basic","title":"Lumen",
            "visibility":"public","published":false,"siteSpaces":1,"createdAt":"2024-01-01T00:00:00Z",
            "agentsContext":"included","proxy":"lumen.dev/docs","features":[],
            "urls":{"location":"l","app":"a"}}"#;
        let site: Site = serde_json::from_str(json).unwrap();
        assert_eq!(site.agents_context, Some(AgentsContext::Included));
        assert_eq!(
            site.proxy.map(|proxy| proxy.origin).as_deref(),
            Some("lumen.dev/docs")
        );
        assert_eq!(site.permissions, None);
        assert_eq!(site.applied_type, None);
        let minimal: Site =
            serde_json::from_str(r#"{"id":"s3","agentsContext":"sometimes","proxy":null}"#)
                .unwrap();
        assert_eq!(
            minimal.agents_context,
            Some(AgentsContext::Other("sometimes".into()))
        );
        assert_eq!(minimal.proxy, None);
        assert!(!minimal.published);
    }

    #[test]
    fn decodes_nested_section_groups() {
        let json = r#"{"object":"site-section-group","id":"g1","title":"Products","icon":"box",
            "draft":false,"sections":[{"id":"sec1","title":"API","siteSpaces":[]}],
            "children":[
                {"object":"site-section","id":"sec1","title":"API","path":"api","draft":false,
                 "siteSpaces":[{"object":"site-space","id":"ss1","path":"v1","title":"v1",
                    "space":{"id":"spc1","title":"API v1"},"draft":false,"urls":{}}],"urls":{}},
                {"object":"site-section-group","id":"g2","title":"Inner","sectionGroup":"g1",
                 "children":[{"id":"sec2","title":"Deep","siteSpaces":[]}]},
                {"object":"site-external-link","id":"l1","title":"Status","url":"https://status"},
                {"object":"site-wormhole","id":"w1"}
            ]}"#;
        let group: SiteSectionGroup = serde_json::from_str(json).unwrap();
        assert_eq!(group.children.len(), 4);
        assert_eq!(group.section_ids(), vec!["sec1"]);
        match &group.children[0] {
            SiteStructureItem::Section(section) => {
                let space = section.site_spaces[0].space.as_ref().unwrap();
                assert_eq!(space.title, "API v1");
            }
            other => panic!("expected a section, got {other:?}"),
        }
        match &group.children[1] {
            SiteStructureItem::Group(inner) => {
                assert_eq!(inner.section_group.as_deref(), Some("g1"));
                assert!(matches!(inner.children[0], SiteStructureItem::Section(_)));
            }
            other => panic!("expected a group, got {other:?}"),
        }
        assert!(matches!(
            group.children[2],
            SiteStructureItem::ExternalLink(_)
        ));
        assert_eq!(group.children[3].id(), Some("w1"));
        assert!(matches!(group.children[3], SiteStructureItem::Other(_)));
    }

    #[test]
    fn seed_group_with_only_sections_lists_them() {
        let group: SiteSectionGroup =
            serde_json::from_str(r#"{"id":"g1","title":"G","sections":[{"id":"a","title":"A"}]}"#)
                .unwrap();
        assert_eq!(group.section_ids(), vec!["a"]);
    }

    #[test]
    fn decodes_published_sites_of_both_structure_types() {
        let sections = format!(
            r#"{{"object":"published-content-site","site":{REAL_SITE},
                "structure":{{"type":"sections","structure":[
                    {{"object":"site-section","id":"sec1","title":"Guides","siteSpaces":[]}}]}},
                "customizations":{{"site":{{}},"siteSpaces":{{}}}},"scripts":[]}}"#
        );
        let published: PublishedSite = serde_json::from_str(&sections).unwrap();
        assert_eq!(
            published.structure.structure_type,
            Some(SiteStructureType::Sections)
        );
        assert_eq!(published.structure.structure[0].id(), Some("sec1"));
        let spaces = r#"{"site":{"id":"s2"},"structure":{"type":"siteSpaces","structure":[
            {"id":"ss1","path":"","title":"Main","space":"spc1"}]}}"#;
        let published: PublishedSite = serde_json::from_str(spaces).unwrap();
        match &published.structure.structure[0] {
            SiteStructureItem::Space(site_space) => assert_eq!(
                site_space.space.as_ref().map(|space| space.id.as_str()),
                Some("spc1")
            ),
            other => panic!("expected a site space, got {other:?}"),
        }
    }

    #[test]
    fn decodes_share_links_schema_and_conditions() {
        let link: ShareLink = serde_json::from_str(
            r#"{"object":"share-link","id":"sl1","createdAt":"2024-01-01T00:00:00Z",
                "name":"Partners","active":false,"urls":{"published":"https://x?share=k"}}"#,
        )
        .unwrap();
        assert_eq!(link.active, Some(false));
        assert_eq!(link.urls.published.as_deref(), Some("https://x?share=k"));
        let schema: AdaptiveSchema = serde_json::from_str(
            r#"{"object":"site-adaptive-schema","jsonSchema":{"type":"object","properties":{}},
                "updatedAt":"2024-01-01T00:00:00Z"}"#,
        )
        .unwrap();
        assert_eq!(schema.json_schema["type"], "object");
        let list: TemplateConditionList = serde_json::from_str(
            r#"{"items":[{"description":"Beta users","condition":"visitor.claims.beta"}]}"#,
        )
        .unwrap();
        assert_eq!(list.items[0].condition, "visitor.claims.beta");
    }
}

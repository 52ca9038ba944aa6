//! Sites as the contract's JSON (with the real service's required extras such as
//! `appliedType`, `permissions`, `draft` and `urls.preview`).

use serde_json::{Value, json};

use super::model::{Item, Section, SectionGroup, ShareLink, Site, SiteSpace};
use crate::model::Role;
use crate::render::{APP_URL, View};

/// Features by the plan that brings them; a site has every feature up to its own plan.
const BASIC_FEATURES: [&str; 6] = [
    "sites-basic-customization",
    "sites-public-visibility",
    "sites-unlisted-visibility",
    "sites-full-text-search",
    "sites-page-feedback",
    "sites-pdf-export",
];
const PREMIUM_FEATURES: [&str; 7] = [
    "sites-custom-domain",
    "sites-sections",
    "sites-share-links",
    "sites-ai-search",
    "sites-advanced-customization",
    "sites-custom-subdirectory",
    "sites-redirects",
];
const ULTIMATE_FEATURES: [&str; 4] = [
    "sites-visitor-authentication",
    "sites-adaptive-content",
    "sites-ai-assistant",
    "sites-multivariant-site",
];

/// The caller's role in the site's organization; non-members count as readers.
fn role(view: &View, site: &Site) -> Role {
    view.world
        .role_in(&site.organization, view.caller)
        .unwrap_or(Role::Read)
}

fn organization_host(view: &View, site: &Site) -> String {
    view.world
        .organization(&site.organization)
        .map(|organization| organization.hostname.clone())
        .unwrap_or_else(|| site.organization.clone())
}

/// Where the site lives without a proxy: its custom domain, or the organization's docs host
/// plus the basename.
fn origin_url(view: &View, site: &Site) -> String {
    match &site.hostname {
        Some(hostname) => format!("https://{hostname}"),
        None => format!(
            "https://{}.docs.example/{}",
            organization_host(view, site),
            site.basename.as_deref().unwrap_or(&site.id)
        ),
    }
}

/// The address visitors use: through the proxy when there is one.
pub(crate) fn published_url(view: &View, site: &Site) -> String {
    match &site.proxy {
        Some(origin) => format!("https://{origin}"),
        None => origin_url(view, site),
    }
}

fn features(site: &Site) -> Vec<Value> {
    let with_plan = |plan: &'static str, keys: &'static [&'static str]| {
        keys.iter().map(move |key| (plan, *key))
    };
    let mut features: Vec<(&str, &str)> = with_plan("basic", &BASIC_FEATURES).collect();
    if matches!(
        site.site_type.as_str(),
        "premium" | "ultimate" | "legacy-premium"
    ) {
        features.extend(with_plan("premium", &PREMIUM_FEATURES));
    }
    if site.site_type == "ultimate" {
        features.extend(with_plan("ultimate", &ULTIMATE_FEATURES));
    }
    if site.site_type == "sponsored" {
        features.push(("sponsored", "sites-ads"));
    }
    features
        .into_iter()
        .map(|(plan, id)| json!({ "id": id, "plan": plan, "frozen": false, "customizations": [] }))
        .collect()
}

pub(super) fn site(view: &View, site: &Site) -> Value {
    let role = role(view, site);
    let admin = role == Role::Admin;
    let app = format!("{APP_URL}/o/{}/sites/{}/", site.organization, site.id);
    let mut urls = json!({
        "location": format!("{}/orgs/{}/sites/{}", view.api_url, site.organization, site.id),
        "app": app,
        "preview": format!("{app}preview/"),
    });
    if site.published {
        urls["published"] = json!(published_url(view, site));
    }
    let mut object = json!({
        "object": "site",
        "id": site.id,
        "type": site.site_type,
        "appliedType": site.site_type,
        "title": site.title,
        "visibility": site.visibility,
        "published": site.published,
        "siteSpaces": site.site_spaces.len(),
        "createdAt": site.created_at,
        "adaptiveContent": { "enabled": site.adaptive_content },
        "agentsContext": site.agents_context,
        "defaultLevel": site.default_level,
        "features": features(site),
        "urls": urls,
        "permissions": {
            "view": true,
            "access": true,
            "edit": admin,
            "create": role >= Role::Create,
            "admin": admin,
            "installIntegration": admin,
            "viewAdaptiveSchema": true,
            "editAdaptiveSchema": admin,
        },
    });
    insert_optional(&mut object, "hostname", site.hostname.as_deref());
    insert_optional(&mut object, "basename", site.basename.as_deref());
    if let Some(origin) = &site.proxy {
        object["proxy"] = json!({ "origin": origin, "target": origin_url(view, site) });
    }
    object
}

fn section_url(view: &View, site: &Site, section: &Section) -> String {
    let base = published_url(view, site);
    if section.default {
        base
    } else {
        format!("{base}/{}", section.path)
    }
}

pub(super) fn site_space(view: &View, site: &Site, site_space: &SiteSpace) -> Value {
    let container = match site_space
        .section
        .as_deref()
        .and_then(|id| site.section(id))
    {
        Some(section) => section_url(view, site, section),
        None => published_url(view, site),
    };
    let mut urls = json!({});
    if site.published {
        urls["published"] = json!(if site_space.default {
            container
        } else {
            format!("{container}/{}", site_space.path)
        });
    }
    let space = match view.world.space(&site_space.space) {
        Some(space) => view.space(space),
        None => json!({ "object": "space", "id": site_space.space }),
    };
    let mut object = json!({
        "object": "site-space",
        "id": site_space.id,
        "path": site_space.path,
        "space": space,
        "title": site_space.title,
        "default": site_space.default,
        "draft": false,
        "hidden": false,
        "urls": urls,
    });
    insert_optional(&mut object, "section", site_space.section.as_deref());
    insert_optional(&mut object, "condition", site_space.condition.as_deref());
    object
}

pub(super) fn section(view: &View, site: &Site, section: &Section) -> Value {
    let site_spaces: Vec<Value> = site
        .spaces_in(Some(&section.id))
        .map(|found| site_space(view, site, found))
        .collect();
    let mut urls = json!({});
    if site.published {
        urls["published"] = json!(section_url(view, site, section));
    }
    let mut object = json!({
        "object": "site-section",
        "id": section.id,
        "title": section.title,
        "default": section.default,
        "draft": false,
        "path": section.path,
        "siteSpaces": site_spaces,
        "urls": urls,
    });
    insert_optional(&mut object, "description", section.description.as_deref());
    insert_optional(&mut object, "condition", section.condition.as_deref());
    insert_optional(&mut object, "sectionGroup", section.group.as_deref());
    insert_optional(&mut object, "icon", section.icon.as_deref());
    object
}

/// A group with its children, nested groups included, in structure order.
pub(super) fn group(view: &View, site: &Site, group: &SectionGroup) -> Value {
    let level = site.level(Some(&group.id));
    let sections: Vec<Value> = level
        .iter()
        .filter_map(|item| match item {
            Item::Section(found) => Some(section(view, site, found)),
            Item::Group(_) => None,
        })
        .collect();
    let mut object = json!({
        "object": "site-section-group",
        "id": group.id,
        "title": group.title,
        "draft": group.draft,
        "children": items(view, site, &level),
        "sections": sections,
    });
    insert_optional(&mut object, "icon", group.icon.as_deref());
    insert_optional(&mut object, "sectionGroup", group.parent.as_deref());
    object
}

fn items(view: &View, site: &Site, level: &[Item<'_>]) -> Vec<Value> {
    level
        .iter()
        .map(|item| match item {
            Item::Section(found) => section(view, site, found),
            Item::Group(found) => group(view, site, found),
        })
        .collect()
}

/// `{type: "sections", structure}` for a site with sections, else `{type: "siteSpaces", …}`.
pub(super) fn structure(view: &View, site: &Site) -> Value {
    if site.sections.is_empty() {
        let site_spaces: Vec<Value> = site
            .spaces_in(None)
            .map(|found| site_space(view, site, found))
            .collect();
        json!({ "type": "siteSpaces", "structure": site_spaces })
    } else {
        json!({ "type": "sections", "structure": items(view, site, &site.level(None)) })
    }
}

pub(super) fn published(view: &View, found: &Site) -> Value {
    json!({
        "object": "published-content-site",
        "site": site(view, found),
        "structure": structure(view, found),
        "customizations": { "site": {}, "siteSpaces": {} },
        "scripts": [],
    })
}

pub(super) fn share_link(view: &View, site: &Site, link: &ShareLink) -> Value {
    json!({
        "object": "share-link",
        "id": link.id,
        "createdAt": link.created_at,
        "name": link.name,
        "active": link.active,
        "urls": {
            "published": format!("{}?shareKey={}", published_url(view, site), link.token),
        },
    })
}

pub(super) fn adaptive_schema(json_schema: &Value, updated_at: &str) -> Value {
    json!({
        "object": "site-adaptive-schema",
        "jsonSchema": json_schema,
        "updatedAt": updated_at,
    })
}

/// One ready-made condition per boolean visitor attribute, signed ones first, in the order of
/// the schema (serde_json keeps keys sorted, so the order is alphabetical).
pub(super) fn template_conditions(json_schema: Option<&Value>) -> Value {
    let mut conditions = Vec::new();
    let properties = json_schema
        .and_then(|schema| schema.get("properties"))
        .and_then(Value::as_object);
    for (name, property) in properties.into_iter().flatten().filter(is_boolean) {
        conditions.push(condition(property, name, &format!("visitor.claims.{name}")));
    }
    let unsigned = properties
        .and_then(|properties| properties.get("unsigned"))
        .and_then(|unsigned| unsigned.get("properties"))
        .and_then(Value::as_object);
    for (name, property) in unsigned.into_iter().flatten().filter(is_boolean) {
        conditions.push(condition(
            property,
            name,
            &format!("visitor.claims.unsigned.{name}"),
        ));
    }
    json!({ "items": conditions })
}

/// Only a boolean claim can be tested with `=== true` (the `unsigned` group is an object).
fn is_boolean((_, property): &(&String, &Value)) -> bool {
    property.get("type").and_then(Value::as_str) == Some("boolean")
}

fn condition(property: &Value, name: &str, claim: &str) -> Value {
    let description = property
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| format!("Visitor's \"{name}\" claim is true"));
    json!({ "description": description, "condition": format!("{claim} === true") })
}

fn insert_optional(object: &mut Value, key: &str, value: Option<&str>) {
    if let (Some(value), Some(map)) = (value, object.as_object_mut()) {
        map.insert(key.to_string(), Value::from(value));
    }
}

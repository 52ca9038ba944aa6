//! Integrations endpoints: the catalogue, one integration, and publishing one.
//! [`PublishManifest::from_json`] checks a manifest against the seed's fields before anything
//! is sent, and [`PublishManifest::shown`] is what may be shown of it: secrets masked.

use serde_json::{Map, Value};

use super::address::encode_segment;
use super::client::Client;
use super::conversations::{FieldProblem, Problems, is_web_address};
use super::error::ApiError;
use super::models::Integration;
use super::paging::ListPage;

/// `IntegrationCategory`.
pub const CATEGORIES: [&str; 6] = [
    "analytics",
    "collaboration",
    "content",
    "marketing",
    "visitor-auth",
    "other",
];
/// `IntegrationTarget`.
pub const TARGETS: [&str; 4] = ["all", "site", "space", "organization"];
/// `IntegrationVisibility`.
pub const VISIBILITIES: [&str; 3] = ["public", "private", "unlisted"];
/// `IntegrationScope`: the values the service lists.
pub const SCOPES: [&str; 17] = [
    "space:content:read",
    "space:content:write",
    "space:metadata:read",
    "space:metadata:write",
    "space:git:sync",
    "page:feedback:read",
    "site:metadata:read",
    "site:views:read",
    "site:script:inject",
    "site:script:cookies",
    "site:visitor:auth",
    "site:visitor:claims",
    "site:adaptive:read",
    "site:adaptive:write",
    "conversations:ingest",
    "openapi:read",
    "openapi:write",
];
/// Longest integration name.
pub const MAX_NAME: usize = 100;

/// Whether `name` may name an integration: `^[a-zA-Z0-9-_.]+$`, at most 100 characters.
pub fn is_integration_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The catalogue's filters; `None` leaves one out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IntegrationFilter {
    /// Name search.
    pub search: Option<String>,
    pub category: Option<String>,
    pub scope: Option<String>,
    pub target: Option<String>,
    pub blocks: Option<bool>,
    pub content_sources: Option<bool>,
    /// The owning organization's id.
    pub owner: Option<String>,
    /// Only those with a block that unfurls links of this domain (`blockDomain`).
    pub block_domain: Option<String>,
}

impl IntegrationFilter {
    fn query(&self) -> Vec<(&'static str, String)> {
        let text = [
            ("search", &self.search),
            ("category", &self.category),
            ("scope", &self.scope),
            ("target", &self.target),
            ("owner", &self.owner),
            ("blockDomain", &self.block_domain),
        ];
        let flags = [
            ("blocks", self.blocks),
            ("contentSources", self.content_sources),
        ];
        text.into_iter()
            .filter_map(|(name, value)| Some((name, value.clone()?)))
            .chain(
                flags
                    .into_iter()
                    .filter_map(|(name, value)| Some((name, value?.to_string()))),
            )
            .collect()
    }

    /// How many filters apart from the search are set, for the screen's title.
    pub fn count(&self) -> usize {
        [
            &self.category,
            &self.scope,
            &self.target,
            &self.owner,
            &self.block_domain,
        ]
        .iter()
        .filter(|value| value.is_some())
        .count()
            + [self.blocks, self.content_sources]
                .iter()
                .filter(|value| value.is_some())
                .count()
    }
}

impl Client {
    /// `GET /integrations`: one page of the catalogue.
    pub async fn list_integrations(
        &self,
        filter: &IntegrationFilter,
        page: Option<&str>,
    ) -> Result<ListPage<Integration>, ApiError> {
        let query = filter.query();
        let query: Vec<(&str, &str)> = query
            .iter()
            .map(|(name, value)| (*name, value.as_str()))
            .collect();
        self.get_list_page("/integrations", &query, page).await
    }

    /// `GET /integrations/{name}`.
    pub async fn get_integration(&self, name: &str) -> Result<Integration, ApiError> {
        self.get(&format!("/integrations/{}", encode_segment(name)), &[])
            .await
    }

    /// `POST /integrations/{name}`: publishes the manifest; answers the published integration.
    pub async fn publish_integration(
        &self,
        manifest: &PublishManifest,
    ) -> Result<Integration, ApiError> {
        let path = format!("/integrations/{}", encode_segment(&manifest.name));
        self.post(&path, &manifest.body).await
    }
}

/// A checked manifest: the integration's name and the body to send. `Debug` masks secrets.
#[derive(Clone, PartialEq)]
pub struct PublishManifest {
    pub name: String,
    pub body: Map<String, Value>,
}

impl std::fmt::Debug for PublishManifest {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("PublishManifest")
            .field("name", &self.name)
            .field("body", &self.shown())
            .finish()
    }
}

/// The body fields a publish takes.
const BODY_FIELDS: [&str; 18] = [
    "runtime",
    "icon",
    "title",
    "description",
    "summary",
    "previewImages",
    "visibility",
    "target",
    "scopes",
    "categories",
    "blocks",
    "contentSources",
    "externalLinks",
    "configurations",
    "script",
    "organization",
    "secrets",
    "contentSecurityPolicy",
];

impl PublishManifest {
    /// Reads and checks a manifest: `name` plus the publish body's fields. Every problem is
    /// returned, each naming its field.
    pub fn from_json(text: &str) -> Result<PublishManifest, Vec<FieldProblem>> {
        let file_problem = |problem: String| {
            vec![FieldProblem {
                field: "(file)".into(),
                problem,
            }]
        };
        let value: Value = serde_json::from_str(text)
            .map_err(|error| file_problem(format!("not valid JSON: {error}")))?;
        let Value::Object(mut object) = value else {
            return Err(file_problem("must be a JSON object".into()));
        };
        let mut problems = Problems::default();
        let name = problems.text(&object, "name", "", true);
        if let Some(name) = &name
            && !is_integration_name(name)
        {
            problems.add(
                "name",
                "only letters, digits, '-', '_' and '.' (at most 100 characters)",
            );
        }
        object.remove("name");
        let mut known = BODY_FIELDS.to_vec();
        known.push("name");
        problems.unknown_fields(&object, &known, "");
        check_body(&object, &mut problems);
        match (name, problems.0.is_empty()) {
            (Some(name), true) => Ok(PublishManifest { name, body: object }),
            _ => Err(problems.0),
        }
    }

    /// The body as it may be shown: each secret's value replaced by `••••`, and base64 images
    /// and the script summarised by their size.
    pub fn shown(&self) -> Value {
        let mut body = self.body.clone();
        if let Some(Value::Object(secrets)) = body.get_mut("secrets") {
            for value in secrets.values_mut() {
                *value = Value::String("••••".into());
            }
        }
        if let Some(Value::String(script)) = body.get("script") {
            let summary = format!("({} characters of script)", script.chars().count());
            body.insert("script".into(), Value::String(summary));
        }
        if let Some(Value::String(icon)) = body.get("icon") {
            let summary = format!("({} characters of base64)", icon.len());
            body.insert("icon".into(), Value::String(summary));
        }
        if let Some(Value::Array(images)) = body.get("previewImages") {
            let summary = format!("({} images)", images.len());
            body.insert("previewImages".into(), Value::String(summary));
        }
        Value::Object(body)
    }
}

fn check_body(body: &Map<String, Value>, problems: &mut Problems) {
    let title = problems.text(body, "title", "", true);
    if let Some(title) = &title
        && !(2..=30).contains(&title.chars().count())
    {
        problems.add("title", "2 to 30 characters");
    }
    if body.get("description").is_none() {
        problems.add(
            "description",
            "required: a string of at most 100 characters",
        );
    } else if let Some(description) = problems.text(body, "description", "", false)
        && description.chars().count() > 100
    {
        problems.add("description", "at most 100 characters");
    }
    if let Some(summary) = problems.text(body, "summary", "", false)
        && summary.chars().count() > 2048
    {
        problems.add("summary", "at most 2048 characters");
    }
    problems.text(body, "script", "", true);
    problems.text(body, "organization", "", true);
    problems.text(body, "icon", "", false);
    choice(body, "runtime", &["v1", "v2"], problems);
    choice(body, "visibility", &VISIBILITIES, problems);
    choice(body, "target", &TARGETS, problems);
    match body.get("scopes") {
        None => problems.add("scopes", "required: a list of scopes (may be empty)"),
        Some(value) => string_list(value, "scopes", Some(&SCOPES), problems),
    }
    if let Some(value) = body.get("categories") {
        string_list(value, "categories", Some(&CATEGORIES), problems);
    }
    if let Some(value) = body.get("previewImages") {
        string_list(value, "previewImages", None, problems);
        if value.as_array().is_some_and(|images| images.len() > 3) {
            problems.add("previewImages", "at most 3 images");
        }
    }
    check_objects(body, "blocks", &["id", "title"], problems);
    check_objects(body, "contentSources", &["id", "title"], problems);
    check_external_links(body, problems);
    check_configurations(body, problems);
    match body.get("secrets") {
        None => {}
        Some(Value::Object(secrets)) => {
            for (name, value) in secrets {
                if !value.is_string() {
                    // The value is never echoed: it is a secret even when mistyped.
                    problems.add(format!("secrets.{name}"), "must be a string");
                }
            }
        }
        Some(_) => problems.add("secrets", "must be an object of name → string"),
    }
}

fn choice(body: &Map<String, Value>, field: &str, allowed: &[&str], problems: &mut Problems) {
    match body.get(field) {
        None => {}
        Some(Value::String(value)) if allowed.contains(&value.as_str()) => {}
        Some(_) => problems.add(field, format!("one of {}", allowed.join(", "))),
    }
}

fn string_list(value: &Value, field: &str, allowed: Option<&[&str]>, problems: &mut Problems) {
    let Some(items) = value.as_array() else {
        problems.add(field, "must be a list of strings");
        return;
    };
    for (index, item) in items.iter().enumerate() {
        match (item.as_str(), allowed) {
            (None, _) => problems.add(format!("{field}[{index}]"), "must be a string"),
            (Some(text), Some(allowed)) if !allowed.contains(&text) => problems.add(
                format!("{field}[{index}]"),
                format!("unknown value (expected one of {})", allowed.join(", ")),
            ),
            _ => {}
        }
    }
}

/// A list of objects each with the `required` string fields.
fn check_objects(
    body: &Map<String, Value>,
    field: &str,
    required: &[&str],
    problems: &mut Problems,
) {
    let Some(value) = body.get(field) else {
        return;
    };
    let Some(items) = value.as_array() else {
        problems.add(field, "must be a list of objects");
        return;
    };
    for (index, item) in items.iter().enumerate() {
        let Some(item) = item.as_object() else {
            problems.add(format!("{field}[{index}]"), "must be an object");
            continue;
        };
        for name in required {
            problems.text(item, name, &format!("{field}[{index}]."), true);
        }
    }
}

fn check_external_links(body: &Map<String, Value>, problems: &mut Problems) {
    check_objects(body, "externalLinks", &["url", "label"], problems);
    let Some(links) = body.get("externalLinks").and_then(Value::as_array) else {
        return;
    };
    if links.len() > 5 {
        problems.add("externalLinks", "at most 5 links");
    }
    for (index, link) in links.iter().enumerate() {
        if let Some(url) = link.get("url").and_then(Value::as_str)
            && !(is_web_address(url) && url.len() <= 2048)
        {
            problems.add(
                format!("externalLinks[{index}].url"),
                "must be an http(s) address of at most 2048 characters",
            );
        }
    }
}

fn check_configurations(body: &Map<String, Value>, problems: &mut Problems) {
    let Some(value) = body.get("configurations") else {
        return;
    };
    let Some(levels) = value.as_object() else {
        problems.add("configurations", "must be an object (account, space, site)");
        return;
    };
    for (level, schema) in levels {
        let field = format!("configurations.{level}");
        if !["account", "space", "site"].contains(&level.as_str()) {
            problems.add(field, "unknown level (expected account, space or site)");
            continue;
        }
        match schema.get("properties") {
            Some(Value::Object(_)) => {}
            _ => problems.add(format!("{field}.properties"), "required: an object"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"name":"acme-status","title":"Acme status","description":"Shows status",
        "scopes":["space:content:read"],"script":"export default {}","organization":"org-acme",
        "secrets":{"API_KEY":"sk-live-123"},"categories":["content"],"target":"space"}"#;

    #[test]
    fn a_good_manifest_is_read_and_shown_without_its_secrets() {
        let manifest = PublishManifest::from_json(GOOD).unwrap();
        assert_eq!(manifest.name, "acme-status");
        assert!(!manifest.body.contains_key("name"));
        let shown = manifest.shown().to_string();
        assert!(!shown.contains("sk-live-123"), "{shown}");
        assert!(!format!("{manifest:?}").contains("sk-live-123"));
        assert_eq!(manifest.body["secrets"]["API_KEY"], "sk-live-123");
    }

    #[test]
    fn bad_fields_are_named() {
        let problems = PublishManifest::from_json(
            r#"{"name":"bad name!","title":"A","scopes":["moon:walk"],"target":"mars",
            "externalLinks":[{"url":"nope","label":"x"}],"secrets":{"K":5},"colour":"red"}"#,
        )
        .unwrap_err();
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        for expected in [
            "name",
            "title",
            "description",
            "script",
            "organization",
            "scopes[0]",
            "target",
            "externalLinks[0].url",
            "secrets.K",
            "colour",
        ] {
            assert!(fields.contains(&expected), "{expected} in {fields:?}");
        }
    }

    #[test]
    fn names_follow_the_pattern() {
        assert!(is_integration_name("a-b_c.d9"));
        assert!(!is_integration_name(""));
        assert!(!is_integration_name("a/b"));
        assert!(!is_integration_name(&"a".repeat(101)));
    }
}

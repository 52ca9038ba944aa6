//! A dozen demo integrations across the categories, some verified, some with blocks, content
//! sources and configuration schemas, owned by the two demo organizations.

use serde_json::{Value, json};

use super::StoredIntegration;
use crate::demo::ids;
use crate::world::World;

/// (name, title, category, target, verified, owner, description, scopes)
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    bool,
    &'static str,
    &'static str,
    &'static [&'static str],
);

const ROWS: [Row; 12] = [
    (
        "slack",
        "Slack",
        "collaboration",
        "space",
        true,
        ids::ACME,
        "Notify channels about changes and unfurl links.",
        &["space:content:read", "space:metadata:read"],
    ),
    (
        "github-sync",
        "GitHub Sync",
        "content",
        "space",
        true,
        ids::ACME,
        "Keep a space in sync with a GitHub repository.",
        &[
            "space:content:read",
            "space:content:write",
            "space:git:sync",
        ],
    ),
    (
        "google-analytics",
        "Google Analytics",
        "analytics",
        "site",
        true,
        ids::LUMEN,
        "Page views of your published sites.",
        &[
            "site:metadata:read",
            "site:views:read",
            "site:script:inject",
        ],
    ),
    (
        "plausible",
        "Plausible",
        "analytics",
        "site",
        false,
        ids::LUMEN,
        "Privacy-friendly analytics for sites.",
        &["site:script:inject"],
    ),
    (
        "hubspot",
        "HubSpot",
        "marketing",
        "site",
        false,
        ids::ACME,
        "Forms and chat from HubSpot on your site.",
        &["site:script:inject", "site:script:cookies"],
    ),
    (
        "mailchimp",
        "Mailchimp",
        "marketing",
        "site",
        false,
        ids::LUMEN,
        "Newsletter sign-up blocks.",
        &["site:metadata:read"],
    ),
    (
        "auth0",
        "Auth0",
        "visitor-auth",
        "site",
        true,
        ids::ACME,
        "Sign visitors in with Auth0 before they read.",
        &["site:visitor:auth", "site:visitor:claims"],
    ),
    (
        "okta-visitors",
        "Okta visitors",
        "visitor-auth",
        "site",
        false,
        ids::ACME,
        "Visitor authentication through Okta.",
        &["site:visitor:auth"],
    ),
    (
        "openapi-importer",
        "OpenAPI importer",
        "content",
        "organization",
        true,
        ids::ACME,
        "Import OpenAPI specs into reference pages.",
        &["openapi:read", "openapi:write", "space:content:write"],
    ),
    (
        "intercom",
        "Intercom",
        "other",
        "organization",
        false,
        ids::ACME,
        "Send support conversations to documentation agents.",
        &["conversations:ingest"],
    ),
    (
        "figma",
        "Figma",
        "collaboration",
        "all",
        true,
        ids::LUMEN,
        "Embed Figma frames that stay up to date.",
        &["space:content:read"],
    ),
    (
        "feedback-digest",
        "Feedback digest",
        "other",
        "space",
        false,
        ids::LUMEN,
        "A weekly digest of page feedback.",
        &["page:feedback:read"],
    ),
];

pub fn populate(world: &mut World) {
    world.integrations.items = ROWS.iter().map(integration).collect();
}

fn integration(row: &Row) -> StoredIntegration {
    let (name, title, category, target, verified, owner, description, scopes) = *row;
    let mut fields = json!({
        "title": title,
        "description": description,
        "summary": format!(
            "### Setup\n\n- Installs on: **{target}**\n- Category: *{category}*\n\nSee the [documentation](https://integrations.example/{name}) for the setup steps."
        ),
        "target": target,
        "visibility": "public",
        "scopes": scopes,
        "categories": [category],
        "externalLinks": [
            {"url": format!("https://integrations.example/{name}"), "label": "Documentation"},
            {"url": format!("https://integrations.example/{name}/support"), "label": "Support"},
        ],
    });
    if let Some(object) = fields.as_object_mut() {
        for (field, value) in extras(name) {
            object.insert(field.to_string(), value);
        }
    }
    StoredIntegration {
        name: name.to_string(),
        owner: owner.to_string(),
        version: 1 + (name.len() % 4) as u32,
        verified,
        fields: fields.as_object().cloned().unwrap_or_default(),
        secret_names: Vec::new(),
    }
}

/// Blocks, content sources and configurations of the integrations that have them.
fn extras(name: &str) -> Vec<(&'static str, Value)> {
    match name {
        "slack" => vec![
            (
                "blocks",
                json!([{"id": "message", "title": "Slack message", "description": "Embed a Slack message",
                    "icon": "slack", "urlUnfurl": ["https://slack.com/archives/"]}]),
            ),
            (
                "configurations",
                json!({"space": {"properties": {
                    "channel": {"title": "Channel", "description": "Where notifications go", "type": "string"},
                    "notify": {"title": "Notify on", "type": "string", "enum": ["merge", "comment", "both"], "default": "merge"}
                }, "required": ["channel"]}}),
            ),
        ],
        "github-sync" => vec![
            (
                "contentSources",
                json!([{"id": "repository", "title": "GitHub repository", "description": "Markdown files of a branch"}]),
            ),
            (
                "configurations",
                json!({"account": {"properties": {
                    "installation": {"title": "GitHub installation", "type": "string"}
                }, "required": ["installation"]},
                "space": {"properties": {
                    "branch": {"title": "Branch", "type": "string", "default": "main"},
                    "directory": {"title": "Project directory", "type": "string"}
                }, "required": ["branch"]}}),
            ),
        ],
        "figma" => vec![(
            "blocks",
            json!([{"id": "frame", "title": "Figma frame", "description": "A live frame",
                "urlUnfurl": ["https://www.figma.com/file/"]}]),
        )],
        "openapi-importer" => vec![(
            "contentSources",
            json!([{"id": "spec", "title": "OpenAPI spec", "description": "Pages from a spec"}]),
        )],
        "google-analytics" => vec![(
            "configurations",
            json!({"site": {"properties": {
                "tracking_id": {"title": "Measurement ID", "description": "G-XXXXXXX", "type": "string"}
            }, "required": ["tracking_id"]}}),
        )],
        _ => Vec::new(),
    }
}

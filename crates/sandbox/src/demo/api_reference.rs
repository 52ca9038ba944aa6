//! The generated "Fleet API Reference": an overview section plus twelve resources with 25
//! endpoint pages each (300+ pages), so that big trees, lazy rendering and search are
//! exercised with believable content.

use super::{document, group};
use crate::model::{File, Page};

/// One API resource: path segment, singular name, emoji and example fields.
struct Resource {
    plural: &'static str,
    singular: &'static str,
    emoji: &'static str,
    summary: &'static str,
    /// (field, example JSON value)
    fields: &'static [(&'static str, &'static str)],
}

const RESOURCES: &[Resource] = &[
    Resource {
        plural: "robots",
        singular: "robot",
        emoji: "🤖",
        summary: "A physical or simulated robot registered to a site.",
        fields: &[
            ("serial", "\"AMR-2291-X\""),
            ("model", "\"carrier-300\""),
            ("battery", "0.82"),
        ],
    },
    Resource {
        plural: "fleets",
        singular: "fleet",
        emoji: "🚚",
        summary: "A named group of robots that share missions and firmware.",
        fields: &[("name", "\"Berlin night shift\""), ("robots", "24")],
    },
    Resource {
        plural: "missions",
        singular: "mission",
        emoji: "🎯",
        summary: "An ordered list of tasks given to one robot.",
        fields: &[
            ("robot", "\"rbt_7Hq2Lm\""),
            ("priority", "\"normal\""),
            ("status", "\"running\""),
        ],
    },
    Resource {
        plural: "maps",
        singular: "map",
        emoji: "🗺️",
        summary: "The floor plan of a site, with stations and charging docks.",
        fields: &[
            ("site", "\"berlin-dc\""),
            ("units", "\"metres\""),
            ("stations", "48"),
        ],
    },
    Resource {
        plural: "stations",
        singular: "station",
        emoji: "📍",
        summary: "A named pose on a map where robots pick, drop or wait.",
        fields: &[("name", "\"inbound-3\""), ("x", "4.0"), ("y", "31.5")],
    },
    Resource {
        plural: "zones",
        singular: "zone",
        emoji: "🚧",
        summary: "An area of a map with speed limits or access rules.",
        fields: &[("name", "\"cold store\""), ("max_speed_mps", "0.8")],
    },
    Resource {
        plural: "firmware-releases",
        singular: "firmware release",
        emoji: "💾",
        summary: "A signed firmware image and its rollout state.",
        fields: &[("version", "\"7.4.1\""), ("rollout_percent", "25")],
    },
    Resource {
        plural: "sensors",
        singular: "sensor",
        emoji: "📡",
        summary: "A lidar, camera or bumper mounted on a robot.",
        fields: &[("kind", "\"lidar\""), ("health", "\"ok\"")],
    },
    Resource {
        plural: "alerts",
        singular: "alert",
        emoji: "🚨",
        summary: "A condition that needs a human: blocked aisle, low battery, fault.",
        fields: &[("severity", "\"high\""), ("reason", "\"aisle_blocked\"")],
    },
    Resource {
        plural: "schedules",
        singular: "schedule",
        emoji: "🗓️",
        summary: "A recurring mission template, like nightly inventory scans.",
        fields: &[("cron", "\"0 2 * * *\""), ("timezone", "\"Europe/Berlin\"")],
    },
    Resource {
        plural: "webhooks",
        singular: "webhook",
        emoji: "🪝",
        summary: "An HTTPS endpoint that receives Fleet events.",
        fields: &[
            ("url", "\"https://wms.example/fleet\""),
            ("events", "[\"mission.completed\"]"),
        ],
    },
    Resource {
        plural: "users",
        singular: "user",
        emoji: "👤",
        summary: "A person with access to the Fleet console.",
        fields: &[
            ("email", "\"ops@customer.example\""),
            ("role", "\"operator\""),
        ],
    },
];

/// (method, path suffix, title pattern with `{one}` / `{many}`)
const OPERATIONS: &[(&str, &str, &str)] = &[
    ("GET", "", "List {many}"),
    ("POST", "", "Create a {one}"),
    ("GET", "/{id}", "Retrieve a {one}"),
    ("PATCH", "/{id}", "Update a {one}"),
    ("PUT", "/{id}", "Replace a {one}"),
    ("DELETE", "/{id}", "Delete a {one}"),
    ("GET", "/search", "Search {many}"),
    ("POST", "/export", "Export {many}"),
    ("POST", "/import", "Import {many}"),
    ("PATCH", "/bulk", "Update {many} in bulk"),
    ("DELETE", "/bulk", "Delete {many} in bulk"),
    ("GET", "/{id}/history", "List the history of a {one}"),
    ("POST", "/{id}/restore", "Restore a {one}"),
    ("POST", "/{id}/archive", "Archive a {one}"),
    ("POST", "/{id}/unarchive", "Unarchive a {one}"),
    ("GET", "/{id}/tags", "List the tags of a {one}"),
    ("PUT", "/{id}/tags/{tag}", "Add a tag to a {one}"),
    ("DELETE", "/{id}/tags/{tag}", "Remove a tag from a {one}"),
    ("GET", "/{id}/notes", "List notes on a {one}"),
    ("POST", "/{id}/notes", "Add a note to a {one}"),
    ("GET", "/{id}/events", "List events of a {one}"),
    ("GET", "/{id}/metrics", "Get metrics of a {one}"),
    ("POST", "/validate", "Validate a {one}"),
    ("POST", "/{id}/clone", "Clone a {one}"),
    ("GET", "/{id}/status", "Get the status of a {one}"),
];

pub(super) fn pages() -> Vec<Page> {
    let mut pages = vec![overview()];
    pages.extend(RESOURCES.iter().map(resource_group));
    pages
}

pub(super) fn files() -> Vec<File> {
    let mut files = vec![File {
        id: "file-openapi".to_string(),
        name: "fleet-openapi.yaml".to_string(),
        content_type: "application/yaml".to_string(),
        size: 412_877,
        dimensions: None,
    }];
    for (index, resource) in RESOURCES.iter().enumerate() {
        for (number, suffix) in ["lifecycle", "sequence", "schema"].iter().enumerate() {
            files.push(File {
                id: format!("file-{}-{suffix}", resource.plural),
                name: format!("{}-{suffix}.png", resource.plural),
                content_type: "image/png".to_string(),
                size: 40_000 + (index as u64 * 3 + number as u64) * 7_919,
                dimensions: Some((1600, 900 + number as u32 * 100)),
            });
        }
    }
    files
}

fn overview() -> Page {
    group(
        "pg-api-overview",
        "Overview",
        vec![
            document("pg-api-introduction", "Introduction", INTRODUCTION).emoji("👋"),
            document("pg-api-authentication", "Authentication", AUTHENTICATION).emoji("🔑"),
            document("pg-api-errors", "Errors", ERRORS).emoji("⚠️"),
            document("pg-api-pagination", "Pagination", PAGINATION).emoji("📄"),
            document("pg-api-rate-limits", "Rate limits", RATE_LIMITS).emoji("⏱️"),
        ],
    )
}

fn resource_group(resource: &Resource) -> Page {
    let key = resource.plural.replace('-', "_");
    let endpoints = OPERATIONS
        .iter()
        .map(|operation| endpoint_page(resource, operation))
        .collect();
    let title = capitalize(resource.plural).replace('-', " ");
    group(
        &format!("pg-api-{key}"),
        &title,
        vec![
            document(
                &format!("pg-api-{key}-object"),
                &format!("The {} object", resource.singular),
                &object_markdown(resource),
            )
            .emoji(resource.emoji)
            .describe(resource.summary)
            .with_children(endpoints),
        ],
    )
}

fn capitalize(text: &str) -> String {
    let mut characters = text.chars();
    match characters.next() {
        Some(first) => first.to_uppercase().chain(characters).collect(),
        None => String::new(),
    }
}

fn example_object(resource: &Resource) -> String {
    let prefix: String = resource.singular.chars().take(3).collect();
    let mut lines = vec![format!("  \"id\": \"{prefix}_4kT9wQ\"")];
    lines.extend(
        resource
            .fields
            .iter()
            .map(|(field, value)| format!("  \"{field}\": {value}")),
    );
    lines.push("  \"created_at\": \"2025-03-02T09:41:00Z\"".to_string());
    format!("{{\n{}\n}}", lines.join(",\n"))
}

fn object_markdown(resource: &Resource) -> String {
    let rows: String = resource
        .fields
        .iter()
        .map(|(field, value)| {
            let kind = if value.starts_with('"') {
                "string"
            } else if value.starts_with('[') {
                "array"
            } else {
                "number"
            };
            format!("| `{field}` | {kind} | Example: `{value}` |\n")
        })
        .collect();
    format!(
        "# The {one} object\n\n{summary}\n\n## Attributes\n\n| Field | Type | Notes |\n| :---- | :--: | :---- |\n\
         | `id` | string | Unique, prefixed identifier |\n{rows}| `created_at` | string | ISO 8601 timestamp |\n\n\
         ## Example\n\n```json\n{example}\n```\n\n## Endpoints\n\nThe pages below describe every \
         endpoint of `/v1/{many}`.\n",
        one = resource.singular,
        many = resource.plural,
        summary = resource.summary,
        example = example_object(resource),
    )
}

fn endpoint_page(resource: &Resource, operation: &(&str, &str, &str)) -> Page {
    let (method, suffix, pattern) = *operation;
    let title = pattern
        .replace("{one}", resource.singular)
        .replace("{many}", &resource.plural.replace('-', " "));
    let key = resource.plural.replace('-', "_");
    let mut operation_key = vec![method.to_lowercase()];
    operation_key.extend(
        suffix
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(|segment| segment.trim_matches(['{', '}']).to_string()),
    );
    let id = format!("pg-api-{key}-{}", operation_key.join("-"));
    document(
        &id,
        &title,
        &endpoint_markdown(resource, method, suffix, &title),
    )
    .describe(&format!("{method} /v1/{}{suffix}", resource.plural))
}

fn endpoint_markdown(resource: &Resource, method: &str, suffix: &str, title: &str) -> String {
    let path = format!("/v1/{}{suffix}", resource.plural);
    let singular_key = resource.singular.replace(' ', "_");
    let mut parameters = String::new();
    if suffix.contains("{id}") {
        parameters.push_str(&format!(
            "| `id` | path | string | yes | Identifier of the {} |\n",
            resource.singular
        ));
    }
    if suffix.contains("{tag}") {
        parameters.push_str("| `tag` | path | string | yes | Tag name, 1–40 characters |\n");
    }
    let lists = method == "GET" && !suffix.ends_with("{id}") && !suffix.ends_with("status");
    if lists {
        parameters.push_str("| `limit` | query | integer | no | 1–1000, default 50 |\n");
        parameters.push_str("| `page` | query | string | no | Cursor from `next.page` |\n");
    }
    if method == "POST" || method == "PUT" || method == "PATCH" {
        parameters.push_str(&format!(
            "| body | body | {} | yes | See [the {} object](../) |\n",
            singular_key, resource.singular
        ));
    }
    let parameters = if parameters.is_empty() {
        "This endpoint takes no parameters.\n".to_string()
    } else {
        format!(
            "| Name | In | Type | Required | Description |\n| :--- | :-: | :--- | :------: | :---------- |\n{parameters}"
        )
    };
    let concrete_path = path
        .replace(
            "{id}",
            &format!(
                "{}_4kT9wQ",
                singular_key.chars().take(3).collect::<String>()
            ),
        )
        .replace("{tag}", "night-shift");
    let body_flag = if matches!(method, "POST" | "PUT" | "PATCH") {
        " \\\n  -H \"Content-Type: application/json\" \\\n  -d @body.json"
    } else {
        ""
    };
    let status = match method {
        "POST" if suffix.is_empty() => "201 Created",
        "DELETE" => "204 No Content",
        _ => "200 OK",
    };
    let response = if method == "DELETE" {
        "{}".to_string()
    } else if lists {
        format!(
            "{{\n  \"count\": 1,\n  \"items\": [\n{}\n  ]\n}}",
            example_object(resource)
                .lines()
                .map(|line| format!("    {line}"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    } else {
        example_object(resource)
    };
    let python_call = format!("fleet.request(\"{method}\", \"{concrete_path}\")",);
    let warning = if method == "DELETE" {
        "\n{% hint style=\"danger\" %}\nDeleting cannot be undone after the 7-day restore window.\n{% endhint %}\n"
    } else if method == "PUT" {
        "\n{% hint style=\"warning\" %}\n`PUT` replaces the whole object: fields you omit are reset to their defaults.\n{% endhint %}\n"
    } else {
        ""
    };
    format!(
        "# {title}\n\n`{method} {path}`\n\n{summary}\n\n## Parameters\n\n{parameters}\n## Example request\n\n\
         {{% tabs %}}\n{{% tab title=\"curl\" %}}\n```bash\ncurl -X {method} https://api.acme-robotics.example{concrete_path} \\\n  \
         -H \"Authorization: Bearer $FLEET_TOKEN\"{body_flag}\n```\n{{% endtab %}}\n\n{{% tab title=\"Python\" %}}\n```python\n\
         response = {python_call}\nresponse.raise_for_status()\n```\n{{% endtab %}}\n{{% endtabs %}}\n\n## Example response\n\n\
         {{% code title=\"{status}\" %}}\n```json\n{response}\n```\n{{% endcode %}}\n{warning}",
        summary = resource.summary,
    )
}

const INTRODUCTION: &str = "# Introduction\n\nThe Fleet API lets you register robots, plan \
missions, manage maps and receive events. It is organised around REST: predictable \
resource-oriented URLs, JSON bodies, standard HTTP verbs and status codes.\n\n```\n\
https://api.acme-robotics.example/v1\n```\n\n{% hint style=\"info\" %}\nThis reference is \
generated from the OpenAPI description `fleet-openapi.yaml`, attached to this space.\n\
{% endhint %}\n";

const AUTHENTICATION: &str = "# Authentication\n\nAuthenticate with a bearer token:\n\n```bash\n\
curl https://api.acme-robotics.example/v1/robots -H \"Authorization: Bearer $FLEET_TOKEN\"\n```\n\n\
Requests without a valid token fail with `401 Unauthorized`.\n";

const ERRORS: &str = "# Errors\n\n```json\n{ \"error\": { \"code\": 409, \"message\": \"Robot \
rbt_7Hq2Lm is in maintenance\" } }\n```\n\n| Code | Meaning |\n| ---: | :------ |\n| 400 | Bad \
request |\n| 401 | Unauthorized |\n| 404 | Not found |\n| 409 | Conflict |\n| 429 | Too many \
requests |\n";

const PAGINATION: &str = "# Pagination\n\nList endpoints return `{next, count, items}`. Pass \
`next.page` back as `page` until `next` is absent.\n\n```typescript\nlet page: string | \
undefined;\ndo {\n  const body = await get(\"/v1/robots\", { page, limit: 100 });\n  \
handle(body.items);\n  page = body.next?.page;\n} while (page);\n```\n";

const RATE_LIMITS: &str = "# Rate limits\n\n| Plan | Requests per second |\n| :--- | \
------------------: |\n| Sandbox | 10 |\n| Production | 50 |\n\nOver the limit you get `429` and \
a `Retry-After` header.\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_than_three_hundred_pages() {
        fn count(pages: &[Page]) -> usize {
            pages.iter().map(|page| 1 + count(&page.children)).sum()
        }
        assert!(count(&pages()) >= 300);
    }
}

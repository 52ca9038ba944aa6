//! Times the markdown renderer on a generated ~1 MB documentation page.
//!
//! Run with `cargo bench --bench markdown`. Plain `fn main` and `Instant`: the figures that
//! matter are orders of magnitude (does a big page open within a frame or two?), not
//! nanosecond noise.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use quire::ui::markdown::{
    ColorDepth, MarkdownDoc, RenderOptions, grammar_ready, warm_common_grammars,
};
use quire::ui::theme::Theme;

const TARGET_BYTES: usize = 1024 * 1024;

fn main() {
    let page = generate_page(TARGET_BYTES);
    let theme = Theme::default();
    println!(
        "page: {} bytes, {} source lines",
        page.len(),
        page.lines().count()
    );

    let (doc, parse) = timed(|| MarkdownDoc::parse(&page, &theme));
    println!("parse:                         {}", format_duration(parse));

    let (first, first_screen) = timed(|| {
        let doc = MarkdownDoc::parse(&page, &theme);
        doc.layout_first(80, 24)
    });
    println!(
        "first screenful (parse + 24 rows at 80 cols): {} ({} rows)",
        format_duration(first_screen),
        first.lines.len()
    );

    let (layout_80, full_80) = timed(|| doc.layout(80));
    println!(
        "full layout at 80 cols:        {}",
        format_duration(full_80)
    );
    let (layout_200, full_200) = timed(|| doc.layout(200));
    println!(
        "full layout at 200 cols:       {}",
        format_duration(full_200)
    );

    let options = RenderOptions {
        color_depth: ColorDepth::TrueColor,
        ..RenderOptions::default()
    };
    // What the app does in the background at start; the highlighting below is then work only.
    let (_, warm) = timed(warm_common_grammars);
    println!("grammars (warmed at start):    {}", format_duration(warm));
    let (highlighted, highlight) = timed(|| doc.highlighted(&theme, &options));
    println!(
        "highlight (all code blocks):   {}",
        format_duration(highlight)
    );
    let languages = ["rust", "python", "ts", "sh", "json"];
    let ready = languages.iter().filter(|l| grammar_ready(l)).count();
    println!("grammars ready: {ready}/{} of the page's", languages.len());
    let (highlighted_layout, highlighted_80) = timed(|| highlighted.layout(80));
    let coloured_rows = highlighted_layout
        .lines
        .iter()
        .filter(|line| {
            line.spans
                .iter()
                .any(|span| matches!(span.style.fg, Some(ratatui::style::Color::Rgb(..))))
        })
        .count();
    println!("rows with syntax colours at 80:  {coloured_rows}");
    println!(
        "layout of highlighted at 80:   {}",
        format_duration(highlighted_80)
    );

    println!(
        "lines: {} at 80 cols, {} at 200 cols; {} headings",
        layout_80.lines.len(),
        layout_200.lines.len(),
        doc.headings().len()
    );
}

fn timed<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let result = work();
    (result, started.elapsed())
}

fn format_duration(duration: Duration) -> String {
    format!("{:>9.3} ms", duration.as_secs_f64() * 1000.0)
}

/// A page shaped like real product documentation: sections with prose, lists, tables, code in
/// several languages and GitBook hints.
fn generate_page(target: usize) -> String {
    let mut page = String::with_capacity(target + 16 * 1024);
    page.push_str(
        "# Platform reference\n\nEverything about the platform, on one very long page.\n\n",
    );
    let mut section = 0;
    while page.len() < target {
        section += 1;
        write_section(&mut page, section);
    }
    page
}

fn write_section(page: &mut String, section: usize) {
    let _ = write!(
        page,
        "## {section}. Working with resource {section}\n\n\
         Resource {section} is created with the **REST API** or from the *dashboard*. Every request \
         needs a token in the `Authorization` header; see [authentication](https://docs.example.com/auth#tokens) \
         for the details, and remember that tokens are ~~forever~~ revocable at any time.\n\n\
         ### Before you start\n\n\
         - An account with the *admin* role\n\
         - A token with the `write:{section}` scope\n  \
           - created less than 90 days ago, because older tokens are rejected with a 401 and a hint in the body\n\
         - Network access to `api.example.com`\n\n\
         1. Create the resource.\n\
         2. Poll its status until it is `ready`.\n\
         3. Use it.\n\n"
    );
    let _ = write!(
        page,
        "| Field | Type | Required | Description |\n\
         |:------|:----:|:--------:|------------:|\n\
         | `id` | string | yes | The identifier, assigned by the server |\n\
         | `name` | string | yes | A human-readable name of up to 100 characters |\n\
         | `size` | integer | no | Size in megabytes; defaults to 10 |\n\
         | `tags` | array | no | Free-form labels for searching |\n\n"
    );
    match section % 4 {
        0 => page.push_str(
            "```rust title=\"client.rs\"\n\
             use std::collections::HashMap;\n\n\
             /// Creates a resource and waits for it.\n\
             async fn create(client: &Client, name: &str) -> Result<Resource, Error> {\n    \
                 let mut body = HashMap::new();\n    \
                 body.insert(\"name\", name);\n    \
                 let resource: Resource = client.post(\"/v1/resources\").json(&body).send().await?.json().await?;\n    \
                 for attempt in 0..30 {\n        \
                     if client.status(&resource.id).await? == Status::Ready { break; }\n        \
                     tokio::time::sleep(Duration::from_secs(attempt)).await;\n    \
                 }\n    \
                 Ok(resource)\n\
             }\n```\n\n",
        ),
        1 => page.push_str(
            "```python\n\
             import requests\n\n\
             def create(token: str, name: str) -> dict:\n    \
                 \"\"\"Create a resource and return it.\"\"\"\n    \
                 response = requests.post(\n        \
                     \"https://api.example.com/v1/resources\",\n        \
                     headers={\"Authorization\": f\"Bearer {token}\"},\n        \
                     json={\"name\": name, \"size\": 10},\n    \
                 )\n    \
                 response.raise_for_status()\n    \
                 return response.json()\n```\n\n",
        ),
        2 => page.push_str(
            "```ts\n\
             interface Resource { id: string; name: string; size?: number }\n\n\
             export async function create(token: string, name: string): Promise<Resource> {\n  \
               const response = await fetch(\"https://api.example.com/v1/resources\", {\n    \
                 method: \"POST\",\n    \
                 headers: { Authorization: `Bearer ${token}` },\n    \
                 body: JSON.stringify({ name }),\n  \
               });\n  \
               if (!response.ok) throw new Error(`HTTP ${response.status}`);\n  \
               return (await response.json()) as Resource;\n\
             }\n```\n\n",
        ),
        _ => page.push_str(
            "```sh\n\
             curl -X POST https://api.example.com/v1/resources \\\n  \
               -H \"Authorization: Bearer $TOKEN\" \\\n  \
               -d '{\"name\": \"demo\"}' | jq '.id'\n```\n\n\
             ```json\n{\n  \"id\": \"res_123\",\n  \"name\": \"demo\",\n  \"tags\": [\"a\", \"b\"]\n}\n```\n\n",
        ),
    }
    let style = ["info", "warning", "success", "danger"][section % 4];
    let _ = write!(
        page,
        "{{% hint style=\"{style}\" %}}\n\
         Creating resource {section} is **rate limited** to 10 requests per minute. Requests over \
         the limit get a `429` with a `Retry-After` header.\n\
         {{% endhint %}}\n\n\
         > Resources are eventually consistent: a read right after a write may not see it yet.\n\n\
         Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt \
         ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation \
         ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in \
         reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur.\n\n"
    );
}

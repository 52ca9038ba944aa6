//! The rows of an integration's details.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::filters::explain_scope;
use crate::api::models::Integration;
use crate::ui::markdown::MarkdownDoc;
use crate::ui::sanitize::sanitize;
use crate::ui::text;
use crate::ui::theme::Theme;

/// Every row of the details at `width`.
pub(super) fn detail_lines(
    integration: &Integration,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let width_chars = width.max(1) as usize;
    let wrapped = |text: &str, style: Style| -> Vec<Line<'static>> {
        text::wrap(&sanitize(text), width_chars)
            .into_iter()
            .map(|row| Line::from(Span::styled(row, style)))
            .collect()
    };
    let heading = |title: &str| Line::from(Span::styled(title.to_string(), theme.style("accent")));
    let mut lines = Vec::new();
    let verified = if integration.verified {
        " ✓ verified"
    } else {
        ""
    };
    lines.push(Line::from(vec![
        Span::styled(
            sanitize(&integration.title).into_owned(),
            theme.style("title"),
        ),
        Span::styled(verified.to_string(), theme.style("success")),
    ]));
    let mut facts = vec![integration.name.clone()];
    if let Some(version) = integration.version {
        facts.push(format!("version {version}"));
    }
    if let Some(owner) = &integration.owner {
        facts.push(format!("by {}", owner.title));
    }
    if let Some(target) = &integration.target {
        facts.push(format!("installs on: {target}"));
    }
    if !integration.categories.is_empty() {
        facts.push(integration.categories.join(", "));
    }
    lines.extend(wrapped(&facts.join(" · "), theme.style("muted")));
    if let Some(description) = &integration.description {
        lines.extend(wrapped(description, theme.style("text")));
    }
    if let Some(summary) = integration
        .summary
        .as_deref()
        .filter(|s| !s.trim().is_empty())
    {
        lines.push(Line::from(""));
        lines.extend(
            MarkdownDoc::parse(summary, theme)
                .layout(width.max(1))
                .lines,
        );
    }
    lines.push(Line::from(""));
    lines.push(heading("Permissions it asks for"));
    if integration.scopes.is_empty() {
        lines.extend(wrapped("  none", theme.style("muted")));
    }
    for scope in &integration.scopes {
        lines.extend(wrapped(
            &format!("  • {} ({scope})", explain_scope(scope)),
            theme.style("text"),
        ));
    }
    if !integration.blocks.is_empty() {
        lines.push(Line::from(""));
        lines.push(heading("Blocks"));
        for block in &integration.blocks {
            let mut row = format!("  • {}", block.title);
            if let Some(description) = &block.description {
                row.push_str(&format!(" — {description}"));
            }
            lines.extend(wrapped(&row, theme.style("text")));
            if !block.url_unfurl.is_empty() {
                lines.extend(wrapped(
                    &format!("    unfurls {}", block.url_unfurl.join(", ")),
                    theme.style("muted"),
                ));
            }
        }
    }
    if !integration.content_sources.is_empty() {
        lines.push(Line::from(""));
        lines.push(heading("Content sources"));
        for source in &integration.content_sources {
            let mut row = format!("  • {}", source.title);
            if let Some(description) = &source.description {
                row.push_str(&format!(" — {description}"));
            }
            lines.extend(wrapped(&row, theme.style("text")));
        }
    }
    if !integration.configurations.is_empty() {
        lines.push(Line::from(""));
        lines.push(heading("Configuration"));
        for (level, schema) in &integration.configurations {
            lines.extend(wrapped(&format!("  {level}"), theme.style("text")));
            for (name, property) in &schema.properties {
                let required = if schema.required.contains(name) {
                    ", required"
                } else {
                    ""
                };
                let mut row = format!(
                    "    {} ({}{required})",
                    property.title.as_deref().unwrap_or(name),
                    property.kind.as_deref().unwrap_or("any"),
                );
                if !property.choices.is_empty() {
                    row.push_str(&format!(": {}", property.choices.join(" / ")));
                }
                if let Some(default) = &property.default {
                    row.push_str(&format!(", default {default}"));
                }
                if let Some(description) = &property.description {
                    row.push_str(&format!(" — {description}"));
                }
                lines.extend(wrapped(&row, theme.style("muted")));
            }
        }
    }
    if !integration.external_links.is_empty() {
        lines.push(Line::from(""));
        lines.push(heading("Links"));
        for link in &integration.external_links {
            lines.extend(wrapped(
                &format!("  {} — {}", link.label, link.url),
                theme.style("link"),
            ));
        }
    }
    lines
}

//! `quire integrations publish MANIFEST`: checks a manifest (JSON) against the seed's fields
//! and the name pattern, shows what will be sent with every secret masked, asks y/N (unless
//! `--yes`), publishes, and shows the published integration or the server's refusal.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::api::{Client, PublishManifest};
use crate::ui::sanitize::{sanitize, sanitize_multiline};

#[derive(Debug, clap::Subcommand)]
pub enum IntegrationsCommand {
    /// Publish an integration from a JSON manifest: `name` plus the publish fields (title,
    /// description, scopes, script, organization, secrets…).
    Publish {
        /// The manifest file (JSON).
        manifest: PathBuf,
        /// Publish without asking.
        #[arg(long)]
        yes: bool,
    },
}

/// Runs the command; the exit code (0 when the integration was published).
pub async fn run(
    client: &Client,
    command: &IntegrationsCommand,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let IntegrationsCommand::Publish { manifest, yes } = command;
    let text = match std::fs::read_to_string(manifest) {
        Ok(text) => text,
        Err(error) => {
            let _ = writeln!(err, "cannot read {}: {error}", manifest.display());
            return 1;
        }
    };
    let checked = match PublishManifest::from_json(&text) {
        Ok(checked) => checked,
        Err(problems) => {
            let _ = writeln!(
                err,
                "{} is not a manifest quire can publish:",
                manifest.display()
            );
            for problem in problems {
                let _ = writeln!(err, "  {}", sanitize(&problem.to_string()));
            }
            let _ = writeln!(err, "Nothing was sent.");
            return 1;
        }
    };
    let shown = serde_json::to_string_pretty(&checked.shown()).unwrap_or_default();
    let _ = writeln!(
        out,
        "Publishing integration {} (POST /integrations/{}), secrets masked:\n{}",
        checked.name,
        checked.name,
        sanitize_multiline(&shown)
    );
    if !yes {
        let _ = write!(out, "Publish {}? [y/N] ", checked.name);
        let _ = out.flush();
        let mut answer = String::new();
        let _ = input.read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            let _ = writeln!(out, "Not published.");
            return 1;
        }
    }
    match client.publish_integration(&checked).await {
        Ok(integration) => {
            let version = integration
                .version
                .map(|version| format!(" version {version}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "Published {}{version}: “{}”, owned by {}.",
                sanitize(&integration.name),
                sanitize(&integration.title),
                sanitize(
                    &integration
                        .owner
                        .map(|owner| owner.title)
                        .unwrap_or_else(|| "—".into())
                ),
            );
            if let Some(app) = integration.urls.app {
                let _ = writeln!(out, "{}", sanitize(&app));
            }
            0
        }
        Err(error) => {
            let _ = writeln!(
                err,
                "The server refused it: {}",
                sanitize(&error.command_line_message())
            );
            1
        }
    }
}

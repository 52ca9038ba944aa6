//! `quire conversations ingest FILE --org ID`: checks a conversation file the way the screen
//! does, shows what it sends, sends it, and says what the server answered. Exits non-zero when
//! the file is wrong or the server refuses it.

use std::io::Write;
use std::path::PathBuf;

use crate::api::{Client, NewConversation};
use crate::ui::sanitize::{sanitize, sanitize_multiline};

#[derive(Debug, clap::Subcommand)]
pub enum ConversationsCommand {
    /// Ingest a conversation from a JSON file: {id, subject, parts: [{type: "message", role,
    /// body}], metadata: {url, attributes, createdAt}}.
    Ingest {
        /// The conversation file (JSON).
        file: PathBuf,
        /// The organization's id.
        #[arg(long)]
        org: String,
    },
}

/// Runs the command; the exit code (0 when the conversation was ingested).
pub async fn run(
    client: &Client,
    command: &ConversationsCommand,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let ConversationsCommand::Ingest { file, org } = command;
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(error) => {
            let _ = writeln!(err, "cannot read {}: {error}", file.display());
            return 1;
        }
    };
    let conversation = match NewConversation::from_json(&text) {
        Ok(conversation) => conversation,
        Err(problems) => {
            let _ = writeln!(
                err,
                "{} is not a conversation quire can send:",
                file.display()
            );
            for problem in problems {
                let _ = writeln!(err, "  {}", sanitize(&problem.to_string()));
            }
            let _ = writeln!(err, "Nothing was sent.");
            return 1;
        }
    };
    let body = serde_json::to_string_pretty(&conversation).unwrap_or_default();
    let _ = writeln!(
        out,
        "Sending to POST /orgs/{}/conversations:\n{}",
        sanitize(org),
        sanitize_multiline(&body)
    );
    match client.ingest_conversation(org, &conversation).await {
        Ok(()) => {
            let _ = writeln!(
                out,
                "Ingested: the server accepted “{}” (204).",
                sanitize(&conversation.subject)
            );
            0
        }
        Err(error) if error.is_unsupported() => {
            let _ = writeln!(
                err,
                "Not ingested: {} Conversations need a server that implements the whole \
                 API, such as `quire sandbox`.",
                sanitize(&error.command_line_message())
            );
            1
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

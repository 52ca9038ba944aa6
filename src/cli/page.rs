//! `quire page view SPACE PAGE`: a page's markdown, rendered as the reader shows it when stdout
//! is a terminal, raw with `--raw` or when piped.

use std::io::Write;

use crate::api::Client;
use crate::cli::output::Streams;
use crate::cli::output::ansi::line_text;
use crate::cli::script::{self, Outcome};
use crate::ui::markdown::MarkdownDoc;
use crate::ui::sanitize::sanitize_multiline;
use crate::ui::theme::Theme;

#[derive(Debug, clap::Subcommand)]
pub enum PageCommand {
    /// Print a page: SPACE an id or title, PAGE an id, path or title.
    View {
        /// The space: its id or its title.
        space: String,
        /// The page: its id, its path (`installation/linux`) or its title.
        page: String,
        /// Where SPACE is looked up by title (id or title).
        #[arg(long, value_name = "ORG")]
        org: Option<String>,
        /// Print the markdown as it is, even on a terminal.
        #[arg(long)]
        raw: bool,
    },
}

pub async fn run(client: &Client, command: &PageCommand, streams: &mut Streams) -> Outcome {
    let PageCommand::View {
        space,
        page,
        org,
        raw,
    } = command;
    streams.progress("Reading the page");
    let space = script::space(client, space, org.as_deref()).await?;
    let page = script::page(client, &space.id, page).await?;
    let markdown = client
        .get_page_markdown(&space.id, &page.id)
        .await?
        .markdown
        .unwrap_or_default();
    streams.done();
    if *raw || !streams.out_is_terminal {
        let text = if streams.out_is_terminal {
            sanitize_multiline(&markdown)
        } else {
            std::borrow::Cow::Borrowed(markdown.as_str())
        };
        let _ = write!(streams.out, "{text}");
        if !markdown.ends_with('\n') {
            let _ = writeln!(streams.out);
        }
        return Ok(());
    }
    print_rendered(streams, &page.title, &markdown);
    Ok(())
}

/// The page as the reader lays it out, at the terminal's width.
fn print_rendered(streams: &mut Streams, title: &str, markdown: &str) {
    let mut theme = Theme::default();
    if !streams.colour {
        theme = theme.without_colours();
    }
    // The title, unless the page opens with it as its own heading.
    if !markdown.trim_start().starts_with(&format!("# {title}")) {
        let title = sanitize_multiline(title);
        let heading = if streams.colour {
            format!("\x1b[1m{title}\x1b[0m")
        } else {
            title.into_owned()
        };
        let _ = writeln!(streams.out, "{heading}\n");
    }
    let layout = MarkdownDoc::parse(markdown, &theme).layout(streams.width);
    for line in &layout.lines {
        let _ = writeln!(streams.out, "{}", line_text(line, streams.colour));
    }
}

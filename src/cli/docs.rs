//! `quire completions SHELL` and `quire man`: a shell completion script and a roff man page,
//! both generated from the command-line definition itself so they never drift from the flags.

use std::io::{self, Write};

/// The shells `quire completions` writes a script for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

impl CompletionShell {
    fn generator(self) -> clap_complete::Shell {
        match self {
            CompletionShell::Bash => clap_complete::Shell::Bash,
            CompletionShell::Zsh => clap_complete::Shell::Zsh,
            CompletionShell::Fish => clap_complete::Shell::Fish,
        }
    }
}

/// Writes the completion script for `shell` of the program `command` describes.
pub fn write_completions(shell: CompletionShell, command: &mut clap::Command, out: &mut dyn Write) {
    let name = command.get_name().to_string();
    clap_complete::generate(shell.generator(), command, name, out);
}

/// Writes the man page (roff) of the program `command` describes: quire's own options, then
/// every subcommand with its options (one page, since no `quire-cr(1)` page is installed),
/// then the exit statuses. A reader that stopped early (`quire man | head`) is not an error.
pub fn write_man_page(command: clap::Command, out: &mut dyn Write) -> io::Result<()> {
    match render_man_page(command, out) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}

/// What a script reads from the exit status, as `quire api` and the scripting subcommands
/// set it.
const EXIT_STATUSES: &[(&str, &str)] = &[
    ("0", "Done."),
    (
        "1",
        "The server refused, failed or could not be reached, something named was not found, \
         or a merge or update met conflicts.",
    ),
    (
        "2",
        "A wrong command line: a flag, a missing --space, an empty name (an unset variable), \
         a merge without --yes when nobody can be asked.",
    ),
    (
        "3",
        "Outcome unknown: a write's answer was lost and reading it back could not tell whether \
         the server stored it. Look before running the command again, or it may be done twice.",
    ),
    ("4", "Not signed in, or the token was refused."),
    (
        "5",
        "cr watch: the change request was merged or archived while --until named neither, so \
         what it waited for can no longer come.",
    ),
];

/// One of clap_mangen's `render_*_section` methods.
type RenderSection = fn(&clap_mangen::Man, &mut dyn Write) -> io::Result<()>;

fn render_man_page(mut command: clap::Command, out: &mut dyn Write) -> io::Result<()> {
    command.build();
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    let sections: [RenderSection; 4] = [
        clap_mangen::Man::render_name_section,
        clap_mangen::Man::render_synopsis_section,
        clap_mangen::Man::render_description_section,
        clap_mangen::Man::render_options_section,
    ];
    for render in sections {
        let mut section = Vec::new();
        render(&man, &mut section)?;
        page.extend_from_slice(without_preamble(&section));
    }
    let mut roff = String::from(".SH COMMANDS\n");
    for subcommand in visible_subcommands(&command) {
        commands_roff(subcommand, &command, &mut roff);
    }
    roff.push_str(".SH \"EXIT STATUS\"\n");
    for (status, meaning) in EXIT_STATUSES {
        roff.push_str(&format!(".TP\n{status}\n{}\n", escaped(meaning)));
    }
    page.extend_from_slice(roff.as_bytes());
    let mut version = Vec::new();
    man.render_version_section(&mut version)?;
    page.extend_from_slice(without_preamble(&version));
    out.write_all(&page)
}

/// A section clap_mangen rendered, less the two lines defining `Aq` each render starts with:
/// the page's first render defines it once.
fn without_preamble(section: &[u8]) -> &[u8] {
    let mut rest = section;
    for _ in 0..2 {
        if rest.starts_with(b".ie ") || rest.starts_with(b".el ") {
            let end = rest
                .iter()
                .position(|byte| *byte == b'\n')
                .map_or(rest.len(), |at| at + 1);
            rest = &rest[end..];
        }
    }
    rest
}

fn visible_subcommands(command: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    command
        .get_subcommands()
        .filter(|subcommand| !subcommand.is_hide_set() && subcommand.get_name() != "help")
}

/// `command` (a subcommand of `parent`) and its own subcommands, each a subsection: its usage,
/// what it does, and the options it adds to its parent's.
fn commands_roff(command: &clap::Command, parent: &clap::Command, roff: &mut String) {
    let name = command
        .get_bin_name()
        .map_or_else(|| command.get_name().to_string(), str::to_string);
    roff.push_str(&format!(".SS \"{}\"\n", escaped(&name)));
    let usage = command.clone().render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ");
    roff.push_str(&format!("\\fB{}\\fR\n", escaped(usage)));
    if let Some(about) = command.get_long_about().or(command.get_about()) {
        roff.push_str(&format!(".PP\n{}\n", escaped(&about.to_string())));
    }
    let inherited = |arg: &clap::Arg| {
        parent
            .get_arguments()
            .any(|own| own.get_id() == arg.get_id())
    };
    for arg in command.get_arguments() {
        let builtin = matches!(arg.get_id().as_str(), "help" | "version");
        if arg.is_hide_set() || builtin || inherited(arg) {
            continue;
        }
        roff.push_str(&format!(
            ".TP\n{}\n{}\n",
            arg_roff(arg),
            escaped(&arg_help(arg))
        ));
    }
    for subcommand in visible_subcommands(command) {
        commands_roff(subcommand, command, roff);
    }
}

/// `\fB\-\-json\fR [\fIFIELDS\fR]` or `\fINUMBER\fR`.
fn arg_roff(arg: &clap::Arg) -> String {
    let value = arg
        .get_value_names()
        .and_then(|names| names.first())
        .map_or_else(|| arg.get_id().as_str().to_uppercase(), ToString::to_string);
    let value = format!("\\fI{}\\fR", escaped(&value));
    let mut flags: Vec<String> = Vec::new();
    if let Some(short) = arg.get_short() {
        flags.push(format!("\\fB\\-{short}\\fR"));
    }
    if let Some(long) = arg.get_long() {
        flags.push(format!("\\fB\\-\\-{}\\fR", escaped(long)));
    }
    if flags.is_empty() {
        return value;
    }
    let takes_value = arg.get_action().takes_values();
    let optional = arg
        .get_num_args()
        .is_some_and(|range| range.min_values() == 0);
    match (takes_value, optional) {
        (false, _) => flags.join(", "),
        (true, true) => format!("{} [{value}]", flags.join(", ")),
        (true, false) => format!("{} {value}", flags.join(", ")),
    }
}

/// The argument's help, with the values it takes and the variable it reads.
fn arg_help(arg: &clap::Arg) -> String {
    let mut help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|value| !value.is_hide_set())
        .map(|value| value.get_name().to_string())
        .collect();
    if !values.is_empty() && arg.get_action().takes_values() {
        help.push_str(&format!(" [possible values: {}]", values.join(", ")));
    }
    if let Some(env) = arg.get_env() {
        help.push_str(&format!(" [env: {}]", env.to_string_lossy()));
    }
    help
}

/// Text as roff reads it: backslashes and dashes literal, no line taken for a request.
fn escaped(text: &str) -> String {
    text.lines()
        .map(|line| {
            let line: String = line
                .replace('\\', "\\e")
                .replace('-', "\\-")
                .chars()
                .map(|c| {
                    // groff reads bytes, not UTF-8, unless asked: named by code point, `…`
                    // shows as itself without preconv.
                    if c.is_ascii() {
                        c.to_string()
                    } else {
                        format!("\\[u{:04X}]", u32::from(c))
                    }
                })
                .collect();
            if line.starts_with('.') || line.starts_with('\'') {
                format!("\\&{line}")
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roff_text_keeps_dashes_backslashes_and_leading_dots_literal() {
        assert_eq!(escaped("--json a\\b"), "\\-\\-json a\\eb");
        assert_eq!(escaped(".jq\n'x"), "\\&.jq\n\\&'x");
        assert_eq!(escaped("secrets…"), "secrets\\[u2026]");
    }
}

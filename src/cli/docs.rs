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

/// Writes the man page (roff) of the program `command` describes. A reader that stopped early
/// (`quire man | head`) is not an error.
pub fn write_man_page(command: clap::Command, out: &mut dyn Write) -> io::Result<()> {
    match clap_mangen::Man::new(command).render(out) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}

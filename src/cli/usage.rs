//! A mistake in how quire was started: a flag, an environment variable or the config file. It is
//! the user's to fix, not a bug, so quire says what is wrong in one plain line and exits with
//! [`UsageError::EXIT_STATUS`], without the location and backtrace hint a bug's report gets.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    message: String,
}

impl UsageError {
    /// The status quire exits with, as for a flag the command line does not accept.
    pub const EXIT_STATUS: i32 = 2;

    /// The message is folded onto one line: some (a theme file's TOML error) quote the file
    /// over several.
    pub fn new(message: impl fmt::Display) -> UsageError {
        let message = message.to_string();
        UsageError {
            message: message.split_whitespace().collect::<Vec<_>>().join(" "),
        }
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

#[cfg(test)]
mod tests {
    use super::UsageError;

    #[test]
    fn a_message_over_several_lines_is_told_on_one() {
        let error =
            UsageError::new("theme t.toml: TOML parse error at line 1\n  |\n1 | [x\n  |   ^");
        assert_eq!(
            error.to_string(),
            "theme t.toml: TOML parse error at line 1 | 1 | [x | ^"
        );
    }
}

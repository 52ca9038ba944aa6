//! The API token, wrapped so it cannot leak through formatting.

use std::fmt;

/// What every formatted token prints instead of its value.
pub const REDACTED: &str = "Token(***)";

/// A bearer token. `Debug` and `Display` both print `Token(***)`, so a token that ends up in a
/// log line, an error or a panic message reveals nothing. The value is only readable inside the
/// crate, where the client puts it into the `Authorization` header.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// Wraps a token; surrounding whitespace (a trailing newline from a file or a paste) is
    /// removed because it is never part of a token and would make the header invalid.
    pub fn new(value: impl Into<String>) -> Token {
        let value = value.into();
        let trimmed = value.trim();
        if trimmed.len() == value.len() {
            Token(value)
        } else {
            Token(trimmed.to_owned())
        }
    }

    /// True when there is no token at all, so configuration can say so before any request.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The secret itself; crate-private so only the client can put it on the wire.
    pub(crate) fn reveal(&self) -> &str {
        &self.0
    }

    /// Replaces every occurrence of the token in `text` with `***`, for text that came from
    /// places we do not control (a server echoing the token in an error message, a transport
    /// error describing a header).
    pub(crate) fn scrub(&self, text: &str) -> String {
        if self.0.is_empty() || !text.contains(self.0.as_str()) {
            return text.to_owned();
        }
        text.replace(self.0.as_str(), "***")
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(REDACTED)
    }
}

impl fmt::Display for Token {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(REDACTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "gb_api_secret_value_123";

    #[test]
    fn debug_and_display_hide_the_value() {
        let token = Token::new(SECRET);
        assert_eq!(format!("{token:?}"), "Token(***)");
        assert_eq!(format!("{token}"), "Token(***)");
        assert_eq!(format!("{token:#?}"), "Token(***)");
    }

    #[test]
    fn containing_structs_do_not_leak_it() {
        #[derive(Debug)]
        #[allow(dead_code)]
        struct Holder {
            token: Token,
        }
        let text = format!(
            "{:?}",
            Holder {
                token: Token::new(SECRET)
            }
        );
        assert!(!text.contains(SECRET), "{text}");
    }

    #[test]
    fn new_trims_whitespace() {
        assert_eq!(Token::new(format!("  {SECRET}\n")).reveal(), SECRET);
        assert!(Token::new(" \n").is_empty());
    }

    #[test]
    fn scrub_removes_every_occurrence() {
        let token = Token::new(SECRET);
        let scrubbed = token.scrub(&format!("bad token {SECRET} and again {SECRET}"));
        assert_eq!(scrubbed, "bad token *** and again ***");
        assert_eq!(Token::new("").scrub("unchanged"), "unchanged");
    }
}

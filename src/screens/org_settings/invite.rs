//! Revoking an invite link: its id, typed or taken from the invitation's address.

use crate::ui::prompt::TextCheck;

/// An invite link id: something without spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InviteId;

impl TextCheck for InviteId {
    fn check(&self, text: &str) -> Option<String> {
        let text = text.trim();
        if text.is_empty() {
            Some("type or paste the invite link".into())
        } else if text.contains(char::is_whitespace) {
            Some("an id has no spaces".into())
        } else if invite_id(text).is_empty() {
            Some("that address ends without an id".into())
        } else {
            None
        }
    }
}

/// The invite's id from what was typed: the id itself, or the last part of the invitation's
/// address (the API lists no invite links, so the address is where a user finds one).
pub fn invite_id(text: &str) -> String {
    let text = text.trim();
    let path = text.split(['?', '#']).next().unwrap_or_default();
    if !path.contains('/') {
        return path.to_string();
    }
    path.rsplit('/')
        .find(|segment| !segment.is_empty())
        .filter(|segment| !segment.contains(':'))
        .unwrap_or_default()
        .to_string()
}

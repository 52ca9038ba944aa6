//! What a queued write remembers of its place, so the outbox can name it while the server is
//! out of reach: the space's title, the change request's title, and the thread it answers or
//! changes (its author and the start of its text). All of it is optional: a write queued by an
//! older quire has none of it, and the outbox then shows the ids it has.

use serde::{Deserialize, Serialize};

/// How long a thread's excerpt is kept: enough to tell two threads of one author apart.
const EXCERPT_CHARS: usize = 40;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct About {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space_title: Option<String>,
    /// "#1 Fix the install steps", as the change request was called when the write was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change_request_title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_author: Option<String>,
    /// The thread's first words, on one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_excerpt: Option<String>,
}

impl About {
    /// The column's text, or None when nothing is known (the column stays empty).
    pub(crate) fn to_json(&self) -> Option<String> {
        if *self == About::default() {
            return None;
        }
        serde_json::to_string(self).ok()
    }

    /// Read from the column: empty or unreadable text is nothing known.
    pub(crate) fn from_json(text: Option<&str>) -> About {
        text.and_then(|text| serde_json::from_str(text).ok())
            .unwrap_or_default()
    }

    /// The thread's first words as kept: one line, at most [`EXCERPT_CHARS`] characters, with
    /// `…` where it was cut.
    pub fn excerpt(markdown: &str) -> String {
        let one_line = markdown.split_whitespace().collect::<Vec<_>>().join(" ");
        if one_line.chars().count() <= EXCERPT_CHARS {
            return one_line;
        }
        let cut: String = one_line.chars().take(EXCERPT_CHARS - 1).collect();
        format!("{}…", cut.trim_end())
    }

    /// "Diego Álvarez's thread 'Screenshot in the…'", or as much of it as is known.
    pub fn thread(&self) -> Option<String> {
        match (&self.thread_author, &self.thread_excerpt) {
            (Some(author), Some(excerpt)) => Some(format!("{author}'s thread '{excerpt}'")),
            (Some(author), None) => Some(format!("{author}'s thread")),
            (None, Some(excerpt)) => Some(format!("the thread '{excerpt}'")),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_thread_is_cut_on_one_line() {
        let text = "Screenshot in the\ninstall steps is from the old installer and shows v1";
        let excerpt = About::excerpt(text);
        assert!(excerpt.starts_with("Screenshot in the install steps"));
        assert!(excerpt.ends_with('…'));
        assert!(excerpt.chars().count() <= EXCERPT_CHARS);
    }

    #[test]
    fn nothing_known_leaves_the_column_empty_and_reads_back_as_nothing() {
        assert_eq!(About::default().to_json(), None);
        assert_eq!(About::from_json(None), About::default());
        assert_eq!(About::from_json(Some("{\"future\":1}")), About::default());
    }
}

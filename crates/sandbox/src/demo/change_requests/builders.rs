//! What every demo change request is built from: its skeleton, page edits made of text
//! replacements, created pages, and comment threads written compactly and turned into comments.

use crate::change_requests::content::{apply, find, markdown_of};
use crate::change_requests::model::{
    ChangeRequest, Comment, PageEdit, Reaction, Reply, Resolution, Status,
};
use crate::demo::{document, timestamp};
use crate::model::Page;
use crate::render::markdown_to_document;

/// An edit of a page's markdown made of text replacements on the base version. Each `from` must
/// occur in the page (a unit test checks that every demo edit really changes its page).
pub(super) fn rewrite(base: &[Page], page: &str, replacements: &[(&str, &str)]) -> PageEdit {
    let mut markdown = find(base, page)
        .and_then(markdown_of)
        .unwrap_or_default()
        .to_string();
    for (from, to) in replacements {
        #[cfg(test)]
        if !markdown.contains(from) {
            super::tests::MISSED_REPLACEMENTS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        markdown = markdown.replacen(from, to, 1);
    }
    PageEdit::Edit {
        page: page.to_string(),
        title: None,
        markdown: Some(markdown),
    }
}

/// A created page with its dates set (paths are computed when the content is built).
pub(super) fn new_page(id: &str, title: &str, markdown: &str, day: u32) -> Page {
    let mut page = document(id, title, markdown);
    page.created_at = timestamp(day, 0);
    page.updated_at = timestamp(day, 0);
    page
}

/// The skeleton every demo change request starts from.
pub(super) fn change_request(
    id: &str,
    number: u32,
    space: &str,
    subject: &str,
    description: &str,
    created_by: &str,
    day: u32,
) -> ChangeRequest {
    ChangeRequest {
        id: id.to_string(),
        number,
        space: space.to_string(),
        status: Status::Open,
        subject: subject.to_string(),
        description: Some(markdown_to_document(description)),
        cluster: None,
        created_by: created_by.to_string(),
        created_at: timestamp(day, 0),
        updated_at: timestamp(day + 2, 300),
        revision: format!("rev-{id}-2"),
        revision_initial: format!("rev-{id}-1"),
        revision_merged_ancestor: None,
        revision_merged: None,
        merged_by: None,
        merged_at: None,
        base_revision: String::new(),
        base_pages: Vec::new(),
        edits: Vec::new(),
        editors: Vec::new(),
        comments: Vec::new(),
        reviews: Vec::new(),
        requested_reviewers: Vec::new(),
    }
}

/// A comment thread written compactly: who, where, when, what, and what followed.
pub(super) struct Thread {
    pub(super) author: &'static str,
    pub(super) page: Option<&'static str>,
    /// Text of the block the thread is about; it becomes that block's document key (see
    /// [`block_key_of`]).
    pub(super) node: Option<&'static str>,
    /// Minutes after the change request was created.
    pub(super) minute: u32,
    pub(super) text: &'static str,
    pub(super) replies: &'static [(&'static str, &'static str)],
    pub(super) reactions: &'static [(&'static str, &'static [&'static str])],
    pub(super) resolved_by: Option<&'static str>,
}

pub(super) const fn thread(
    author: &'static str,
    page: Option<&'static str>,
    minute: u32,
    text: &'static str,
) -> Thread {
    Thread {
        author,
        page,
        node: None,
        minute,
        text,
        replies: &[],
        reactions: &[],
        resolved_by: None,
    }
}

/// The key of the first block of `page` (in the change request's content) whose text holds
/// `needle`: the same key `format=document` gives that block, as a client sees it.
fn block_key_of(content: &[Page], page: &str, needle: &str) -> Option<String> {
    let markdown = markdown_of(find(content, page)?)?;
    let document = markdown_to_document(markdown);
    document["nodes"].as_array()?.iter().find_map(|node| {
        let text = node["nodes"][0]["leaves"][0]["text"].as_str()?;
        text.contains(needle)
            .then(|| node["key"].as_str().map(str::to_string))
            .flatten()
    })
}

fn reactions(list: &[(&str, &[&str])], at: &str) -> Vec<Reaction> {
    list.iter()
        .map(|(emoji, users)| Reaction {
            emoji: emoji.to_string(),
            users: users
                .iter()
                .map(|user| (user.to_string(), at.to_string()))
                .collect(),
        })
        .collect()
}

/// Turns threads into comments: ids `cmt-<prefix>-NN`, replies `rpl-<prefix>-NN-M`, replies an
/// hour apart after their comment, reactions at the first reply's time.
pub(super) fn comments(
    prefix: &str,
    change_request: &ChangeRequest,
    day: u32,
    threads: &[Thread],
) -> Vec<Comment> {
    let content = apply(&change_request.base_pages, &change_request.edits, "t");
    threads
        .iter()
        .enumerate()
        .map(|(index, thread)| {
            let posted_at = timestamp(day, thread.minute);
            let replies = thread
                .replies
                .iter()
                .enumerate()
                .map(|(reply_index, (author, text))| Reply {
                    id: format!("rpl-{prefix}-{:02}-{}", index + 1, reply_index + 1),
                    author: author.to_string(),
                    posted_at: timestamp(day, thread.minute + 60 * (reply_index as u32 + 1)),
                    edited_at: None,
                    markdown: text.to_string(),
                    reactions: Vec::new(),
                })
                .collect();
            let resolved_at =
                timestamp(day, thread.minute + 60 * (thread.replies.len() as u32 + 1));
            Comment {
                id: format!("cmt-{prefix}-{:02}", index + 1),
                author: thread.author.to_string(),
                posted_at: posted_at.clone(),
                edited_at: None,
                markdown: thread.text.to_string(),
                page: thread.page.map(str::to_string),
                node: thread
                    .page
                    .zip(thread.node)
                    .and_then(|(page, needle)| block_key_of(&content, page, needle)),
                table_cell: None,
                review: None,
                revision: change_request.revision.clone(),
                resolved: thread.resolved_by.map(|by| Resolution {
                    at: resolved_at.clone(),
                    by: by.to_string(),
                }),
                reactions: reactions(thread.reactions, &timestamp(day, thread.minute + 30)),
                replies,
            }
        })
        .collect()
}

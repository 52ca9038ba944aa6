//! The comments tab's model: threads flattened into rows (a comment, then its replies), the
//! all/open/resolved filter, and the helpers for reactions and optimistic changes.

use crate::api::models::{Comment, CommentReply, CommentStatus, Reaction, ReactionUser, User};
use crate::ui::input::Filter;
use crate::vocabulary::change_requests::Thread;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThreadFilter {
    #[default]
    All,
    Open,
    Resolved,
}

impl ThreadFilter {
    pub fn next(self) -> ThreadFilter {
        match self {
            ThreadFilter::All => ThreadFilter::Open,
            ThreadFilter::Open => ThreadFilter::Resolved,
            ThreadFilter::Resolved => ThreadFilter::All,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ThreadFilter::All => "all",
            ThreadFilter::Open => "open",
            ThreadFilter::Resolved => "resolved",
        }
    }

    fn keeps(self, comment: &Comment) -> bool {
        match self {
            ThreadFilter::All => true,
            ThreadFilter::Open => !comment.is_resolved(),
            ThreadFilter::Resolved => comment.is_resolved(),
        }
    }
}

/// One drawn row: a thread's comment (`reply` None) or one of its replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub thread: usize,
    pub reply: Option<usize>,
}

/// The rows shown for `filter`, the `/` query and the author (a user id): a thread matches
/// the query when its comment or any reply does (by author or text), the author when they
/// wrote its comment or a reply, and then shows whole.
pub fn rows(
    threads: &[Thread],
    filter: ThreadFilter,
    query: &Filter,
    author: Option<&str>,
) -> Vec<Row> {
    let mut rows = Vec::new();
    for (index, thread) in threads.iter().enumerate() {
        let by_author = author.is_none_or(|user| written_in_by(thread, user));
        // The thread's text is gathered only for a query: the rows are worked out again with
        // every answer, and a thousand threads' texts cost most of a review's opening.
        let by_query = query.keeps_everything() || query.matches(&searchable_text(thread));
        if !filter.keeps(&thread.comment) || !by_query || !by_author {
            continue;
        }
        rows.push(Row {
            thread: index,
            reply: None,
        });
        for reply in 0..thread.replies.len() {
            rows.push(Row {
                thread: index,
                reply: Some(reply),
            });
        }
    }
    rows
}

/// Whether `user` wrote the thread's comment or one of its replies (those loaded so far).
pub fn written_in_by(thread: &Thread, user: &str) -> bool {
    let wrote = |author: Option<&User>| author.is_some_and(|author| author.id == user);
    wrote(thread.comment.posted_by.as_ref())
        || thread
            .replies
            .iter()
            .any(|reply| wrote(reply.posted_by.as_ref()))
}

/// Every author and body of a thread, one string for the `/` query to look in.
fn searchable_text(thread: &Thread) -> String {
    let comment = (
        thread.comment.posted_by.as_ref(),
        thread.comment.body.markdown(),
    );
    let replies = thread
        .replies
        .iter()
        .map(|reply| (reply.posted_by.as_ref(), reply.body.markdown()));
    std::iter::once(comment)
        .chain(replies)
        .map(|(author, body)| {
            format!(
                "{}\n{}",
                author.map_or("", |user| user.display_name.as_str()),
                body.unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where the selection goes after the rows changed (filter, query): the same row when it is
/// still shown, else the nearest thread (the next one on a tie), else the top.
pub fn position_after_change(rows: &[Row], previous: Option<Row>) -> usize {
    let Some(previous) = previous else { return 0 };
    if let Some(same) = rows.iter().position(|row| *row == previous) {
        return same;
    }
    if let Some(same_thread) = rows.iter().position(|row| row.thread == previous.thread) {
        return same_thread;
    }
    rows.iter()
        .enumerate()
        .filter(|(_, row)| row.reply.is_none())
        .min_by_key(|(_, row)| {
            (
                row.thread.abs_diff(previous.thread),
                row.thread < previous.thread,
            )
        })
        .map_or(0, |(index, _)| index)
}

/// Indices of unresolved threads, in order: the triage loop walks these.
pub fn unresolved(threads: &[Thread]) -> Vec<usize> {
    threads
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.comment.is_resolved())
        .map(|(i, _)| i)
        .collect()
}

pub fn set_resolved(comment: &mut Comment, resolved: bool, me: Option<&User>) {
    if resolved {
        comment.status = Some(CommentStatus::Resolved);
        comment.resolved_by = me.cloned();
    } else {
        comment.status = Some(CommentStatus::Open);
        comment.resolved_by = None;
        comment.resolved_at = None;
    }
}

/// Whether `me` gave `emoji` already.
pub fn has_reacted(reactions: &[Reaction], emoji: &str, me: &str) -> bool {
    reactions
        .iter()
        .any(|r| r.emoji == emoji && r.users.iter().any(|u| u.user.id == me))
}

/// Adds or removes `me`'s `emoji`, keeping counts right.
pub fn toggle_reaction(reactions: &mut Vec<Reaction>, emoji: &str, me: &User) -> bool {
    let adding = !has_reacted(reactions, emoji, &me.id);
    if adding {
        match reactions.iter_mut().find(|r| r.emoji == emoji) {
            Some(reaction) => {
                reaction.users.push(ReactionUser {
                    user: me.clone(),
                    reacted_at: None,
                });
                reaction.count = reaction.users.len() as u64;
            }
            None => reactions.push(Reaction {
                emoji: emoji.to_string(),
                count: 1,
                users: vec![ReactionUser {
                    user: me.clone(),
                    reacted_at: None,
                }],
            }),
        }
    } else {
        for reaction in reactions.iter_mut() {
            if reaction.emoji == emoji {
                reaction.users.retain(|u| u.user.id != me.id);
                reaction.count = reaction.users.len() as u64;
            }
        }
        reactions.retain(|r| r.count > 0);
    }
    adding
}

/// The reactions of a row, comment or reply.
pub fn reactions_of(thread: &Thread, reply: Option<usize>) -> Option<&Vec<Reaction>> {
    match reply {
        None => Some(&thread.comment.reactions),
        Some(index) => thread.replies.get(index).map(|r| &r.reactions),
    }
}

pub fn reactions_of_mut(thread: &mut Thread, reply: Option<usize>) -> Option<&mut Vec<Reaction>> {
    match reply {
        None => Some(&mut thread.comment.reactions),
        Some(index) => thread.replies.get_mut(index).map(|r| &mut r.reactions),
    }
}

pub fn reply_of(thread: &Thread, reply: Option<usize>) -> Option<&CommentReply> {
    reply.and_then(|index| thread.replies.get(index))
}
